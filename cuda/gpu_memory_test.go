package cuda

import (
	"errors"
	"math"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cugentest"
)

// TestGPUPeerCopy copies between buffers of two devices (cuMemcpyPeer and
// cuMemcpyPeerAsync); it needs two GPUs.
func TestGPUPeerCopy(t *testing.T) {
	c0 := gpuContext(t)
	n, err := DeviceCount()
	cugentest.NeedDevice(t, err)
	cugentest.SkipFewGPUs(t, 2, n)
	c1, err := NewContext(1)
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	src := make([]int64, 1<<20)
	for i := range src {
		src[i] = int64(i) * 3
	}
	a, err := AllocFrom(c0, src)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Alloc[int64](c1, len(src))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.CopyFromBuffer(a); err != nil {
		t.Fatal(err)
	}
	got := make([]int64, len(src))
	if err := b.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	if got[len(got)-1] != src[len(src)-1] || got[1] != 3 {
		t.Fatalf("peer copy: %d %d", got[1], got[len(got)-1])
	}
	s1, err := c1.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	if err := b.Zero(); err != nil {
		t.Fatal(err)
	}
	if err := b.CopyFromBufferAsync(s1, a); err != nil {
		t.Fatal(err)
	}
	if err := b.CopyToAsync(s1, got); err != nil {
		t.Fatal(err)
	}
	if err := s1.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if got[len(got)-1] != src[len(src)-1] {
		t.Fatalf("async peer copy: %d", got[len(got)-1])
	}
}

