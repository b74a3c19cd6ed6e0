package sparse

import (
	"fmt"
	"sync"

	cuda "github.com/cugen/cugen/cuda"
	mathlib "github.com/cugen/cugen/cuda/internal"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/cuda/sys/cusparse"
)

// Scalar is an element type cuSPARSE computes in: its cudaDataType is
// CUDA_R_32F, CUDA_R_64F, CUDA_C_32F or CUDA_C_64F.
type Scalar interface {
	float32 | float64 | complex64 | complex128
}

// Index is an index type of a sparse matrix: CUSPARSE_INDEX_32I or
// CUSPARSE_INDEX_64I.
type Index interface{ int32 | int64 }

func indexType[I Index]() cusparse.IndexType {
	if _, ok := any((*I)(nil)).(*int32); ok {
		return cusparse.Index32I
	}
	return cusparse.Index64I
}

// ErrClosed is returned by any use of a handle, matrix, vector or plan
// after its Close, and by a second Close: one value for every math
// package (errors.Is(ErrClosed, cuda.ErrFreed) is true).
var ErrClosed = mathlib.ErrClosed

// Error is a call refused before cuSPARSE is called: a dimension, length
// or argument mismatch is one of kind ErrShape (errors.Is), with Op the
// function (SpMV, NewCSR, ...) and Msg what is wrong. It is one type for
// every math package.
type Error = mathlib.Error

// ShapeError is Error.
//
// Deprecated: use Error (errors.As) or ErrShape (errors.Is).
type ShapeError = mathlib.Error

// ErrShape is the kind of an Error whose dimensions, lengths or arguments
// do not agree.
var ErrShape = mathlib.ErrShape

// errs makes the package's errors.
const errs = mathlib.Pkg("sparse")

// Handle is a cuSPARSE handle (cusparseHandle_t) bound to a context and a
// stream: every operation made through it queues its work on that stream.
// It owns a workspace in device memory, grown as operations need it and
// kept for the next ones. A Handle is safe to use from several
// goroutines; its operations run one at a time. Close it when done.
type Handle struct {
	mu     sync.Mutex // held by each operation: one at a time, on one workspace
	closed bool
	ch     *cuda.Handle    // cuSPARSE's handle, a resource of the context, bound to the stream
	raw    cusparse.Handle // ch.Raw()
	ws     *cuda.Workspace // freed by ch's destroy, after cuSPARSE's handle
}

// NewHandle creates a cuSPARSE handle in ctx whose operations run on s,
// a stream of ctx (cusparseCreate, cusparseSetStream). The handle is a
// resource of ctx ([cuda.Handle]): destroyed once, by Close or, when it
// becomes unreachable, by a cleanup. It holds a reference to the context
// of its own for its workspace: ctx may be closed before it.
func NewHandle(ctx *cuda.Context, s *cuda.Stream) (*Handle, error) {
	if ctx == nil || s == nil {
		return nil, errs.Shape("NewHandle", "nil context or stream")
	}
	ws, err := cuda.NewWorkspace(ctx)
	if err != nil {
		return nil, err
	}
	// NewStreamHandle refuses a stream of another context than the handle's.
	ch, err := cuda.NewStreamHandle(ctx, s, func() (uint64, error) {
		h, err := cusparse.Create()
		return uint64(h), err
	}, func(h uint64) error {
		err := cusparse.Destroy(cusparse.Handle(h))
		if e := ws.Close(); err == nil {
			err = e
		}
		return err
	}, func(h uint64, st cu.Stream) error { return cusparse.SetStream(cusparse.Handle(h), cudart.Stream(st)) })
	if err != nil {
		ws.Close() // a failed create owns nothing; a failed set destroyed it (ws.Close is idempotent)
		return nil, err
	}
	return &Handle{ch: ch, raw: cusparse.Handle(ch.Raw()), ws: ws}, nil
}

// Raw returns cuSPARSE's handle, for the cusparse package. Calls of your
// own on it belong in h.Stream().Call, with h.Operand() among its
// operands.
func (h *Handle) Raw() cusparse.Handle { return h.raw }

// Operand is the handle as an operand of [cuda.Stream.Call]: in use for
// the length of the call, so that a Close waits for it.
func (h *Handle) Operand() cuda.Operand { return h.ch }

// Stream returns the stream the handle's operations run on.
func (h *Handle) Stream() *cuda.Stream { return h.ch.Stream() }

// Close destroys the handle (cusparseDestroy) and frees its workspace,
// after the operations in flight on other goroutines; ErrClosed after the
// first.
func (h *Handle) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	h.closed = true
	return h.ch.Close()
}

// lock begins an operation: h.mu held until unlock.
// SetStream moves the handle's operations to s, a stream of its context
// (cusparseSetStream), after the old stream's work, which may use the workspace.
// Held by TestStandinSetStream.
func (h *Handle) SetStream(s *cuda.Stream) error {
	if h == nil {
		return ErrClosed
	}
	_, err := errs.SetStreamLocked(&h.mu, h.ch, s)
	return err
}

func (h *Handle) lock() error {
	if h == nil {
		return ErrClosed // a nil *Handle
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return ErrClosed
	}
	return nil
}

func (h *Handle) unlock() { h.mu.Unlock() }

// workspace returns a workspace of at least n bytes (nil for 0), h locked.
func (h *Handle) workspace(n uint64) (*cuda.Buffer[byte], error) { return h.ws.Get(n) }

// Workspace returns the size in bytes of the handle's workspace now.
func (h *Handle) Workspace() int {
	if err := h.lock(); err != nil {
		return 0
	}
	defer h.unlock()
	return h.ws.Len()
}

// guard marks an object closed once; each use holds its read lock, so a
// Close waits for the uses in flight.
type guard struct {
	mu     sync.RWMutex
	closed bool
}

func (g *guard) rlock() error {
	g.mu.RLock()
	if g.closed {
		g.mu.RUnlock()
		return ErrClosed
	}
	return nil
}

func (g *guard) runlock() { g.mu.RUnlock() }

// close marks g closed, after the uses in flight; false if it was before.
func (g *guard) close() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.closed = true
	return true
}

// operands collects the buffers of one call, without allocating.
type operands struct {
	a [10]cuda.Operand
	n int
}

func (o *operands) add(ops ...cuda.Operand) {
	for _, x := range ops {
		if x != nil {
			o.a[o.n] = x
			o.n++
		}
	}
}

func (o *operands) list() []cuda.Operand { return o.a[:o.n] }

// Op is the operation op(A) applies to a matrix.
type Op int32

const (
	NoTrans   Op = Op(cusparse.OperationNonTranspose)       // A
	Trans     Op = Op(cusparse.OperationTranspose)          // Aᵀ
	ConjTrans Op = Op(cusparse.OperationConjugateTranspose) // Aᴴ
)

func (o Op) String() string {
	switch o {
	case NoTrans:
		return "NoTrans"
	case Trans:
		return "Trans"
	case ConjTrans:
		return "ConjTrans"
	}
	return fmt.Sprintf("Op(%d)", int32(o))
}

func (o Op) valid() bool { return o == NoTrans || o == Trans || o == ConjTrans }

// dims returns op(A)'s rows and columns for A of r×c.
func (o Op) dims(r, c int) (int, int) {
	if o == NoTrans {
		return r, c
	}
	return c, r
}
