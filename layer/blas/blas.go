// Package blas is cuBLAS on the buffers of package cuda: a [Handle] bound
// to a context and a stream, and generic levels 1 to 3 over float32,
// float64, complex64 and complex128 on *cuda.Buffer[T].
//
// Import the copy for your CUDA major,
// github.com/cugen/cugen/generated/cuda13/cuda/blas (or cuda12), beside the
// cuda package of the same major.
//
//	h, err := blas.New(ctx, stream)
//	defer h.Close()
//	a := blas.RowMajor(bufA, m, k) // *cuda.Buffer[float32], m×k, rows of k
//	b := blas.RowMajor(bufB, k, n)
//	c := blas.RowMajor(bufC, m, n)
//	err = blas.Gemm(h, blas.NoTrans, blas.NoTrans, 1, a, b, 0, c) // c = a·b
//
// Every call is queued on the handle's stream; read the result after the
// stream's Synchronize or Wait (or a copy on the stream).
package blas

import (
	"errors"

	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cublas"
	"github.com/cugen/cugen/generated/cuda12/cudart"
	"github.com/cugen/cugen/layer"
)

// Handle is a cuBLAS handle (cublasHandle_t) bound to a context and a
// stream: every call of this package through it is queued on that stream.
// It is safe to use from one goroutine at a time, as cuBLAS's handle is.
// Close it when done; an unreachable Handle is destroyed by a cleanup.
type Handle struct {
	h      *cuda.Handle
	ctx    *cuda.Context
	stream *cuda.Stream
	raw    cublas.Handle
}

// ErrNilHandle is returned by a call through a nil *Handle.
var ErrNilHandle = errors.New("blas: nil *Handle")

// New creates a cuBLAS handle in ctx (cublasCreate) bound to stream
// (cublasSetStream), which must be of ctx.
func New(ctx *cuda.Context, stream *cuda.Stream) (*Handle, error) {
	if ctx == nil || stream == nil {
		return nil, errors.New("blas: New: nil context or stream")
	}
	ch, err := cuda.NewHandle(ctx, func() (uint64, error) {
		h, err := cublas.Create()
		return uint64(h), err
	}, func(h uint64) error { return cublas.Destroy(cublas.Handle(h)) })
	if err != nil {
		return nil, err
	}
	h := &Handle{h: ch, ctx: ctx, stream: stream, raw: cublas.Handle(ch.Raw())}
	if err := stream.Call(func(st cu.Stream) error {
		return cublas.SetStream(h.raw, cudart.Stream(st))
	}, ch); err != nil {
		ch.Close()
		return nil, err
	}
	return h, nil
}

// Close destroys the handle (cublasDestroy); a second Close returns
// cuda.ErrFreed.
func (h *Handle) Close() error {
	if h == nil {
		return ErrNilHandle
	}
	return h.h.Close()
}

// Raw returns cuBLAS's handle, for the cublas package.
func (h *Handle) Raw() cublas.Handle { return h.raw }

// Context returns the context the handle was created in.
func (h *Handle) Context() *cuda.Context { return h.ctx }

// Stream returns the stream the handle's calls are queued on.
func (h *Handle) Stream() *cuda.Stream { return h.stream }
