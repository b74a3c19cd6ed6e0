package cuda

import (
	"runtime"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cugentest"
)

// Where the layer's cost per call goes: the raw call, then the raw call
// with one part of what the layer does added, then the layer, in blocks
// of overheadBlock calls, every way in turn (the first way rotates), in
// one process. On the GPU host the difference between two neighbouring
// ways is what that part costs there, which a stand-in driver on another
// CPU (mk/stubbench.sh) does not tell: the cost of the same Go code after
// a real driver call is several times larger (BENCHMARKS.md).

// part is one way of a parts benchmark: a block of overheadBlock calls.
type part struct {
	name  string
	block func()
}

// runParts runs the ways of parts in turn ([cugentest.InterleaveAll])
// and reports the median ns per call of each as NAME-ns/unit.
func runParts(b *testing.B, unit string, parts []part) {
	ways := make([]func(), len(parts))
	for i, p := range parts {
		ways[i] = p.block
	}
	b.ReportAllocs()
	times := cugentest.InterleaveAll(b, ways...)
	for j, p := range parts {
		m := float64(times[j].Median().Nanoseconds()) / overheadBlock
		b.ReportMetric(m, p.name+"-ns/"+unit)
		b.Logf("%-14s %8.1f ns/%s (fastest %.1f), %d blocks of %d", p.name, m, unit, float64(times[j].Min().Nanoseconds())/overheadBlock, len(times[j]), overheadBlock)
	}
}

// BenchmarkLaunchParts: cu.LaunchKernel of saxpy in one Context.Do (raw),
// the same with the thread locked and unlocked around each launch
// (rawlock), Kernel.Launch of the argument-less kernel (layer0), of saxpy
// with device pointers for its buffers (layerptr) and with the buffers
// (layer).
func BenchmarkLaunchParts(b *testing.B) {
	c, s, saxpy, empty, x := saxpySetup(b)
	cfg := Config{Stream: s}
	alpha, n := float32(1), int32(0)
	xp := x.Ptr()
	args := []unsafe.Pointer{unsafe.Pointer(&alpha), unsafe.Pointer(&xp), unsafe.Pointer(&xp), unsafe.Pointer(&n)}
	check := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	layer := func(launch func() error) func() {
		return func() {
			for range overheadBlock {
				check(launch())
			}
			check(s.Synchronize())
		}
	}
	runParts(b, "launch", []part{
		{"raw", func() {
			check(c.Do(func() error {
				for range overheadBlock {
					check(cu.LaunchKernel(saxpy.Raw(), 1, 1, 1, 1, 1, 1, 0, s.Raw(), args, nil))
				}
				return cu.StreamSynchronize(s.Raw())
			}))
		}},
		{"rawlock", func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			check(cu.CtxSetCurrent(c.Raw()))
			for range overheadBlock {
				runtime.LockOSThread()
				check(cu.LaunchKernel(saxpy.Raw(), 1, 1, 1, 1, 1, 1, 0, s.Raw(), args, nil))
				runtime.UnlockOSThread()
			}
			check(cu.StreamSynchronize(s.Raw()))
		}},
		{"layer0", layer(func() error { return empty.Launch(cfg) })},
		{"layerptr", layer(func() error { return saxpy.Launch(cfg, alpha, xp, xp, n) })},
		{"layer", layer(func() error { return saxpy.Launch(cfg, alpha, x, x, n) })},
	})
}

// BenchmarkAllocAsyncParts: 256-byte cuMemAllocAsync and cuMemFreeAsync
// pairs on one stream, 16 live, in one Context.Do (raw), the same with
// the Go object the layer makes for each buffer (rawobj), with each call
// in a Context.Do of its own (rawdo: a locked thread, a check of the
// current context, a closure), and AllocAsync with Close (layer).
func BenchmarkAllocAsyncParts(b *testing.B) {
	c := gpuContext(b)
	s, err := c.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	const live = 16
	check := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	var objs [live]*bufObject[byte]
	raw := func(obj bool) func() {
		return func() {
			var ring [live]cu.Deviceptr
			check(c.Do(func() error {
				for i := range overheadBlock {
					if p := ring[i%live]; p != 0 {
						check(cu.MemFreeAsync(p, s.Raw()))
					}
					p, err := cu.MemAllocAsync(256, s.Raw())
					check(err)
					ring[i%live] = p
					if obj {
						objs[i%live] = &bufObject[byte]{}
					}
				}
				for _, p := range ring {
					check(cu.MemFreeAsync(p, s.Raw()))
				}
				return cu.StreamSynchronize(s.Raw())
			}))
		}
	}
	runParts(b, "pair", []part{
		{"raw", raw(false)},
		{"rawobj", raw(true)},
		{"rawdo", func() {
			var ring [live]cu.Deviceptr
			for i := range overheadBlock {
				if p := ring[i%live]; p != 0 {
					check(c.Do(func() error { return cu.MemFreeAsync(p, s.Raw()) }))
				}
				check(c.Do(func() error {
					p, err := cu.MemAllocAsync(256, s.Raw())
					ring[i%live] = p
					return err
				}))
			}
			check(c.Do(func() error {
				for _, p := range ring {
					check(cu.MemFreeAsync(p, s.Raw()))
				}
				return cu.StreamSynchronize(s.Raw())
			}))
		}},
		{"layer", func() {
			var ring [live]*Buffer[byte]
			for i := range overheadBlock {
				if x := ring[i%live]; x != nil {
					check(x.Close())
				}
				x, err := AllocAsync[byte](s, 256)
				check(err)
				ring[i%live] = x
			}
			for _, x := range ring {
				check(x.Close())
			}
			check(s.Synchronize())
		}},
	})
	runtime.KeepAlive(objs)
}
