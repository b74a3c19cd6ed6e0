package cuda

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cugentest"
)

// The rows of issue 41's table, each measured with its baseline in one
// process: every iteration runs each way once, a block of overheadBlock
// calls that waits for its work, the way that goes first rotating
// (cugentest.InterleaveAll). Each benchmark reports ns per call of every
// way ("<way>-ns/<unit>", the median block) and each way's ratio to the
// raw calls ("<way>/raw", medians; under 1.0 is faster than raw), for
// mk/gpu-report.py or a script to tabulate. Without a GPU they skip
// (fail under CUGEN_REQUIRE_GPU=1).

// reportWays reports the ways' times: names[i] is ways[i]'s, and the way
// named "raw" is the baseline of the ratios.
func reportWays(b *testing.B, unit string, names []string, ways ...func()) {
	b.ReportAllocs()
	times := cugentest.InterleaveAll(b, ways...)
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / overheadBlock }
	raw := -1
	for i, n := range names {
		if n == "raw" {
			raw = i
		}
	}
	var line strings.Builder
	for i, n := range names {
		med := per(times[i].Median())
		b.ReportMetric(med, n+"-ns/"+unit)
		fmt.Fprintf(&line, " %s %.1f ns", n, med)
		if raw >= 0 && i != raw {
			r := float64(times[i].Median()) / float64(times[raw].Median())
			b.ReportMetric(r, n+"/raw")
			fmt.Fprintf(&line, " (%.3fx raw)", r)
		}
	}
	b.Logf("%s, medians of %d blocks of %d:%s", unit, len(times[0]), overheadBlock, line.String())
}

