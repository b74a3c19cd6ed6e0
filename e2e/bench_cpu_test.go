package e2e

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/e2e/internal/cgoshim"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
	"github.com/ebitengine/purego"
)

// Benchmarks that need no GPU: they run against Debian's libcuda and
// libcudart on the CPU-only machines too (make bench).

func needDriver(b *testing.B) {
	b.Helper()
	if err := cu.SharedLibrary().Load(); err != nil {
		b.Skipf("no CUDA driver library: %v", err)
	}
}

func BenchmarkDriverGetVersion(b *testing.B) {
	needDriver(b)
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cu.DriverGetVersion(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("syscallN", func(b *testing.B) {
		d, _ := rawLibs(b)
		fn := sym(b, d, "cuDriverGetVersion")
		var v int32
		b.ReportAllocs()
		for b.Loop() {
			if r, _, _ := purego.SyscallN(fn, uintptr(unsafe.Pointer(&v))); r != 0 {
				b.Fatal(r)
			}
		}
	})
	b.Run("cgo", func(b *testing.B) {
		cgoOpen(b)
		b.ReportAllocs()
		for b.Loop() {
			if _, r := cgoshim.DriverGetVersion(); r != 0 {
				b.Fatal(r)
			}
		}
	})
}

func BenchmarkCudaGetErrorName(b *testing.B) {
	if err := cudart.SharedLibrary().Load(); err != nil {
		b.Skipf("no CUDA runtime library: %v", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if s := cudart.GetErrorName(cudart.ErrorInvalidDevice); s != "cudaErrorInvalidDevice" {
			b.Fatal(s)
		}
	}
}

// BenchmarkErrorPath is a failing call: cuCtxGetCurrent before cuInit (on a
// machine without a GPU cuInit never succeeds). The error is cached per
// function and code, so the error path allocates nothing either.
func BenchmarkErrorPath(b *testing.B) {
	needDriver(b)
	if _, err := cu.CtxGetCurrent(); !errors.Is(err, cu.ErrorNotInitialized) {
		b.Skipf("the driver is initialised (%v): this benchmark needs a fresh process", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cu.CtxGetCurrent(); err == nil {
			b.Fatal("no error")
		}
	}
}
