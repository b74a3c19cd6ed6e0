package sparse

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
	"github.com/cugen/cugen/generated/cuda12/cusparse"
	cuda "github.com/cugen/cugen/layer"
)

// Scalar is an element type cuSPARSE computes in: its cudaDataType is
// CUDA_R_32F, CUDA_R_64F, CUDA_C_32F or CUDA_C_64F.
type Scalar interface {
	float32 | float64 | complex64 | complex128
}

// Index is an index type of a sparse matrix: CUSPARSE_INDEX_32I or
// CUSPARSE_INDEX_64I.
type Index interface{ int32 | int64 }

// valueType is T's cudaDataType. The switch is on a pointer type, which
// converts to an interface without allocating.
func valueType[T Scalar]() cudart.DataType {
	switch any((*T)(nil)).(type) {
	case *float32:
		return cudart.R32F
	case *float64:
		return cudart.R64F
	case *complex64:
		return cudart.C32F
	}
	return cudart.C64F
}

func indexType[I Index]() cusparse.IndexType {
	if _, ok := any((*I)(nil)).(*int32); ok {
		return cusparse.Index32I
	}
	return cusparse.Index64I
}

var (
	// ErrClosed is returned by any use of a handle, matrix, vector or
	// plan after its Close, and by a second Close.
	ErrClosed = errors.New("sparse: already closed")
	// ErrOtherContext is returned by NewHandle for a stream of another
	// context than the one given.
	ErrOtherContext = errors.New("sparse: the stream belongs to another context")
)

// ShapeError is a dimension, length or argument mismatch found before
// cuSPARSE is called: Op is the function (SpMV, NewCSR, ...), Msg what is
// wrong.
type ShapeError struct {
	Op, Msg string
}

func (e *ShapeError) Error() string { return "sparse: " + e.Op + ": " + e.Msg }

func shapeErr(op, format string, args ...any) error {
	return &ShapeError{Op: op, Msg: fmt.Sprintf(format, args...)}
}

// Handle is a cuSPARSE handle (cusparseHandle_t) bound to a context and a
// stream: every operation made through it queues its work on that stream.
// It owns a workspace in device memory, grown as operations need it and
// kept for the next ones. A Handle is safe to use from several
// goroutines; its operations run one at a time. Close it when done.
type Handle struct {
	mu     sync.Mutex // held by each operation: one at a time, on one workspace
	closed bool
	st     *handleState
	s      *cuda.Stream
	cl     runtime.Cleanup // destroys st if h becomes unreachable unclosed
}

// handleState is what the handle's cleanup releases: the C handle, the
// workspace and the context reference they need.
type handleState struct {
	h    cusparse.Handle
	ctx  *cuda.Context // the handle's own reference
	work *cuda.Buffer[byte]
}

// NewHandle creates a cuSPARSE handle in ctx whose operations run on s,
// a stream of ctx (cusparseCreate, cusparseSetStream). The handle holds a
// reference to the context of its own: ctx may be closed before it.
func NewHandle(ctx *cuda.Context, s *cuda.Stream) (*Handle, error) {
	if ctx == nil || s == nil {
		return nil, shapeErr("NewHandle", "nil context or stream")
	}
	own, err := ctx.Device().Context()
	if err != nil {
		return nil, err
	}
	st := &handleState{ctx: own}
	err = s.Call(func(raw cu.Stream) error {
		if cur, err := cu.CtxGetCurrent(); err != nil {
			return err
		} else if cur != own.Raw() {
			return ErrOtherContext
		}
		h, err := cusparse.Create()
		if err != nil {
			return err
		}
		if err := cusparse.SetStream(h, cudart.Stream(raw)); err != nil {
			cusparse.Destroy(h)
			return err
		}
		st.h = h
		return nil
	})
	if err != nil {
		own.Close()
		return nil, err
	}
	h := &Handle{st: st, s: s}
	h.cl = runtime.AddCleanup(h, func(st *handleState) { go st.destroy() }, st)
	return h, nil
}

// Raw returns cuSPARSE's handle, for the cusparse package.
func (h *Handle) Raw() cusparse.Handle { return h.st.h }

// Stream returns the stream the handle's operations run on.
func (h *Handle) Stream() *cuda.Stream { return h.s }

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
	h.cl.Stop()
	return h.st.destroy()
}

func (st *handleState) destroy() error {
	err := st.ctx.Do(func() error { return cusparse.Destroy(st.h) })
	if st.work != nil {
		if e := st.work.Close(); err == nil {
			err = e
		}
	}
	if e := st.ctx.Close(); err == nil {
		err = e
	}
	return err
}

// lock begins an operation: h.mu held until unlock.
func (h *Handle) lock() error {
	if h == nil {
		return errors.New("sparse: nil *Handle")
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
func (h *Handle) workspace(n uint64) (*cuda.Buffer[byte], error) {
	if n == 0 {
		return nil, nil
	}
	st := h.st
	if st.work != nil && uint64(st.work.Len()) >= n {
		return st.work, nil
	}
	if st.work != nil {
		// cuMemFree waits for the work queued that may still use it.
		if err := st.work.Close(); err != nil {
			return nil, err
		}
		st.work = nil
	}
	w, err := cuda.Alloc[byte](st.ctx, int(n))
	if err != nil {
		return nil, err
	}
	st.work = w
	return w, nil
}

// Workspace returns the size in bytes of the handle's workspace now.
func (h *Handle) Workspace() int {
	if err := h.lock(); err != nil {
		return 0
	}
	defer h.unlock()
	if h.st.work == nil {
		return 0
	}
	return h.st.work.Len()
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
