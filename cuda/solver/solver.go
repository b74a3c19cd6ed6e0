package solver

import (
	"fmt"
	"sync"
	"unsafe"

	cuda "github.com/cugen/cugen/cuda"
	mathlib "github.com/cugen/cugen/cuda/internal"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/cuda/sys/cusolver"
	"github.com/cugen/cugen/ffi"
)

// Scalar is an element type cuSOLVER factors: float32, float64,
// complex64 or complex128.
type Scalar interface {
	float32 | float64 | complex64 | complex128
}

// Float is a real element type: the SVD and the symmetric eigensolver
// take these.
type Float interface{ float32 | float64 }

// ErrClosed is returned by any use of a Handle after its Close, and by a
// second Close: one value for every math package (errors.Is(ErrClosed,
// cuda.ErrFreed) is true).
var ErrClosed = mathlib.ErrClosed

// Error is a call refused before cuSOLVER is called: a dimension, length
// or argument mismatch is one of kind ErrShape (errors.Is), with Op the
// function (Potrf, Getrs, ...) and Msg what is wrong. It is one type for
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
const errs = mathlib.Pkg("solver")

// NotPositiveDefiniteError is Potrf's info > 0: the leading minor of
// order Order (1-based) is not positive definite, so the factorization
// could not be completed.
type NotPositiveDefiniteError struct {
	Op    string
	Order int
}

func (e *NotPositiveDefiniteError) Error() string {
	return fmt.Sprintf("solver: %s: the leading minor of order %d is not positive definite (info %d)", e.Op, e.Order, e.Order)
}

// SingularError is Getrf's info > 0: U(Index, Index) (1-based) is exactly
// zero. The factorization is complete, but U is singular: a solve with it
// would divide by zero.
type SingularError struct {
	Op    string
	Index int
}

func (e *SingularError) Error() string {
	return fmt.Sprintf("solver: %s: U(%d,%d) is exactly zero: the matrix is singular (info %d)", e.Op, e.Index, e.Index, e.Index)
}

// ConvergenceError is Gesvd's or Syevd's info > 0: Count superdiagonals
// (Gesvd) or off-diagonal elements (Syevd) of an intermediate form did
// not converge to zero.
type ConvergenceError struct {
	Op    string
	Count int
}

func (e *ConvergenceError) Error() string {
	return fmt.Sprintf("solver: %s: %d elements of the intermediate form did not converge (info %d)", e.Op, e.Count, e.Count)
}

// ParamError is info < 0: cuSOLVER found parameter Param (1-based) wrong,
// which the checks here should have caught first.
type ParamError struct {
	Op    string
	Param int
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("solver: %s: cuSOLVER says parameter %d is wrong (info %d)", e.Op, e.Param, -e.Param)
}

// Handle is a cuSOLVER dense handle (cusolverDnHandle_t) bound to a
// context and a stream, with the workspaces its calls need (device and
// host, grown as needed and kept) and the device word cuSOLVER writes
// each call's info to. Its calls queue their work on the stream, then
// wait for it to read info back, which a non-zero value turns into an
// error. A Handle is safe to use from several goroutines; its calls run
// one at a time. Close it when done.
type Handle struct {
	mu     sync.Mutex
	closed bool
	ch     *cuda.Handle // cuSOLVER's handle, a resource of the context, bound to the stream
	st     *handleState
}

// handleState is what the handle owns besides cuSOLVER's handle, freed
// with it: the parameters object, the workspaces and the info word (the
// device ones allocated with the workspace's context reference).
type handleState struct {
	h      cusolver.Handle
	params cusolver.Params
	ws     *cuda.Workspace
	host   []byte
	info   *cuda.Buffer[int32]
}

