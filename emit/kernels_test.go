package emit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
)

// kernelsOf renders the kernels package of a CUDA source, with one image
// whose lowered names are the kernels' expressions.
func kernelsOf(t *testing.T, src string, names ...string) (map[string][]byte, error) {
	t.Helper()
	ks, err := parser.Kernels([]byte(src), "k.cu", names)
	if err != nil {
		t.Fatal(err)
	}
	low := map[string]string{}
	for _, k := range ks {
		low[k.Expr] = k.Expr
	}
	return Kernels(&KernelsPackage{
		Package: "k", Source: "k.cu", Compiler: "NVRTC 12.4", Command: "cugen kernels -src k.cu -out k",
		CudaPath: "example.com/cuda", Kernels: ks,
		Images: []KernelImage{{Arch: 90, Lowered: low, Bytes: []byte("cubin")}},
	})
}

// Every Go name of a kernels package is claimed by goNames' rule before
// anything is rendered: a kernel, struct type or field that collides with
// another or with cugen's own names is an error naming both, where before
// each of these rendered Go that does not compile.
func TestKernelsNameCollisions(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`extern "C" __global__ void close(int x) {}`,
			"cugen's method Close and kernel close (k.cu:1) both become the Go name Close in type Kernels"},
		{`extern "C" __global__ void module(int x) {}`,
			"cugen's method Module and kernel module (k.cu:1) both become the Go name Module in type Kernels"},
		{"struct Kernels { int a; };\n" + `extern "C" __global__ void f(Kernels s) {}`,
			"cugen's Kernels and struct Kernels both become the Go name Kernels in package k"},
		{"struct Load { int a; };\n" + `extern "C" __global__ void f(Load s) {}`,
			"cugen's Load and struct Load both become the Go name Load in package k"},
		{"struct S { int x; int X; };\n" + `extern "C" __global__ void f(S s) {}`,
			"field x of struct S and field X of struct S both become the Go name X in struct S"},
		{"struct S { int a_b; int aB; };\n" + `extern "C" __global__ void f(S s) {}`,
			"field a_b of struct S and field aB of struct S both become the Go name AB in struct S"},
		{"struct a_b { int x; };\nstruct aB { int y; };\n" + `extern "C" __global__ void f(a_b s, aB t) {}`,
			"struct aB and struct a_b both become the Go name AB in package k"},
		{`extern "C" __global__ void vec_add(int x) {}` + "\n" + `extern "C" __global__ void vecAdd(int x) {}`,
			"kernel vec_add (k.cu:1) and kernel vecAdd (k.cu:2) both become the Go name VecAdd in type Kernels"},
	} {
		files, err := kernelsOf(t, c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\nerr  %v\nwant %s", c.src, err, c.want)
		}
		if files != nil {
			t.Errorf("%s: files rendered with the error", c.src)
		}
	}
}

// Names that do not collide pass: a kernel may share a struct's Go name
// (one is a method, the other a type), and a field may be called Close.
func TestKernelsNamesApart(t *testing.T) {
	files, err := kernelsOf(t, "struct S { int close; int module; };\n"+`extern "C" __global__ void s(S s) {}`)
	if err != nil {
		t.Fatal(err)
	}
	src := string(files["kernels.go"])
	for _, want := range []string{"func (k *Kernels) S(cfg cuda.Config, s S) error", "\tClose  int32\n", "\tModule int32\n"} {
		if !strings.Contains(src, want) {
			t.Errorf("kernels.go lacks %q:\n%s", want, src)
		}
	}
}

// goNames refuses what is no Go identifier, keywords, predeclared names,
// reserved names and a second claim, naming both claimants.
func TestGoNames(t *testing.T) {
	ns := newGoNames("package p")
	ns.reserve("(cugen)", "Load")
	ns.reserveEach("cugen's method", "Close")
	for _, c := range []struct{ what, name, want string }{
		{"kernel a", "A", ""},
		{"kernel b", "_", ""},
		{"kernel c", "_", ""},
		{"kernel d", "A", "kernel a and kernel d both become the Go name A in package p"},
		{"kernel e", "Load", "(cugen) and kernel e both become the Go name Load in package p"},
		{"kernel f", "Close", "cugen's method Close and kernel f both become the Go name Close in package p"},
		{"kernel g", "func", "kernel g becomes func in package p: a Go keyword"},
		{"kernel h", "len", "kernel h becomes len in package p: Go's predeclared len"},
		{"kernel i", "9x", `kernel i: "9x" is not a Go identifier`},
		{"kernel j", "a-b", `kernel j: "a-b" is not a Go identifier`},
		{"kernel k", "", `kernel k: "" is not a Go identifier`},
	} {
		err := ns.add(c.what, c.name)
		if got := fmt.Sprint(err); c.want == "" && err != nil || c.want != "" && got != c.want {
			t.Errorf("add(%q, %q) = %v, want %q", c.what, c.name, err, c.want)
		}
	}
}

