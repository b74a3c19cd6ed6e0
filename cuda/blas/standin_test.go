package blas

import (
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cublas"
	"github.com/cugen/cugen/cuda/sys/cufft"
	"github.com/cugen/cugen/cuda/sys/curand"
	"github.com/cugen/cugen/cuda/sys/cusolver"
	"github.com/cugen/cugen/cuda/sys/cusparse"
	"github.com/cugen/cugen/cugentest/standin"
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
	ctx := standin.Keep(cuda.NewContext(0))(tb)
	s := standin.Keep(ctx.NewStream())(tb)
	h := standin.Keep(New(ctx, s))(tb)
	p := &gemmPair{ctx: ctx, s: s, h: h, n: int32(n)}
	for _, m := range []*Matrix[float32]{&p.a, &p.b, &p.c} {
		*m = Dense(standin.Keep(cuda.Alloc[float32](ctx, n*n))(tb), n, n)
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

// BenchmarkStandinGemmScope is BenchmarkStandinGemm with the Gemm calls
// inside one Context.Run a block, the handle, stream and buffers held by
// the scope: what the package adds to a call in a bound scope.
func BenchmarkStandinGemmScope(b *testing.B) {
	if !standin.Run(b, majors) {
		return
	}
	p := standinPair(b, 32)
	standin.Pair(b, 1000, func(n int) {
		if err := p.viaRaw(n); err != nil {
			b.Fatal(err)
		}
	}, func(n int) {
		err := p.ctx.Run(func(bd *cuda.Bound) error {
			if err := bd.Hold(p.h.Operand(), p.a.Buf, p.b.Buf, p.c.Buf); err != nil {
				return err
			}
			if err := bd.HoldStream(p.s); err != nil {
				return err
			}
			return p.viaBlas(n)
		})
		if err != nil {
			b.Fatal(err)
		}
	})
}

// TestStandinGemmBatchedAllocs: GemmBatched over the same matrices
// allocates nothing once the handle's arrays have their size, and copies
// the addresses once; other matrices are copied again.
func TestStandinGemmBatchedAllocs(t *testing.T) {
	if !standin.Run(t, majors) {
		return
	}
	p := standinPair(t, 4)
	const batch = 8
	var a, b, c []Matrix[float32]
	for range batch {
		for _, ms := range []*[]Matrix[float32]{&a, &b, &c} {
			*ms = append(*ms, Dense(standin.Keep(cuda.Alloc[float32](p.ctx, 16))(t), 4, 4))
		}
	}
	call := func() {
		if err := GemmBatched(p.h, NoTrans, NoTrans, 1, a, b, 0, c); err != nil {
			t.Fatal(err)
		}
	}
	copies := func() int { return standin.Count(t, cu.SharedLibrary(), "cuMemcpyHtoDAsync_v2") }
	call()
	before := copies()
	if allocs := testing.AllocsPerRun(100, call); allocs != 0 {
		t.Errorf("%v allocations per GemmBatched of the same matrices, want 0", allocs)
	}
	if n := copies() - before; n != 0 {
		t.Errorf("101 calls on the same matrices copied the addresses %d more times, want 0", n)
	}
	a[0], a[1] = a[1], a[0]
	call()
	call()
	if n := copies() - before; n != 1 {
		t.Errorf("2 calls on other matrices copied the addresses %d times, want 1", n)
	}
	if n := standin.Count(t, cublas.SharedLibrary(), "cublasSgemmBatched"); n != 104 {
		t.Errorf("%d cublasSgemmBatched calls, want 104", n)
	}
}

// TestStandinSetStream: the handle's SetStream calls cublasSetStream only
// for another stream, and refuses a nil stream and a closed handle.
func TestStandinSetStream(t *testing.T) {
	if !standin.Run(t, majors) {
		return
	}
	p := standinPair(t, 8)
	s2 := standin.Keep(p.ctx.NewStream())(t)
	if err := p.h.SetWorkspace(1 << 20); err != nil {
		t.Fatal(err)
	}
	standin.CheckSetStream(t, cublas.SharedLibrary(), "cublasSetStream_v2", p.h, s2, func() error {
		// cublasSetStream dropped the workspace, as cuBLAS does: SetStream freed it.
		if p.h.own.workspace != nil {
			t.Error("SetStream kept the workspace cuBLAS dropped")
		}
		if err := p.viaBlas(1); err != nil {
			t.Fatal(err)
		}
		return p.h.Close()
	})
	if err := p.h.Close(); err != ErrClosed {
		t.Errorf("second Close: %v, want ErrClosed", err)
	}
}