// TestGPUAllocAsync allocates stream-ordered buffers, moves data through
// them on the stream and frees them on it, many times: the data arrives and
// the default pool's memory in use returns to where it was.
func TestGPUAllocAsync(t *testing.T) {
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
	before, err := pool.Stats()
	if err != nil {
		t.Fatal(err)
	}
	const n = 1 << 16
	src := make([]int32, n)
	for round := range 50 {
		for i := range src {
			src[i] = int32(i*7 + round)
		}
		a, err := AllocAsync[int32](s, n)
		if err != nil {
			t.Fatal(err)
		}
		b, err := AllocAsync[int32](s, n+round) // sizes vary
		if err != nil {
			t.Fatal(err)
		}
		if err := a.CopyFromAsync(s, src); err != nil {
			t.Fatal(err)
		}
		if err := b.Slice(0, n).CopyFromBufferAsync(s, a); err != nil {
			t.Fatal(err)
		}
		if err := a.Close(); err != nil { // freed in order, after the copy
			t.Fatal(err)
		}
		dst := make([]int32, n)
		if err := b.Slice(0, n).CopyToAsync(s, dst); err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
		for i, v := range dst {
			if v != src[i] {
				t.Fatalf("round %d: dst[%d] = %d, want %d", round, i, v, src[i])
			}
		}
	}
	after, err := pool.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if after.Used != before.Used || after.UsedHigh < before.Used+2*n*4 {
		t.Errorf("default pool before %+v, after %+v: the memory in use should return", before, after)
	}
	// A buffer whose stream was closed first is freed synchronously.
	s2, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	x, err := AllocAsync[float32](s2, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.FillAsync(s2, 1.5); err != nil {
		t.Fatal(err)
	}
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, 1000)
	if err := x.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	if got[999] != 1.5 {
		t.Errorf("got[999] = %v", got[999])
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestGPUMemPool makes a pool, allocates from it, checks the data, its
// statistics, release threshold and trim, and peer access with two GPUs.
func TestGPUMemPool(t *testing.T) {
	c := gpuContext(t)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, err := c.NewMemPool(MemPoolOptions{ReleaseThreshold: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if v, err := p.ReleaseThreshold(); err != nil || v != 1<<20 {
		t.Fatalf("ReleaseThreshold %d, %v", v, err)
	}
	const n = 1 << 20 // int32s: 4 MiB
	x, err := AllocFromPool[int32](p, s, n)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.FillAsync(s, 7); err != nil {
		t.Fatal(err)
	}
	got := make([]int32, n)
	if err := x.CopyToAsync(s, got); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if got[0] != 7 || got[n-1] != 7 {
		t.Fatalf("got %d, %d, want 7", got[0], got[n-1])
	}
	st, err := p.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Used < n*4 || st.Reserved < st.Used || st.UsedHigh < st.Used || st.ReservedHigh < st.Reserved {
		t.Errorf("stats with 4 MiB allocated: %+v", st)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if st, _ = p.Stats(); st.Used != 0 {
		t.Errorf("used after the free: %+v", st)
	}
	if err := p.Trim(0); err != nil {
		t.Fatal(err)
	}
	if st, _ = p.Stats(); st.Reserved != 0 {
		t.Errorf("reserved after Trim(0): %+v", st)
	}
	if err := p.SetReleaseThreshold(math.MaxUint64); err != nil {
		t.Fatal(err)
	}
	if v, _ := p.ReleaseThreshold(); v != math.MaxUint64 {
		t.Errorf("ReleaseThreshold %d after setting the maximum", v)
	}
	if n, _ := DeviceCount(); n >= 2 {
		c1, err := NewContext(1)
		if err != nil {
			t.Fatal(err)
		}
		defer c1.Close()
		if ok, _ := cu.DeviceCanAccessPeer(c1.Device().Raw(), c.Device().Raw()); ok != 0 {
			if err := p.SetPeerAccess(c1, true); err != nil {
				t.Fatal(err)
			}
			if err := p.SetPeerAccess(c1, false); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := AllocFromPool[int32](p, s, 1); !errors.Is(err, ErrFreed) {
		t.Errorf("AllocFromPool after Close: %v", err)
	}
}

// TestGPUHostRegister page-locks two Go slices, copies one to the device and
// back into the other asynchronously, and checks the data.
func TestGPUHostRegister(t *testing.T) {
	c := gpuContext(t)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 1 << 20
	src, dst := make([]float64, n), make([]float64, n)
	for i := range src {
		src[i] = float64(i) * 0.5
	}
	gs, err := Register(c, src)
	if err != nil {
		t.Fatal(err)
	}
	gd, err := Register(c, dst)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Alloc[float64](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.CopyFromRegisteredAsync(s, gs); err != nil {
		t.Fatal(err)
	}
	if err := d.CopyToRegisteredAsync(s, gd); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for i := range dst {
		if dst[i] != src[i] {
			t.Fatalf("dst[%d] = %v, want %v", i, dst[i], src[i])
		}
	}
	// Registered memory is what the driver calls pinned host memory.
	for _, g := range []*Registered[float64]{gs, gd} {
		if err := g.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.CopyFromRegisteredAsync(s, gs); !errors.Is(err, ErrFreed) {
		t.Errorf("copy from a closed registration: %v", err)
	}
	// Registering again after Close works: the pages were unlocked.
	g, err := Register(c, src)
	if err != nil {
		t.Fatalf("Register after Close: %v", err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestGPUPitched copies a 2D array to pitched memory and back, synchronously
// and on a stream, and checks a row read at its pitch on the device.
func TestGPUPitched(t *testing.T) {
	c := gpuContext(t)
	const w, h = 1000, 37
	p, err := AllocPitched[float32](c, w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Pitch() < w*4 || p.Pitch()%256 != 0 {
		t.Errorf("pitch %d for rows of %d bytes", p.Pitch(), w*4)
	}
	src := make([]float32, w*h)
	for i := range src {
		src[i] = float32(i)
	}
	if err := p.CopyFrom(src); err != nil {
		t.Fatal(err)
	}
	row := make([]float32, w)
	err = c.Do(func() error {
		return cu.MemcpyDtoH(unsafe.Pointer(&row[0]), p.Ptr()+cu.Deviceptr(5*p.Pitch()), w*4)
	})
	if err != nil {
		t.Fatal(err)
	}
	if row[0] != 5*w || row[w-1] != 6*w-1 {
		t.Errorf("row 5 at 5 pitches: %v ... %v", row[0], row[w-1])
	}
	dst := make([]float32, w*h)
	if err := p.CopyTo(dst); err != nil {
		t.Fatal(err)
	}
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q, err := AllocPitched[float32](c, w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	back := make([]float32, w*h)
	if err := q.CopyFromAsync(s, dst); err != nil {
		t.Fatal(err)
	}
	if err := q.CopyToAsync(s, back); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for i := range src {
		if back[i] != src[i] {
			t.Fatalf("back[%d] = %v, want %v", i, back[i], src[i])
		}
	}
}
