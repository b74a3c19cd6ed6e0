// Package mathlib is what the math packages of the Go API (cuda/blas,
// cuda/rand, cuda/fft, cuda/sparse, cuda/solver, cuda/dnn) share, declared
// once: the error vocabulary (one error type for a refused call, one
// closed error), the CUDA data types of their element types, and the
// stream handling of their handles. Each package re-exports what its users
// meet (type Error = mathlib.Error, var ErrClosed = mathlib.ErrClosed), so
// errors.As and errors.Is work alike across them.
//
// Its directory is cuda/internal, one level deep (the package is named
// mathlib): a module's copy of the API (internal/layergen) takes the
// API's subpackages one directory deep.
package mathlib

import (
	"errors"
	"fmt"
	"sync"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudart"
)

// closedError is ErrClosed's type.
type closedError struct{}

func (closedError) Error() string { return "already closed" }

// Is makes errors.Is(ErrClosed, cuda.ErrFreed) true: a second Close of a
// handle returned cuda.ErrFreed before the packages shared ErrClosed.
func (closedError) Is(target error) bool { return target == cuda.ErrFreed }

// ErrClosed is returned by the use of a math package's handle, plan,
// matrix or vector after its Close, by a call through a nil handle, and by
// a second Close. errors.Is(ErrClosed, cuda.ErrFreed) is true.
var ErrClosed error = closedError{}

// Closed maps cuda.ErrFreed, the error of a second cuda.Handle.Close, to
// ErrClosed; any other error is returned as it is.
func Closed(err error) error {
	if err == cuda.ErrFreed {
		return ErrClosed
	}
	return err
}

// ErrShape is the kind of an Error whose dimensions, lengths or arguments
// do not agree (sparse's and solver's checks).
var ErrShape = errors.New("shapes or arguments do not agree")

// Error is a call a math package refused before calling its library, or
// one that failed there: Pkg is the package ("blas"), Op the call
// ("Gemm"), Err its kind for errors.Is (the package's Err values,
// ErrShape, or the library's status, such as a curand.Status or a
// cufft.Result), Msg what was wrong, naming the argument, and Detail the
// library's own text when it gave one (cuDNN's last error).
type Error struct {
	Pkg, Op string
	Err     error
	Msg     string
	Detail  string
}

func (e *Error) Error() string {
	s := e.Pkg + ": " + e.Op + ": " + e.Msg
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

// Pkg is a math package's name, the maker of its errors.
type Pkg string

// Errorf returns an *Error of op of kind.
func (p Pkg) Errorf(op string, kind error, format string, args ...any) error {
	return &Error{Pkg: string(p), Op: op, Err: kind, Msg: fmt.Sprintf(format, args...)}
}

// Shape returns an *Error of op of kind ErrShape.
func (p Pkg) Shape(op, format string, args ...any) error {
	return &Error{Pkg: string(p), Op: op, Err: ErrShape, Msg: fmt.Sprintf(format, args...)}
}

// Float is the real and complex element types of the math libraries.
type Float interface {
	float32 | float64 | complex64 | complex128
}

// DataType is T's cudaDataType (CUDA_R_32F, CUDA_R_64F, CUDA_C_32F,
// CUDA_C_64F), and whether T is one of them. The switch is on a pointer
// type, which converts to an interface without allocating.
func DataType[T any]() (cudart.DataType, bool) {
	switch any((*T)(nil)).(type) {
	case *float32:
		return cudart.R32F, true
	case *float64:
		return cudart.R64F, true
	case *complex64:
		return cudart.C32F, true
	case *complex128:
		return cudart.C64F, true
	}
	return 0, false
}

// TypeOf is DataType for an element type the constraint limits to Float.
func TypeOf[T Float]() cudart.DataType {
	t, _ := DataType[T]()
	return t
}

// SetStreamLocked is SetStream under mu, the handle's lock.
func (p Pkg) SetStreamLocked(mu sync.Locker, h *cuda.Handle, s *cuda.Stream) (moved bool, err error) {
	mu.Lock()
	defer mu.Unlock()
	return p.SetStream(h, s)
}

// SetStream moves h, a handle of cuda.NewStreamHandle, to s, a stream of
// its context, for the package p: nothing when s is its stream already;
// else the work queued on the old stream is waited for first (the
// handle's state, such as a workspace, a plan's work area or a
// generator's state, would be shared by the two streams at once), then
// the library's set is called (cuda.Handle.SetStream). moved says whether
// the stream changed. The caller holds its handle's lock.
func (p Pkg) SetStream(h *cuda.Handle, s *cuda.Stream) (moved bool, err error) {
	if s == nil {
		return false, p.Errorf("SetStream", ErrShape, "nil stream (Context.DefaultStream returns the default stream)")
	}
	if h == nil {
		return false, ErrClosed
	}
	old := h.Stream()
	if s == old {
		// Nothing to set, but a closed handle is refused all the same.
		return false, Closed(h.Call(func(cu.Stream) error { return nil }))
	}
	if old != nil {
		if err := old.Synchronize(); err != nil && !errors.Is(err, cuda.ErrFreed) {
			return false, err // a closed stream has finished its work
		}
	}
	if err := h.SetStream(s); err != nil {
		return false, Closed(err)
	}
	return true, nil
}
