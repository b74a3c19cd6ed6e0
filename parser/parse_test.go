package parser_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cugen/cugen/parser/ir"
)

// TestParseHeaderSets parses every locked Debian header set and checks what
// must hold for any of them: the versions, the inputs (Sources equal the
// lock entry's files), unique names and symbols, and positions that are
// relative to the header directory.
func TestParseHeaderSets(t *testing.T) {
	for _, tc := range []struct {
		set     string
		version int64
	}{
		{"11.8", 11080},
		{"12.4", 12040},
		{"12.5", 12050},
	} {
		t.Run(tc.set, func(t *testing.T) {
			api, _ := parseSet(t, tc.set)
			if api.CUDAVersion != tc.version || api.RuntimeVersion != tc.version {
				t.Errorf("CUDA_VERSION %d, CUDART_VERSION %d; want both %d", api.CUDAVersion, api.RuntimeVersion, tc.version)
			}

			var locked []string
			for _, f := range lockEntry(t, tc.set).Files {
				locked = append(locked, f.Path)
			}
			slices.Sort(locked)
			if !slices.Equal(api.Sources, locked) {
				t.Errorf("Sources differ from headers.lock set %s:\n only parsed: %v\n only locked: %v",
					tc.set, minus(api.Sources, locked), minus(locked, api.Sources))
			}
			if !slices.IsSorted(api.Sources) {
				t.Errorf("Sources not sorted: %v", api.Sources)
			}

			names, symbols := map[string]bool{}, map[string]bool{}
			libs := map[ir.Library]int{}
			for _, f := range api.Functions {
				if names[f.Name] {
					t.Errorf("function name %s twice", f.Name)
				}
				if symbols[f.Symbol] {
					t.Errorf("symbol %s twice", f.Symbol)
				}
				names[f.Name], symbols[f.Symbol] = true, true
				libs[f.Library]++
				if f.Result == nil {
					t.Errorf("%s: no result type", f.Name)
				}
				for _, p := range f.Params {
					switch p.Direction {
					case ir.In, ir.Out, ir.InOut:
					default:
						t.Errorf("%s.%s: direction %q", f.Name, p.Name, p.Direction)
					}
					if p.Direction != ir.In && (p.Type.Kind != ir.Pointer || p.Type.Elem.Const) {
						t.Errorf("%s.%s: direction %s on %s, not a pointer to non-const", f.Name, p.Name, p.Direction, p.Type.C)
					}
				}
				want, ok := map[string]ir.Library{
					"cuda.h": ir.Driver, "cudaProfiler.h": ir.Driver,
					"cuda_runtime_api.h": ir.Runtime, "cuda_profiler_api.h": ir.Runtime,
					"nvrtc.h": "nvrtc", "nvJitLink.h": "nvjitlink",
					"cublas_api.h": "cublas", "cublasLt.h": "cublaslt", "curand.h": "curand", "cufft.h": "cufft",
					"cusparse.h": "cusparse", "cusolverDn.h": "cusolver", "cusolver_common.h": "cusolver",
					"nvFatbin.h": "nvfatbin", "nvToolsExt.h": "nvtx", "nvjpeg.h": "nvjpeg", "cublasXt.h": "cublasxt", "cufftXt.h": "cufftxt",
					"cusolverMg.h": "cusolvermg", "nppcore.h": "nppc",
					"cusolverSp.h": "cusolversp", "cusolverSp_LOWLEVEL_PREVIEW.h": "cusolversp", "cusolverRf.h": "cusolverrf",
					"nppi_arithmetic_and_logical_operations.h": "nppial", "nppi_color_conversion.h": "nppicc",
					"nppi_data_exchange_and_initialization.h": "nppidei", "nppi_filtering_functions.h": "nppif",
					"nppi_geometry_transforms.h": "nppig", "nppi_morphological_operations.h": "nppim",
					"nppi_statistics_functions.h": "nppist", "nppi_linear_transforms.h": "nppist",
					"nppi_support_functions.h": "nppisu", "nppi_threshold_and_compare_operations.h": "nppitc",
					"npps_arithmetic_and_logical_operations.h": "npps", "npps_support_functions.h": "npps",
					"npps_initialization.h": "npps", "npps_conversion_functions.h": "npps",
					"npps_statistics_functions.h": "npps", "npps_filtering_functions.h": "npps",
					// Read from the headers entries a set names (with).
					"nvvm.h": "nvvm", "cufile.h": "cufile", "cupti_activity.h": "cupti", "cupti_callbacks.h": "cupti",
					"cupti_events.h": "cupti", "cupti_metrics.h": "cupti", "cupti_result.h": "cupti", "cupti_version.h": "cupti",
				}[f.Pos.File]
				if !ok {
					t.Errorf("%s declared in %s, want a header a library description declares", f.Name, f.Pos.File)
				}
				if f.Library != want {
					t.Errorf("%s in %s: library %s", f.Name, f.Pos.File, f.Library)
				}
			}
			if libs[ir.Driver] < 350 || libs[ir.Runtime] < 250 {
				t.Errorf("functions per library %v: too few", libs)
			}

			checkUnique(t, api)
			for _, p := range allPositions(api) {
				if filepath.IsAbs(p.pos.File) || p.pos.File == "" || strings.HasPrefix(p.pos.File, "..") {
					t.Errorf("%s: position %q is not relative to the header directory", p.what, p.pos.File)
				}
			}
		})
	}
}

