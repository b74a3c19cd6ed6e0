package e2e

import (
	"os"
	"runtime"
	"testing"
	"unsafe"

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
		b.Skip(err)
	}
	r, err := purego.Dlopen(libPath("CUGEN_LIBCUDART", "libcudart.so.12"), purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		b.Skip(err)
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
		b.Skip(err)
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
// waits for all of them: ns/op is the launch throughput.
func BenchmarkLaunchEmpty(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	mod, _, empty := loadPTX(b)
	defer cu.ModuleUnload(mod)
	run(b, "generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := cu.LaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, 0, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
		if err := cu.CtxSynchronize(); err != nil {
			b.Fatal(err)
		}
	})
	run(b, "syscallN", func(b *testing.B) {
		d, _ := rawLibs(b)
		fn := sym(b, d, "cuLaunchKernel")
		b.ReportAllocs()
		for b.Loop() {
			if r, _, _ := purego.SyscallN(fn, uintptr(empty), 1, 1, 1, 1, 1, 1, 0, 0, 0, 0); r != 0 {
				b.Fatal(r)
			}
		}
		cu.CtxSynchronize()
	})
	run(b, "cgo", func(b *testing.B) {
		cgoOpen(b)
		b.ReportAllocs()
		for b.Loop() {
			if r := cgoshim.LaunchEmpty(uintptr(empty)); r != 0 {
				b.Fatal(r)
			}
		}
		cu.CtxSynchronize()
	})
}

// BenchmarkLaunchLoopInC launches the empty kernel b.N times from one C
// loop inside this Go process: the launch rate of a Go process without a
// Go-to-C transition per launch, to tell the transition's cost from the
// process's (see BENCHMARKS.md).
func BenchmarkLaunchLoopInC(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	mod, _, empty := loadPTX(b)
	defer cu.ModuleUnload(mod)
	cgoOpen(b)
	run(b, "cloop", func(b *testing.B) {
		b.ResetTimer()
		if r := cgoshim.LaunchLoop(uintptr(empty), b.N); r != 0 {
			b.Fatal(r)
		}
		cu.CtxSynchronize()
	})
}

// BenchmarkMemcpy256MB copies 256 MB from pinned host memory to the device
// with cudaMemcpy (MB/s in the output is the bandwidth).
func BenchmarkMemcpy256MB(b *testing.B) {
	_, done := gpu12(b)
	defer done()
	if err := cudart.SetDevice(0); err != nil {
		b.Fatal(err)
	}
	const size = 256 << 20
	host, err := cudart.MallocHost(size)
	if err != nil {
		b.Fatal(err)
	}
	defer cudart.FreeHost(host)
	dev, err := cudart.Malloc(size)
	if err != nil {
		b.Fatal(err)
	}
	defer cudart.Free(dev)
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
