//go:build linux && (amd64 || arm64)

package ffiimpl_test

import (
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/ffi/ffiimpl"
	"github.com/ebitengine/purego"
)

// Benchmarks of one call of a trivial C function (testdata/abi.c b0, b2, b6,
// bf) through ffiimpl.Call and ffiimpl.CallInts as generated code makes them, and
// through purego.

func BenchmarkCall(b *testing.B) {
	b0, b2, b6, bf := fn(b, "b0"), fn(b, "b2"), fn(b, "b6"), fn(b, "bf")
	var x int32

	b.Run("ffi/0args", func(b *testing.B) {
		for b.Loop() {
			var f ffiimpl.Frame
			ffiimpl.Call(b0, &f)
			_ = int32(f.Ret())
		}
	})
	b.Run("ffi/2args", func(b *testing.B) {
		for b.Loop() {
			var f ffiimpl.Frame
			f.Int(uintptr(unsafe.Pointer(&x)))
			f.Int(7)
			ffiimpl.Call(b2, &f)
			_ = int32(f.Ret())
		}
	})
	b.Run("ffi/6args", func(b *testing.B) {
		for b.Loop() {
			var f ffiimpl.Frame
			f.Int(uintptr(unsafe.Pointer(&x)))
			f.Int(uintptr(unsafe.Pointer(&x)))
			f.Int(1 << 20)
			f.Int(3)
			f.Int(4)
			f.Int(0)
			ffiimpl.Call(b6, &f)
			_ = int32(f.Ret())
		}
	})
	b.Run("ffi/mixed", func(b *testing.B) {
		for b.Loop() {
			var f ffiimpl.Frame
			f.Int(1)
			f.Float32(2)
			f.Float64(3)
			f.Float32(4)
			ffiimpl.Call(bf, &f)
			_ = f.RetFloat64()
		}
	})

	b.Run("CallInts/0args", func(b *testing.B) {
		for b.Loop() {
			r := ffiimpl.CallInts(b0, 0, 0, 0, 0, 0, 0)
			_ = int32(r)
		}
	})
	b.Run("CallInts/2args", func(b *testing.B) {
		for b.Loop() {
			r := ffiimpl.CallInts(b2, uintptr(unsafe.Pointer(&x)), 7, 0, 0, 0, 0)
			_ = int32(r)
		}
	})
	b.Run("CallInts/6args", func(b *testing.B) {
		for b.Loop() {
			r := ffiimpl.CallInts(b6, uintptr(unsafe.Pointer(&x)), uintptr(unsafe.Pointer(&x)), 1<<20, 3, 4, 0)
			_ = int32(r)
		}
	})

	b.Run("SyscallN/0args", func(b *testing.B) {
		for b.Loop() {
			purego.SyscallN(b0)
		}
	})
	b.Run("SyscallN/2args", func(b *testing.B) {
		for b.Loop() {
			purego.SyscallN(b2, uintptr(unsafe.Pointer(&x)), 7)
		}
	})
	b.Run("SyscallN/6args", func(b *testing.B) {
		for b.Loop() {
			purego.SyscallN(b6, uintptr(unsafe.Pointer(&x)), uintptr(unsafe.Pointer(&x)), 1<<20, 3, 4, 0)
		}
	})
	// SyscallN cannot call bf: it puts every argument in both register files.

	var (
		r0 func() int32
		r2 func(unsafe.Pointer, int32) int32
		r6 func(unsafe.Pointer, unsafe.Pointer, uintptr, int32, int32, unsafe.Pointer) int32
		rf func(int32, float32, float64, float32) float64
	)
	purego.RegisterFunc(&r0, b0)
	purego.RegisterFunc(&r2, b2)
	purego.RegisterFunc(&r6, b6)
	purego.RegisterFunc(&rf, bf)
	b.Run("RegisterFunc/0args", func(b *testing.B) {
		for b.Loop() {
			r0()
		}
	})
	b.Run("RegisterFunc/2args", func(b *testing.B) {
		for b.Loop() {
			r2(unsafe.Pointer(&x), 7)
		}
	})
	b.Run("RegisterFunc/6args", func(b *testing.B) {
		for b.Loop() {
			r6(unsafe.Pointer(&x), unsafe.Pointer(&x), 1<<20, 3, 4, nil)
		}
	})
	b.Run("RegisterFunc/mixed", func(b *testing.B) {
		for b.Loop() {
			rf(1, 2, 3, 4)
		}
	})
}

// BenchmarkProcAddr is the per-call cost of finding the function.
func BenchmarkProcAddr(b *testing.B) {
	needABI(b)
	p := abiLib.NewProc("b0", "")
	for b.Loop() {
		p.Addr()
	}
}

// BenchmarkCallIntsVsFrame times the same 2-argument call through CallInts
// and through a Frame in alternating blocks of 1000 calls, so the two see
// the same drift of the machine: ns/op is CallInts, frame-ns the Frame.
func BenchmarkCallIntsVsFrame(b *testing.B) {
	b2 := fn(b, "b2")
	var x int32
	var ints, frame time.Duration
	for done := 0; done < b.N; done += 1000 {
		start := time.Now()
		for range 1000 {
			r := ffiimpl.CallInts(b2, uintptr(unsafe.Pointer(&x)), 7, 0, 0, 0, 0)
			_ = int32(r)
		}
		mid := time.Now()
		for range 1000 {
			var f ffiimpl.Frame
			f.Int(uintptr(unsafe.Pointer(&x)))
			f.Int(7)
			ffiimpl.Call(b2, &f)
			_ = int32(f.Ret())
		}
		ints += mid.Sub(start)
		frame += time.Since(mid)
	}
	n := float64((b.N + 999) / 1000 * 1000)
	b.ReportMetric(float64(ints.Nanoseconds())/n, "ns/op")
	b.ReportMetric(float64(frame.Nanoseconds())/n, "frame-ns")
}
