package cuda

import (
	"errors"

	"github.com/cugen/cugen/generated/cuda12/cu"
)

// Operand is device memory that a call of a CUDA library reads or writes:
// a *Buffer[T] of any element type. [LibHandle.Do] and [LibHandle.DoOn]
// hold each operand for the length of the call, as the layer's own
// methods hold the buffers they use.
type Operand interface{ res() *resource }

// LibHandle is an object of a CUDA library made in a context (a cuRAND
// generator, a cuFFT plan, a cuBLAS handle), for the packages that build
// on this one (cuda/rand, cuda/fft, ...). It is a resource like a
// buffer: it holds a reference to its context, so the context outlives
// it, and it is destroyed exactly once, by Close or, when it becomes
// unreachable, by a cleanup, after the calls in flight through it.
type LibHandle struct{ r *resource }

// NewLibHandle runs create with the context current on a locked OS thread
// and wraps the handle it returns. destroy releases that handle; it runs
// once, with the context current, from Close or from the cleanup of an
// unreachable LibHandle (on the context's release goroutine).
func (c *Context) NewLibHandle(create func() (uint64, error), destroy func(h uint64) error) (*LibHandle, error) {
	if create == nil || destroy == nil {
		return nil, errors.New("cuda: NewLibHandle: nil create or destroy function")
	}
	var out *LibHandle
	err := c.do(func(s *ctxState) error {
		h, err := create()
		if err != nil {
			return err
		}
		out = &LibHandle{}
		out.r = newResource(out, s, kindLib, h, nil)
		out.r.keep = destroy
		return nil
	})
	return out, err
}

// destroyLib releases a LibHandle's handle (kindLib); the context is
// current.
func destroyLib(r *resource) error { return r.keep.(func(uint64) error)(r.h) }

// Raw returns the library's handle, as create returned it.
func (h *LibHandle) Raw() uint64 { return h.r.h }

// Close destroys the handle once the calls in flight through it have
// returned. A second Close returns ErrFreed.
func (h *LibHandle) Close() error { return h.r.free() }

var errOtherLibContext = errors.New("cuda: a buffer or stream of another context than the library handle's")

// Do runs fn, a call of the library, with the handle's context current
// on a locked OS thread, as a use of the handle and of each operand: a
// Close of any of them on another goroutine waits for fn to return. It
// returns ErrFreed, without calling fn, if one of them is closed, and an
// error if an operand belongs to another context.
func (h *LibHandle) Do(fn func() error, ops ...Operand) error {
	if !h.r.uses.acquire() {
		return ErrFreed
	}
	defer h.r.uses.release()
	n, err := holdOperands(h.r.ctx, ops)
	defer releaseOperands(ops[:n])
	if err != nil {
		return err
	}
	return onThread(h.r.ctx, fn)
}

// DoOn is Do for a call that queues work on s, which must belong to the
// handle's context and stays open for the length of the call; fn gets
// s's driver handle (for cufftSetStream, curandSetStream, ...).
func (h *LibHandle) DoOn(s *Stream, fn func(cu.Stream) error, ops ...Operand) error {
	if s == nil {
		return errNilStream
	}
	st := s.st
	if !st.uses.acquire() {
		return ErrFreed
	}
	defer st.uses.release()
	if !h.r.uses.acquire() {
		return ErrFreed
	}
	defer h.r.uses.release()
	if st.ctx.ctx != h.r.ctx.ctx {
		return errOtherLibContext
	}
	n, err := holdOperands(h.r.ctx, ops)
	defer releaseOperands(ops[:n])
	if err != nil {
		return err
	}
	return onThread(h.r.ctx, func() error { return fn(st.h) })
}

// holdOperands begins a use of each operand in order, stopping at the
// first that is closed or of another context than s: n is the number
// held, which the caller releases.
func holdOperands(s *ctxState, ops []Operand) (n int, err error) {
	for _, op := range ops {
		r := op.res()
		if !r.uses.acquire() {
			return n, ErrFreed
		}
		n++
		if r.ctx.ctx != s.ctx {
			return n, errOtherLibContext
		}
	}
	return n, nil
}

func releaseOperands(ops []Operand) {
	for _, op := range ops {
		op.res().uses.release()
	}
}
