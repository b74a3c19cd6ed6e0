package cuda

import (
	"runtime"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cugentest"
)

// BenchmarkLaunchInterleaved launches the 4-argument saxpy (n = 0: no
// work) through Kernel.Launch and through cu.LaunchKernel with a prebuilt
// argument array, in alternating blocks of 1000 that each wait for their
// kernels; it reports both and the layer's rate as a share of the raw.
func BenchmarkLaunchInterleaved(b *testing.B) {
	layer, direct := saxpyLaunchWays(b)
	b.ReportAllocs()
	times, rawTimes := cugentest.Interleave(b, layer, direct)
	tl, tr := times.Total(), rawTimes.Total()
	b.ReportMetric(float64(tl.Nanoseconds())/float64(b.N*overheadBlock), "layer-ns/launch")
	b.ReportMetric(float64(tr.Nanoseconds())/float64(b.N*overheadBlock), "raw-ns/launch")
	b.ReportMetric(100*float64(tr)/float64(tl), "layer-rate-%-of-raw")
}

// BenchmarkLaunchLayer is Kernel.Launch alone, for allocs/op.
func BenchmarkLaunchLayer(b *testing.B) {
	_, s, saxpy, _, x := saxpySetup(b)
	cfg := Config{Stream: s}
	alpha, n := float32(1), int32(0)
	b.ReportAllocs()
	for i := range b.N {
		if err := saxpy.Launch(cfg, alpha, x, x, n); err != nil {
			b.Fatal(err)
		}
		if i%1000 == 999 {
			s.Synchronize()
		}
	}
	s.Synchronize()
}

// BenchmarkCopyInterleaved copies 256 MB from pinned host memory to the
// device through Buffer.CopyFrom and through cu.MemcpyHtoD, alternating.
func BenchmarkCopyInterleaved(b *testing.B) {
	c := gpuContext(b)
	const n = 64 << 20 // float32s: 256 MB
	h, err := AllocHost[float32](c, n)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	d, err := Alloc[float32](c, n)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	src := h.Slice()
	layer := func() {
		if err := d.CopyFrom(src); err != nil {
			b.Fatal(err)
		}
	}
	direct := func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cu.CtxSetCurrent(c.Raw())
		if err := cu.MemcpyHtoD(d.Ptr(), h.Ptr(), n*4); err != nil {
			b.Fatal(err)
		}
	}
	times, rawTimes := cugentest.Interleave(b, layer, direct)
	tl, tr := times.Total(), rawTimes.Total()
	gb := float64(n*4) * float64(b.N) / 1e9
	b.ReportMetric(gb/tl.Seconds(), "layer-GB/s")
	b.ReportMetric(gb/tr.Seconds(), "raw-GB/s")
	b.ReportMetric(100*float64(tr)/float64(tl), "layer-%-of-raw")
	runtime.KeepAlive(h)
}

// BenchmarkBind is the cost of a call through the layer that only binds
// the context, as the layer's own calls do (remembered per thread: no
// cuCtxGetCurrent after the first); BenchmarkDo is Context.Do, which runs
// foreign code and so checks every time.
func BenchmarkBind(b *testing.B) {
	c := gpuContext(b)
	b.ReportAllocs()
	for range b.N {
		c.do(func(*ctxState) error { return nil })
	}
}

func BenchmarkDo(b *testing.B) {
	c := gpuContext(b)
	b.ReportAllocs()
	for range b.N {
		c.Do(func() error { return nil })
	}
}

// BenchmarkAllocAsyncMixed allocates and frees 100k buffers of mixed sizes
// (256 B to 64 MiB, log-uniform, the same seeded list for both) on one
// stream, 16 live at a time, through AllocAsync and Close (layer) and
// through cu.MemAllocAsync and cu.MemFreeAsync (raw); one op is the 100k
// pairs and a stream synchronisation. Run it with -count to interleave the
// two in one process.
func BenchmarkAllocAsyncMixed(b *testing.B) {
	c := gpuContext(b)
	s, err := c.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	const pairs, live = 100_000, 16
	sizes := make([]int, pairs)
	rng := uint64(1)
	for i := range sizes {
		rng = rng*6364136223846793005 + 1442695040888963407
		sizes[i] = 256 << (rng >> 33 % 19) // 256 B .. 64 MiB
	}
	b.Run("layer", func(b *testing.B) {
		var ring [live]*Buffer[byte]
		b.ReportAllocs()
		for b.Loop() {
			for i, n := range sizes {
				if x := ring[i%live]; x != nil {
					if err := x.Close(); err != nil {
						b.Fatal(err)
					}
				}
				x, err := AllocAsync[byte](s, n)
				if err != nil {
					b.Fatal(err)
				}
				ring[i%live] = x
			}
			for i, x := range ring {
				x.Close()
				ring[i] = nil
			}
			s.Synchronize()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*pairs), "ns/pair")
	})
	b.Run("raw", func(b *testing.B) {
		var ring [live]cu.Deviceptr
		b.ReportAllocs()
		for b.Loop() {
			c.Do(func() error {
				for i, n := range sizes {
					if x := ring[i%live]; x != 0 {
						if err := cu.MemFreeAsync(x, s.Raw()); err != nil {
							b.Fatal(err)
						}
					}
					x, err := cu.MemAllocAsync(uint64(n), s.Raw())
					if err != nil {
						b.Fatal(err)
					}
					ring[i%live] = x
				}
				for i, x := range ring {
					cu.MemFreeAsync(x, s.Raw())
					ring[i] = 0
				}
				return cu.StreamSynchronize(s.Raw())
			})
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*pairs), "ns/pair")
	})
}
