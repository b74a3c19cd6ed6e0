package cuda

import (
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cugentest"
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
	b.ReportAllocs()
	tl, tr := cugentest.Interleave(b, layer, raw)
	perCall := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / overheadBlock }
	ml, mr, fl, fr := perCall(tl.Median()), perCall(tr.Median()), perCall(tl.Min()), perCall(tr.Min())
	b.ReportMetric(ml, "layer-ns/"+unit)
	b.ReportMetric(mr, "raw-ns/"+unit)
	b.ReportMetric(fl, "layer-min-ns/"+unit)
	b.ReportMetric(fr, "raw-min-ns/"+unit)
	b.ReportMetric(ml/mr, "ratio")
	b.Logf("%s: layer %.1f ns (fastest %.1f), raw %.1f ns (fastest %.1f): +%.1f ns (fastest +%.1f), %.3fx, %d blocks of %d",
		unit, ml, fl, mr, fr, ml-mr, fl-fr, ml/mr, len(tl), overheadBlock)
}

// rawBlock returns the raw way of a benchmark: body (a block of raw
// calls) on a locked thread with c current, then a wait for s, as a C
// loop or a careful Go program runs it.
func rawBlock(b *testing.B, c *Context, s *Stream, body func()) func() {
	return func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cu.CtxSetCurrent(c.Raw()); err != nil {
			b.Fatal(err)
		}
		body()
		cu.StreamSynchronize(s.Raw())
	}
}

// BenchmarkLaunchOverhead is Kernel.Launch of saxpy's 4 arguments (two
// buffers) on a stream against cu.LaunchKernel of the same, the raw calls
// on a thread locked, with the context current, for the block (as a C
// loop or a careful Go program calls them).
func BenchmarkLaunchOverhead(b *testing.B) {
	layer, raw := saxpyLaunchWays(b)
	overheadPair(b, "launch", layer, raw)
}

// saxpyLaunchWays are the two ways of BenchmarkLaunchOverhead and
// BenchmarkLaunchInterleaved, each a block of overheadBlock launches of
// the 4-argument saxpy (n = 0: no work) on a new stream, then a wait
// for them: through Kernel.Launch, and through cu.LaunchKernel with a
// prebuilt argument array (rawBlock).
func saxpyLaunchWays(b *testing.B) (layer, raw func()) {
	c, s, saxpy, _, x := saxpySetup(b)
	cfg := Config{Stream: s}
	alpha, n := float32(1), int32(0)
	xp := x.Ptr()
	args := []unsafe.Pointer{unsafe.Pointer(&alpha), unsafe.Pointer(&xp), unsafe.Pointer(&xp), unsafe.Pointer(&n)}
	return func() {
			for range overheadBlock {
				if err := saxpy.Launch(cfg, alpha, x, x, n); err != nil {
					b.Fatal(err)
				}
			}
			s.Synchronize()
		}, rawBlock(b, c, s, func() {
			for range overheadBlock {
				if err := cu.LaunchKernel(saxpy.Raw(), 1, 1, 1, 1, 1, 1, 0, s.Raw(), args, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
}

// saxpySetup returns what the launch benchmarks launch with: a context, a
// stream, the saxpy and argument-less kernels and a one-element buffer,
// closed when b ends.
func saxpySetup(b *testing.B) (c *Context, s *Stream, saxpy, empty *Kernel, x *Buffer[float32]) {
	c = gpuContext(b)
	saxpy, empty = gpuKernels(b, c)
	var err error
	if x, err = Alloc[float32](c, 1); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { x.Close() })
	if s, err = c.NewStream(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return c, s, saxpy, empty, x
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
	}, rawBlock(b, c, s, func() {
		for range overheadBlock {
			x, err := cu.MemAllocAsync(256, s.Raw())
			if err != nil {
				b.Fatal(err)
			}
			if err := cu.MemFreeAsync(x, s.Raw()); err != nil {
				b.Fatal(err)
			}
		}
	}))
}
