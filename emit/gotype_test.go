package emit

import (
	"fmt"
	"github.com/cugen/cugen/library"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// typesPrelude declares the named types the type-mapping tables use, the way
// cuda.h declares them.
const typesPrelude = `#define CUDA_VERSION 12040
#define CUDAAPI
typedef __SIZE_TYPE__ size_t;
typedef unsigned int cuuint32_t;
typedef unsigned long long cuuint64_t;
typedef unsigned long long CUdeviceptr_v2;
typedef CUdeviceptr_v2 CUdeviceptr;
typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;
typedef struct CUctx_st *CUcontext;
typedef void *CUvoidHandle;
typedef struct CUuuid_st { char bytes[16]; } CUuuid;
typedef enum CUmemLocationType_enum { CU_MEM_LOCATION_TYPE_DEVICE = 1 } CUmemLocationType;
typedef enum CUsigned_enum { CU_SIGNED_NEG = -1 } CUsigned;
typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;
typedef void (*CUhostFn)(void *userData);
struct CUtagOnly { int a; };
typedef struct CUmixed_st { int i; float f; double d; } CUmixed;
typedef struct CUvec3_st { float v[3]; } CUvec3;
typedef struct CUnested_st { CUmixed m; char c; } CUnested;
typedef struct CUptrs_st { CUdeviceptr p; CUcontext c; CUhostFn f; void *v; } CUptrs;
typedef struct CUsmall_st { unsigned char a; short b; CUmemLocationType t; } CUsmall;
`

// parseSnippet parses a driver header made of typesPrelude and src and
// returns the driver package's model.
func parseSnippet(t *testing.T, src string) (*model, *ir.API) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cuda.h"), []byte(typesPrelude+src), 0o644); err != nil {
		t.Fatal(err)
	}
	api, err := parser.Parse(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := newModel(api, library.Driver, Options{Origin: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return m, api
}

func render(c jen.Code) string { return jen.Null().Add(c).GoString() }

func funcNamed(t *testing.T, api *ir.API, name string) *ir.Function {
	t.Helper()
	for _, f := range api.Functions {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no function %s in the IR", name)
	return nil
}

// TestGoTypeParams maps C parameter types to Go types: one function per row.
func TestGoTypeParams(t *testing.T) {
	rows := []struct{ c, want string }{
		{"signed char p", "int8"},
		{"unsigned char p", "uint8"},
		{"char p", "byte"},
		{"const char p", "byte"},
		{"short p", "int16"},
		{"unsigned short p", "uint16"},
		{"int p", "int32"},
		{"unsigned int p", "uint32"},
		{"long p", "int64"},
		{"unsigned long p", "uint64"},
		{"long long p", "int64"},
		{"unsigned long long p", "uint64"},
		{"_Bool p", "uint8"},
		{"size_t p", "uint64"},
		{"cuuint32_t p", "uint32"},
		{"cuuint64_t p", "uint64"},
		{"float p", "float32"},
		{"double p", "float64"},
		{"CUdeviceptr p", "Deviceptr"},
		{"CUdevice p", "Device"},
		{"CUcontext p", "Context"},
		{"CUvoidHandle p", "VoidHandle"},
		{"CUresult p", "Result"},
		{"CUmemLocationType p", "MemLocationType"},
		{"CUsigned p", "Signed"},
		{"CUuuid p", "Uuid"},
		{"CUmixed p", "Mixed"},
		{"struct CUtagOnly p", "TagOnly"},
		{"CUhostFn p", "HostFn"},
		{"void (*p)(int)", "uintptr"},
		{"void *p", "unsafe.Pointer"},
		{"const void *p", "unsafe.Pointer"},
		{"void **p", "*unsafe.Pointer"},
		{"int *p", "*int32"},
		{"unsigned int *p", "*uint32"},
		{"const char *p", "*byte"},
		{"char **p", "**byte"},
		{"const char **p", "**byte"},
		{"size_t *p", "*uint64"},
		{"CUdeviceptr *p", "*Deviceptr"},
		{"CUcontext *p", "*Context"},
		{"CUuuid *p", "*Uuid"},
		{"const CUuuid *p", "*Uuid"},
		{"struct CUctx_st *p", "unsafe.Pointer"},
		{"CUhostFn *p", "*HostFn"},
		{"int (*p)[4]", "*[4]int32"},
	}
	var src strings.Builder
	for i, r := range rows {
		fmt.Fprintf(&src, "CUresult CUDAAPI cuT%d(%s);\n", i, r.c)
	}
	m, api := parseSnippet(t, src.String())
	for i, r := range rows {
		fn := funcNamed(t, api, fmt.Sprintf("cuT%d", i))
		if got := render(m.goType(fn.Params[0].Type)); got != r.want {
			t.Errorf("C %s: Go type %s, want %s", r.c, got, r.want)
		}
	}
}

// TestGoTypeFields maps C struct member types, arrays included, to Go types.
func TestGoTypeFields(t *testing.T) {
	rows := []struct{ c, want string }{
		{"char name[256]", "[256]byte"},
		{"signed char s[2]", "[2]int8"},
		{"unsigned char u[2]", "[2]uint8"},
		{"unsigned short ports[3]", "[3]uint16"},
		{"int m[2][3]", "[2][3]int32"},
		{"float f[2]", "[2]float32"},
		{"double d", "float64"},
		{"CUdevice devs[4]", "[4]Device"},
		{"CUuuid ids[2]", "[2]Uuid"},
		{"void *ptrs[2]", "[2]unsafe.Pointer"},
		{"CUcontext ctx", "Context"},
		{"CUhostFn fn", "HostFn"},
		{"void (*cb)(void *)", "uintptr"},
		{"size_t n", "uint64"},
		{"CUmemLocationType t", "MemLocationType"},
		{"struct CUtagOnly tag", "TagOnly"},
		{"const char *s", "*byte"},
	}
	var src strings.Builder
	src.WriteString("typedef struct CUfields_st {\n")
	for _, r := range rows {
		fmt.Fprintf(&src, "\t%s;\n", r.c)
	}
	src.WriteString("} CUfields;\nCUresult CUDAAPI cuFields(CUfields *f);\n")
	m, _ := parseSnippet(t, src.String())
	r := m.records["CUfields"]
	if r == nil {
		t.Fatal("no record CUfields")
	}
	if len(r.Fields) != len(rows) {
		t.Fatalf("CUfields has %d fields, want %d", len(r.Fields), len(rows))
	}
	for i, row := range rows {
		if got := render(m.goType(r.Fields[i].Type)); got != row.want {
			t.Errorf("C member %s: Go type %s, want %s", row.c, got, row.want)
		}
	}
}

// TestLayoutScalars checks the scalar leaves emit hands ffiimpl for a struct
// passed by value: offsets, sizes and which are floating point decide the
// registers (System V eightbytes, AAPCS64 HFAs).
func TestLayoutScalars(t *testing.T) {
	type sc = scalarLeaf
	rows := []struct {
		c    string
		want []sc
	}{
		{"CUmixed", []sc{{0, 4, false}, {4, 4, true}, {8, 8, true}}},
		{"CUvec3", []sc{{0, 4, true}, {4, 4, true}, {8, 4, true}}},
		{"CUnested", []sc{{0, 4, false}, {4, 4, true}, {8, 8, true}, {16, 1, false}}},
		{"CUptrs", []sc{{0, 8, false}, {8, 8, false}, {16, 8, false}, {24, 8, false}}},
		{"CUsmall", []sc{{0, 1, false}, {2, 2, false}, {4, 4, false}}},
		{"CUuuid", func() []sc {
			var s []sc
			for i := range int64(16) {
				s = append(s, sc{i, 1, false})
			}
			return s
		}()},
	}
	var src strings.Builder
	for i, r := range rows {
		fmt.Fprintf(&src, "CUresult CUDAAPI cuL%d(%s v);\n", i, r.c)
	}
	m, api := parseSnippet(t, src.String())
	for i, r := range rows {
		fn := funcNamed(t, api, fmt.Sprintf("cuL%d", i))
		var got []sc
		m.layoutScalars(fn.Params[0].Type, 0, &got)
		if !slices.Equal(got, r.want) {
			t.Errorf("%s by value: scalars %v, want %v", r.c, got, r.want)
		}
		ps, err := m.classify(fn)
		if err != nil {
			t.Fatal(err)
		}
		if ps[0].role != roleStruct {
			t.Errorf("%s by value: role %d, want roleStruct", r.c, ps[0].role)
		}
	}
}

// TestScalarRuns checks how leaves merge into the runs emitted as
// ffiimpl.Scalar: equal leaves end to end merge; a gap, another size or another
// class starts a new run.
func TestScalarRuns(t *testing.T) {
	uuid := make([]scalarLeaf, 16)
	for i := range uuid {
		uuid[i] = scalarLeaf{int64(i), 1, false}
	}
	for _, c := range []struct {
		name   string
		leaves []scalarLeaf
		want   []scalarRun
	}{
		{"char[16]", uuid, []scalarRun{{0, 1, 16, false}}},
		{"float x, y, z", []scalarLeaf{{0, 4, true}, {4, 4, true}, {8, 4, true}}, []scalarRun{{0, 4, 3, true}}},
		{"int, float, double", []scalarLeaf{{0, 4, false}, {4, 4, true}, {8, 8, true}}, []scalarRun{{0, 4, 1, false}, {4, 4, 1, true}, {8, 8, 1, true}}},
		{"char, short at 2 (padding)", []scalarLeaf{{0, 1, false}, {2, 2, false}, {4, 2, false}}, []scalarRun{{0, 1, 1, false}, {2, 2, 2, false}}},
		{"int, gap, int", []scalarLeaf{{0, 4, false}, {8, 4, false}}, []scalarRun{{0, 4, 1, false}, {8, 4, 1, false}}},
		{"none", nil, nil},
	} {
		if got := scalarRuns(c.leaves); !slices.Equal(got, c.want) {
			t.Errorf("%s: runs %v, want %v", c.name, got, c.want)
		}
	}
}

// TestIntType is the integer table behind goType.
func TestIntType(t *testing.T) {
	for _, c := range []struct {
		size   int64
		signed bool
		c      string
		want   string
	}{
		{1, true, "char", "byte"},
		{1, false, "char", "byte"}, // -funsigned-char: still text
		{1, true, "const char", "byte"},
		{1, true, "signed char", "int8"},
		{1, false, "unsigned char", "uint8"},
		{2, true, "short", "int16"},
		{2, false, "unsigned short", "uint16"},
		{4, true, "int", "int32"},
		{4, false, "unsigned int", "uint32"},
		{8, true, "long", "int64"},
		{8, false, "unsigned long long", "uint64"},
	} {
		if got := intType(c.size, c.signed, c.c); got != c.want {
			t.Errorf("intType(%d, %v, %q) = %s, want %s", c.size, c.signed, c.c, got, c.want)
		}
	}
}

// TestSignatures maps C declarations to the Go signatures of their wrappers:
// outputs become results before the error, strings cross as Go strings, a
// one-shot callback is a Go func, other results are returned as they are.
func TestSignatures(t *testing.T) {
	rows := []struct{ c, want string }{
		{`/** \param device - Returned device handle
		     \param ordinal - Device number */
		  CUresult CUDAAPI cuS0(CUdevice *device, int ordinal);`,
			"func S0(ordinal int32) (device Device, err error)"},
		{`/** \param name - Returned identifier string
		     \param len - Maximum length of string
		     \param dev - Device */
		  CUresult CUDAAPI cuS1(char *name, int len, CUdevice dev);`,
			"func S1(dev Device) (name string, err error)"},
		{`/** \param pStr - Returned string */
		  CUresult CUDAAPI cuS2(CUresult error, const char **pStr);`,
			"func S2(errorCode Result) (str string, err error)"},
		{`CUresult CUDAAPI cuS3(const char *name, const void *data);`,
			"func S3(name string, data unsafe.Pointer) error"},
		{`CUresult CUDAAPI cuS4(CUmixed m, float f, double d, CUvec3 v);`,
			"func S4(m Mixed, f float32, d float64, v Vec3) error"},
		{`CUmixed CUDAAPI cuS5(int x);`, "func S5(x int32) (ret Mixed)"},
		{`const char *CUDAAPI cuS6(CUresult e);`, "func S6(e Result) (ret string)"},
		{`void CUDAAPI cuS7(void);`, "func S7()"},
		{`CUresult CUDAAPI cuS8(unsigned int *flags);`, "func S8(flags *uint32) error"},
		{`CUresult CUDAAPI cuS9(void *p, size_t n, void **pp);`, "func S9(p unsafe.Pointer, n uint64, pp *unsafe.Pointer) error"},
		// Option values are words, most of them integers: never unsafe.Pointer.
		{`CUresult CUDAAPI cuS9b(unsigned int numOptions, int *options, void **optionValues);`, "func S9b(numOptions uint32, options *int32, optionValues *uintptr) error"},
		{`CUresult CUDAAPI cuLaunchHostFunc(CUcontext s, CUhostFn fn, void *userData);`,
			"func LaunchHostFunc(s Context, fn func()) (err error)"},
		{`CUresult CUDAAPI cuS11(CUhostFn fn, void *userData);`, "func S11(fn HostFn, userData unsafe.Pointer) error"},
		{`double CUDAAPI cuS12(float f);`, "func S12(f float32) (ret float64)"},
		{`int CUDAAPI cuS13(int type, unsigned char u, signed char s);`, "func S13(typ int32, u uint8, s int8) (ret int32)"},
		{`/** \param ctx - Returned context
		     \param uuid - Returned UUID
		     \param flags - Returned flags */
		  CUresult CUDAAPI cuS14(CUcontext *ctx, CUuuid *uuid, unsigned long long *flags, CUdeviceptr dptr);`,
			"func S14(dptr Deviceptr) (ctx Context, uuid Uuid, flags uint64, err error)"},
		{`CUresult CUDAAPI cuS15(CUuuid *uuid);`, "func S15(uuid *Uuid) error"},
		// A function that takes a kernel: its void ** parameters are the
		// kernel's argument pointers, and extra the packed buffer.
		{`typedef struct CUfunc_st *CUfunction;
		  CUresult CUDAAPI cuS16(CUfunction f, void **kernelParams, void **extra);`,
			"func S16(f Function, kernelParams []unsafe.Pointer, extra []byte) error"},
		// Elsewhere a void ** stays a pointer, whatever its name.
		{`CUresult CUDAAPI cuS17(void **extra, void **kernelParams);`,
			"func S17(extra, kernelParams *unsafe.Pointer) error"},
	}
	var src strings.Builder
	for _, r := range rows {
		src.WriteString(r.c + "\n")
	}
	m, api := parseSnippet(t, src.String())
	for i, r := range rows {
		name := strings.Fields(r.want)[1]
		name = "cu" + name[:strings.IndexByte(name, '(')]
		fn := funcNamed(t, api, name)
		ps, err := m.classify(fn)
		if err != nil {
			t.Errorf("row %d: %v", i, err)
			continue
		}
		f := m.newFile()
		m.genFunc(f, fn, ps)
		out := f.GoString()
		got := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "func ") {
				got = strings.TrimSuffix(l, " {")
				break
			}
		}
		if got != r.want {
			t.Errorf("%s:\ngot  %s\nwant %s", strings.TrimSpace(r.c), got, r.want)
		}
	}
}

// TestWrapperBodies pins the wrapper forms: the common one (integer and
// pointer arguments, a status result) resolves its symbol, calls through
// ffiimpl.CallInts and returns ffiimpl.Error, with no check after the call (it
// cannot fail) and errors returned directly; a Frame call keeps its check
// (the arguments may not fit the architecture's Frame).
func TestWrapperBodies(t *testing.T) {
	rows := []struct{ c, want string }{
		{`CUresult CUDAAPI cuW0(CUcontext ctx);`, `func W0(ctx Context) error {
	sym, err := procW0.Addr()
	if err != nil {
		return err
	}
	r := ffiimpl.CallInts(sym, uintptr(ctx), 0, 0, 0, 0, 0)
	return ffiimpl.Error(procW0, Result(r))
}`},
		{`/** \param device - Returned device handle */
		  CUresult CUDAAPI cuW1(CUdevice *device, int ordinal, void *p);`, `func W1(ordinal int32, p unsafe.Pointer) (device Device, err error) {
	sym, err := procW1.Addr()
	if err != nil {
		return
	}
	r := ffiimpl.CallInts(sym, uintptr(unsafe.Pointer(&device)), uintptr(ordinal), uintptr(p), 0, 0, 0)
	runtime.KeepAlive(&device)
	runtime.KeepAlive(p)
	return device, ffiimpl.Error(procW1, Result(r))
}`},
		{`CUresult CUDAAPI cuW2(float f);`, `func W2(f float32) error {
	sym, err := procW2.Addr()
	if err != nil {
		return err
	}
	var frame ffiimpl.Frame
	frame.Float32(float32(f))
	ffiimpl.Call(sym, &frame)
	if err = frame.Err(); err != nil {
		return err
	}
	return ffiimpl.Error(procW2, Result(frame.Ret()))
}`},
		{`void CUDAAPI cuW3(int x, int y);`, `func W3(x, y int32) {
	sym, err := procW3.Addr()
	if err != nil {
		return
	}
	ffiimpl.CallInts(sym, uintptr(x), uintptr(y), 0, 0, 0, 0)
}`},
	}
	var src strings.Builder
	for _, r := range rows {
		src.WriteString(r.c + "\n")
	}
	m, api := parseSnippet(t, src.String())
	for i, r := range rows {
		fn := funcNamed(t, api, fmt.Sprintf("cuW%d", i))
		ps, err := m.classify(fn)
		if err != nil {
			t.Fatal(err)
		}
		f := m.newFile()
		m.genFunc(f, fn, ps)
		out := f.GoString()
		got := out[strings.Index(out, "\nfunc ")+1:]
		got = strings.TrimSpace(got)
		if got != r.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", strings.TrimSpace(r.c), got, r.want)
		}
	}
}