// A record's members that differ in the case of their first letter (x and
// X) would both be the Go field X: Generate refuses the record, naming
// both members (before, it rendered a struct that does not compile).
func TestRecordMemberCollision(t *testing.T) {
	api := tinyAPI(t)
	var rec *ir.Record
	for _, r := range api.Records {
		if r.Name == "CUpair" {
			rec = r
		}
	}
	if rec == nil || len(rec.Fields) != 2 {
		t.Fatal("no CUpair of two members in the tiny IR")
	}
	rec.Fields[1].Name = "A"
	_, err := Generate(api, Options{Origin: "CUDA 12.4 headers", ImportPath: "example.com/out"})
	want := "member a of CUpair and member A of CUpair both become the Go name A in type Pair"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Generate: %v, want %q", err, want)
	}
}

// A kernel's launcher packs a cuda.Frame at the offsets the C layout gives
// (and checkParams proves against the cubin), with no run-time layout
// check; a kernel of more than 16 parameters goes through Kernel.Launch.
func TestKernelsFrameLauncher(t *testing.T) {
	var many []string
	for i := range 17 {
		many = append(many, fmt.Sprintf("int a%d", i))
	}
	src := "struct P { double d; char c; };\n" +
		"extern \"C\" __global__ void saxpy(float a, const float *x, float *y, int n) {}\n" +
		"extern \"C\" __global__ void mixed(char c, P p, void *v, short s) {}\n" +
		"extern \"C\" __global__ void many(" + strings.Join(many, ", ") + ") {}\n"
	files, err := kernelsOf(t, src)
	if err != nil {
		t.Fatal(err)
	}
	got := string(files["kernels.go"])
	for _, want := range []string{
		"\tvar f cuda.Frame\n\tcuda.Arg(&f, 0, 0, a)\n\tcuda.ArgBuffer(&f, 1, 8, x)\n\tcuda.ArgBuffer(&f, 2, 16, y)\n\tcuda.Arg(&f, 3, 24, n)\n\treturn k.kSaxpy.LaunchFrame(cfg, &f)\n",
		"\tcuda.Arg(&f, 0, 0, c)\n\tcuda.Arg(&f, 1, 8, p)\n\tcuda.ArgBuffer(&f, 2, 24, v)\n\tcuda.Arg(&f, 3, 32, s)\n\treturn k.kMixed.LaunchFrame(cfg, &f)\n",
		"\treturn k.kMany.Launch(cfg, a0, a1,",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("kernels.go lacks\n%s\nin\n%s", want, got)
		}
	}
}

// A kernel's __half and __nv_bfloat16 parameters, by value and as a
// buffer's element, are cuda.Float16 and cuda.BFloat16 in its launcher,
// for a source's own kernels as for cub.cu's (before: C knew neither
// type, and a source passed their bits as a struct of its own).
func TestKernelsHalfParams(t *testing.T) {
	src := "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n" +
		"struct HP { __half h; __nv_bfloat16 b[2]; };\n" +
		"extern \"C\" __global__ void hk(__half h, const __half *x, __nv_bfloat16 *y, __nv_bfloat16 b, HP p) {}\n" +
		"template <typename T> __global__ void axpy(T a, const T *x, T *y) {}\n"
	files, err := kernelsOf(t, src, "axpy<__half>", "axpy<__nv_bfloat16>")
	if err != nil {
		t.Fatal(err)
	}
	got := string(files["kernels.go"])
	for _, want := range []string{
		"func (k *Kernels) Hk(cfg cuda.Config, h cuda.Float16, x *cuda.Buffer[cuda.Float16], y *cuda.Buffer[cuda.BFloat16], b cuda.BFloat16, p HP) error {\n",
		"\tcuda.Arg(&f, 0, 0, h)\n\tcuda.ArgBuffer(&f, 1, 8, x)\n\tcuda.ArgBuffer(&f, 2, 16, y)\n\tcuda.Arg(&f, 3, 24, b)\n\tcuda.Arg(&f, 4, 26, p)\n",
		"//\t__global__ void hk(__half h, const __half * x, __nv_bfloat16 * y, __nv_bfloat16 b, HP p)\n",
		"type HP struct {\n\tH cuda.Float16\n\tB [2]cuda.BFloat16\n}\n",
		"func (k *Kernels) AxpyHalf(cfg cuda.Config, a cuda.Float16, x *cuda.Buffer[cuda.Float16], y *cuda.Buffer[cuda.Float16]) error {\n",
		"func (k *Kernels) AxpyNvBfloat16(cfg cuda.Config, a cuda.BFloat16, x *cuda.Buffer[cuda.BFloat16], y *cuda.Buffer[cuda.BFloat16]) error {\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("kernels.go lacks\n%s\nin\n%s", want, got)
		}
	}
	if strings.Contains(got, "type Half") || strings.Contains(got, "type NvBfloat16") {
		t.Errorf("kernels.go declares a struct for a half type:\n%s", got)
	}
}
