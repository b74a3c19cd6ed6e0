//go:build linux

package e2e

import (
	"os"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/internal/cgoshim"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
	"github.com/ebitengine/purego"
)

// The benchmarks compare one CUDA call made four ways: through the generated
// package, through purego.SyscallN directly, through cgo (cgoshim, when the
// binary is built with CGO_ENABLED=1) and, outside Go, from C
// (testdata/bench.c). BENCHMARKS.md has the numbers and the commands.

// rawLibs dlopens the libraries for the SyscallN column.
func rawLibs(b *testing.B) (cuda, cudartH uintptr) {
	b.Helper()
	d, err := purego.Dlopen(libPath("CUGEN_LIBCUDA", "libcuda.so.1"), purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		cugentest.SkipNoGPU(b, "no CUDA driver library: %v", err)
	}
	r, err := purego.Dlopen(libPath("CUGEN_LIBCUDART", "libcudart.so.12"), purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		cugentest.SkipNoLib(b, "%v", err)
	}
	return d, r
}

func libPath(env, def string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	return def
}

func sym(b *testing.B, lib uintptr, name string) uintptr {
	b.Helper()
	a, err := purego.Dlsym(lib, name)
	if err != nil {
		b.Fatal(err)
	}
	return a
}

func cgoOpen(b *testing.B) {
	b.Helper()
	if !cgoshim.Available {
		b.Skip("built without cgo (CGO_ENABLED=0)")
	}
	if err := cgoshim.Open(libPath("CUGEN_LIBCUDA", "libcuda.so.1"), libPath("CUGEN_LIBCUDART", "libcudart.so.12")); err != nil {
		cugentest.SkipNoLib(b, "%v", err)
	}
}

// run is b.Run with the parent's CUDA context current in the sub-benchmark:
// b.Run runs f on a goroutine of its own, and CUDA's current context
// belongs to the OS thread, so f's goroutine is locked to its thread and
// gets the context (and the runtime's current device) again.
func run(b *testing.B, name string, f func(b *testing.B)) {
	ctx, err := cu.CtxGetCurrent()
	if err != nil || ctx == 0 {
		b.Fatalf("no current context to hand to %s: %v", name, err)
	}
	b.Run(name, func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cu.CtxSetCurrent(ctx); err != nil {
			b.Fatal(err)
		}
		if err := cudart.SetDevice(0); err != nil {
			b.Fatal(err)
		}
		f(b)
	})
}

func BenchmarkCtxGetCurrent(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	run(b, "generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cu.CtxGetCurrent(); err != nil {
				b.Fatal(err)
			}
		}
	})
	run(b, "syscallN", func(b *testing.B) {
		d, _ := rawLibs(b)
		fn := sym(b, d, "cuCtxGetCurrent")
		var c uintptr
		b.ReportAllocs()
		for b.Loop() {
			if r, _, _ := purego.SyscallN(fn, uintptr(unsafe.Pointer(&c))); r != 0 {
				b.Fatal(r)
			}
		}
	})
	run(b, "cgo", func(b *testing.B) {
		cgoOpen(b)
		b.ReportAllocs()
		for b.Loop() {
			if _, r := cgoshim.CtxGetCurrent(); r != 0 {
				b.Fatal(r)
			}
		}
	})
}

func BenchmarkCudaGetDevice(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	if err := cudart.SetDevice(0); err != nil {
		b.Fatal(err)
	}
	run(b, "generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cudart.GetDevice(); err != nil {
				b.Fatal(err)
			}
		}
	})
	run(b, "syscallN", func(b *testing.B) {
		_, r := rawLibs(b)
		fn := sym(b, r, "cudaGetDevice")
		var d int32
		b.ReportAllocs()
		for b.Loop() {
			if rc, _, _ := purego.SyscallN(fn, uintptr(unsafe.Pointer(&d))); rc != 0 {
				b.Fatal(rc)
			}
		}
	})
	run(b, "cgo", func(b *testing.B) {
		cgoOpen(b)
		b.ReportAllocs()
		for b.Loop() {
			if _, r := cgoshim.GetDevice(); r != 0 {
				b.Fatal(r)
			}
		}
	})
}