// NewHandle creates a cuSOLVER dense handle in ctx whose calls run on s, a
// stream of ctx (cusolverDnCreate, cusolverDnSetStream,
// cusolverDnCreateParams). The handle is a resource of ctx
// ([cuda.Handle]): destroyed once, by Close or, when it becomes
// unreachable, by a cleanup. It holds a reference to the context of its
// own for its workspaces: ctx may be closed before it.
func NewHandle(ctx *cuda.Context, s *cuda.Stream) (*Handle, error) {
	if ctx == nil || s == nil {
		return nil, errs.Shape("NewHandle", "nil context or stream")
	}
	ws, err := cuda.NewWorkspace(ctx)
	if err != nil {
		return nil, err
	}
	st := &handleState{ws: ws}
	if st.info, err = cuda.Alloc[int32](ws.Context(), 1); err != nil {
		ws.Close()
		return nil, err
	}
	// NewStreamHandle refuses a stream of another context than the handle's.
	ch, err := cuda.NewStreamHandle(ctx, s, func() (uint64, error) {
		h, err := cusolver.Create()
		return uint64(h), err
	}, func(h uint64) error {
		var err error
		if st.params != 0 {
			err = cusolver.DestroyParams(st.params)
		}
		if e := cusolver.Destroy(cusolver.Handle(h)); err == nil {
			err = e
		}
		if e := st.free(); err == nil {
			err = e
		}
		return err
	}, func(h uint64, raw cu.Stream) error { return cusolver.SetStream(cusolver.Handle(h), cudart.Stream(raw)) })
	if err != nil {
		st.free() // a failed set destroyed the handle and freed st already: free is idempotent
		return nil, err
	}
	st.h = cusolver.Handle(ch.Raw())
	err = ch.Call(func(cu.Stream) error {
		var err error
		st.params, err = cusolver.CreateParams()
		return err
	})
	if err != nil {
		ch.Close()
		return nil, err
	}
	return &Handle{ch: ch, st: st}, nil
}

// Raw returns cuSOLVER's handle, for the cusolver package. Calls of your
// own on it belong in h.Stream().Call, with h.Operand() among its
// operands.
func (h *Handle) Raw() cusolver.Handle { return h.st.h }

// Operand is the handle as an operand of [cuda.Stream.Call]: in use for
// the length of the call, so that a Close waits for it.
func (h *Handle) Operand() cuda.Operand { return h.ch }

// Stream returns the stream the handle's calls run on.
func (h *Handle) Stream() *cuda.Stream { return h.ch.Stream() }

// Close destroys the handle (cusolverDnDestroyParams, cusolverDnDestroy)
// and frees its workspaces, after the calls in flight on other
// goroutines; ErrClosed after the first.
func (h *Handle) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	h.closed = true
	return h.ch.Close()
}

// free frees the buffers and drops the context reference, once (later
// calls return nil).
func (st *handleState) free() error {
	var err error
	if st.info != nil {
		err = st.info.Close()
		st.info = nil
	}
	if e := st.ws.Close(); err == nil {
		err = e
	}
	st.host = nil
	return err
}

// call runs fn on h's stream through the handle's Call: the handle and
// ops in use.
func (h *Handle) call(fn func(cu.Stream) error, ops ...cuda.Operand) error {
	return h.ch.Call(fn, ops...)
}

// SetStream moves the handle's calls to s, a stream of its context
// (cusolverDnSetStream), after the old stream's work, which may use the workspace.
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

// workspace returns device memory of at least n bytes (nil for 0) and host
// memory of at least hn (nil for 0), h locked.
func (h *Handle) workspace(n, hn uint64) (*cuda.Buffer[byte], unsafe.Pointer, error) {
	st := h.st
	// The host workspace starts 16-byte aligned, as C's malloc would give
	// it: cuSOLVER may keep cuDoubleComplex values there, and a Go []byte
	// is only sure to be 8-byte aligned (the 24-byte size class).
	if hn+15 > uint64(len(st.host)) {
		st.host = make([]byte, hn+15)
	}
	var hp unsafe.Pointer
	if hn > 0 {
		hp = unsafe.Pointer(&st.host[0])
		hp = unsafe.Add(hp, (16-uintptr(hp)%16)%16)
	}
	w, err := st.ws.Get(n)
	if err != nil {
		return nil, nil, err
	}
	return w, hp, nil
}

// work is the workspaces of a call: device (d, dsize bytes) and host (h,
// hsize bytes).
type work struct {
	d            ffi.DeviceAddr
	h            unsafe.Pointer
	dsize, hsize uint64
}