type placed struct {
	what string
	pos  ir.Pos
}

func allPositions(api *ir.API) []placed {
	var out []placed
	for _, f := range api.Functions {
		out = append(out, placed{"function " + f.Name, f.Pos})
	}
	for _, e := range api.Enums {
		out = append(out, placed{"enum " + e.Name, e.Pos})
	}
	for _, r := range api.Records {
		out = append(out, placed{"record " + r.Name, r.Pos})
	}
	for _, td := range api.Typedefs {
		out = append(out, placed{"typedef " + td.Name, td.Pos})
	}
	for _, m := range api.Macros {
		out = append(out, placed{"macro " + m.Name, m.Pos})
	}
	return out
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// TestParse12_4Counts pins the measured size of the 12.4 API: a change here
// means the parser gained or lost declarations.
func TestParse12_4Counts(t *testing.T) {
	api, _ := parseSet(t, "12.4")
	libs := map[ir.Library]int{}
	perThread := 0
	for _, f := range api.Functions {
		libs[f.Library]++
		if f.PerThreadSymbol != "" {
			perThread++
		}
	}
	values := 0
	for _, e := range api.Enums {
		values += len(e.Values)
	}
	named, anon, opaque := 0, 0, 0
	for _, r := range api.Records {
		switch {
		case r.Opaque:
			opaque++
		case r.Tag == "" && r.Parent != "":
			anon++
		default:
			named++
		}
	}
	for _, c := range []struct {
		what      string
		got, want int
	}{
		// cuda.h 429 + cudaProfiler.h 3; cuda_runtime_api.h 302 +
		// cuda_profiler_api.h 2; nvrtc.h 21; nvJitLink.h 14 (13 inline
		// forwards + nvJitLinkVersion); cudaProfiler.h's CUoutput_mode (2
		// values), nvrtcResult (15), nvJitLinkResult (9), nvJitLinkInputType
		// (6); cublas_api.h 503 (164 of them under a cublas_v2.h name), the
		// other math libraries' headers, and their enums.
		{"functions", len(api.Functions), 15164},
		{"driver functions", libs[ir.Driver], 432},
		{"runtime functions", libs[ir.Runtime], 304},
		{"NVRTC functions", libs["nvrtc"], 21},
		{"nvJitLink functions", libs["nvjitlink"], 14},
		{"cuBLAS functions", libs["cublas"], 503},
		{"cuBLASLt functions", libs["cublaslt"], 45},
		{"cuRAND functions", libs["curand"], 29},
		{"cuFFT functions", libs["cufft"], 35},
		{"cuSPARSE functions", libs["cusparse"], 448},
		{"cuSOLVER functions", libs["cusolver"], 385},
		// nvFatbin.h, nvToolsExt.h (v2), nvjpeg.h, cublasXt.h, cufftXt.h, cusolverMg.h and npp*.h of the
		// set's own directory (the headers entries are not read here).
		{"nvFatbin functions", libs["nvfatbin"], 9},
		{"NVTX functions", libs["nvtx"], 30},
		{"nvJPEG functions", libs["nvjpeg"], 78},
		{"cuBLASXt functions", libs["cublasxt"], 51},
		{"cuFFTXt functions", libs["cufftxt"], 20},
		// cusolverMg.h and NPP's eleven libraries' headers (12,543
		// functions: nppist 3,248, nppial 2,137, nppif 1,895, npps 1,768).
		{"cuSOLVERMg functions", libs["cusolvermg"], 19},
		// cuSOLVER's sparse APIs: cusolverSp.h 62, its low-level preview
		// 110; cusolverRf.h 26 (and its six enums, 16 values).
		{"cuSOLVERSp functions", libs["cusolversp"], 172},
		{"cuSOLVERRf functions", libs["cusolverrf"], 26},
		{"NPP core functions", libs["nppc"], 11},
		{"NPP arithmetic functions", libs["nppial"], 2137},
		{"NPP statistics functions", libs["nppist"], 3248},
		{"NPP signal functions", libs["npps"], 1768},
		{"per-thread symbols", perThread, 144},
		{"enums", len(api.Enums), 283},
		{"enum values", values, 2271},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.what, c.got, c.want)
		}
	}
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"named defined records", named, 180},
		{"anonymous member records", anon, 1},
		{"opaque records", opaque, 30},
	} {
		if c.got < c.want {
			t.Errorf("%s: %d, want at least %d", c.what, c.got, c.want)
		}
	}
	t.Logf("12.4: %d functions %v, %d per-thread, %d enums/%d values, records %d named + %d anonymous members + %d opaque, %d typedefs, %d macros",
		len(api.Functions), libs, perThread, len(api.Enums), values, named, anon, opaque, len(api.Typedefs), len(api.Macros))
}

