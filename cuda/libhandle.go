package cuda

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// This file is what the packages over CUDA's libraries (cuda/blas,
// cuda/rand, cuda/fft, cuda/sparse, cuda/solver) share about a handle
// whose work queues on a stream: its binding to that stream, made once
// and made again only when the stream changes, its calls on it, and the
// device workspace a handle grows for its calls.

// binding is the stream a handle of NewStreamHandle is bound to.
type binding struct {
	mu  sync.Mutex                    // orders the SetStream calls
	s   atomic.Pointer[Stream]        // the stream set last
	set func(uint64, cu.Stream) error // the library's cublasSetStream, ...
}

var errNotBound = errors.New("cuda: the handle has no stream (made by NewHandle, not NewStreamHandle)")

// NewStreamHandle is [NewHandle] for a library handle whose work queues
// on a stream: it makes the handle, then binds it to s, a stream of c,
// through set (cublasSetStream, curandSetStream, cufftSetStream, ...),
// called in s.Call with the handle. A set error closes the handle and is
// returned. [Handle.Call] then runs the library's calls on that stream,
// and [Handle.SetStream] moves the handle to another.
func NewStreamHandle(c *Context, s *Stream, create func() (uint64, error), destroy func(h uint64) error, set func(h uint64, st cu.Stream) error) (*Handle, error) {
	if s == nil {
		return nil, errNilStream
	}
	if set == nil {
		return nil, errors.New("cuda: NewStreamHandle: nil set")
	}
	h, err := NewHandle(c, create, destroy)
	if err != nil {
		return nil, err
	}
	h.b = &binding{set: set}
	if err := h.bind(s); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// bind calls set for s; h.b.mu held or h new.
func (h *Handle) bind(s *Stream) error {
	err := s.st.call(h.r, func(st cu.Stream) error { return h.b.set(h.r.h, st) }, nil)
	if err == nil {
		h.b.s.Store(s)
	}
	return err
}

// Stream returns the stream a handle of NewStreamHandle is bound to (nil
// for one of NewHandle).
func (h *Handle) Stream() *Stream {
	if h.b == nil {
		return nil
	}
	return h.b.s.Load()
}

// SetStream binds the handle to s, a stream of its context: the library's
// set is called only when s is not the stream it is bound to already, so
// a SetStream to the same stream costs no C call. Ordering the work
// queued on the old stream before the new stream's is the caller's (a
// library handle's state, such as a plan's work area, is shared by
// both).
func (h *Handle) SetStream(s *Stream) error {
	if h.b == nil {
		return errNotBound
	}
	if s == nil {
		return errNilStream
	}
	h.b.mu.Lock()
	defer h.b.mu.Unlock()
	if h.b.s.Load() == s {
		return nil
	}
	return h.bind(s)
}

// Call runs fn, a call of the library on the handle, on the stream it is
// bound to: [Stream.Call] with the handle and ops as operands. It
// allocates nothing and calls no set: the binding is made by
// NewStreamHandle and SetStream only.
func (h *Handle) Call(fn func(st cu.Stream) error, ops ...Operand) error {
	if h == nil || h.b == nil {
		return errNotBound
	}
	return h.b.s.Load().st.call(h.r, fn, ops)
}

// Workspace is device memory a library handle keeps for its calls
// (cuSPARSE's and cuSOLVER's buffers), grown as they need it, allocated
// with a reference to the context of its own: the user may close theirs
// before the handle. Its methods are not safe for concurrent use: the
// handle's lock orders them.
type Workspace struct {
	ctx *Context
	buf *Buffer[byte]
}

// NewWorkspace returns an empty workspace in c's context, holding a
// reference to it until Close.
func NewWorkspace(c *Context) (*Workspace, error) {
	if c == nil {
		return nil, errors.New("cuda: NewWorkspace: nil *Context")
	}
	own, err := c.newRef()
	if err != nil {
		return nil, err
	}
	return &Workspace{ctx: own}, nil
}

// newRef returns a new reference to c's context, as Device().Context()
// does, sharing c's state (and its driver: a fake's too).
func (c *Context) newRef() (*Context, error) {
	s, err := c.use()
	if err != nil {
		return nil, err
	}
	defer c.ref.end()
	s.retain()
	ref := &ctxRef{s: s}
	nc := &Context{ref: ref, dev: c.dev}
	runtime.AddCleanup(nc, dropCtxRef, ref)
	return nc, nil
}

// Context returns the workspace's reference to its context, for the other
// memory a handle allocates (nil after Close).
func (w *Workspace) Context() *Context { return w.ctx }

// Get returns a buffer of at least n bytes: nil for 0, the one it has if
// it is as long, else a new one, after freeing the old (cuMemFree waits
// for the work queued that may use it).
func (w *Workspace) Get(n uint64) (*Buffer[byte], error) {
	if n == 0 {
		return nil, nil
	}
	if w.ctx == nil {
		return nil, ErrClosed
	}
	if w.buf != nil && uint64(w.buf.Len()) >= n {
		return w.buf, nil
	}
	if w.buf != nil {
		if err := w.buf.Close(); err != nil {
			return nil, err
		}
		w.buf = nil
	}
	b, err := Alloc[byte](w.ctx, int(n))
	if err != nil {
		return nil, err
	}
	w.buf = b
	return b, nil
}

// Len returns the bytes of the buffer the workspace has now.
func (w *Workspace) Len() int {
	if w.buf == nil {
		return 0
	}
	return w.buf.Len()
}

// Close frees the buffer and drops the context reference, once (later
// calls return nil).
func (w *Workspace) Close() error {
	var err error
	if w.buf != nil {
		err = w.buf.Close()
		w.buf = nil
	}
	if w.ctx != nil {
		if e := w.ctx.Close(); err == nil {
			err = e
		}
		w.ctx = nil
	}
	return err
}
