// Package blas is cuBLAS on the buffers of package cuda: a [Handle] bound
// to a context and a stream; levels 1 to 3, generic over float32,
// float64, complex64 and complex128 (cuBLAS's S, D, C and Z functions);
// half and bfloat16 GEMM ([GemmEx]); batched and strided-batched GEMM.
//
//   - Level 1: [Axpy], [Scal], [Copy], [Swap], [Dot], [Dotc], [Nrm2],
//     [Asum], [Iamax], and the To forms of the reductions.
//   - Level 2: [Gemv], [Ger], [Gerc].
//   - Level 3: [Gemm], [GemmStridedBatched], [GemmBatched], [GemmEx],
//     [GemmStridedBatchedEx], [Trsm], [Syrk].
//
// For the rest of cuBLAS, call package cublas on [Handle.Raw] inside the
// handle's stream's Call (see [Handle.Raw]).
//
// Its CUDA major is the build's, as package cuda's is (-tags cuda12
// for CUDA 12, none for 13).
//
//	h, err := blas.New(ctx, stream)
//	defer h.Close()
//	a := blas.Dense(bufA, m, k) // *cuda.Buffer[float32], row-major m×k
//	b := blas.Dense(bufB, k, n)
//	c := blas.Dense(bufC, m, n)
//	err = blas.Gemm(h, blas.NoTrans, blas.NoTrans, 1, a, b, 0, c) // c = a·b
//	err = stream.Synchronize()
//
// # Layout
//
// A [Matrix] says its sizes, its stride and its [Layout]: row-major, Go's
// order and the default, or column-major, cuBLAS's. A row-major matrix
// goes to cuBLAS as it is, with no copy: stored row by row it is the
// column-major transpose, so C = A·B row-major is computed as
// Cᵀ = Bᵀ·Aᵀ column-major, the same buffers, the operations and
// sizes rewritten. Operands may mix layouts, except a ConjTrans operand
// in another layout than the result's (a conjugate without transpose,
// which cuBLAS has no operation for).
//
// # Errors
//
// Every size, stride and buffer length is checked before cuBLAS is
// called: a mismatch is an [*Error] whose Err is [ErrDimension],
// [ErrStride], [ErrLength] or [ErrArgument], naming the operand. cuBLAS's
// own errors are cublas's typed Status values (errors.Is(err,
// cublas.StatusNotSupported)).
//
// # Streams and results
//
// Every call is queued on the handle's stream and returns without
// waiting, except the reductions that return a Go value ([Dot], [Nrm2],
// [Asum], [Iamax]: cuBLAS's host pointer mode, which waits for the
// result). Their To forms ([DotTo], ...) write the result into a device
// buffer instead, in stream order (device pointer mode). Read a buffer
// after the stream's Synchronize or Wait, or a copy queued after the
// call on the same stream. Each call holds the handle, the stream and its
// buffers as uses (see package cuda's Lifetimes): a Close of one of them
// on another goroutine waits for the call to return. The device may still
// be working on the buffers after that: close them after the stream has
// passed the work, as with any stream operation.
package blas

import (
	"errors"
	"sync"

	"github.com/cugen/cugen/cuda"
	mathlib "github.com/cugen/cugen/cuda/internal"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cublas"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/ffi"
)

// Handle is a cuBLAS handle (cublasHandle_t) bound to a context and a
// stream: every call of this package through it is queued on that stream.
// It is safe to use from several goroutines (its calls take turns).
// Close it when done; an unreachable Handle is destroyed by a cleanup.
type Handle struct {
	ch  *cuda.Handle // bound to the handle's stream (ch.Stream())
	ctx *cuda.Context
	raw cublas.Handle

	mu   sync.Mutex
	mode cublas.PointerMode // the handle's pointer mode, as last set
	own  *owned             // shared with the destroy function
}

// owned is what the handle owns besides cuBLAS's handle: freed after it.
type owned struct {
	mu        sync.Mutex
	workspace *cuda.Buffer[byte] // SetWorkspace's

	// GemmBatched's, under the handle's lock: the device address array,
	// its contents on the host (valid elements of them), the event
	// recorded after the last copy from host, and the operand list.
	ptrs  *cuda.Buffer[uint64]
	host  []uint64
	valid int
	ev    cu.Event
	ops   []cuda.Operand
}

func (o *owned) free() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.workspace != nil {
		o.workspace.Close()
		o.workspace = nil
	}
	if o.ptrs != nil {
		o.ptrs.Close()
		o.ptrs = nil
	}
	if o.ev != 0 {
		cu.EventDestroy(o.ev) // the handle's destroy: its context current
		o.ev = 0
	}
}

// ErrClosed is returned by a call through a nil or closed *Handle and by
// a second Close: one value for every math package (errors.Is(ErrClosed,
// cuda.ErrFreed) is true).
var ErrClosed = mathlib.ErrClosed

// ErrNilHandle is ErrClosed.
//
// Deprecated: use ErrClosed.
var ErrNilHandle = ErrClosed

// New creates a cuBLAS handle in ctx (cublasCreate) bound to stream
// (cublasSetStream), which must be of ctx. The handle starts in host
// pointer mode with cuBLAS's default math mode and workspace.
func New(ctx *cuda.Context, stream *cuda.Stream) (*Handle, error) {
	if ctx == nil || stream == nil {
		return nil, errors.New("blas: New: nil context or stream")
	}
	own := &owned{}
	ch, err := cuda.NewStreamHandle(ctx, stream, func() (uint64, error) {
		h, err := cublas.Create()
		return uint64(h), err
	}, func(h uint64) error {
		err := cublas.Destroy(cublas.Handle(h))
		own.free()
		return err
	}, func(h uint64, st cu.Stream) error {
		return cublas.SetStream(cublas.Handle(h), cudart.Stream(st))
	})
	if err != nil {
		return nil, err
	}
	return &Handle{ch: ch, ctx: ctx, raw: cublas.Handle(ch.Raw()), own: own}, nil
}