// TestParse12_4Functions spot-checks names, symbols, per-thread variants,
// versions, the deprecated flag and parameter directions.
func TestParse12_4Functions(t *testing.T) {
	api, _ := parseSet(t, "12.4")
	for _, c := range []struct {
		name, symbol, perThread string
		lib                     ir.Library
		since                   int
		deprecated              bool
		dirs                    map[string]ir.Direction
	}{
		{name: "cuCtxCreate", symbol: "cuCtxCreate_v2", lib: ir.Driver, since: 3020,
			dirs: map[string]ir.Direction{"pctx": ir.Out, "flags": ir.In, "dev": ir.In}},
		{name: "cuMemcpyHtoD", symbol: "cuMemcpyHtoD_v2", perThread: "cuMemcpyHtoD_v2_ptds", lib: ir.Driver, since: 3020,
			dirs: map[string]ir.Direction{"dstDevice": ir.In, "srcHost": ir.In, "ByteCount": ir.In}},
		{name: "cuMemcpyHtoDAsync", symbol: "cuMemcpyHtoDAsync_v2", perThread: "cuMemcpyHtoDAsync_v2_ptsz", lib: ir.Driver, since: 3020},
		{name: "cuStreamQuery", symbol: "cuStreamQuery", perThread: "cuStreamQuery_ptsz", lib: ir.Driver, since: 2000},
		{name: "cuMemAlloc", symbol: "cuMemAlloc_v2", lib: ir.Driver, since: 3020,
			dirs: map[string]ir.Direction{"dptr": ir.Out, "bytesize": ir.In}},
		{name: "cuDeviceGet", symbol: "cuDeviceGet", lib: ir.Driver, since: 2000,
			dirs: map[string]ir.Direction{"device": ir.Out, "ordinal": ir.In}},
		{name: "cuGetErrorName", symbol: "cuGetErrorName", lib: ir.Driver, since: 6000,
			dirs: map[string]ir.Direction{"error": ir.In, "pStr": ir.Out}},
		{name: "cuGraphGetNodes", symbol: "cuGraphGetNodes", lib: ir.Driver, since: 10000,
			dirs: map[string]ir.Direction{"hGraph": ir.In, "nodes": ir.InOut, "numNodes": ir.InOut}},
		{name: "cuCtxAttach", symbol: "cuCtxAttach", lib: ir.Driver, since: 2000, deprecated: true},
		{name: "cudaMemcpy", symbol: "cudaMemcpy", perThread: "cudaMemcpy_ptds", lib: ir.Runtime,
			dirs: map[string]ir.Direction{"src": ir.In, "count": ir.In, "kind": ir.In}},
		{name: "cudaStreamQuery", symbol: "cudaStreamQuery", perThread: "cudaStreamQuery_ptsz", lib: ir.Runtime},
		{name: "cudaGetDeviceProperties", symbol: "cudaGetDeviceProperties_v2", lib: ir.Runtime,
			dirs: map[string]ir.Direction{"prop": ir.Out, "device": ir.In}},
		{name: "cudaGetDeviceCount", symbol: "cudaGetDeviceCount", lib: ir.Runtime,
			dirs: map[string]ir.Direction{"count": ir.Out}},
		{name: "cudaThreadSynchronize", symbol: "cudaThreadSynchronize", lib: ir.Runtime, deprecated: true},
		{name: "cudaSetDevice", symbol: "cudaSetDevice", lib: ir.Runtime},
	} {
		f := findFunction(api, c.name)
		if f == nil {
			t.Errorf("%s: missing", c.name)
			continue
		}
		if f.Symbol != c.symbol || f.PerThreadSymbol != c.perThread || f.Library != c.lib {
			t.Errorf("%s: symbol %q per-thread %q library %s; want %q %q %s",
				c.name, f.Symbol, f.PerThreadSymbol, f.Library, c.symbol, c.perThread, c.lib)
		}
		if f.SinceVersion != c.since {
			t.Errorf("%s: SinceVersion %d, want %d", c.name, f.SinceVersion, c.since)
		}
		if f.Deprecated != c.deprecated {
			t.Errorf("%s: Deprecated %v, want %v", c.name, f.Deprecated, c.deprecated)
		}
		if f.Doc == nil {
			t.Errorf("%s: no doc comment", c.name)
		}
		for pname, want := range c.dirs {
			p := findParam(f, pname)
			if p == nil {
				t.Errorf("%s: no parameter %s", c.name, pname)
				continue
			}
			if p.Direction != want {
				t.Errorf("%s.%s: direction %s (%s), want %s", c.name, pname, p.Direction, p.Why, want)
			}
			if p.Direction != ir.In && p.Why == "" {
				t.Errorf("%s.%s: direction %s without a reason", c.name, pname, p.Direction)
			}
		}
	}
	// No API name may survive as a symbol when the header renames it.
	for _, n := range []string{"cuCtxCreate", "cuMemAlloc", "cudaGetDeviceProperties"} {
		for _, f := range api.Functions {
			if f.Symbol == n {
				t.Errorf("symbol %s listed although cuda.h renames it", n)
			}
		}
	}
	// The unversioned symbol of cuCtxCreate's newest signature is its own API.
	if f := findFunction(api, "cuCtxCreate_v3"); f == nil || f.Symbol != "cuCtxCreate_v3" || f.SinceVersion != 11040 {
		t.Errorf("cuCtxCreate_v3: %+v, want symbol cuCtxCreate_v3 since 11040", f)
	}
}

