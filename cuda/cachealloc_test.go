package cuda

import (
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// fakeFrees returns the fake's stream-ordered frees so far: on which
// streams, how many synchronous, and how many blocks are live.
func fakeFrees(f *fakeDriver) (async []cu.Stream, sync, live int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]cu.Stream(nil), f.mem.asyncFrees...), f.mem.syncFrees, len(f.mem.async)
}

func mustCached[T any](t testing.TB, a *CachingAllocator, s *Stream, n int) *Buffer[T] {
	t.Helper()
	b, err := AllocCached[T](a, s, n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustClose(t testing.TB, fns ...func() error) {
	t.Helper()
	for _, fn := range fns {
		if err := fn(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCachingRound: the size classes, 512 B up to 1 MiB, then Divisions
// steps per power of two.
func TestCachingRound(t *testing.T) {
	for _, tc := range []struct {
		div     uint64
		n, want uint64
	}{
		{4, 1, 512}, {4, 512, 512}, {4, 513, 1024}, {4, 1000, 1024},
		{4, 1 << 20, 1 << 20}, {4, 1<<20 + 1, 1<<20 + 1<<18},
		{4, 3<<20 - 1, 3 << 20}, {4, 3<<20 + 1, 3<<20 + 1<<19}, {4, 64 << 20, 64 << 20},
		{4, 65 << 20, 80 << 20}, {1, 1<<20 + 1, 2 << 20}, {1, 5 << 20, 8 << 20},
		{2, 5 << 20, 6 << 20}, {1024, 1<<20 + 1, 1<<20 + 1024},
	} {
		c := &cache{div: tc.div}
		if got := c.round(tc.n); got != tc.want {
			t.Errorf("Divisions %d: round(%d) = %d, want %d", tc.div, tc.n, got, tc.want)
		}
	}
}

// TestCachingAlloc: a closed buffer's block serves the next allocation of
// its size class on its stream without a driver call (a hit); another
// class misses; Trim and Close free the cache to the driver, on the
// blocks' streams, and the context is released with nothing live.
func TestCachingAlloc(t *testing.T) {
	f, c := newFake(t)
	s, closeS := fakeStream(c, 0x51)
	a, err := c.NewCachingAllocator(CachingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x := mustCached[float32](t, a, s, 100) // 400 B: the 512 B class
	px := x.Ptr()
	mustClose(t, x.Close)
	if _, _, live := fakeFrees(f); live != 1 {
		t.Fatalf("%d blocks live after the Close, want 1 (cached)", live)
	}
	y := mustCached[byte](t, a, s, 512) // the same class: x's block
	if y.Ptr() != px {
		t.Errorf("a hit at %#x, want x's block %#x", y.Ptr(), px)
	}
	z := mustCached[byte](t, a, s, 513) // the 1 KiB class: a miss
	if z.Ptr() == px {
		t.Error("a 1 KiB request got the 512 B block")
	}
	if st := a.Stats(); st != (CachingStats{InUse: 1536, Hits: 1, Misses: 2}) {
		t.Errorf("stats %+v", st)
	}
	mustClose(t, y.Close, z.Close)
	if st := a.Stats(); st.Cached != 1536 || st.InUse != 0 {
		t.Errorf("stats after the Closes %+v", st)
	}
	if async, sync, live := fakeFrees(f); len(async)+sync != 0 || live != 2 {
		t.Fatalf("before Trim: frees %v, %d sync, %d live", async, sync, live)
	}
	mustClose(t, a.Trim)
	if async, _, live := fakeFrees(f); len(async) != 2 || async[0] != 0x51 || async[1] != 0x51 || live != 0 {
		t.Fatalf("after Trim: frees %v, %d live", async, live)
	}
	if st := a.Stats(); st.Cached != 0 || st.Released != 2 {
		t.Errorf("stats after Trim %+v", st)
	}
	w := mustCached[int64](t, a, s, 3)
	mustClose(t, w.Close, c.Close) // w's block stays cached, and holds nothing
	mustClose(t, a.Close)
	if async, _, live := fakeFrees(f); len(async) != 3 || live != 0 {
		t.Fatalf("after Close: frees %v, %d live", async, live)
	}
	closeS()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// TestCachingAllocStreams: a block closed on stream A is never handed to
// stream B (whose work is not ordered after A's), only to A; each block is
// freed to the driver on the stream it was allocated on.
func TestCachingAllocStreams(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	s1, close1 := fakeStream(c, 0x51)
	defer close1()
	s2, close2 := fakeStream(c, 0x52)
	defer close2()
	a, err := c.NewCachingAllocator(CachingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x := mustCached[byte](t, a, s1, 4096)
	px := x.Ptr()
	mustClose(t, x.Close)
	y := mustCached[byte](t, a, s2, 4096)
	if y.Ptr() == px {
		t.Fatal("a block closed on stream 0x51 was reused on 0x52")
	}
	z := mustCached[byte](t, a, s1, 4096)
	if z.Ptr() != px {
		t.Errorf("stream 0x51 got %#x, want its own block %#x", z.Ptr(), px)
	}
	if st := a.Stats(); st.Hits != 1 || st.Misses != 2 {
		t.Errorf("stats %+v", st)
	}
	mustClose(t, y.Close, z.Close, a.Close)
	async, _, live := fakeFrees(f) // the fake checks each free's stream
	if len(async) != 2 || live != 0 {
		t.Fatalf("frees %v, %d live", async, live)
	}
}

// TestCachingAllocBound: the cache keeps at most MaxCached bytes; a block
// closed beyond is freed to the driver, after the blocks of closed
// streams, which no allocation can reuse.
func TestCachingAllocBound(t *testing.T) {
	f, c, s := fakeContextStream(t, 0x51)
	dead, closeDead := fakeStream(c, 0x52)
	a, err := c.NewCachingAllocator(CachingOptions{MaxCached: 2048})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var bs []*Buffer[byte]
	for range 3 {
		bs = append(bs, mustCached[byte](t, a, s, 1024))
	}
	for _, b := range bs {
		mustClose(t, b.Close)
	}
	st := a.Stats()
	if st.Cached != 2048 || st.Released != 1 {
		t.Errorf("after 3 KiB closed under a 2 KiB bound: %+v", st)
	}
	if async, _, live := fakeFrees(f); len(async) != 1 || live != 2 {
		t.Errorf("frees %v, %d live; want one freed, two cached", async, live)
	}
	// Fill the cache with a closed stream's blocks: the next return
	// beyond the bound frees them (cuMemFree, the stream is gone).
	mustClose(t, a.Trim)
	d1, d2 := mustCached[byte](t, a, dead, 1024), mustCached[byte](t, a, dead, 1024)
	mustClose(t, d1.Close, d2.Close)
	closeDead()
	x := mustCached[byte](t, a, s, 1024)
	mustClose(t, x.Close)
	if st := a.Stats(); st.Cached != 1024 {
		t.Errorf("after a return beyond the bound: %+v, want only the live stream's block cached", st)
	}
	if _, sync, live := fakeFrees(f); sync != 2 || live != 1 {
		t.Errorf("%d synchronous frees, %d live; want the closed stream's two freed", sync, live)
	}
}

// TestCachingAllocClose: Buffer.Close stays a typed error after the first,
// with the block reused by another buffer; a buffer closed after its
// allocator frees its block to the driver, once; the allocator refuses
// use after its Close.
func TestCachingAllocClose(t *testing.T) {
	f, c := newFake(t)
	s, closeS := fakeStream(c, 0x51)
	a, err := c.NewCachingAllocator(CachingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x := mustCached[float32](t, a, s, 64)
	v := x.Slice(0, 8)
	mustClose(t, x.Close)
	y := mustCached[float32](t, a, s, 64) // x's block
	if y.Ptr() != x.Ptr() {
		t.Fatal("no reuse")
	}
	for what, err := range map[string]error{
		"second Close":        x.Close(),
		"CopyFrom":            x.CopyFrom(make([]float32, 64)),
		"CopyFrom of a view":  v.CopyFrom(make([]float32, 8)),
		"FillAsync":           x.FillAsync(s, 1),
		"CopyFromBufferAsync": y.CopyFromBufferAsync(s, x),
	} {
		if !errors.Is(err, ErrFreed) {
			t.Errorf("%s of a closed cached buffer: %v, want ErrFreed", what, err)
		}
	}
	if st := a.Stats(); st.InUse != 512 || st.Cached != 0 {
		t.Errorf("stats %+v: x's second Close returned its block again", st)
	}
	mustClose(t, a.Close)
	if err := a.Close(); !errors.Is(err, ErrFreed) {
		t.Errorf("second allocator Close: %v", err)
	}
	if _, err := AllocCached[float32](a, s, 1); !errors.Is(err, ErrFreed) {
		t.Errorf("AllocCached after Close: %v", err)
	}
	if _, err := AllocCached[float32](a, s, 0); !errors.Is(err, ErrFreed) {
		t.Errorf("AllocCached of 0 after Close: %v", err)
	}
	if err := a.Trim(); !errors.Is(err, ErrFreed) {
		t.Errorf("Trim after Close: %v", err)
	}
	if _, _, live := fakeFrees(f); live != 1 {
		t.Fatalf("%d live, want y's", live)
	}
	mustClose(t, y.Close) // to the driver: the cache is closed
	if err := y.Close(); !errors.Is(err, ErrFreed) {
		t.Errorf("second Close of y: %v", err)
	}
	async, _, live := fakeFrees(f) // a second free of the block is the fake's error
	if len(async) != 1 || live != 0 {
		t.Fatalf("frees %v, %d live", async, live)
	}
	if st := a.Stats(); st.InUse != 0 || st.Released != 1 {
		t.Errorf("stats %+v", st)
	}
	closeS()
	c.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// TestCachingAllocMisuse: typed errors before any driver call.
func TestCachingAllocMisuse(t *testing.T) {
	f, c := newFake(t)
	c.ref.s.ctx = 1
	_, c2 := newFake(t)
	c2.ref.s.ctx = 2
	s, closeS := fakeStream(c, 0x51)
	s2, closeS2 := fakeStream(c2, 0x61)
	if _, err := c.NewCachingAllocator(CachingOptions{Divisions: 3}); err == nil {
		t.Error("Divisions 3: no error")
	}
	other, err := c2.NewMemPool(MemPoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.NewCachingAllocator(CachingOptions{Pool: other}); !errors.Is(err, errPoolContext) {
		t.Errorf("a pool of another context: %v", err)
	}
	p, err := c.NewMemPool(MemPoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.NewCachingAllocator(CachingOptions{Pool: p})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AllocCached[float32](nil, s, 1); !errors.Is(err, errNilCache) {
		t.Errorf("nil allocator: %v", err)
	}
	if _, err := AllocCached[float32](a, nil, 1); !errors.Is(err, errNilStream) {
		t.Errorf("nil stream: %v", err)
	}
	if _, err := AllocCached[*int](a, s, 1); err == nil {
		t.Error("AllocCached[*int]: no error")
	}
	if _, err := AllocCached[float32](a, s, -1); err == nil {
		t.Error("AllocCached of -1: no error")
	}
	if _, err := AllocCached[float32](a, s2, 1); !errors.Is(err, errCacheContext) {
		t.Errorf("a stream of another context: %v", err)
	}
	s.st.capturing = true
	if _, err := AllocCached[float32](a, s, 1); !errors.Is(err, errCacheCapture) {
		t.Errorf("during a capture: %v", err)
	}
	s.st.capturing = false
	b := mustCached[float32](t, a, s, 10)
	f.mu.Lock()
	if got := f.mem.async[uint64(b.Ptr())].pool; got != p.Raw() {
		t.Errorf("block from pool %#x, want %#x", got, p.Raw())
	}
	f.mu.Unlock()
	e := mustCached[float32](t, a, s, 0)
	if e.Len() != 0 || e.Ptr() != 0 {
		t.Errorf("empty buffer: %d at %#x", e.Len(), e.Ptr())
	}
	mustClose(t, p.Close)
	if _, err := AllocCached[float32](a, s, 100); !errors.Is(err, ErrFreed) {
		t.Errorf("a miss after the pool's Close: %v", err)
	}
	mustClose(t, b.Close, e.Close)
	b = mustCached[float32](t, a, s, 10) // a hit needs no pool
	mustClose(t, b.Close)
	closeS()
	if _, err := AllocCached[float32](a, s, 10); !errors.Is(err, ErrFreed) {
		t.Errorf("AllocCached on a closed stream: %v", err)
	}
	mustClose(t, a.Close, other.Close, c2.Close, c.Close)
	closeS2()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// TestCachingAllocAllocs: a cached allocation and its Close cost one Go
// allocation, the Buffer the caller gets (it cannot be recycled: a Buffer
// used after its Close must answer ErrFreed); the block's record, the
// lists and the driver cost none.
func TestCachingAllocAllocs(t *testing.T) {
	_, c, s := fakeContextStream(t, 0x51)
	a, err := c.NewCachingAllocator(CachingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	mustClose(t, mustCached[float32](t, a, s, 64).Close) // the first is a miss
	n := testing.AllocsPerRun(1000, func() {
		b, err := AllocCached[float32](a, s, 64)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("allocations per AllocCached+Close: %v", n)
	if n != 1 {
		t.Errorf("%v allocations per AllocCached+Close, want 1", n)
	}
	if st := a.Stats(); st.Misses != 1 {
		t.Errorf("stats %+v: a hit missed", st)
	}
}

// TestCachingAllocConcurrent: goroutines allocating and closing on two
// streams at once, with Trim racing them, and the buffers' last Closes
// racing the allocator's Close: every block is freed once, on its
// stream, and each hit and miss is counted (run with -race).
func TestCachingAllocConcurrent(t *testing.T) {
	f, c := newFake(t)
	s1, close1 := fakeStream(c, 0x51)
	s2, close2 := fakeStream(c, 0x52)
	a, err := c.NewCachingAllocator(CachingOptions{MaxCached: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	const workers, rounds = 8, 300
	var wg sync.WaitGroup
	last := make(chan *Buffer[byte], workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := s1
			if w%2 == 1 {
				s = s2
			}
			var keep *Buffer[byte]
			for i := range rounds {
				b, err := AllocCached[byte](a, s, 256<<(i%7))
				if err != nil {
					t.Error(err)
					return
				}
				if i%50 == 0 && w == 0 {
					if err := a.Trim(); err != nil {
						t.Error(err)
					}
				}
				if keep != nil {
					if err := keep.Close(); err != nil {
						t.Error(err)
					}
				}
				keep = b
			}
			last <- keep
		}()
	}
	wg.Wait()
	close(last)
	var closes sync.WaitGroup
	for b := range last {
		closes.Add(1)
		go func() {
			defer closes.Done()
			if err := b.Close(); err != nil {
				t.Error(err)
			}
		}()
	}
	mustClose(t, a.Close)
	closes.Wait()
	st := a.Stats()
	if st.Hits+st.Misses != workers*rounds || st.InUse != 0 || st.Cached != 0 {
		t.Errorf("stats %+v, want %d allocations, none in use or cached", st, workers*rounds)
	}
	if st.Released != st.Misses {
		t.Errorf("%d blocks released of %d allocated", st.Released, st.Misses)
	}
	close1()
	close2()
	c.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// oomFake is the fake driver with a device of limit bytes: an allocation
// beyond is CUDA_ERROR_OUT_OF_MEMORY.
type oomFake struct {
	*fakeDriver
	limit uint64
}

func (o *oomFake) memAllocAsync(bytes uint64, pool cu.MemoryPool, st cu.Stream) (cu.Deviceptr, error) {
	o.mu.Lock()
	used := uint64(0)
	for _, a := range o.mem.async {
		used += a.bytes
	}
	o.mu.Unlock()
	if used+bytes > o.limit {
		return 0, cu.ErrorOutOfMemory
	}
	return o.fakeDriver.memAllocAsync(bytes, pool, st)
}

// TestCachingAllocOutOfMemory: a miss the driver refuses for want of
// memory frees the cached blocks and asks again; with nothing cached, the
// driver's error is returned.
func TestCachingAllocOutOfMemory(t *testing.T) {
	f, c := newFake(t)
	c.ref.s.drv = &oomFake{fakeDriver: f, limit: 4096}
	defer c.Close()
	s, closeS := fakeStream(c, 0x51)
	defer closeS()
	a, err := c.NewCachingAllocator(CachingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	x, y := mustCached[byte](t, a, s, 1024), mustCached[byte](t, a, s, 2048)
	mustClose(t, x.Close, y.Close) // 3 KiB cached
	z := mustCached[byte](t, a, s, 4096)
	if st := a.Stats(); st.Cached != 0 || st.Released != 2 || st.InUse != 4096 {
		t.Errorf("stats %+v, want the cache freed for the 4 KiB", st)
	}
	if _, err := AllocCached[byte](a, s, 512); !errors.Is(err, cu.ErrorOutOfMemory) {
		t.Errorf("beyond the device with nothing cached: %v", err)
	}
	mustClose(t, z.Close)
}

// TestCachingAllocUnreachable: a cached buffer dropped unclosed returns its
// block to the cache when it is collected, and an allocator dropped
// unclosed frees its cache.
func TestCachingAllocUnreachable(t *testing.T) {
	f, c, s := fakeContextStream(t, 0x51)
	a, err := c.NewCachingAllocator(CachingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cc := a.c
	func() { mustCached[byte](t, a, s, 4096) }()
	wait := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not after 10s", what)
			}
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
	}
	wait("the dropped buffer's block back in the cache", func() bool { return a.Stats().Cached == 4096 })
	a = nil
	wait("the dropped allocator's cache freed", func() bool {
		_, _, live := fakeFrees(f)
		return live == 0 && cc.isClosed()
	})
}

// mixedSizes is BenchmarkAllocAsyncMixed's sequence (gpu_bench_test.go) and
// examples/allocBench's: 256 B << (x >> 33 % 19) for an LCG x.
func mixedSizes(pairs int) []int {
	sizes := make([]int, pairs)
	x := uint64(1)
	for i := range sizes {
		x = x*6364136223846793005 + 1442695040888963407
		sizes[i] = 256 << (x >> 33 % 19)
	}
	return sizes
}

// mixedRound is one round of the mixed benchmark: the pairs of sizes
// through alloc and Close, live buffers at a time, then the last closes.
func mixedRound(tb testing.TB, sizes []int, alloc func(n int) (*Buffer[byte], error)) {
	const live = 16
	var ring [live]*Buffer[byte]
	for i, n := range sizes {
		if x := ring[i%live]; x != nil {
			if err := x.Close(); err != nil {
				tb.Fatal(err)
			}
		}
		x, err := alloc(n)
		if err != nil {
			tb.Fatal(err)
		}
		ring[i%live] = x
	}
	for _, x := range ring {
		if err := x.Close(); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkFakeCachingAllocMixed is the mixed-size sequence (100k pairs,
// 16 live, one stream) through AllocCached and through AllocAsync on the
// fake driver: the layer's own cost per pair, the driver's left out.
func BenchmarkFakeCachingAllocMixed(b *testing.B) {
	f, c := newFake(b)
	f.quiet = true
	defer c.Close()
	s, closeS := fakeStream(c, 0x51)
	defer closeS()
	const pairs = 100_000
	sizes := mixedSizes(pairs)
	b.Run("layer-caching", func(b *testing.B) {
		a, err := c.NewCachingAllocator(CachingOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer a.Close()
		alloc := func(n int) (*Buffer[byte], error) { return AllocCached[byte](a, s, n) }
		mixedRound(b, sizes, alloc) // warm: the blocks
		b.ReportAllocs()
		for b.Loop() {
			mixedRound(b, sizes, alloc)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*pairs), "ns/pair")
		st := a.Stats()
		b.ReportMetric(float64(st.Hits)/float64(st.Hits+st.Misses), "hits/alloc")
	})
	b.Run("layer", func(b *testing.B) {
		alloc := func(n int) (*Buffer[byte], error) { return AllocAsync[byte](s, n) }
		b.ReportAllocs()
		for b.Loop() {
			mixedRound(b, sizes, alloc)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*pairs), "ns/pair")
	})
}

// TestCachingAllocClosedStream: with no bound, the blocks of a closed
// stream are freed when a new stream's first block comes back (a stream
// per task does not fill the cache), and a buffer closed after its stream
// frees its block at once: no allocation could take it.
func TestCachingAllocClosedStream(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	a, err := c.NewCachingAllocator(CachingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	s1, close1 := fakeStream(c, 0x51)
	x, y := mustCached[byte](t, a, s1, 1024), mustCached[byte](t, a, s1, 1024)
	mustClose(t, x.Close)
	close1()
	mustClose(t, y.Close) // its stream is closed: freed, not cached
	if _, sync, live := fakeFrees(f); sync != 1 || live != 1 {
		t.Fatalf("%d synchronous frees, %d live; want y's block freed, x's cached", sync, live)
	}
	s2, close2 := fakeStream(c, 0x52)
	defer close2()
	z := mustCached[byte](t, a, s2, 1024)
	mustClose(t, z.Close) // s2's first block: x's, of the closed stream, goes
	if _, sync, live := fakeFrees(f); sync != 2 || live != 1 {
		t.Fatalf("%d synchronous frees, %d live; want the closed stream's block freed", sync, live)
	}
	if st := a.Stats(); st.Cached != 1024 || st.Released != 2 {
		t.Errorf("stats %+v", st)
	}
}
