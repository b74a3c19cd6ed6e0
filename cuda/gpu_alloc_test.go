package cuda

import (
	"testing"
)

// TestGPUHotPathAllocs: the hot paths allocate nothing on the device
// either, once warm: a launch on a stream, asynchronous copies from and to
// Go memory (their pinners and events are reused), and a stream-ordered
// allocation and its free cost the one Buffer the caller gets.
func TestGPUHotPathAllocs(t *testing.T) {
	c := gpuContext(t)
	saxpy, _ := gpuKernels(t, c)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 1024
	x, err := AllocAsync[float32](s, n)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	src, dst := make([]float32, n), make([]float32, n)
	for i := range src {
		src[i] = float32(i)
	}
	cfg := Config{Stream: s}
	launch := func() {
		if err := saxpy.Launch(cfg, float32(2), x, x, int32(0)); err != nil {
			t.Fatal(err)
		}
	}
	copies := func() {
		if err := x.CopyFromAsync(s, src); err != nil {
			t.Fatal(err)
		}
		if err := x.CopyToAsync(s, dst); err != nil {
			t.Fatal(err)
		}
		if err := s.Synchronize(); err != nil { // reaps: the pinners and events return
			t.Fatal(err)
		}
	}
	allocFree := func() {
		b, err := AllocAsync[float32](s, n)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for range 10 { // warm: pinners, events, the pending list's capacity
		launch()
		copies()
		allocFree()
	}
	got := map[string]float64{
		"launch":               testing.AllocsPerRun(1000, launch),
		"async copies (2)":     testing.AllocsPerRun(200, copies),
		"AllocAsync and Close": testing.AllocsPerRun(1000, allocFree),
	}
	t.Logf("Go allocations: %v", got)
	if got["launch"] != 0 || got["async copies (2)"] != 0 || got["AllocAsync and Close"] > 1 {
		t.Errorf("Go allocations %v, want 0, 0 and 1 (the Buffer)", got)
	}
	if dst[n-1] != src[n-1] {
		t.Errorf("dst[%d] = %v, want %v", n-1, dst[n-1], src[n-1])
	}
}