// xcall makes a call of cuSOLVER's 64-bit API that takes workspaces, h
// locked: size, its BufferSize call, gives the device size (through its
// argument) and returns the host size, on h's stream with ops in use;
// call then runs with workspaces of those sizes (run), the device one
// among its operands.
func (h *Handle) xcall(size func(dsize *uint64) (hsize uint64, err error), call func(w work, info ffi.DevicePtr[int32]) error, ops ...cuda.Operand) (int, error) {
	var wk work
	err := h.call(func(cuStream) error {
		var err error
		wk.hsize, err = size(&wk.dsize)
		return err
	}, ops...)
	if err != nil {
		return 0, err
	}
	w, hp, err := h.workspace(wk.dsize, wk.hsize)
	if err != nil {
		return 0, err
	}
	wk.d, wk.h = ptr(w), hp
	if w != nil {
		ops = append(ops[:len(ops):len(ops)], w)
	}
	return h.run(func(info ffi.DevicePtr[int32]) error { return call(wk, info) }, ops...)
}

// run runs call with h's stream current on a locked thread, the operands
// in use, then reads info back (cuMemcpyDtoHAsync and
// cuStreamSynchronize on the handle's stream). h is locked.
func (h *Handle) run(call func(info ffi.DevicePtr[int32]) error, ops ...cuda.Operand) (int, error) {
	st := h.st
	var info int32
	err := h.call(func(s cu.Stream) error {
		dev := ffi.DevicePtr[int32](st.info.Ptr())
		if err := call(dev); err != nil {
			return err
		}
		if err := cu.MemcpyDtoHAsync(unsafe.Pointer(&info), st.info.Ptr(), 4, s); err != nil {
			return err
		}
		return cu.StreamSynchronize(s)
	}, append(ops, st.info)...)
	return int(info), err
}

// ptr is b's device address, 0 (NULL) for a nil or empty buffer.
func ptr[T any](b *cuda.Buffer[T]) ffi.DeviceAddr {
	if b == nil || b.Len() == 0 {
		return 0
	}
	return ffi.DeviceAddr(b.Ptr())
}

// Matrix is a Rows×Cols matrix in column-major order in a buffer, as
// cuSOLVER and LAPACK keep them: element (i, j) at Buf[i + j*LD], each
// column after the other. LD, the leading dimension, is at least Rows (0
// means Rows). See the package documentation for Go's row-major slices.
type Matrix[T Scalar] struct {
	Buf        *cuda.Buffer[T]
	Rows, Cols int
	LD         int
}

// NewMatrix is the rows×cols matrix held by b with LD = rows.
func NewMatrix[T Scalar](b *cuda.Buffer[T], rows, cols int) Matrix[T] {
	return Matrix[T]{Buf: b, Rows: rows, Cols: cols, LD: rows}
}

func (m Matrix[T]) ld() int {
	if m.LD == 0 {
		return max(1, m.Rows)
	}
	return m.LD
}

// Transpose returns the cols×rows transpose of the rows×cols matrix src
// holds in row-major order, which is src in column-major order: the way
// from a Go row-major slice to a Matrix's buffer and back (Transpose(cols,
// rows, m) undoes it). It panics if len(src) is not rows×cols, as a
// slice expression out of range does.
func Transpose[T any](rows, cols int, src []T) []T {
	if len(src) != rows*cols {
		panic(fmt.Sprintf("solver: Transpose(%d, %d) of %d elements", rows, cols, len(src)))
	}
	out := make([]T, len(src))
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			out[i+j*rows] = src[i*cols+j]
		}
	}
	return out
}

// cuStream is the stream handle Stream.Call passes.
type cuStream = cu.Stream

// The cudart names the typed ormqr calls take.
type (
	cudartComplex       = cudart.Complex
	cudartDoubleComplex = cudart.DoubleComplex
)

const (
	cudartC32F = cudart.C32F
	cudartC64F = cudart.C64F
)

// buf is b as an operand of [operands]: nil for a nil b (a workspace of 0
// bytes), which in an interface would not be a nil Operand.
func buf[T any](b *cuda.Buffer[T]) cuda.Operand {
	if b == nil {
		return nil
	}
	return b
}

// operands drops the nil operands of ops (see buf).
func operands(ops ...cuda.Operand) []cuda.Operand {
	out := ops[:0]
	for _, o := range ops {
		if o != nil {
			out = append(out, o)
		}
	}
	return out
}

func lenOf[T any](b *cuda.Buffer[T]) int {
	if b == nil {
		return 0
	}
	return b.Len()
}

// Workspace returns the size in bytes of the handle's device workspace
// now: the largest any call has needed so far.
func (h *Handle) Workspace() int {
	if err := h.lock(); err != nil {
		return 0
	}
	defer h.mu.Unlock()
	return h.st.ws.Len()
}
