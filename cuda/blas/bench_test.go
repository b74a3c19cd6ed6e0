package blas

import (
	"runtime"
	"testing"
	"time"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cublas"
	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
)

// The speed of a call of this package against the raw generated call it
// makes (cublas.Sgemm on the same handle, buffers and stream, the context
// current on a locked thread), interleaved in one process: each iteration
// times both, in alternating order, each to the end of its work on the
// stream. They report raw-ns/gemm, blas-ns/gemm and blas/raw (the target:
// under 1.01).

// gemmPair is one GEMM both ways: C = A·B row-major through blas.Gemm,
// and the cublas.Sgemm call it makes (Cᵀ = Bᵀ·Aᵀ column-major).
type gemmPair struct {
	ctx     *cuda.Context
	s       *cuda.Stream
	h       *Handle
	a, b, c Matrix[float32]
	n       int32
}

func newGemmPair(b *testing.B, n int) *gemmPair {
	ctx, s, h := gpuHandle(b)
	p := &gemmPair{ctx: ctx, s: s, h: h, n: int32(n)}
	for _, m := range []*Matrix[float32]{&p.a, &p.b, &p.c} {
		buf, err := cuda.Alloc[float32](ctx, n*n)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { buf.Close() })
		if err := buf.Fill(0.5); err != nil {
			b.Fatal(err)
		}
		*m = Dense(buf, n, n)
	}
	if err := p.viaBlas(1); err != nil { // host pointer mode set, cuBLAS warm
		b.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		b.Fatal(err)
	}
	return p
}

// viaBlas queues calls GEMMs through Gemm.
func (p *gemmPair) viaBlas(calls int) error {
	for range calls {
		if err := Gemm(p.h, NoTrans, NoTrans, 1, p.a, p.b, 0, p.c); err != nil {
			return err
		}
	}
	return nil
}

// viaRaw queues calls GEMMs through cublas.Sgemm, in one Context.Do.
func (p *gemmPair) viaRaw(calls int) error {
	one, zero := float32(1), float32(0)
	pa := ffi.DevicePtr[float32](p.a.Buf.Ptr())
	pb := ffi.DevicePtr[float32](p.b.Buf.Ptr())
	pc := ffi.DevicePtr[float32](p.c.Buf.Ptr())
	n := p.n
	return p.ctx.Do(func() error {
		for range calls {
			if err := cublas.Sgemm(p.h.Raw(), cublas.OpN, cublas.OpN, n, n, n, ffi.Host(&one), pb, n, pa, n, ffi.Host(&zero), pc, n); err != nil {
				return err
			}
		}
		return nil
	})
}

// timed runs f and waits for the stream.
func (p *gemmPair) timed(b *testing.B, f func(int) error, calls int) time.Duration {
	start := time.Now()
	if err := f(calls); err != nil {
		b.Fatal(err)
	}
	if err := p.s.Synchronize(); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// run interleaves rounds blocks of calls GEMMs each way per iteration.
func (p *gemmPair) run(b *testing.B, rounds, calls int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var raw, via time.Duration
	b.ResetTimer()
	for i := range b.N {
		for r := range rounds {
			if (i+r)%2 == 0 {
				raw += p.timed(b, p.viaRaw, calls)
				via += p.timed(b, p.viaBlas, calls)
			} else {
				via += p.timed(b, p.viaBlas, calls)
				raw += p.timed(b, p.viaRaw, calls)
			}
		}
	}
	total := float64(b.N * rounds * calls)
	b.ReportMetric(float64(raw.Nanoseconds())/total, "raw-ns/gemm")
	b.ReportMetric(float64(via.Nanoseconds())/total, "blas-ns/gemm")
	b.ReportMetric(float64(via)/float64(raw), "blas/raw")
}

// BenchmarkGemm8192: one float32 GEMM of 8192³, each way, per round.
func BenchmarkGemm8192(b *testing.B) {
	newGemmPair(b, 8192).run(b, 2, 1)
}

// BenchmarkSmallGemm100k: 100,000 float32 GEMMs of 32³ each way per
// iteration, in blocks of 1000 alternating.
func BenchmarkSmallGemm100k(b *testing.B) {
	newGemmPair(b, 32).run(b, 100, 1000)
}

// BenchmarkGemmCallOverhead: the Go side of one small Gemm call alone
// (the checks, the handle's lock, Stream.Call), against the raw call's,
// with no synchronization: what the package adds per call.
func BenchmarkGemmCallOverhead(b *testing.B) {
	p := newGemmPair(b, 16)
	b.Run("raw", func(b *testing.B) {
		one, zero := float32(1), float32(0)
		pa := ffi.DevicePtr[float32](p.a.Buf.Ptr())
		n := p.n
		p.ctx.Do(func() error {
			for range b.N {
				if err := cublas.Sgemm(p.h.Raw(), cublas.OpN, cublas.OpN, n, n, n, ffi.Host(&one), pa, n, pa, n, ffi.Host(&zero), ffi.DevicePtr[float32](p.c.Buf.Ptr()), n); err != nil {
					b.Fatal(err)
				}
			}
			return nil
		})
		p.s.Synchronize()
	})
	b.Run("blas", func(b *testing.B) {
		for range b.N {
			if err := Gemm(p.h, NoTrans, NoTrans, 1, p.a, p.a, 0, p.c); err != nil {
				b.Fatal(err)
			}
		}
		p.s.Synchronize()
	})
}

// BenchmarkSmallGemmScope is issue 41's GEMM row: 32³ float32 GEMMs in
// blocks of 1000, three ways interleaved in one process (the order
// rotating each iteration): raw (cublas.Sgemm in one Context.Do), blas
// (Gemm), and scope (Gemm inside one Context.Run a block, the handle,
// the stream and the three buffers held by the scope). It reports
// <way>-ns/gemm and <way>/raw (medians of the blocks); the target is
// scope/raw <= 1.01.
func BenchmarkSmallGemmScope(b *testing.B) {
	p := newGemmPair(b, 32)
	const calls = 1000
	sync := func(err error) {
		if err == nil {
			err = p.s.Synchronize()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	ways := []func(){
		func() { sync(p.viaRaw(calls)) },
		func() { sync(p.viaBlas(calls)) },
		func() {
			sync(p.ctx.Run(func(bd *cuda.Bound) error {
				if err := bd.Hold(p.h.Operand(), p.a.Buf, p.b.Buf, p.c.Buf); err != nil {
					return err
				}
				if err := bd.HoldStream(p.s); err != nil {
					return err
				}
				return p.viaBlas(calls)
			}))
		},
	}
	names := []string{"raw", "blas", "scope"}
	times := cugentest.InterleaveAll(b, ways...)
	for i, n := range names {
		b.ReportMetric(float64(times[i].Median().Nanoseconds())/calls, n+"-ns/gemm")
		if i > 0 {
			b.ReportMetric(float64(times[i].Median())/float64(times[0].Median()), n+"/raw")
		}
	}
}
