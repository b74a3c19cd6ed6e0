package cuda

import (
	"errors"
	"strings"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

func TestGPUModuleErrors(t *testing.T) {
	c := gpuContext(t)
	_, err := c.LoadModule([]byte(".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry bad() { bogus.instruction; }\n"))
	if err == nil {
		t.Fatal("bad PTX loaded")
	}
	t.Logf("bad PTX: %v", err)
	if !strings.Contains(err.Error(), "loading a PTX module") || !strings.Contains(err.Error(), "\n") {
		t.Errorf("no JIT log in the error: %v", err)
	}
	m, err := c.LoadModule([]byte(testPTX))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Kernel("nosuch"); !errors.Is(err, cu.ErrorNotFound) {
		t.Errorf("missing kernel: %v", err)
	}
	k, err := m.Kernel("empty")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := k.Launch(Config{}); !errors.Is(err, ErrFreed) {
		t.Errorf("launch after Unload: %v", err)
	}
}

// TestGPULibrary launches a context-independent kernel (cuLibrary*): the
// stream it is launched on picks the context.
func TestGPULibrary(t *testing.T) {
	c := gpuContext(t)
	lib, err := LoadLibrary([]byte(testPTX))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	saxpy, err := lib.Kernel("saxpy")
	if err != nil {
		t.Fatal(err)
	}
	params, known := saxpy.Params()
	t.Logf("library saxpy's parameters: %v (known %v)", params, known)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	x, y := []float32{1, 2, 3}, []float32{10, 20, 30}
	dx, err := AllocFrom(c, x)
	if err != nil {
		t.Fatal(err)
	}
	defer dx.Close()
	dy, err := AllocFrom(c, y)
	if err != nil {
		t.Fatal(err)
	}
	defer dy.Close()
	if err := saxpy.Launch(ForN(3, 32), float32(2), dx, dy, int32(3)); err == nil || !strings.Contains(err.Error(), "set Config.Stream") {
		t.Errorf("library kernel without a stream: %v", err)
	}
	if err := saxpy.Launch(ForN(3, 32).On(s), float32(2), dx, dy, int32(3)); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, 3)
	if err := dy.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	checkSaxpy(t, 2, x, y, got)
	if err := lib.Close(); err != nil {
		t.Fatal(err)
	}
	if err := saxpy.Launch(ForN(3, 32).On(s), float32(2), dx, dy, int32(3)); !errors.Is(err, ErrFreed) {
		t.Errorf("launch after Unload: %v", err)
	}
}

// TestGPUModuleFromSource compiles CUDA C++ with NVRTC for the device
// (a cubin for sm_90 with this NVRTC) and runs an extern "C" kernel and a
// template found by its name expression.
func TestGPUModuleFromSource(t *testing.T) {
	c := gpuContext(t)
	needNVRTC(t)
	m, err := c.ModuleFromSource(Source{
		Code:            vecAddSource,
		Headers:         map[string]string{"scale.h": "#define SCALE 2.0f\n"},
		NameExpressions: []string{"fill<double>"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	vecAdd, err := m.Kernel("vecAdd")
	if err != nil {
		t.Fatal(err)
	}
	fill, err := m.Kernel("fill<double>")
	if err != nil {
		t.Fatal(err)
	}
	const n = 5000
	a, b := make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), 0.5
	}
	da, err := AllocFrom(c, a)
	if err != nil {
		t.Fatal(err)
	}
	defer da.Close()
	db, err := AllocFrom(c, b)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dc, err := Alloc[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	if err := vecAdd.Launch(ForN(n, 0), da, db, dc, int32(n)); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, n)
	if err := dc.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != 2*(a[i]+b[i]) {
			t.Fatalf("c[%d] = %v, want %v", i, got[i], 2*(a[i]+b[i]))
		}
	}
	dd, err := Alloc[float64](c, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer dd.Close()
	if err := fill.Launch(ForN(10, 32), dd, 2.5, int32(10)); err != nil {
		t.Fatal(err)
	}
	f := make([]float64, 10)
	if err := dd.CopyTo(f); err != nil {
		t.Fatal(err)
	}
	if f[9] != 2.5 {
		t.Fatalf("fill<double>: %v", f)
	}
}