func BenchmarkDeviceGet(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	run(b, "generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cu.DeviceGet(0); err != nil {
				b.Fatal(err)
			}
		}
	})
	run(b, "syscallN", func(b *testing.B) {
		d, _ := rawLibs(b)
		fn := sym(b, d, "cuDeviceGet")
		var dev int32
		b.ReportAllocs()
		for b.Loop() {
			if r, _, _ := purego.SyscallN(fn, uintptr(unsafe.Pointer(&dev)), 0); r != 0 {
				b.Fatal(r)
			}
		}
	})
	run(b, "cgo", func(b *testing.B) {
		cgoOpen(b)
		b.ReportAllocs()
		for b.Loop() {
			if _, r := cgoshim.DeviceGet(0); r != 0 {
				b.Fatal(r)
			}
		}
	})
}

func BenchmarkMemcpyHtoD8B(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	dst, err := cu.MemAlloc(8)
	if err != nil {
		b.Fatal(err)
	}
	defer cu.MemFree(dst)
	src := new(uint64)
	run(b, "generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := cu.MemcpyHtoD(dst, unsafe.Pointer(src), 8); err != nil {
				b.Fatal(err)
			}
		}
	})
	run(b, "syscallN", func(b *testing.B) {
		d, _ := rawLibs(b)
		fn := sym(b, d, "cuMemcpyHtoD_v2")
		b.ReportAllocs()
		for b.Loop() {
			if r, _, _ := purego.SyscallN(fn, uintptr(dst), uintptr(unsafe.Pointer(src)), 8); r != 0 {
				b.Fatal(r)
			}
		}
	})
	run(b, "cgo", func(b *testing.B) {
		cgoOpen(b)
		b.ReportAllocs()
		for b.Loop() {
			if r := cgoshim.MemcpyHtoD(uint64(dst), unsafe.Pointer(src), 8); r != 0 {
				b.Fatal(r)
			}
		}
	})
	runtime.KeepAlive(src)
}

// BenchmarkLaunchEmpty launches an empty kernel (one thread) b.N times and
// waits for all of them, the wait inside the timing as in bench.c: ns/op is
// the launch throughput.
func BenchmarkLaunchEmpty(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	mod, _, empty := loadPTX(b)
	defer cu.ModuleUnload(mod)
	run(b, "generated", func(b *testing.B) {
		launchRate(b, func() int32 {
			if err := cu.LaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, 0, nil, nil); err != nil {
				b.Fatal(err)
			}
			return 0
		})
	})
	run(b, "syscallN", func(b *testing.B) {
		d, _ := rawLibs(b)
		fn := sym(b, d, "cuLaunchKernel")
		launchRate(b, func() int32 {
			r, _, _ := purego.SyscallN(fn, uintptr(empty), 1, 1, 1, 1, 1, 1, 0, 0, 0, 0)
			return int32(r)
		})
	})
	run(b, "cgo", func(b *testing.B) {
		cgoOpen(b)
		launchRate(b, func() int32 { return cgoshim.LaunchEmpty(uintptr(empty)) })
	})
}

// launchRate runs launch b.N times and waits for the kernels, all timed.
func launchRate(b *testing.B, launch func() int32) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if r := launch(); r != 0 {
			b.Fatal(r)
		}
	}
	if err := cu.CtxSynchronize(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkLaunchSubmit is the CPU's cost of one launch while the launch
// queue has room: b.N launches in bursts of 64, the wait for each burst
// untimed. Set beside BenchmarkLaunchEmpty it tells whether the launch rate
// is bound by the caller or by the GPU.
func BenchmarkLaunchSubmit(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	mod, _, empty := loadPTX(b)
	defer cu.ModuleUnload(mod)
	run(b, "generated", func(b *testing.B) {
		launchBursts(b, func() int32 {
			if err := cu.LaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, 0, nil, nil); err != nil {
				b.Fatal(err)
			}
			return 0
		})
	})
	run(b, "cgo", func(b *testing.B) {
		cgoOpen(b)
		launchBursts(b, func() int32 { return cgoshim.LaunchEmpty(uintptr(empty)) })
	})
}

