package cuda

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// fakeEx records the fake driver's cuLaunchKernelEx calls.
type fakeEx struct {
	calls int
	last  []cu.LaunchAttribute
	grid  Dim3
}

// fakeKernelState is the fake driver's state for its kernel queries
// (occupancy_test.go).
type fakeKernelState struct {
	queries int                            // kernel queries answered
	attrs   map[cu.FunctionAttribute]int32 // what cuFuncGetAttribute answers
	peers   map[[2]*ctxState]bool          // peer access enabled (device_test.go)
}

func (f *fakeDriver) launchEx(fn cu.Function, g, b Dim3, shared uint32, s cu.Stream, la launchAttrs, pp []unsafe.Pointer) error {
	if f.quiet {
		return nil
	}
	f.mu.Lock()
	f.ex.calls++
	f.ex.last = append([]cu.LaunchAttribute(nil), la.a[:la.n]...)
	f.ex.grid = g
	f.mu.Unlock()
	return f.launch(fn, g, b, shared, s, pp)
}

// TestLaunchAttributes: each attribute of Config reaches cuLaunchKernelEx
// with its value; a Config without attributes takes cuLaunchKernel.
func TestLaunchAttributes(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	m, k, x := fakeKernel(t, f, c)
	defer m.Close()
	defer x.Close()
	args := []any{float32(2), x, x, int32(4)}

	if err := k.Launch(ForN(1000, 128), args...); err != nil {
		t.Fatal(err)
	}
	if f.ex.calls != 0 || f.launches.Load() != 1 {
		t.Fatalf("a launch without attributes: %d cuLaunchKernelEx calls, %d launches", f.ex.calls, f.launches.Load())
	}

	cfg := ForN(1024, 128)
	cfg.Cooperative = true
	cfg.Cluster = Dim3{X: 2}
	cfg.Priority = -3
	cfg.ProgrammaticStreamSerialization = true
	if err := k.Launch(cfg, args...); err != nil {
		t.Fatal(err)
	}
	if f.ex.calls != 1 || len(f.ex.last) != 4 {
		t.Fatalf("%d cuLaunchKernelEx calls with %d attributes, want 1 with 4", f.ex.calls, len(f.ex.last))
	}
	got := map[cu.LaunchAttributeID]*cu.LaunchAttributeValue{}
	for i := range f.ex.last {
		got[f.ex.last[i].Id] = &f.ex.last[i].Value
	}
	if v := got[cu.LaunchAttributeCooperative]; v == nil || *v.Cooperative() != 1 {
		t.Fatal("cooperative attribute missing or 0")
	}
	if v := got[cu.LaunchAttributeClusterDimension]; v == nil || *v.ClusterDim() != (cu.LaunchAttributeValueClusterDim{X: 2, Y: 1, Z: 1}) {
		t.Fatalf("cluster attribute: %+v", v)
	}
	if v := got[cu.LaunchAttributePriority]; v == nil || *v.Priority() != -3 {
		t.Fatal("priority attribute missing or not -3")
	}
	if v := got[cu.LaunchAttributeProgrammaticStreamSerialization]; v == nil || *v.ProgrammaticStreamSerializationAllowed() != 1 {
		t.Fatal("programmatic stream serialization attribute missing or 0")
	}
	if f.ex.grid != (Dim3{8, 1, 1}) {
		t.Fatalf("grid %v, want 8x1x1", f.ex.grid)
	}

	// One attribute alone is the only one passed.
	if err := k.Launch(Config{Grid: Dim3{X: 4}, Block: Dim3{X: 32}, Priority: -1}, args...); err != nil {
		t.Fatal(err)
	}
	if len(f.ex.last) != 1 || f.ex.last[0].Id != cu.LaunchAttributePriority {
		t.Fatalf("attributes %+v, want the priority alone", f.ex.last)
	}
}

// TestLaunchClusterMisfit: a grid that is not a multiple of the cluster is
// a *ConfigError before the driver, and the launch's uses end.
func TestLaunchClusterMisfit(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	m, k, x := fakeKernel(t, f, c)
	defer m.Close()
	for _, cfg := range []Config{
		{Grid: Dim3{X: 3}, Cluster: Dim3{X: 2}},
		{Grid: Dim3{X: 4, Y: 3}, Cluster: Dim3{X: 2, Y: 2}},
		{Grid: Dim3{X: 4}, Cluster: Dim3{Z: 2}},
	} {
		err := k.Launch(cfg, float32(2), x, x, int32(4))
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Kernel != "saxpy" {
			t.Fatalf("%+v: %v, want a *ConfigError", cfg, err)
		}
		if n := usesOf(x); n != 0 {
			t.Fatalf("%d uses of the buffer left after the error", n)
		}
	}
	if f.launches.Load() != 0 || f.ex.calls != 0 {
		t.Fatal("a misfit cluster reached the driver")
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestLaunchExNoAllocs: a launch with attributes allocates nothing either.
func TestLaunchExNoAllocs(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	m, k, x := fakeKernel(t, f, c)
	defer m.Close()
	defer x.Close()
	f.quiet = true
	cfg := Config{Grid: Dim3{X: 2}, Block: Dim3{X: 256}, Cooperative: true, Cluster: Dim3{X: 2}, Priority: -1}
	allocs := testing.AllocsPerRun(100, func() {
		if err := k.Launch(cfg, float32(2), x, x, int32(4)); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a launch with attributes, want 0", allocs)
	}
}
