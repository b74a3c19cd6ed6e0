package cuda

import (
	"math"
	"testing"
)

// TestGPUCachingAlloc: on the device, blocks closed on a stream are handed
// to the next allocations on it while the stream's earlier work on them
// may still run, and that work sees its own values (stream order); an
// allocation on another stream gets other memory; a hit and its Close cost
// one Go allocation.
func TestGPUCachingAlloc(t *testing.T) {
	c := gpuContext(t)
	saxpy, _ := gpuKernels(t, c)
	s1, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	s2, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	a, err := c.NewCachingAllocator(CachingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	const n, rounds = 1 << 16, 50
	dst := make([][]float32, rounds)
	cfg := ForN(n, 256).On(s1)
	ptrs := map[uintptr]bool{}
	for k := range rounds {
		x, err := AllocCached[float32](a, s1, n)
		if err != nil {
			t.Fatal(err)
		}
		y, err := AllocCached[float32](a, s1, n)
		if err != nil {
			t.Fatal(err)
		}
		ptrs[uintptr(x.Ptr())], ptrs[uintptr(y.Ptr())] = true, true
		dst[k] = make([]float32, n)
		if err := x.FillAsync(s1, float32(k)); err != nil {
			t.Fatal(err)
		}
		if err := y.FillAsync(s1, 1); err != nil {
			t.Fatal(err)
		}
		if err := saxpy.Launch(cfg, float32(2), x, y, int32(n)); err != nil {
			t.Fatal(err)
		}
		if err := y.CopyToAsync(s1, dst[k]); err != nil {
			t.Fatal(err)
		}
		if err := x.Close(); err != nil { // no wait: the next round's y
			t.Fatal(err)
		}
		if err := y.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s1.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for k, d := range dst {
		if want := float32(2*k + 1); d[0] != want || d[n-1] != want {
			t.Fatalf("round %d: y = %v .. %v, want %v", k, d[0], d[n-1], want)
		}
	}
	st := a.Stats()
	t.Logf("%d rounds of two buffers on one stream: %d blocks, stats %+v", rounds, len(ptrs), st)
	if st.Misses != 2 || st.Hits != 2*rounds-2 || len(ptrs) != 2 {
		t.Errorf("stats %+v over %d blocks, want 2 misses", st, len(ptrs))
	}
	z, err := AllocCached[float32](a, s2, n)
	if err != nil {
		t.Fatal(err)
	}
	if ptrs[uintptr(z.Ptr())] {
		t.Errorf("stream 2 got a block of stream 1, %#x", z.Ptr())
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		b, err := AllocCached[float32](a, s1, n)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("Go allocations per AllocCached+Close on the device: %v", allocs)
	if allocs != 1 {
		t.Errorf("%v Go allocations per AllocCached+Close, want 1 (the Buffer)", allocs)
	}
	if err := a.Trim(); err != nil {
		t.Fatal(err)
	}
	if st := a.Stats(); st.Cached != 0 {
		t.Errorf("after Trim: %+v", st)
	}
}

// BenchmarkCachingAllocMixed is BenchmarkAllocAsyncMixed's 100k pairs of
// mixed sizes (256 B to 64 MiB, 16 live, one stream) through AllocCached
// (layer-caching) and AllocAsync (layer) alternately, the default pool's
// release threshold at the maximum as in examples/allocBench; one op is
// the 100k pairs and a stream synchronisation.
func BenchmarkCachingAllocMixed(b *testing.B) {
	c := gpuContext(b)
	s, err := c.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	pool, err := c.DefaultMemPool()
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	if err := pool.SetReleaseThreshold(math.MaxUint64); err != nil {
		b.Fatal(err)
	}
	a, err := c.NewCachingAllocator(CachingOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	const pairs = 100_000
	sizes := mixedSizes(pairs)
	for _, w := range []struct {
		name  string
		alloc func(n int) (*Buffer[byte], error)
	}{
		{"layer-caching", func(n int) (*Buffer[byte], error) { return AllocCached[byte](a, s, n) }},
		{"layer", func(n int) (*Buffer[byte], error) { return AllocAsync[byte](s, n) }},
	} {
		b.Run(w.name, func(b *testing.B) {
			mixedRound(b, sizes, w.alloc) // warm: the cache, the pool
			if err := s.Synchronize(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				mixedRound(b, sizes, w.alloc)
				if err := s.Synchronize(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*pairs), "ns/pair")
		})
	}
	st := a.Stats()
	b.Logf("caching allocator: %+v", st)
}
