package algo

import (
	"math/rand/v2"
	"testing"

	"github.com/cugen/cugen/cuda"
)

// TestGPUAllocator: with Lib.SetAllocator, the sorts and scans take their
// temporary storage from the caching allocator and give it back at the
// call's end: their results are checked as without it (gpuSort,
// gpuScan); afterwards no block is held, and a call of a size already
// seen on the stream is served from the cache alone (no miss).
func TestGPUAllocator(t *testing.T) {
	ctx, a, s := gpuLib(t)
	ca, err := ctx.NewCachingAllocator(cuda.CachingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close()
	a.SetAllocator(ca)
	defer a.SetAllocator(nil)
	t.Run("float32", func(t *testing.T) { gpuSort[float32](t, ctx, a, s); gpuScan[float32](t, ctx, a, s) })
	t.Run("int64", func(t *testing.T) { gpuSort[int64](t, ctx, a, s); gpuScan[int64](t, ctx, a, s) })
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	st := ca.Stats()
	t.Logf("after the sorts and scans: %+v", st)
	if st.Hits == 0 || st.Misses == 0 {
		t.Errorf("stats %+v: want both hits and misses", st)
	}
	if st.InUse != 0 {
		t.Errorf("stats %+v: %d bytes still held after every call returned", st, st.InUse)
	}
	const n = 1<<20 + 1
	in, out, vin, vout, closeAll := pairBuffers(t, ctx, data[float32](rand.New(rand.NewPCG(9, 9)), n))
	defer closeAll()
	if err := SortPairs(a, s, in, out, vin, vout); err != nil { // a size seen: its blocks are cached now
		t.Fatal(err)
	}
	before := ca.Stats()
	for range 3 {
		if err := SortPairs(a, s, in, out, vin, vout); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if after := ca.Stats(); after.Misses != before.Misses || after.Hits <= before.Hits {
		t.Errorf("three SortPairs of a size seen: misses %d -> %d, hits %d -> %d; want no new miss", before.Misses, after.Misses, before.Hits, after.Hits)
	}
}
