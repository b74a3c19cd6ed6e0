package cuda

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestGPUGraphCapture captures copies from and to pinned HostBuffers, a
// launch and a Go host function into a graph, drops everything but the
// instance, and launches it three times: the host function runs on every
// launch and the buffers stay alive.
func TestGPUGraphCapture(t *testing.T) { testGraphCapture(t, false) }

// TestGPUGraphCaptureGoMemory is TestGPUGraphCapture with Go slices, which
// the graph keeps pinned.
func TestGPUGraphCaptureGoMemory(t *testing.T) { testGraphCapture(t, true) }

func testGraphCapture(t *testing.T, goMemory bool) {
	c := gpuContext(t)
	saxpy, _ := gpuKernels(t, c)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 1000
	hx, err := AllocHost[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	hgot, err := AllocHost[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	x, y, got := hx.Slice(), make([]float32, n), hgot.Slice()
	if goMemory {
		x, got = make([]float32, n), make([]float32, n)
	}
	for i := range x {
		x[i], y[i] = float32(i), 1
	}
	dx, err := Alloc[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer dx.Close()
	dy, err := Alloc[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer dy.Close()
	var calls atomic.Int32
	if err := s.BeginCapture(); err != nil {
		t.Fatal(err)
	}
	copyIn := func() error { return dx.CopyFromHostAsync(s, hx) }
	copyOut := func() error { return dy.CopyToHostAsync(s, hgot) }
	if goMemory {
		copyIn = func() error { return dx.CopyFromAsync(s, x) }
		copyOut = func() error { return dy.CopyToAsync(s, got) }
	}
	steps := []func() error{
		copyIn,
		func() error { return dy.CopyFromAsync(s, y) }, // Go memory in both
		func() error { return saxpy.Launch(ForN(n, 128).On(s), float32(3), dx, dy, int32(n)) },
		copyOut,
		func() error { return s.HostFunc(func() { calls.Add(1) }) },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			s.EndCapture()
			t.Fatalf("step %d of the capture: %v", i, err)
		}
	}
	g, err := s.EndCapture()
	if err != nil {
		t.Fatal(err)
	}
	exec, err := g.Instantiate()
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Close()
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	hx, hgot = nil, nil // the graph keeps them
	for round := range 3 {
		runtime.GC()
		clear(got)
		if err := exec.Launch(s); err != nil {
			t.Fatal(err)
		}
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
		checkSaxpy(t, 3, x, y, got)
		if n := calls.Load(); n != int32(round+1) {
			t.Fatalf("after %d launches the host function ran %d times", round+1, n)
		}
	}
}

// TestGPUAllocAsyncCapture closes a stream-ordered buffer while its stream
// is captured: the free waits for the capture's end instead of becoming a
// node of the graph, so the graph launches twice without freeing anything,
// and the pool's memory in use returns after the capture.
func TestGPUAllocAsyncCapture(t *testing.T) {
	c := gpuContext(t)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pool, err := c.DefaultMemPool()
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	before, _ := pool.Stats()
	x, err := AllocAsync[int32](s, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	y, err := Alloc[int32](c, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if err := s.BeginCapture(); err != nil {
		t.Fatal(err)
	}
	if err := y.FillAsync(s, 3); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	g, err := s.EndCapture()
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	e, err := g.Instantiate()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for range 2 {
		if err := e.Launch(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if after, _ := pool.Stats(); after.Used != before.Used {
		t.Errorf("default pool's use %d after the capture, %d before", after.Used, before.Used)
	}
	got := make([]int32, 1<<20)
	if err := y.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	if got[12345] != 3 {
		t.Errorf("got %d, want 3", got[12345])
	}
}
