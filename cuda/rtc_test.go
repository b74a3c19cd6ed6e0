package cuda

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cugen/cugen/cuda/sys/nvrtc"
	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
)

// needNVRTC skips without the NVRTC library of this package's major
// (make test sets CUGEN_LIBNVRTC to Debian's libnvrtc.so.12).
func needNVRTC(t *testing.T) {
	t.Helper()
	cugentest.NeedLibrary(t, nvrtc.SharedLibrary().Load())
}

const vecAddSource = `
#include "scale.h"
extern "C" __global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = SCALE * (a[i] + b[i]);
}
template <typename T> __global__ void fill(T *p, T v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}
template __global__ void fill<double>(double *, double, int);
`

func TestCompile(t *testing.T) {
	needNVRTC(t)
	src := Source{
		Code:            vecAddSource,
		Name:            "vecadd.cu",
		Headers:         map[string]string{"scale.h": "#define SCALE 1.0f\n"},
		Options:         []string{"-std=c++17"},
		NameExpressions: []string{"fill<double>"},
	}
	for _, arch := range []string{"compute_80", "sm_90"} {
		src.Arch = arch
		out, err := Compile(src)
		if err != nil {
			t.Fatalf("%s: %v", arch, err)
		}
		kind, img, err := PrepareImage(out.Image)
		if err != nil || kind != out.Kind {
			t.Fatalf("%s: the image reads as %v (%v), Compile said %v", arch, kind, err, out.Kind)
		}
		if arch == "compute_80" && (!bytes.Contains(img, []byte(".visible .entry vecAdd(")) || !bytes.Contains(img, []byte(".target sm_80"))) {
			t.Errorf("PTX lacks vecAdd or its target:\n%s", img)
		}
		if arch == "sm_90" && kind != ImageCubin {
			t.Errorf("sm_90 gave %v, want a cubin", kind)
		}
		if l := out.LoweredNames["fill<double>"]; !strings.HasPrefix(l, "_Z4fillIdEvPT_S0_i") {
			t.Errorf("%s: lowered name of fill<double> = %q", arch, l)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	needNVRTC(t)
	_, err := Compile(Source{Code: "__global__ void k() { undeclared(); }\n", Name: "bad.cu", Arch: "compute_80"})
	var ce *ffi.CallError
	if err == nil || !errors.As(err, &ce) || !strings.Contains(ce.Log, "undeclared") || !strings.Contains(err.Error(), "bad.cu") ||
		!strings.Contains(err.Error(), `identifier "undeclared" is undefined`) {
		t.Errorf("a compile error: %v", err)
	}
	if !errors.Is(err, nvrtc.ErrorCompilation) {
		t.Errorf("a compile error is not nvrtc.ErrorCompilation: %v", err)
	}
	for _, c := range []struct {
		src  Source
		want string
	}{
		{Source{Code: "", Arch: ""}, `Arch "": want sm_XY or compute_XY`},
		{Source{Code: "", Arch: "sm_90", Options: []string{"-arch=sm_80"}}, `option "-arch=sm_80": set Source.Arch instead`},
	} {
		if _, err := Compile(c.src); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.src, err, c.want)
		}
	}
}

func TestArchFor(t *testing.T) {
	archs := []int32{50, 52, 60, 70, 75, 80, 86, 89, 90}
	for _, c := range []struct {
		cc   int
		want string
	}{{90, "sm_90"}, {86, "sm_86"}, {100, "compute_90"}, {87, "compute_86"}, {120, "compute_90"}} {
		if got, err := archFor(c.cc, archs); err != nil || got != c.want {
			t.Errorf("archFor(%d) = %q, %v; want %q", c.cc, got, err, c.want)
		}
	}
	if _, err := archFor(35, archs); err == nil {
		t.Error("archFor(35): no error")
	}
	needNVRTC(t)
	arch, err := ArchFor(9, 0)
	if err != nil || arch != "sm_90" {
		t.Errorf("ArchFor(9, 0) with this NVRTC = %q, %v", arch, err)
	}
}