// TestParse12_4Types spot-checks macros, enums, records and typedefs.
func TestParse12_4Types(t *testing.T) {
	api, _ := parseSet(t, "12.4")
	for _, c := range []struct {
		name  string
		kind  ir.Kind
		value string
		ctype string
		lib   ir.Library
	}{
		{"CUDA_VERSION", ir.Int, "12040", "int", ir.Driver},
		{"CU_STREAM_LEGACY", ir.Pointer, "1", "CUstream", ir.Driver},
		{"CU_STREAM_PER_THREAD", ir.Pointer, "2", "CUstream", ir.Driver},
		{"CU_LAUNCH_PARAM_END", ir.Pointer, "0", "", ir.Driver},
		{"CU_LAUNCH_PARAM_BUFFER_POINTER", ir.Pointer, "1", "", ir.Driver},
		{"CU_MEMHOSTALLOC_PORTABLE", ir.Int, "1", "int", ir.Driver},
		{"CU_MEMHOSTALLOC_DEVICEMAP", ir.Int, "2", "int", ir.Driver},
		{"CU_IPC_HANDLE_SIZE", ir.Int, "64", "int", ir.Driver},
		{"CUDART_VERSION", ir.Int, "12040", "int", ir.Runtime},
		{"cudaHostAllocMapped", ir.Int, "2", "int", ir.Runtime},
	} {
		m := findMacro(api, c.name)
		if m == nil {
			t.Errorf("macro %s missing", c.name)
			continue
		}
		if m.Kind != c.kind || m.Value != c.value || m.Library != c.lib || (c.ctype != "" && m.CType != c.ctype) {
			t.Errorf("macro %s = %+v; want kind %s value %s ctype %q library %s", c.name, *m, c.kind, c.value, c.ctype, c.lib)
		}
	}
	for _, n := range []string{"CU_DEVICE_CPU", "CUDA_ARRAY3D_LAYERED", "CU_TRSF_READ_AS_INTEGER"} {
		if findMacro(api, n) == nil {
			t.Errorf("macro %s missing", n)
		}
	}
	// Function-like and include-guard macros are not constants.
	for _, n := range []string{"__CUDA_API_PTDS", "__cuda_cuda_h__", "CUDAAPI", "cuCtxCreate"} {
		if findMacro(api, n) != nil {
			t.Errorf("macro %s listed, it is not a constant", n)
		}
	}

	enums := map[string]*ir.Enum{}
	for _, e := range api.Enums {
		if enums[e.Name] != nil {
			t.Errorf("enum %s twice", e.Name)
		}
		enums[e.Name] = e
	}
	for _, c := range []struct {
		name, tag, value string
		v                int64
		lib              ir.Library
	}{
		{"CUresult", "cudaError_enum", "CUDA_ERROR_NOT_INITIALIZED", 3, ir.Driver},
		{"CUresult", "cudaError_enum", "CUDA_ERROR_UNKNOWN", 999, ir.Driver},
		{"cudaError_t", "cudaError", "cudaErrorInvalidDevice", 101, ir.Runtime},
		{"CUdevice_attribute", "CUdevice_attribute_enum", "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK", 1, ir.Driver},
		{"cudaMemcpyKind", "cudaMemcpyKind", "cudaMemcpyDefault", 4, ir.Runtime},
	} {
		e := enums[c.name]
		if e == nil {
			t.Errorf("enum %s missing", c.name)
			continue
		}
		if e.Tag != c.tag || e.Library != c.lib || e.Size != 4 {
			t.Errorf("enum %s: tag %q library %s size %d; want %q %s 4", c.name, e.Tag, e.Library, e.Size, c.tag, c.lib)
		}
		i := slices.IndexFunc(e.Values, func(v ir.EnumValue) bool { return v.Name == c.value })
		if i < 0 || e.Values[i].Value != c.v {
			t.Errorf("enum %s: %s missing or not %d", c.name, c.value, c.v)
		}
	}

	records := map[string]*ir.Record{}
	for _, r := range api.Records {
		records[r.Name] = r
	}
	for _, c := range []struct {
		name        string
		size, align int64
		field       string
		offset      int64
	}{
		{"CUDA_MEMCPY2D_v2", 128, 8, "Height", 120}, // typedef CUDA_MEMCPY2D_v2 CUDA_MEMCPY2D

		{"cudaDeviceProp", 1032, 8, "totalGlobalMem", 288},
		{"CUuuid", 16, 1, "bytes", 0},
		{"CUlaunchAttributeValue", 64, 8, "clusterDim", 0},
	} {
		r := records[c.name]
		if r == nil {
			t.Errorf("record %s missing", c.name)
			continue
		}
		if r.Opaque || r.Size != c.size || r.Align != c.align {
			t.Errorf("record %s: opaque %v size %d align %d; want %d %d", c.name, r.Opaque, r.Size, r.Align, c.size, c.align)
		}
		i := slices.IndexFunc(r.Fields, func(f ir.Field) bool { return f.Name == c.field })
		if i < 0 || r.Fields[i].Offset != c.offset {
			t.Errorf("record %s: field %s missing or not at %d", c.name, c.field, c.offset)
		}
	}
	if r := records["CUctx_st"]; r == nil || !r.Opaque {
		t.Errorf("struct CUctx_st: %+v, want an opaque record", r)
	}

	typedefs := map[string]*ir.Typedef{}
	for _, td := range api.Typedefs {
		typedefs[td.Name] = td
	}
	for name, want := range map[string]string{
		"CUdevice":    "CUdevice_v1",
		"CUdeviceptr": "CUdeviceptr_v2",
		"CUcontext":   "struct CUctx_st *",
		"cudaError_t": "enum cudaError",
	} {
		td := typedefs[name]
		if td == nil || td.Type.C != want {
			t.Errorf("typedef %s: %+v, want type %s", name, td, want)
		}
	}
}