// Close destroys the handle (cublasDestroy, which waits for its work) and
// frees its workspace; a second Close returns ErrClosed.
func (h *Handle) Close() error {
	if h == nil {
		return ErrClosed
	}
	return mathlib.Closed(h.ch.Close())
}

// Raw returns cuBLAS's handle, for the cublas package. Calls of your own
// on it belong in h.Stream().Call, with h.Operand() among its operands.
func (h *Handle) Raw() cublas.Handle { return h.raw }

// Operand returns the handle as an operand of cuda.Stream.Call.
func (h *Handle) Operand() cuda.Operand { return h.ch }

// Context returns the context the handle was created in.
func (h *Handle) Context() *cuda.Context { return h.ctx }

// Stream returns the stream the handle's calls are queued on.
func (h *Handle) Stream() *cuda.Stream { return h.ch.Stream() }

// SetStream queues the handle's later calls on s, a stream of its context
// (cublasSetStream), once the old stream's work is done; to the stream it
// has, it calls nothing. As cuBLAS documents, cublasSetStream returns the
// handle to cuBLAS's default workspace pool: SetWorkspace's workspace is
// freed, and SetWorkspace may give one again (TestStandinSetStream).
func (h *Handle) SetStream(s *cuda.Stream) error {
	if h == nil {
		return ErrClosed
	}
	moved, err := errs.SetStreamLocked(&h.mu, h.ch, s)
	if err != nil || !moved {
		return err
	}
	return h.own.swapWorkspace(nil)
}

// swapWorkspace makes ws the handle's workspace and frees the one it had
// (in stream order).
func (o *owned) swapWorkspace(ws *cuda.Buffer[byte]) error {
	o.mu.Lock()
	old := o.workspace
	o.workspace = ws
	o.mu.Unlock()
	if old != nil {
		return old.Close()
	}
	return nil
}

// call runs fn, a cuBLAS call of h in pointer mode mode, on h's stream,
// as a use of h and of ops (cuda.Handle.Call), under h's lock.
func (h *Handle) call(mode cublas.PointerMode, fn func() error, ops ...cuda.Operand) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.callLocked(mode, fn, ops)
}

// callLocked is call with h.mu held by the caller.
func (h *Handle) callLocked(mode cublas.PointerMode, fn func() error, ops []cuda.Operand) error {
	return h.ch.Call(func(cu.Stream) error {
		if err := h.setMode(mode); err != nil {
			return err
		}
		return fn()
	}, ops...)
}

// setMode sets the handle's pointer mode if it is not mode already; h.mu
// held.
func (h *Handle) setMode(mode cublas.PointerMode) error {
	if mode == anyMode || h.mode == mode {
		return nil
	}
	if err := cublas.SetPointerMode(h.raw, mode); err != nil {
		return err
	}
	h.mode = mode
	return nil
}

// SetMathMode sets the handle's math mode (cublasSetMathMode): whether
// cuBLAS may use tensor cores with reduced precision, e.g.
// cublas.TF32TensorOpMath, or cublas.PedanticMath, or'ed with
// cublas.MathDisallowReducedPrecisionReduction.
func (h *Handle) SetMathMode(mode cublas.Math) error {
	if h == nil {
		return ErrClosed
	}
	return h.call(anyMode, func() error { return cublas.SetMathMode(h.raw, mode) })
}

// MathMode returns the handle's math mode (cublasGetMathMode).
func (h *Handle) MathMode() (cublas.Math, error) {
	if h == nil {
		return 0, ErrClosed
	}
	var m cublas.Math
	err := h.call(anyMode, func() error {
		var err error
		m, err = cublas.GetMathMode(h.raw)
		return err
	})
	return m, err
}

// anyMode is the pointer mode of a call that reads or writes no scalar:
// the handle's is left as it is.
const anyMode cublas.PointerMode = -1

// SetWorkspace gives cuBLAS a workspace of bytes bytes owned by the
// handle (cublasSetWorkspace), allocated in stream order on the handle's
// stream; the previous one, if any, is freed in stream order after the
// work queued before. NVIDIA recommends 32 MiB on Hopper and later (4 MiB
// before) for the best GEMM algorithms. bytes must be positive; see
// [Handle.ResetWorkspace] for cuBLAS's own pool.
func (h *Handle) SetWorkspace(bytes int) error {
	if h == nil {
		return ErrClosed
	}
	if bytes <= 0 {
		return errs.Errorf("SetWorkspace", ErrArgument, "%d bytes: a workspace has a positive size (ResetWorkspace returns to cuBLAS's pool)", bytes)
	}
	ws, err := cuda.AllocAsync[byte](h.Stream(), bytes)
	if err != nil {
		return err
	}
	if err := h.call(anyMode, func() error {
		return cublas.SetWorkspace(h.raw, ffi.DeviceAddr(ws.Ptr()), uint64(bytes))
	}, ws); err != nil {
		ws.Close()
		return err
	}
	return h.own.swapWorkspace(ws)
}

// ResetWorkspace returns the handle to cuBLAS's default workspace pool
// (cublasSetStream resets it, as cuBLAS documents) and frees the one of
// SetWorkspace in stream order.
func (h *Handle) ResetWorkspace() error {
	if h == nil {
		return ErrClosed
	}
	if err := h.call(anyMode, func() error {
		return cublas.SetStream(h.raw, cudart.Stream(h.Stream().Raw()))
	}); err != nil {
		return err
	}
	return h.own.swapWorkspace(nil)
}
