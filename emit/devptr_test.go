package emit

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/library"
)

const devHeader = `#include "cuda.h"
typedef enum dvStatus { DV_SUCCESS = 0 } dvStatus;
typedef struct dvHandle_st *dvHandle_t;
typedef struct __attribute__((aligned(16))) dvDoubleComplex { double x, y; } dvDoubleComplex;
dvStatus dvSgemm(dvHandle_t handle, int m, const float *alpha, const float *A, int lda, const float *beta, float *C, int ldc);
dvStatus dvZaxpy(dvHandle_t handle, int n, const dvDoubleComplex *alpha, const dvDoubleComplex *x, dvDoubleComplex *y);
dvStatus dvSgemmBatched(dvHandle_t handle, const float *const Aarray[], float *const Carray[], int count);
dvStatus dvGemmEx(dvHandle_t handle, const void *alpha, const void *A, void *C);
dvStatus dvSetMatrix(int rows, const void *A, void *B);
/**
 * \brief Reduces
 * \param result - Returned sum
 */
dvStatus dvSasum(dvHandle_t handle, const float *x, float *result);
/**
 * \brief Reports
 * \param info - Returned status of each matrix
 */
dvStatus dvGetrf(dvHandle_t handle, float *A, int *info);
dvStatus dvHost(dvHandle_t handle, const int *sizes);
dvStatus dvPlanar(dvHandle_t handle, const float *const pSrc[3], float *pDst, int *pHist[3], size_t *hpSize, int *pCountHost, int *pixel);
`