// BenchmarkScopeLaunch is the launch rows: saxpy's 4 arguments on a
// stream, n = 0 (no work), five ways: raw (cu.LaunchKernel with a
// prebuilt argument array, the thread locked and the context current for
// the block), layer (Kernel.Launch), scope (Kernel.Launch inside one
// Context.Run a block), typed (Kernel.LaunchFrame of a Frame packed as a
// launcher of cugen kernels packs it), typed-scope (the same in a Run).
// Targets of issue 41: typed/raw <= 1.01, scope/raw <= 1.02.
func BenchmarkScopeLaunch(b *testing.B) {
	c, s, saxpy, _, x := saxpySetup(b)
	cfg := Config{Stream: s}
	alpha, n := float32(1), int32(0)
	xp := x.Ptr()
	args := []unsafe.Pointer{unsafe.Pointer(&alpha), unsafe.Pointer(&xp), unsafe.Pointer(&xp), unsafe.Pointer(&n)}
	layer := func() {
		for range overheadBlock {
			if err := saxpy.Launch(cfg, alpha, x, x, n); err != nil {
				b.Fatal(err)
			}
		}
	}
	typed := func() {
		for range overheadBlock {
			var f Frame // what a launcher of cugen kernels does
			Arg(&f, 0, 0, alpha)
			ArgBuffer(&f, 1, 8, x)
			ArgBuffer(&f, 2, 16, x)
			Arg(&f, 3, 24, n)
			if err := saxpy.LaunchFrame(cfg, &f); err != nil {
				b.Fatal(err)
			}
		}
	}
	scoped := func(body func()) func() {
		return func() {
			if err := c.Run(func(*Bound) error {
				body()
				return s.Synchronize()
			}); err != nil {
				b.Fatal(err)
			}
		}
	}
	synced := func(body func()) func() {
		return func() {
			body()
			if err := s.Synchronize(); err != nil {
				b.Fatal(err)
			}
		}
	}
	raw := rawBlock(b, c, s, func() {
		for range overheadBlock {
			if err := cu.LaunchKernel(saxpy.Raw(), 1, 1, 1, 1, 1, 1, 0, s.Raw(), args, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	reportWays(b, "launch", []string{"raw", "layer", "scope", "typed", "typed-scope"},
		raw, synced(layer), scoped(layer), synced(typed), scoped(typed))
}

// BenchmarkScopeAllocAsync is the AllocAsync row: AllocAsync and Close of
// one 256-byte buffer, per pair, three ways: raw (cu.MemAllocAsync and
// cu.MemFreeAsync), layer, and scope (inside one Context.Run a block,
// the stream held by the scope). Target of issue 41: scope/raw <= 1.10.
func BenchmarkScopeAllocAsync(b *testing.B) {
	c := gpuContext(b)
	s := gpuStream(b, c)
	pairs := func() {
		for range overheadBlock {
			x, err := AllocAsync[byte](s, 256)
			if err != nil {
				b.Fatal(err)
			}
			if err := x.Close(); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportWays(b, "pair", []string{"raw", "layer", "scope"},
		rawBlock(b, c, s, func() {
			for range overheadBlock {
				x, err := cu.MemAllocAsync(256, s.Raw())
				if err != nil {
					b.Fatal(err)
				}
				if err := cu.MemFreeAsync(x, s.Raw()); err != nil {
					b.Fatal(err)
				}
			}
		}),
		func() {
			pairs()
			s.Synchronize()
		},
		func() {
			if err := c.Run(func(bd *Bound) error {
				if err := bd.HoldStream(s); err != nil {
					return err
				}
				pairs()
				return s.Synchronize()
			}); err != nil {
				b.Fatal(err)
			}
		})
}

// BenchmarkRawLaunchSubmit is the raw Go loop that mk/gpu-profile.sh
// profiles beside e2e/testdata/bench.c's "submit" loop: b.N launches of
// the argument-less kernel on the legacy default stream through the
// generated cu.LaunchKernel, on one locked thread with the context
// current: C's loop, call for call (submitBursts). Against the stand-in
// libcuda of mk/stubbench.sh it measures the crossing's CPU cost alone.
func BenchmarkRawLaunchSubmit(b *testing.B) {
	c := gpuContext(b)
	_, empty := gpuKernels(b, c)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cu.CtxSetCurrent(c.Raw()); err != nil {
		b.Fatal(err)
	}
	fn := empty.Raw()
	submitBursts(b, "launch", func() error { return cu.LaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, nil, nil) })
}

// BenchmarkTypedLaunchSubmit is BenchmarkRawLaunchSubmit's loop through
// the layer: the same kernel and stream, launched as a launcher of cugen
// kernels launches it (Kernel.LaunchFrame), inside one Context.Run.
// mk/gpu-profile.sh profiles it beside the raw loop: the difference is
// what the layer's checks cost a launch, and where.
func BenchmarkTypedLaunchSubmit(b *testing.B) {
	c := gpuContext(b)
	_, empty := gpuKernels(b, c)
	if err := c.Run(func(*Bound) error {
		var f Frame // the kernel takes no arguments
		submitBursts(b, "launch", func() error { return empty.LaunchFrame(Config{}, &f) })
		return nil
	}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRawAllocSubmit is the raw loop of AllocAsync's row for
// mk/gpu-profile.sh: b.N pairs of cu.MemAllocAsync and cu.MemFreeAsync of
// 256 bytes on a stream, on one locked thread with the context current,
// in submitBursts' bursts.
func BenchmarkRawAllocSubmit(b *testing.B) {
	c := gpuContext(b)
	s := gpuStream(b, c)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cu.CtxSetCurrent(c.Raw()); err != nil {
		b.Fatal(err)
	}
	h := s.Raw()
	submitBursts(b, "pair", func() error {
		p, err := cu.MemAllocAsync(256, h)
		if err != nil {
			return err
		}
		return cu.MemFreeAsync(p, h)
	})
}

// BenchmarkScopeAllocSubmit is BenchmarkRawAllocSubmit's pairs through
// the layer: AllocAsync and Close inside one Context.Run that holds the
// stream (the scope row of BenchmarkScopeAllocAsync).
func BenchmarkScopeAllocSubmit(b *testing.B) {
	c := gpuContext(b)
	s := gpuStream(b, c)
	if err := c.Run(func(bd *Bound) error {
		if err := bd.HoldStream(s); err != nil {
			return err
		}
		submitBursts(b, "pair", func() error {
			x, err := AllocAsync[byte](s, 256)
			if err != nil {
				return err
			}
			return x.Close()
		})
		return nil
	}); err != nil {
		b.Fatal(err)
	}
}

// submitBursts runs b.N calls of op in bursts of 64 with a wait between
// bursts, on the calling thread, and reports the calls' own time
// (submit-ns/UNIT: the waits are in ns/op, not in it) and allocs/op.
func submitBursts(b *testing.B, unit string, op func() error) {
	b.ReportAllocs()
	var spent time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; {
		n := min(64, b.N-i)
		t0 := time.Now()
		for range n {
			if err := op(); err != nil {
				b.Fatal(err)
			}
		}
		spent += time.Since(t0)
		i += n
		// b.StopTimer would stop the world to read the memory
		// statistics each burst
		if err := cu.CtxSynchronize(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(spent.Nanoseconds())/float64(b.N), "submit-ns/"+unit)
}
