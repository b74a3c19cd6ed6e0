//go:build linux

package e2e

import (
	"errors"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/internal/cgoshim"
	"github.com/cugen/cugen/ffi/ffiimpl"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
	"github.com/ebitengine/purego"
)

// Benchmarks that need no GPU: they run against Debian's libcuda and
// libcudart on the CPU-only machines too (make bench).

func needDriver(b *testing.B) {
	b.Helper()
	cugentest.NeedDevice(b, cu.SharedLibrary().Load()) // the driver library; no device needed
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

// BenchmarkDriverGetVersionInterleaved is BenchmarkDriverGetVersion's
// generated and cgo columns in rotating blocks of 1000 calls (see
// BenchmarkCallInterleaved), plus cgo with #cgo noescape, which does not
// allocate, and the two ffiimpl call paths on the symbol without the generated
// wrapper: ns/op is the generated call, gen/cgo and gen/cgo-noescape the
// ratios.
func BenchmarkDriverGetVersionInterleaved(b *testing.B) {
	needDriver(b)
	cgoOpen(b)
	gen := func(n int) int32 {
		for range n {
			if _, err := cu.DriverGetVersion(); err != nil {
				b.Fatal(err)
			}
		}
		return 0
	}
	viaCgo := func(n int) int32 {
		for range n {
			if _, r := cgoshim.DriverGetVersion(); r != 0 {
				return r
			}
		}
		return 0
	}
	noEscape := func(n int) int32 {
		for range n {
			if _, r := cgoshim.DriverGetVersionNoEscape(); r != 0 {
				return r
			}
		}
		return 0
	}
	// The generated call's parts: ffiimpl.CallInts and ffiimpl.Call with a Frame on
	// the symbol's address, without the wrapper.
	d, _ := rawLibs(b)
	fn := sym(b, d, "cuDriverGetVersion")
	var v int32
	callInts := func(n int) int32 {
		for range n {
			if r := ffiimpl.CallInts(fn, uintptr(unsafe.Pointer(&v)), 0, 0, 0, 0, 0); r != 0 {
				return -1
			}
		}
		return 0
	}
	frame := func(n int) int32 {
		for range n {
			var f ffiimpl.Frame
			f.Int(uintptr(unsafe.Pointer(&v)))
			ffiimpl.Call(fn, &f)
			if f.Err() != nil || f.Ret() != 0 {
				return -1
			}
		}
		return 0
	}
	spent := rotate(b, []func(int) int32{gen, viaCgo, noEscape, callInts, frame}, 1000, false)
	perCall := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
	b.ReportMetric(perCall(spent[0]), "ns/op")
	b.ReportMetric(perCall(spent[1]), "cgo-ns/call")
	b.ReportMetric(perCall(spent[2]), "cgo-noescape-ns/call")
	b.ReportMetric(perCall(spent[3]), "callints-ns/call")
	b.ReportMetric(perCall(spent[4]), "frame-ns/call")
	b.ReportMetric(float64(spent[0])/float64(spent[1]), "gen/cgo")
	b.ReportMetric(float64(spent[0])/float64(spent[2]), "gen/cgo-noescape")
}

func BenchmarkCudaGetErrorName(b *testing.B) {
	cugentest.NeedLibrary(b, cudart.SharedLibrary().Load())
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