// launchBursts times b.N launches made 64 at a time; between bursts, with
// the timer stopped, it waits for the kernels so each burst meets an empty
// queue.
func launchBursts(b *testing.B, launch func() int32) {
	const burst = 64
	b.ReportAllocs()
	for i := 0; i < b.N; {
		n := min(burst, b.N-i)
		for range n {
			if r := launch(); r != 0 {
				b.Fatal(r)
			}
		}
		i += n
		b.StopTimer()
		if err := cu.CtxSynchronize(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkLaunchInterleaved measures the launch rate three ways in one
// process, in alternating blocks of 1000 launches (each block waits for its
// kernels, inside the timing): through the generated package, through cgo,
// and from a C loop in this process (one cgo call per block, so no Go-to-C
// transition per launch). The order rotates every round. On a machine whose
// speed drifts by 10-20% between runs (the H200 VM), interleaving cancels the
// drift that separate benchmarks and separate processes cannot: the metrics
// are ns/launch for each way, the generated launch rate as a percentage
// of the C loop's, and gen/C, the generated loop's time over C's (the raw /
// C row of mk/bench-table.py). ns/op is the generated ns/launch; b.N
// launches each way.
func BenchmarkLaunchInterleaved(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	mod, _, empty := loadPTX(b)
	defer cu.ModuleUnload(mod)
	cgoOpen(b)
	run(b, "rotate", func(b *testing.B) {
		ways := [...]func(n int) int32{
			func(n int) int32 { // generated
				for range n {
					if err := cu.LaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, 0, nil, nil); err != nil {
						b.Fatal(err)
					}
				}
				return 0
			},
			func(n int) int32 { // cgo
				for range n {
					if r := cgoshim.LaunchEmpty(uintptr(empty)); r != 0 {
						return r
					}
				}
				return 0
			},
			func(n int) int32 { return cgoshim.LaunchLoop(uintptr(empty), n) }, // C loop
		}
		spent := rotate(b, ways[:], 1000, true)
		perLaunch := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
		b.ReportMetric(perLaunch(spent[0]), "ns/op")
		b.ReportMetric(perLaunch(spent[1]), "cgo-ns/launch")
		b.ReportMetric(perLaunch(spent[2]), "C-ns/launch")
		b.ReportMetric(100*float64(spent[2])/float64(spent[0]), "gen-rate-%C")
		b.ReportMetric(float64(spent[0])/float64(spent[2]), "gen/C")
	})
}

// rotate runs b.N calls of each way in blocks, rotating the order every
// round, and returns the time each way took: the ways see the same drift of
// the machine (see BenchmarkLaunchInterleaved). With wait, each block's time
// includes waiting for the device. A way returns a nonzero C result to fail.
// The interleaved benchmarks report no allocations: they would mix the ways'
// (the cgo shim allocates); the per-way benchmarks report them.
func rotate(b *testing.B, ways []func(n int) int32, block int, wait bool) []time.Duration {
	spent := make([]time.Duration, len(ways))
	for round, done := 0, 0; done < b.N; round++ {
		n := min(block, b.N-done)
		for k := range ways {
			w := (round + k) % len(ways)
			start := time.Now()
			if r := ways[w](n); r != 0 {
				b.Fatal(r)
			}
			if wait {
				if err := cu.CtxSynchronize(); err != nil {
					b.Fatal(err)
				}
			}
			spent[w] += time.Since(start)
		}
		done += n
	}
	return spent
}

// BenchmarkCallInterleaved times the cheap calls of the cgo comparison
// through the generated package, through cgo, and through cgo with the
// #cgo noescape annotation (no allocation), in rotating blocks of 1000
// calls (as BenchmarkLaunchInterleaved does for launches), so the ratios do
// not depend on which of separate benchmarks met the machine at a slower
// moment. ns/op is the generated call; gen/cgo and gen/cgo-noescape are the
// ratios.
func BenchmarkCallInterleaved(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	if err := cudart.SetDevice(0); err != nil {
		b.Fatal(err)
	}
	calls := []struct {
		name               string
		gen, cgo, noEscape func() int32
	}{
		{"CtxGetCurrent", func() int32 {
			if _, err := cu.CtxGetCurrent(); err != nil {
				b.Fatal(err)
			}
			return 0
		}, func() int32 { _, r := cgoshim.CtxGetCurrent(); return r },
			func() int32 { _, r := cgoshim.CtxGetCurrentNoEscape(); return r }},
		{"CudaGetDevice", func() int32 {
			if _, err := cudart.GetDevice(); err != nil {
				b.Fatal(err)
			}
			return 0
		}, func() int32 { _, r := cgoshim.GetDevice(); return r },
			func() int32 { _, r := cgoshim.GetDeviceNoEscape(); return r }},
		{"DeviceGet", func() int32 {
			if _, err := cu.DeviceGet(0); err != nil {
				b.Fatal(err)
			}
			return 0
		}, func() int32 { _, r := cgoshim.DeviceGet(0); return r },
			func() int32 { _, r := cgoshim.DeviceGetNoEscape(0); return r }},
	}
	for _, c := range calls {
		run(b, c.name, func(b *testing.B) {
			cgoOpen(b)
			loop := func(call func() int32) func(n int) int32 {
				return func(n int) int32 {
					for range n {
						if r := call(); r != 0 {
							return r
						}
					}
					return 0
				}
			}
			spent := rotate(b, []func(int) int32{loop(c.gen), loop(c.cgo), loop(c.noEscape)}, 1000, false)
			b.ReportMetric(float64(spent[0].Nanoseconds())/float64(b.N), "ns/op")
			b.ReportMetric(float64(spent[1].Nanoseconds())/float64(b.N), "cgo-ns/call")
			b.ReportMetric(float64(spent[2].Nanoseconds())/float64(b.N), "cgo-noescape-ns/call")
			b.ReportMetric(float64(spent[0])/float64(spent[1]), "gen/cgo")
			b.ReportMetric(float64(spent[0])/float64(spent[2]), "gen/cgo-noescape")
		})
	}
}

// graphKernels is the number of empty-kernel nodes in BenchmarkGraphLaunch's
// graph (and bench.c's).
const graphKernels = 100

// BenchmarkGraphLaunch launches a CUDA graph of graphKernels empty kernels,
// captured from a stream, b.N times and waits for them, the wait inside the
// timing: one Go-to-C call starts graphKernels kernels, so the per-call cost
// that separates a Go launch from a C one (BENCHMARKS.md) is spread over
// them. ns/op is per graph; ns/kernel per kernel.
func BenchmarkGraphLaunch(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	mod, _, empty := loadPTX(b)
	defer cu.ModuleUnload(mod)
	stream, err := cu.StreamCreate(uint32(cu.StreamNonBlocking))
	if err != nil {
		b.Fatal(err)
	}
	defer cu.StreamDestroy(stream)
	if err := cu.StreamBeginCapture(stream, cu.StreamCaptureModeThreadLocal); err != nil {
		b.Fatal(err)
	}
	for range graphKernels {
		if err := cu.LaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, stream, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
	graph, err := cu.StreamEndCapture(stream)
	if err != nil {
		b.Fatal(err)
	}
	defer cu.GraphDestroy(graph)
	exec, err := cu.GraphInstantiate(graph, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer cu.GraphExecDestroy(exec)
	graphRate := func(b *testing.B, launch func() int32) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if r := launch(); r != 0 {
				b.Fatal(r)
			}
		}
		if err := cu.StreamSynchronize(stream); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*graphKernels), "ns/kernel")
	}
	run(b, "generated", func(b *testing.B) {
		graphRate(b, func() int32 {
			if err := cu.GraphLaunch(exec, stream); err != nil {
				b.Fatal(err)
			}
			return 0
		})
	})
	run(b, "cgo", func(b *testing.B) {
		cgoOpen(b)
		graphRate(b, func() int32 { return cgoshim.GraphLaunch(uintptr(exec), uintptr(stream)) })
	})
}

// BenchmarkMemcpy256MB copies 256 MB from pinned host memory to the device
// with cudaMemcpy (MB/s in the output is the bandwidth).
func BenchmarkMemcpy256MB(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	const size = 256 << 20
	host, dev, free := pinnedBuffers(b, size)
	defer free()
	run(b, "generated", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if err := cudart.Memcpy(dev, host, size, cudart.MemcpyHostToDevice); err != nil {
				b.Fatal(err)
			}
		}
	})
	run(b, "syscallN", func(b *testing.B) {
		_, r := rawLibs(b)
		fn := sym(b, r, "cudaMemcpy")
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if rc, _, _ := purego.SyscallN(fn, uintptr(dev), uintptr(host), size, 1); rc != 0 {
				b.Fatal(rc)
			}
		}
	})
	run(b, "cgo", func(b *testing.B) {
		cgoOpen(b)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if r := cgoshim.Memcpy(dev, host, size, 1); r != 0 {
				b.Fatal(r)
			}
		}
	})
}
