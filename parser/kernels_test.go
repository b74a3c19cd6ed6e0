package parser

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cugen/cugen/parser/ir"
)

const kernelsSource = `// kernels for the test
#include <cuda_fp16.h>
struct Params { char c; double d; int n[3]; };
typedef struct { float a, b; } Pair;
typedef float real;

extern "C" __global__ void __launch_bounds__(256) saxpy(float a, const float *__restrict__ x, float *y, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" {
__global__ void mixed(char c, double d, const Params *p, Params s, short h, float4 v, int n, real r, Pair q, cudaTextureObject_t tex) {}
__global__ void noargs() {}
}

template <typename T, int N>
__global__ void scale(T *y, const T *x, T a) { /* { unbalanced in a comment */ }

__device__ void helper(int *x) {}
__global__ void cppOnly(int x) {}
`

func TestKernels(t *testing.T) {
	ks, err := Kernels([]byte(kernelsSource), "k.cu", []string{"scale<float, 4>", "scale<double,2>"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range ks {
		var ps []string
		for _, p := range k.Params {
			ps = append(ps, fmt.Sprintf("%s %s@%d/%d/%d", kindText(p.Type), p.Name, p.Offset, p.Type.Size, p.Type.Align))
		}
		got = append(got, fmt.Sprintf("%s (%s:%d) %s", k.Expr, k.File, k.Line, strings.Join(ps, ", ")))
	}
	want := []string{
		"saxpy (k.cu:7) float a@0/4/4, const*float x@8/8/8, *float y@16/8/8, int n@24/4/4",
		"mixed (k.cu:13) signed char c@0/1/1, double d@8/8/8, const*Params p@16/8/8, Params s@24/32/8, short h@56/2/2, float4 v@64/16/16, int n@80/4/4, float r@84/4/4, Pair q@88/8/4, unsigned long long tex@96/8/8",
		"noargs (k.cu:14) ",
		"scale<float, 4> (k.cu:18) *float y@0/8/8, const*float x@8/8/8, float a@16/4/4",
		"scale<double,2> (k.cu:18) *double y@0/8/8, const*double x@8/8/8, double a@16/8/8",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func kindText(t *ir.KernelType) string {
	switch t.Kind {
	case ir.KPointer:
		c := "*"
		if t.Const {
			c = "const*"
		}
		return c + kindText(t.Elem)
	case ir.KStruct:
		return t.Name
	}
	return t.Scalar
}

func TestKernelsErrors(t *testing.T) {
	for _, c := range []struct{ src, name, want string }{
		{`extern "C" __global__ void k(int &x) {}`, "", `k.cu:1: kernel k: parameter 1 is a reference`},
		{`class C { public: int f(); }; extern "C" __global__ void k(C c) {}`, "", `kernel parameters as C`},
		{`extern "C" __global__ void k(float **x) {}`, "", `parameter x: a pointer to a pointer`},
		{`__global__ void k(int x) {}`, "", `no extern "C" __global__ kernel`},
		{`template <typename T> __global__ void k(T x) {}`, "k<float, int>", `takes 1 arguments, not 2`},
		{`template <typename T> __global__ void k(T x) {}`, "j<float>", `declares no __global__ template j`},
		{`extern "C" __global__ void k(int x) { /* `, "", `a comment that does not end`},
		{`union U { int a; float b; }; typedef union U U; extern "C" __global__ void k(U u) {}`, "", `parameter u: type U is not one cugen kernels can lay out`},
	} {
		var names []string
		if c.name != "" {
			names = []string{c.name}
		}
		_, err := Kernels([]byte(c.src), "k.cu", names)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.src, err, c.want)
		}
	}
}

// hostileScan is the source that made the scan quadratic: an unclosed
// "template <" and then __global__ until the source has n bytes. Every
// __global__ read the rest of the source again.
func hostileScan(n int) []byte {
	b := []byte("template <\n")
	for len(b)+len("__global__\n") <= n {
		b = append(b, "__global__\n"...)
	}
	return b
}

// plainScan is a source of ordinary template kernels, with comments,
// until it has n bytes (none is extern "C", so only the scan runs).
func plainScan(n int) []byte {
	const k = "/* a kernel */ template <typename T> __global__ void k(T *y, const T *x, int n) { if (n > 0) y[0] = x[0]; } // done\n"
	return bytes.Repeat([]byte(k), n/len(k))
}

// The scan is linear: the 4 MB source that took minutes (370,000
// __global__ after an unclosed "template <") is read in well under the
// limit, as is 4 MB of comments and templates. BenchmarkScan gives the
// times.
func TestKernelsScanLinear(t *testing.T) {
	for _, src := range [][]byte{hostileScan(4 << 20), plainScan(4 << 20)} {
		done := make(chan error, 1)
		go func() {
			_, err := Kernels(src, "k.cu", nil)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), `k.cu: no extern "C" __global__ kernel`) {
				t.Errorf("err = %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("a %d-byte source still scanning after 20s", len(src))
		}
	}
}

// Brackets nest at most maxKernelNesting deep, in the source and in a
// -name: 100,000 parentheses in an array size overflowed the C front
// end's stack (a fatal error, not an error).
func TestKernelsNesting(t *testing.T) {
	deep := strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000)
	_, err := Kernels([]byte("struct S { int a[2]; };\n"+`extern "C" __global__ void k(int x[`+deep+"]) {}\n"), "k.cu", nil)
	if err == nil || !strings.Contains(err.Error(), "k.cu:2: brackets nested more than 256 deep") {
		t.Errorf("source: err = %v", err)
	}
	_, err = Kernels([]byte("template <int N> __global__ void k(int x) {}\n"), "k.cu", []string{"k<" + deep + ">"})
	if err == nil || !strings.Contains(err.Error(), `brackets nested more than 256 deep`) {
		t.Errorf("-name: err = %v", err)
	}
	// as deep as allowed is fine
	ok := strings.Repeat("(", 200) + "x" + strings.Repeat(")", 200)
	if ks, err := Kernels([]byte(`extern "C" __global__ void k(float `+ok+") {}\n"), "k.cu", nil); err != nil || len(ks) != 1 || len(ks[0].Params) != 1 {
		t.Errorf("200 deep: %v", err)
	}
}

// BenchmarkScan reads sources of 1, 4 and 16 MB: the time grows as the
// size does (16 MB about 16 times 1 MB).
func BenchmarkScan(b *testing.B) {
	for _, shape := range []struct {
		name string
		src  func(int) []byte
	}{{"unclosed-template", hostileScan}, {"templates", plainScan}} {
		for _, mb := range []int{1, 4, 16} {
			src := shape.src(mb << 20)
			b.Run(fmt.Sprintf("%s/%dMB", shape.name, mb), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for i := 0; i < b.N; i++ {
					if _, err := Kernels(src, "k.cu", nil); err == nil {
						b.Fatal("no error")
					}
				}
			})
		}
	}
}