// generateDev generates package dv from devHeader with the memory rows.
func generateDev(t *testing.T, rows map[string]library.MemoryRule) map[string]string {
	t.Helper()
	dv := &library.Desc{Key: "dv", API: "dv", Title: "DV", Package: "dv", Include: []string{"dv.h"}, Declare: []string{"dv.h"},
		Prefixes: []string{"DV_", "dv"}, Status: "dvStatus",
		Overrides: library.Overrides{Memory: rows, AlignedValues: map[string]string{"alpha": "one scalar"}},
		Load:      library.Load{Name: "DV %d", Files: map[int][]string{12: {"libdv.so.1"}}, Identify: "dvSgemm"}}
	files, err := generateBesideDriver(t, dv, devHeader)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// paramTypes parses Go source and returns, for each top-level function,
// its parameters' types by name ("a": "ffi.DevicePtr[float32]") and its
// results' types in order.
func paramTypes(t *testing.T, name, src string) (map[string]map[string]string, map[string][]string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	str := func(e ast.Expr) string {
		var b strings.Builder
		printer.Fprint(&b, fset, e)
		return b.String()
	}
	params, results := map[string]map[string]string{}, map[string][]string{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil {
			continue
		}
		ps := map[string]string{}
		for _, fl := range fd.Type.Params.List {
			for _, n := range fl.Names {
				ps[n.Name] = str(fl.Type)
			}
		}
		params[fd.Name.Name] = ps
		if fd.Type.Results != nil {
			for _, fl := range fd.Type.Results.List {
				for range max(len(fl.Names), 1) {
					results[fd.Name.Name] = append(results[fd.Name.Name], str(fl.Type))
				}
			}
		}
	}
	return params, results
}

// TestMemoryRows: a pointer parameter the library's Memory rows call
// device memory is an ffi.DevicePtr of its element (a DevicePtr of
// DevicePtr for an array of device pointers, ffi.DeviceAddr for void *),
// one in host or device memory is an ffi.HostOrDevice, and a host row or
// no row leaves a Go pointer. A device parameter documented as returned
// stays a parameter (device memory is never a Go result); a function's
// row wins over the name's. The audit lists each classified parameter
// with the row's reason.
func TestMemoryRows(t *testing.T) {
	dev := library.MemoryRule{Memory: library.DeviceMemory, Why: "dv's docs: device"}
	either := library.MemoryRule{Memory: library.HostOrDeviceMemory, Why: "dv's pointer mode"}
	host := library.MemoryRule{Memory: library.HostMemory, Why: "dv's docs: host"}
	files := generateDev(t, map[string]library.MemoryRule{
		"A": dev, "B": dev, "C": dev, "x": dev, "y": dev, "Aarray": dev, "Carray": dev, "info": dev,
		"alpha": either, "beta": either, "result": either,
		"dvSetMatrix.A": host,
		// Patterns, as NPP's rule: the longest that matches wins, a
		// name's row wins over a pattern, and "p*" wants an upper-case
		// letter after the p (pixel is no pDst).
		"p*":    {Memory: library.DeviceMemory, Why: "dv's p names", Arrays: library.HostMemory},
		"hp*":   {Memory: library.HostMemory, Why: "dv's hp names"},
		"*Host": {Memory: library.HostMemory, Why: "dv's Host names"},
	})
	params, results := paramTypes(t, "funcs.go", files["funcs.go"])
	want := map[string]map[string]string{
		"Sgemm":        {"alpha": "ffi.HostOrDevice[float32]", "a": "ffi.DevicePtr[float32]", "beta": "ffi.HostOrDevice[float32]", "c": "ffi.DevicePtr[float32]"},
		"Zaxpy":        {"alpha": "ffi.HostOrDevice[DoubleComplex]", "x": "ffi.DevicePtr[DoubleComplex]", "y": "ffi.DevicePtr[DoubleComplex]"},
		"SgemmBatched": {"aarray": "ffi.DevicePtr[ffi.DevicePtr[float32]]", "carray": "ffi.DevicePtr[ffi.DevicePtr[float32]]"},
		"GemmEx":       {"alpha": "ffi.HostOrDeviceAddr", "a": "ffi.DeviceAddr", "c": "ffi.DeviceAddr"},
		"SetMatrix":    {"a": "unsafe.Pointer", "b": "ffi.DeviceAddr"},
		"Sasum":        {"x": "ffi.DevicePtr[float32]", "result": "ffi.HostOrDevice[float32]"},
		"Getrf":        {"a": "ffi.DevicePtr[float32]", "info": "ffi.DevicePtr[int32]"},
		"Host":         {"sizes": "*int32"},
		"Planar":       {"src": "*ffi.DevicePtr[float32]", "dst": "ffi.DevicePtr[float32]", "hist": "*ffi.DevicePtr[int32]", "hpSize": "*uint64", "countHost": "*int32", "pixel": "*int32"},
	}
	for fn, ps := range want {
		for p, typ := range ps {
			if got := params[fn][p]; got != typ {
				t.Errorf("%s parameter %s: type %q, want %q", fn, p, got, typ)
			}
		}
	}
	for _, fn := range []string{"Sasum", "Getrf"} {
		if r := results[fn]; len(r) != 1 || r[0] != "error" {
			t.Errorf("%s results %v, want only error: a documented output in device or pointer-mode memory stays a parameter", fn, r)
		}
	}
	audit := files["audit.txt"]
	for _, line := range []string{
		"memory dvSgemm.A: device, ffi.DevicePtr[float32] (Memory: dv's docs: device)",
		"memory dvSgemm.alpha: host or device, ffi.HostOrDevice[float32], ffi.Host(&v) or ffi.Device(p) (Memory: dv's pointer mode)",
		"memory dvGemmEx.alpha: host or device, ffi.HostOrDeviceAddr, ffi.Host(&v).Untyped() or ffi.Device(p).Untyped() (Memory: dv's pointer mode)",
		"memory dvSgemmBatched.Aarray: device, ffi.DevicePtr[ffi.DevicePtr[float32]] (Memory: dv's docs: device)",
		"memory dvSetMatrix.A: host, a Go pointer (Memory: dv's docs: host)",
		"memory dvSetMatrix.B: device, ffi.DeviceAddr (Memory: dv's docs: device)",
		`memory dvPlanar.pSrc: host array of device pointers, *ffi.DevicePtr[float32] (Memory "p*": dv's p names)`,
		`memory dvPlanar.pDst: device, ffi.DevicePtr[float32] (Memory "p*": dv's p names)`,
		`memory dvPlanar.hpSize: host, a Go pointer (Memory "hp*": dv's hp names)`,
		`memory dvPlanar.pCountHost: host, a Go pointer (Memory "*Host": dv's Host names)`,
		// With a pattern row, every pointer no row classifies is listed.
		"memory dvPlanar.pixel: no Memory row, a Go pointer",
	} {
		if !strings.Contains(audit, line+"\n") {
			t.Errorf("audit.txt lacks %q", line)
		}
	}
	// A pointer no row names stays a Go pointer, and the audit says so.
	if !strings.Contains(audit, "memory dvHost.sizes: no Memory row, a Go pointer\n") {
		t.Errorf("audit.txt does not list dvHost.sizes as unclassified")
	}
	// The aligned copy of a misaligned host alpha still applies to a
	// HostOrDevice (AlignedIn leaves a device address as it is).
	if !strings.Contains(files["funcs.go"], "alphaP := ffiimpl.AlignedIn(alphaV, ") {
		t.Errorf("Zaxpy's alpha is not passed through ffiimpl.AlignedIn:\n%s", files["funcs.go"])
	}
	// Without rows, the same header gives Go pointers, as before.
	params, _ = paramTypes(t, "funcs.go", generateDev(t, nil)["funcs.go"])
	if got := params["Sgemm"]["a"]; got != "*float32" {
		t.Errorf("Sgemm parameter a with no Memory rows: %q, want *float32", got)
	}
}

// TestCublasMemory: in the committed cuBLAS packages of both majors, the
// matrices of Sgemm are device pointers and its scalars take host or
// device memory, and the batched and Ex forms follow; the audit says so.
// cuFFT's transforms take device pointers and its plans host arrays;
// cuRAND's output takes host or device memory, as its generator's kind.
// cuSOLVER's dense functions take their matrices, workspaces, pivots and
// info in device memory, their host workspace and counts in host memory.
// cuSPARSE's arrays and buffers (generic and legacy) are device pointers,
// its pointer-mode scalars and results host or device, its getters'
// outputs and its sizes Go pointers; cusparseCreateIdentityPermutation's
// device array p is a parameter, no longer an int32 result.
func TestCublasMemory(t *testing.T) {
	others := map[string]map[string]map[string]string{
		"cufft": {
			"ExecC2C":     {"idata": "ffi.DevicePtr[Complex]", "odata": "ffi.DevicePtr[Complex]"},
			"ExecD2Z":     {"idata": "ffi.DevicePtr[DoubleReal]", "odata": "ffi.DevicePtr[DoubleComplex]"},
			"SetWorkArea": {"workArea": "ffi.DeviceAddr"},
			"PlanMany":    {"n": "*int32", "inembed": "*int32"},
		},
		"cusparse": { // the generic API's arrays and buffers, the legacy arrays; the pointer mode's scalars
			"CreateCsr":                 {"csrRowOffsets": "ffi.DeviceAddr", "csrValues": "ffi.DeviceAddr"},
			"CreateDnVec":               {"values": "ffi.DeviceAddr"},
			"SpMV":                      {"alpha": "ffi.HostOrDeviceAddr", "beta": "ffi.HostOrDeviceAddr", "externalBuffer": "ffi.DeviceAddr"},
			"SpVV":                      {"result": "ffi.HostOrDeviceAddr"},
			"CsrGet":                    {"rows": "*int64", "csrValues": "*unsafe.Pointer"},
			"Scsrilu02":                 {"csrSortedValA_valM": "ffi.DevicePtr[float32]", "csrSortedRowPtrA": "ffi.DevicePtr[int32]", "buffer": "ffi.DeviceAddr"},
			"Scsrilu02NumericBoost":     {"tol": "ffi.HostOrDevice[float64]", "boost_val": "ffi.HostOrDevice[float32]"},
			"Xcsrilu02ZeroPivot":        {"position": "ffi.HostOrDevice[int32]"},
			"Xcsrgeam2Nnz":              {"csrSortedRowPtrC": "ffi.DevicePtr[int32]", "nnzTotalDevHostPtr": "ffi.HostOrDevice[int32]"},
			"Sgtsv2":                    {"dl": "ffi.DevicePtr[float32]", "b": "ffi.DevicePtr[float32]"},
			"Scsrcolor":                 {"fractionToColor": "*float32", "coloring": "ffi.DevicePtr[int32]"},
			"CreateIdentityPermutation": {"p": "ffi.DevicePtr[int32]"},
		},
		"curand": { // the generator's kind decides
			"GenerateUniform":           {"outputPtr": "ffi.HostOrDevice[float32]"},
			"GenerateLongLong":          {"outputPtr": "ffi.HostOrDevice[uint64]"},
			"CreatePoissonDistribution": {"discrete_distribution": "*DiscreteDistribution"},
		},
		"cublaslt": { // the matrices and workspace device memory, the scalars by the descriptor's pointer mode
			"Matmul": {"alpha": "ffi.HostOrDeviceAddr", "a": "ffi.DeviceAddr", "d": "ffi.DeviceAddr", "workspace": "ffi.DeviceAddr", "algo": "*MatmulAlgo"},
		},
		"cublasxt": { // host matrices by design, device ones since CUDA 8; host scalars
			"Sgemm": {"alpha": "*float32", "a": "ffi.HostOrDevice[float32]", "c": "ffi.HostOrDevice[float32]"},
		},
		"cusolvermg": { // a host array of one device pointer a device
			"Getrf": {"array_d_A": "*ffi.DeviceAddr", "array_d_IPIV": "*ffi.DevicePtr[int32]", "info": "*int32"},
			"Syevd": {"w": "unsafe.Pointer"},
		},
		"cufftxt": {
			"Exec":        {"input": "ffi.DeviceAddr", "output": "ffi.DeviceAddr"},
			"SetWorkArea": {"workArea": "*ffi.DeviceAddr"},
		},
		"nppist": { // NPP's rule: p names device, a planar or per-channel array of pointers a host array of device pointers, hp and n names host
			"Sum8uC1RCtx":                  {"src": "ffi.DevicePtr[nppc.Npp8u]", "deviceBuffer": "ffi.DevicePtr[nppc.Npp8u]", "sum": "ffi.DevicePtr[nppc.Npp64f]"},
			"Sum8uC3RCtx":                  {"aSum": "ffi.DevicePtr[nppc.Npp64f]"},
			"SumGetBufferHostSize8uC1RCtx": {"hpBufferSize": "*uint64"},
			"HistogramEven8uC3RCtx":        {"hist": "*ffi.DevicePtr[nppc.Npp32s]", "nLevels": "*int32", "buffer": "ffi.DevicePtr[nppc.Npp8u]"},
		},
		"nppial": {
			"AddC8uC3RSfsCtx": {"src1": "ffi.DevicePtr[nppc.Npp8u]", "aConstants": "*nppc.Npp8u", "dst": "ffi.DevicePtr[nppc.Npp8u]"},
		},
		"nppitc": {
			"CompareC8uC3RCtx": {"constants": "*nppc.Npp8u", "dst": "ffi.DevicePtr[nppc.Npp8u]"},
		},
		"nppisu": {
			"Free": {"data": "ffi.DeviceAddr"},
		},
		"cusolver": { // dense: matrices, workspaces and info in device memory
			"Dpotrf":          {"a": "ffi.DevicePtr[float64]", "workspace": "ffi.DevicePtr[float64]", "devInfo": "ffi.DevicePtr[int32]"},
			"DpotrfBatched":   {"aarray": "ffi.DevicePtr[ffi.DevicePtr[float64]]", "infoArray": "ffi.DevicePtr[int32]"},
			"Xpotrf":          {"a": "ffi.DeviceAddr", "bufferOnDevice": "ffi.DeviceAddr", "bufferOnHost": "unsafe.Pointer", "info": "ffi.DevicePtr[int32]"},
			"DDgesv":          {"dipiv": "ffi.DevicePtr[CusolverInt]", "dWorkspace": "ffi.DeviceAddr", "iter": "*CusolverInt", "d_info": "ffi.DevicePtr[CusolverInt]"},
			"Dsyevdx":         {"w": "ffi.DevicePtr[float64]", "meig": "*int32"},
			"XsyevjGetSweeps": {"executed_sweeps": "*int32"},
		},
	}
	for _, major := range []string{"cuda12", "cuda13"} {
		for pkg, fns := range others {
			src, err := os.ReadFile(filepath.Join("..", "generated", major, pkg, "funcs.go"))
			if err != nil {
				t.Fatal(err)
			}
			params, results := paramTypes(t, "funcs.go", string(src))
			if pkg == "nppisu" {
				// NPP's allocators return the device pointer its functions take.
				if r := results["Malloc8uC1"]; len(r) != 1 || r[0] != "ffi.DevicePtr[nppc.Npp8u]" {
					t.Errorf("%s: nppisu.Malloc8uC1 returns %v, want ffi.DevicePtr[nppc.Npp8u]", major, r)
				}
			}
			for fn, ps := range fns {
				for p, typ := range ps {
					if got := params[fn][p]; got != typ {
						t.Errorf("%s: %s.%s parameter %s: type %q, want %q", major, pkg, fn, p, got, typ)
					}
				}
			}
		}
	}
	// cuSOLVER's sparse APIs, bound for CUDA 12 only: a Host function's
	// arrays are host memory, the others' device memory.
	for pkg, fns := range map[string]map[string]map[string]string{
		"cusolversp": {
			"Dcsrlsvqr":     {"csrVal": "ffi.DevicePtr[float64]", "b": "ffi.DevicePtr[float64]", "x": "ffi.DevicePtr[float64]"},
			"DcsrlsvqrHost": {"csrValA": "*float64", "b": "*float64", "x": "*float64"},
		},
		"cusolverrf": {
			"Solve":                      {"p": "ffi.DevicePtr[int32]", "xF": "ffi.DevicePtr[float64]"},
			"BatchSolve":                 {"xF_array": "*ffi.DevicePtr[float64]"},
			"AccessBundledFactorsDevice": {"nnzM": "*int32", "mp": "*ffi.DevicePtr[int32]"},
		},
	} {
		src, err := os.ReadFile(filepath.Join("..", "generated", "cuda12", pkg, "funcs.go"))
		if err != nil {
			t.Fatal(err)
		}
		params, _ := paramTypes(t, "funcs.go", string(src))
		for fn, ps := range fns {
			for p, typ := range ps {
				if got := params[fn][p]; got != typ {
					t.Errorf("cuda12: %s.%s parameter %s: type %q, want %q", pkg, fn, p, got, typ)
				}
			}
		}
	}
	for _, major := range []string{"cuda12", "cuda13"} {
		dir := filepath.Join("..", "generated", major, "cublas")
		src, err := os.ReadFile(filepath.Join(dir, "funcs.go"))
		if err != nil {
			t.Fatal(err)
		}
		params, _ := paramTypes(t, "funcs.go", string(src))
		want := map[string]map[string]string{
			"Sgemm":               {"alpha": "ffi.HostOrDevice[float32]", "a": "ffi.DevicePtr[float32]", "b": "ffi.DevicePtr[float32]", "beta": "ffi.HostOrDevice[float32]", "c": "ffi.DevicePtr[float32]"},
			"Zgemm":               {"alpha": "ffi.HostOrDevice[cudart.DoubleComplex]", "a": "ffi.DevicePtr[cudart.DoubleComplex]"},
			"DgetrfBatched":       {"a": "ffi.DevicePtr[ffi.DevicePtr[float64]]", "p": "ffi.DevicePtr[int32]", "info": "ffi.DevicePtr[int32]"},
			"DgetrsBatched":       {"devIpiv": "ffi.DevicePtr[int32]", "info": "*int32"},
			"GemmEx":              {"alpha": "ffi.HostOrDeviceAddr", "a": "ffi.DeviceAddr", "c": "ffi.DeviceAddr"},
			"Isamax":              {"x": "ffi.DevicePtr[float32]", "result": "ffi.HostOrDevice[int32]"},
			"SetMatrix":           {"a": "unsafe.Pointer", "b": "ffi.DeviceAddr"},
			"GetVector":           {"x": "ffi.DeviceAddr", "y": "unsafe.Pointer"},
			"SetWorkspace":        {"workspace": "ffi.DeviceAddr"},
			"SgemmGroupedBatched": {"alpha_array": "*float32", "aarray": "ffi.DevicePtr[ffi.DevicePtr[float32]]"},
		}
		for fn, ps := range want {
			for p, typ := range ps {
				if got := params[fn][p]; got != typ {
					t.Errorf("%s: %s parameter %s: type %q, want %q", major, fn, p, got, typ)
				}
			}
		}
		audit, err := os.ReadFile(filepath.Join(dir, "audit.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(audit), "\nmemory cublasSgemm.A: device, ffi.DevicePtr[float32] (Memory: ") {
			t.Errorf("%s: audit.txt does not list cublasSgemm.A as device memory", major)
		}
	}
}

// TestMemoryComplete: in the audits of both committed packages of each
// library with Memory rows, every Go pointer parameter is classified by a
// row (a new function the rows miss has a "no Memory row" line), and
// every row classifies some parameter. A library in the list has rows, and
// its audits list them (a package generated before its rows has none).
// NPP's libraries are classified by a rule (library/npp_memory.go), so
// their audits list every pointer parameter no row or pattern classifies,
// a result's too: a new NPP pointer the rule misses fails here.
func TestMemoryComplete(t *testing.T) {
	descs := []*library.Desc{library.CuBLAS, library.CuFFT, library.CuRAND, library.CuSOLVER, library.CuSPARSE,
		library.NPPC, library.NPPIAL, library.NPPICC, library.NPPIDEI, library.NPPIF, library.NPPIG,
		library.NPPIM, library.NPPIST, library.NPPISU, library.NPPITC, library.NPPS,
		library.CuBLASLt, library.CuBLASXt, library.CuSOLVERMg, library.CuFFTXt, library.CuSOLVERSp, library.CuSOLVERRf}
	for _, d := range descs {
		used := map[string]bool{}
		rows := d.Overrides.Memory
		if len(rows) == 0 {
			t.Errorf("%s: no Memory rows", d.Package)
		}
		for _, major := range []string{"cuda12", "cuda13"} {
			if major == "cuda13" && (d == library.CuSOLVERSp || d == library.CuSOLVERRf) {
				continue // bound for CUDA 12 only
			}
			audit, err := os.ReadFile(filepath.Join("..", "generated", major, d.Package, "audit.txt"))
			if err != nil {
				t.Fatal(err)
			}
			var missing []string
			lines := 0
			for _, line := range strings.Split(string(audit), "\n") {
				rest, ok := strings.CutPrefix(line, "memory ")
				if !ok {
					continue
				}
				lines++
				fp, what, _ := strings.Cut(rest, ": ")
				if strings.HasPrefix(what, "no Memory row") {
					missing = append(missing, fp)
					continue
				}
				fn, p, _ := strings.Cut(fp, ".")
				// A pattern or default row names itself: (Memory "p*": ...).
				if _, after, ok := strings.Cut(what, "(Memory \""); ok {
					key, _, _ := strings.Cut(after, "\"")
					used[key] = true
				} else if _, ok := rows[fn+"."+p]; ok {
					used[fn+"."+p] = true
				} else {
					used[p] = true
				}
			}
			// nppc 13 has no pointer parameter left (no nppGetStreamContext).
			if lines == 0 && !(major == "cuda13" && d == library.NPPC) {
				t.Errorf("%s/%s: audit.txt lists no memory lines: regenerate with the Memory rows", major, d.Package)
			}
			if len(missing) > 0 {
				t.Errorf("%s/%s: %d pointer parameters have no Memory row: %s", major, d.Package, len(missing), strings.Join(missing, ", "))
			}
		}
		for k := range rows {
			if !used[k] {
				t.Errorf("%s: Memory row %q classifies no parameter", d.Package, k)
			}
		}
	}
}
