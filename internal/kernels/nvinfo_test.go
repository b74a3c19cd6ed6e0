package kernels

import (
	"fmt"
	"testing"
)

func TestProbeNVInfo(t *testing.T) {
	n, err := OpenNVRTC()
	if err != nil {
		t.Skip(err)
	}
	src := `struct S { char c; double d; };
extern "C" __global__ void k(char a, double b, const float *x, S s, short h, float4 v, int n) {}
template <typename T> __global__ void t(T a, T *y) {}
`
	out, err := n.Compile(src, "probe.cu", []string{"-arch=sm_80"}, []string{"t<float>", "t<double>"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := KernelParams(out.Image)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(n.Version, out.Lowered, p)
}
