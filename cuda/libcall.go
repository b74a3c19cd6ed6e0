package cuda

import (
	"errors"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// This file is the hook of the packages over CUDA's libraries (cuda/blas
// and the others beside it): a library's handle owned as a resource of a
// context, and a library call on a stream that holds its operands alive.

// Operand is what a library call reads or writes, held for the length of
// the call by [Stream.Call]: a *Buffer[T] of any T, or a [Handle]. Only
// this package's types implement it.
type Operand interface{ res() *resource }

// Handle is a library's object (a cuBLAS handle, a cuFFT plan, a cuRAND
// generator, ...) owned as a resource of a context: destroyed exactly
// once, by Close or, when it becomes unreachable, by a cleanup, with its
// context current, before the context is released. It is how the packages
// beside this one own their library's objects.
type Handle struct {
	r *resource
	b *binding // the stream a handle of NewStreamHandle is bound to (libhandle.go)
}

// NewHandle calls create with c current on a locked thread and returns the
// handle it made, which destroy (called the same way) destroys. A create
// error is returned as it is, and nothing is owned.
func NewHandle(c *Context, create func() (uint64, error), destroy func(h uint64) error) (*Handle, error) {
	if create == nil || destroy == nil {
		return nil, errors.New("cuda: NewHandle: nil create or destroy")
	}
	s, err := c.use()
	if err != nil {
		return nil, err
	}
	defer c.ref.end()
	var out *Handle
	err = onThreadOnce(s, func() error { // create is the library's: run once
		h, err := create()
		if err != nil {
			return err
		}
		out = &Handle{}
		out.r = newResource(out, s, kindLib, h, nil)
		out.r.keep = destroy
		return nil
	})
	return out, err
}

// Raw returns the library's handle, as create returned it.
func (h *Handle) Raw() uint64 { return h.r.h }

// Close destroys the handle once the calls using it on other goroutines
// have returned; a second Close returns [ErrFreed].
func (h *Handle) Close() error { return h.r.free() }

func (h *Handle) res() *resource {
	if h == nil {
		return nil // Stream.Call's error
	}
	return h.r
}

// destroyLib destroys a kindLib resource through its destroy function.
func destroyLib(r *resource) error { return r.keep.(func(uint64) error)(r.h) }

var (
	errOtherOperandContext = errors.New("cuda: Stream.Call: an operand belongs to another context than the stream")
	errNilOperand          = errors.New("cuda: Stream.Call: a nil operand")
)

// Call runs fn, a call of a CUDA library on s (cuBLAS, cuFFT, ...), with
// the stream's context current on a locked thread, as a use of the stream
// and of every operand: a Close of one of them on another goroutine waits
// for fn to return. A closed operand ([ErrFreed]), a nil one, or one of
// another context is an error before fn is called. fn gets the stream's
// handle (cu.Stream; the runtime API's cudart.Stream is the same value).
// Call allocates nothing.
func (s *Stream) Call(fn func(st cu.Stream) error, ops ...Operand) error {
	if s == nil {
		return errNilStream
	}
	return s.st.call(nil, fn, ops)
}

// call is Call with first, a handle's resource (or nil), among the
// operands, used first.
func (st *streamState) call(first *resource, fn func(st cu.Stream) error, ops []Operand) error {
	// The resources in use, to release: the first few in held, the rest
	// found again through ops. They are released in the deferred function,
	// so a panic in fn ends the uses too.
	//
	// Inside a bound scope (scope.go) the operands the scope holds count
	// no use of their own: their bit in skip is set.
	var held [6]*resource
	var skip uint64
	n := 0
	defer func() {
		for i := range n {
			if i < 64 && skip&(1<<i) != 0 {
				continue
			}
			if i < len(held) {
				held[i].uses.release()
			} else {
				ops[i-btoi(first != nil)].res().uses.release()
			}
		}
	}()
	b := scopeHere()
	use := func(r *resource) error {
		own, ok := b.acquire(&r.uses)
		if !ok {
			return ErrFreed
		}
		if !own && n < 64 {
			skip |= 1 << n
		} else if !own {
			r.uses.acquire() // counted after all: the release finds it
		}
		if n < len(held) {
			held[n] = r
		}
		n++
		return nil
	}
	if first != nil {
		if err := use(first); err != nil {
			return err
		}
		if !sameContext(first.ctx, st.ctx) {
			return errOtherOperandContext
		}
	}
	for _, op := range ops {
		if op == nil {
			return errNilOperand
		}
		r := op.res()
		if r == nil {
			return errNilOperand
		}
		if err := use(r); err != nil {
			return err
		}
		if !sameContext(r.ctx, st.ctx) {
			return errOtherOperandContext
		}
	}
	// st.do, but the library's calls run once: onThreadOnce
	own, ok := b.acquire(&st.uses)
	if !ok {
		return ErrFreed
	}
	if own {
		defer st.uses.release()
	}
	if b != nil {
		return b.call(st.ctx, func() error { return fn(st.h) }, true)
	}
	return onThreadOnceSlow(st.ctx, func() error { return fn(st.h) })
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sameContext reports whether a and b are states of one context (each
// NewContext has a state of its own).
func sameContext(a, b *ctxState) bool {
	return a == b || a.ctx == b.ctx && a.drv == b.drv
}
