package cuda

import (
	"runtime"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/generated/cuda12/cu"
)

// The layer's own cost per call, against the raw cu package's, in blocks
// of overheadBlock calls alternating in one process. On a GPU it is the
// ratio of issue 27; against a stand-in libcuda whose entry points return
// at once (testdata/stubcuda, mk/stubbench.sh) the difference of the two
// columns is exactly what the layer adds. Each column is the median and
// the fastest of its blocks: on a shared machine a block that was
// preempted is slower, never faster, so the fastest is the cost itself.

const overheadBlock = 1000

// overheadPair runs layer and raw, each a block of overheadBlock calls,
// alternately (which goes first alternates too) b.N times, and reports
// ns per call of each.
func overheadPair(b *testing.B, unit string, layer, raw func()) {
	layer()
	raw()
	var tl, tr []float64
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		ways := [2]func(){layer, raw}
		times := [2]*[]float64{&tl, &tr}
		if i%2 == 1 {
			ways[0], ways[1] = ways[1], ways[0]
			times[0], times[1] = times[1], times[0]
		}
		for j := range ways {
			t0 := time.Now()
			ways[j]()
			*times[j] = append(*times[j], float64(time.Since(t0).Nanoseconds())/overheadBlock)
		}
	}
	b.StopTimer()
	slices.Sort(tl)
	slices.Sort(tr)
	ml, mr := tl[len(tl)/2], tr[len(tr)/2]
	b.ReportMetric(ml, "layer-ns/"+unit)
	b.ReportMetric(mr, "raw-ns/"+unit)
	b.ReportMetric(tl[0], "layer-min-ns/"+unit)
	b.ReportMetric(tr[0], "raw-min-ns/"+unit)
	b.ReportMetric(ml/mr, "ratio")
	b.Logf("%s: layer %.1f ns (fastest %.1f), raw %.1f ns (fastest %.1f): +%.1f ns (fastest +%.1f), %.3fx, %d blocks of %d",
		unit, ml, tl[0], mr, tr[0], ml-mr, tl[0]-tr[0], ml/mr, len(tl), overheadBlock)
}

// BenchmarkLaunchOverhead is Kernel.Launch of saxpy's 4 arguments (two
// buffers) on a stream against cu.LaunchKernel of the same, the raw calls
// on a thread locked, with the context current, for the block (as a C
// loop or a careful Go program calls them).
func BenchmarkLaunchOverhead(b *testing.B) {
	c := gpuContext(b)
	saxpy, _ := gpuKernels(b, c)
	x, err := Alloc[float32](c, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	s, err := c.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	cfg := Config{Stream: s}
	alpha, n := float32(1), int32(0)
	xp := x.Ptr()
	raw := []unsafe.Pointer{unsafe.Pointer(&alpha), unsafe.Pointer(&xp), unsafe.Pointer(&xp), unsafe.Pointer(&n)}
	overheadPair(b, "launch", func() {
		for range overheadBlock {
			if err := saxpy.Launch(cfg, alpha, x, x, n); err != nil {
				b.Fatal(err)
			}
		}
		s.Synchronize()
	}, func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cu.CtxSetCurrent(c.Raw()); err != nil {
			b.Fatal(err)
		}
		for range overheadBlock {
			if err := cu.LaunchKernel(saxpy.Raw(), 1, 1, 1, 1, 1, 1, 0, s.Raw(), raw, nil); err != nil {
				b.Fatal(err)
			}
		}
		cu.StreamSynchronize(s.Raw())
	})
}

// BenchmarkAllocAsyncOverhead is AllocAsync and Close of one 256-byte
// buffer against cu.MemAllocAsync and cu.MemFreeAsync, per pair.
func BenchmarkAllocAsyncOverhead(b *testing.B) {
	c := gpuContext(b)
	s, err := c.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	overheadPair(b, "pair", func() {
		for range overheadBlock {
			x, err := AllocAsync[byte](s, 256)
			if err != nil {
				b.Fatal(err)
			}
			if err := x.Close(); err != nil {
				b.Fatal(err)
			}
		}
		s.Synchronize()
	}, func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cu.CtxSetCurrent(c.Raw()); err != nil {
			b.Fatal(err)
		}
		for range overheadBlock {
			x, err := cu.MemAllocAsync(256, s.Raw())
			if err != nil {
				b.Fatal(err)
			}
			if err := cu.MemFreeAsync(x, s.Raw()); err != nil {
				b.Fatal(err)
			}
		}
		cu.StreamSynchronize(s.Raw())
	})
}
