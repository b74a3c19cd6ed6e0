package cuda

import (
	"errors"

	"github.com/cugen/cugen/generated/cuda12/cu"
)

// Operand is device memory a library call reads or writes: a *Buffer[T]
// of any T (or a view of one). It is what [Stream.Call] keeps in use.
type Operand interface{ res() *resource }

var errNilOperand = errors.New("cuda: Stream.Call: nil operand")

// Call runs fn, a call of a CUDA library (cuBLAS, cuSPARSE, cuSOLVER,
// ...) that queues its work on s, with s's raw handle: the stream and each
// operand in use for the length of the call (a Close racing it on another
// goroutine waits for it to return), all of one context, which is current
// on the OS thread fn runs on, locked for the call. It returns ErrFreed if
// the stream or an operand was closed, and an error if an operand belongs
// to another context than the stream, before fn is called. It is the hook
// the library packages beside this one (sparse, solver, ...) make their
// calls through; fn must not keep the operands' addresses past the work it
// queues.
func (s *Stream) Call(fn func(cu.Stream) error, ops ...Operand) error {
	if s == nil {
		return errNilStream
	}
	st := s.st
	n := 0 // operands in use
	defer func() {
		for _, o := range ops[:n] {
			o.res().uses.release()
		}
	}()
	for _, o := range ops {
		if o == nil {
			return errNilOperand
		}
		r := o.res()
		if err := r.use(); err != nil {
			return err
		}
		n++
		if r.ctx.ctx != st.ctx.ctx {
			return errOtherContext
		}
	}
	return st.do(func() error { return fn(st.h) })
}
