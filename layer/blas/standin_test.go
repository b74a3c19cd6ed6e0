package blas

import (
	"testing"

	"github.com/cugen/cugen/cugentest/standin"
	"github.com/cugen/cugen/generated/cuda12/cublas"
	"github.com/cugen/cugen/generated/cuda12/cufft"
	"github.com/cugen/cugen/generated/cuda12/curand"
	"github.com/cugen/cugen/generated/cuda12/cusolver"
	"github.com/cugen/cugen/generated/cuda12/cusparse"
	"github.com/cugen/cugen/layer"
)

// These run on stand-ins for the driver and cuBLAS (package
// cugentest/standin): C functions that return success and count their
// calls, in a fresh process, without a GPU. They measure what the
// package adds to the cuBLAS call it makes, and count the calls it makes
// besides.

var majors = standin.Majors{CUBLAS: cublas.VerMajor, CURAND: curand.VerMajor, CUFFT: cufft.VerMajor,
	CUSPARSE: cusparse.VerMajor, CUSOLVER: cusolver.VerMajor}

// standinPair is a GEMM of n³ on the stand-ins, both ways.
func standinPair(tb testing.TB, n int) *gemmPair {
	tb.Helper()
	ctx, err := cuda.NewContext(0)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ctx.Close() })
	s, err := ctx.NewStream()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	h, err := New(ctx, s)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { h.Close() })
	p := &gemmPair{ctx: ctx, s: s, h: h, n: int32(n)}
	for _, m := range []*Matrix[float32]{&p.a, &p.b, &p.c} {
		buf, err := cuda.Alloc[float32](ctx, n*n)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { buf.Close() })
		*m = Dense(buf, n, n)
	}
	return p
}

// TestStandinStreamBoundOnce: the handle is bound to its stream once, by
// New: the calls after it do not call cublasSetStream again, nor
// cublasSetPointerMode once the mode is set.
func TestStandinStreamBoundOnce(t *testing.T) {
	if !standin.Run(t, majors) {
		return
	}
	p := standinPair(t, 8)
	lib := cublas.SharedLibrary()
	if n := standin.Count(t, lib, "cublasSetStream_v2"); n != 1 {
		t.Fatalf("New called cublasSetStream %d times, want 1", n)
	}
	for range 3 {
		if err := p.viaBlas(1); err != nil {
			t.Fatal(err)
		}
	}
	if n := standin.Count(t, lib, "cublasSgemm_v2"); n != 3 {
		t.Errorf("3 Gemm calls made %d cublasSgemm calls", n)
	}
	if n := standin.Count(t, lib, "cublasSetStream_v2"); n != 1 {
		t.Errorf("after 3 Gemm calls on the handle's stream: %d cublasSetStream calls, want the 1 of New", n)
	}
	if n := standin.Count(t, lib, "cublasSetPointerMode_v2"); n != 0 {
		t.Errorf("3 Gemm calls in host pointer mode (the mode a handle starts in) set it %d times, want 0", n)
	}
}

// BenchmarkStandinGemm: Gemm of 32³ against the cublas.Sgemm it makes
// (in one Context.Do), on the stand-ins: what the package adds to a call
// (standin.Pair's over-ns/call).
func BenchmarkStandinGemm(b *testing.B) {
	if !standin.Run(b, majors) {
		return
	}
	p := standinPair(b, 32)
	standin.Pair(b, 1000, func(n int) {
		if err := p.viaRaw(n); err != nil {
			b.Fatal(err)
		}
	}, func(n int) {
		if err := p.viaBlas(n); err != nil {
			b.Fatal(err)
		}
	})
}
