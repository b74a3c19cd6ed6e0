package cuda

import (
	"runtime"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// Registered is a Go slice page-locked for CUDA (cuMemHostRegister,
// portable to every context) for as long as the registration lives: copies
// from and to it run asynchronously and at full speed, as from a
// [HostBuffer], without copying the data into memory of CUDA's. The slice
// stays reachable and pinned in place (runtime.Pinner) until Close.
type Registered[T any] struct {
	r *resource
	s []T
}

// Register page-locks the memory of s until the returned registration's
// Close (or its cleanup, when it becomes unreachable). The driver locks
// whole pages: a page shared with memory registered before fails with
// cu.ErrorHostMemoryAlreadyRegistered, so register large slices of their
// own. An empty s registers nothing.
func Register[T any](c *Context, s []T) (*Registered[T], error) {
	size, err := elemSize[T]("Registered", len(s))
	if err != nil {
		return nil, err
	}
	var out *Registered[T]
	err = c.do(func(st *ctxState) error {
		k := kindNone
		var p unsafe.Pointer
		var pin *runtime.Pinner
		if len(s) > 0 {
			p = unsafe.Pointer(unsafe.SliceData(s))
			pin = new(runtime.Pinner)
			pin.Pin(p)
			if err := st.drv.hostRegister(p, uint64(len(s))*size); err != nil {
				pin.Unpin()
				return err
			}
			k = kindHostReg
		}
		out = &Registered[T]{s: s}
		out.r = newResource(out, st, k, 0, p)
		if pin != nil {
			out.r.keep = pin // holds s until the unregistration unpins it
		}
		return nil
	})
	return out, err
}

// Len returns the number of elements.
func (g *Registered[T]) Len() int { return len(g.s) }

// Slice returns the registered slice, nil after Close.
func (g *Registered[T]) Slice() []T {
	if g.r.uses.closed() {
		return nil
	}
	return g.s
}

// Close unregisters the memory (cuMemHostUnregister) and unpins it, once
// the calls using it on other goroutines have returned. Wait for the
// copies queued with it first (Stream.Synchronize). A second Close returns
// ErrFreed.
func (g *Registered[T]) Close() error { return g.r.free() }

// CopyFromRegisteredAsync queues a copy of g, of b.Len() elements, to the
// device on s (cuMemcpyHtoDAsync); g stays reachable until the stream has
// passed the copy.
func (b *Buffer[T]) CopyFromRegisteredAsync(s *Stream, g *Registered[T]) error {
	if err := b.sameLen("CopyFromRegisteredAsync", len(g.s)); err != nil || b.n == 0 {
		return err
	}
	if err := g.r.use(); err != nil {
		return err
	}
	defer g.r.uses.release()
	return s.hostCopy(b.a.r, g.r.p, g, func(st cu.Stream) error {
		return b.a.r.ctx.drv.memcpyHtoD(b.ptr, g.r.p, b.Bytes(), st, true)
	})
}

// CopyToRegisteredAsync queues a copy of the buffer into g on s
// (cuMemcpyDtoHAsync); read g only after [Stream.Synchronize] or
// [Stream.Wait].
func (b *Buffer[T]) CopyToRegisteredAsync(s *Stream, g *Registered[T]) error {
	if err := b.sameLen("CopyToRegisteredAsync", len(g.s)); err != nil || b.n == 0 {
		return err
	}
	if err := g.r.use(); err != nil {
		return err
	}
	defer g.r.uses.release()
	return s.hostCopy(b.a.r, g.r.p, g, func(st cu.Stream) error {
		return b.a.r.ctx.drv.memcpyDtoH(g.r.p, b.ptr, b.Bytes(), st, true)
	})
}