// TestUnknownTemplateArgument: a -name whose template argument the parse
// of the parameters does not know is an error naming it and the types it
// knows (issue 40: axpy<half> said "unexpected identifier, expected
// ')'"); the source's own types and the vector types are known, and the
// second argument of two is named as the first is.
func TestUnknownTemplateArgument(t *testing.T) {
	src := []byte("struct P { float x; };\ntemplate <typename T> __global__ void axpy(T a, const T *x, T *y) {}\n" +
		"template <typename A, typename B> __global__ void pair(A *a, B b) {}\n")
	for _, c := range []struct{ name, want string }{
		{"axpy<half>", `-name "axpy<half>": "half" is not a type -name knows: C's (char,`},
		{"pair<float, bf16>", `-name "pair<float, bf16>": "bf16" is not a type -name knows`},
		{"axpy<P>", ""}, {"axpy<float4>", ""}, {"axpy<int32_t>", ""}, {"pair<unsigned char, P*>", ""},
		{"axpy<__half>", ""}, {"pair<__nv_bfloat16, __half>", ""},
	} {
		_, err := Kernels(src, "k.cu", []string{c.name})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("-name %s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want) || !strings.Contains(err.Error(), "float4") || !strings.Contains(err.Error(), "k.cu declares")):
			t.Errorf("-name %s: %v\nwant %s ... naming float4 and k.cu's types", c.name, err, c.want)
		}
	}
	ts, err := KernelTemplates(src, "k.cu")
	if err != nil || len(ts) != 2 || ts[0].Name != "axpy" || ts[0].Line != 2 || strings.Join(ts[1].Params, ",") != "A,B" {
		t.Errorf("KernelTemplates = %+v, %v", ts, err)
	}
}

// CUDA's half types, __half and __nv_bfloat16, are kernel parameter
// types of their own: 2 bytes, 2-aligned, by value and as a pointer's
// element, in an extern "C" kernel and as a template argument (before,
// C knew neither, and a source passed their bits as a struct).
func TestKernelsHalf(t *testing.T) {
	src := "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n" +
		"typedef __half myhalf;\n" +
		"extern \"C\" __global__ void hk(char c, __half h, const __half *x, __nv_bfloat16 *y, __nv_bfloat16 b, myhalf m) {}\n" +
		"template <typename T> __global__ void axpy(T a, const T *x, T *y) {}\n"
	ks, err := Kernels([]byte(src), "k.cu", []string{"axpy<__half>", "axpy<__nv_bfloat16>"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range ks {
		var ps []string
		for _, p := range k.Params {
			ps = append(ps, fmt.Sprintf("%s %s@%d/%d/%d %s", kindText(p.Type), p.Name, p.Offset, p.Type.Size, p.Type.Align, p.Type.C))
		}
		got = append(got, k.Expr+": "+strings.Join(ps, ", "))
	}
	want := []string{
		"hk: signed char c@0/1/1 char, __half h@2/2/2 __half, const*__half x@8/8/8 const __half *, *__nv_bfloat16 y@16/8/8 __nv_bfloat16 *, __nv_bfloat16 b@24/2/2 __nv_bfloat16, __half m@26/2/2 __half",
		"axpy<__half>: __half a@0/2/2 __half, const*__half x@8/8/8 const __half *, *__half y@16/8/8 __half *",
		"axpy<__nv_bfloat16>: __nv_bfloat16 a@0/2/2 __nv_bfloat16, const*__nv_bfloat16 x@8/8/8 const __nv_bfloat16 *, *__nv_bfloat16 y@16/8/8 __nv_bfloat16 *",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
