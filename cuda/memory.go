package cuda

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// Buffer is device memory holding elements of type T (cuMemAlloc), or a
// view of part of one ([Buffer.Slice]). T must hold no Go pointers. A Buffer
// is safe to use from any goroutine; like a slice's, its contents are not
// guarded against concurrent writes.
type Buffer[T any] struct {
	a    *devAlloc
	ptr  cu.Deviceptr
	n    int
	view bool
}

// devAlloc is one allocation, shared by a buffer and its views; it is freed
// when they all become unreachable, or by the owner's Close.
type devAlloc struct {
	r       *resource
	managed bool         // cuMemAllocManaged (managed.go)
	armed   bool         // its finalizer is set (bufalloc.go; its ring's mu)
	shard   uint8        // its ring: pending[shard]
	pend    atomic.Int32 // its slot in the ring + 1, or 0 (set under its ring's mu)
}

// Alloc allocates n elements of device memory in c (cuMemAlloc), not
// initialised. n may be 0 (no memory, nothing to copy).
func Alloc[T any](c *Context, n int) (*Buffer[T], error) {
	return allocBuffer[T](c, n, false, func(s *ctxState, bytes uint64) (cu.Deviceptr, error) {
		return s.drv.memAlloc(bytes)
	})
}

// allocBuffer makes a Buffer of n elements in c from the memory alloc
// gives (none when n is 0), freed by cuMemFree: Alloc's device memory and
// AllocManaged's managed memory.
func allocBuffer[T any](c *Context, n int, managed bool, alloc func(s *ctxState, bytes uint64) (cu.Deviceptr, error)) (*Buffer[T], error) {
	size, err := elemSize[T]("Buffer", n)
	if err != nil {
		return nil, err
	}
	var b *Buffer[T]
	err = c.do(func(s *ctxState) error {
		var p cu.Deviceptr
		k := kindNone
		if n > 0 {
			var err error
			if p, err = alloc(s, uint64(n)*size); err != nil {
				return err
			}
			k = kindMem
		}
		b, _ = newBuffer[T](s, k, p, n, managed) // bufalloc.go
		return nil
	})
	return b, err
}

// AllocFrom allocates a buffer of len(src) elements and copies src into it.
func AllocFrom[T any](c *Context, src []T) (*Buffer[T], error) {
	b, err := Alloc[T](c, len(src))
	if err != nil {
		return nil, err
	}
	if err := b.CopyFrom(src); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// Len returns the number of elements.
func (b *Buffer[T]) Len() int { return b.n }

// Bytes returns the size in bytes.
func (b *Buffer[T]) Bytes() uint64 { return uint64(b.n) * uint64(unsafe.Sizeof(*new(T))) }

// Ptr returns the device address of the first element, for the cu package.
func (b *Buffer[T]) Ptr() cu.Deviceptr { return b.ptr }

// Close frees the memory (cuMemFree, which waits for the work already
// submitted that may use it). A view cannot be closed (ErrView); a second
// Close returns ErrFreed, and so does any later use of the buffer or its
// views. While textures over it are open ([BufferTexture]), it frees
// nothing and returns an *ArrayError wrapping ErrInUse.
func (b *Buffer[T]) Close() error {
	if b.view {
		return ErrView
	}
	if err := b.a.r.closeHeld(func() string { return "Buffer[" + typeName[T]() + "].Close" }, "textures"); err != nil { // hold.go
		return err
	}
	unpend(b.a, b) // no finalizer (bufalloc.go)
	return nil
}

// Free is Close.
//
// Deprecated: use Close.
func (b *Buffer[T]) Free() error { return b.Close() }

// Slice returns a view of elements [i, j), sharing b's memory. It panics
// if the bounds are out of range, as a slice expression does.
func (b *Buffer[T]) Slice(i, j int) *Buffer[T] {
	if i < 0 || j < i || j > b.n {
		panic(fmt.Sprintf("cuda: Buffer.Slice(%d, %d) out of range for length %d", i, j, b.n))
	}
	return &Buffer[T]{a: b.a, ptr: b.ptr + cu.Deviceptr(uintptr(i)*unsafe.Sizeof(*new(T))), n: j - i, view: true}
}

// isBuffer marks buffers as kernel arguments (kernelArg).
func (b *Buffer[T]) isBuffer() {}

// res is the allocation b is part of.
func (b *Buffer[T]) res() *resource {
	if b == nil {
		return nil // Stream.Call's error
	}
	return b.a.r
}

func (b *Buffer[T]) sameLen(op string, n int) error {
	if n != b.n {
		return fmt.Errorf("cuda: Buffer[%s].%s: %d elements for a buffer of %d", typeName[T](), op, n, b.n)
	}
	return nil
}

// CopyFrom copies src, which must have b.Len() elements, to the device
// (cuMemcpyHtoD).
func (b *Buffer[T]) CopyFrom(src []T) error {
	if err := b.sameLen("CopyFrom", len(src)); err != nil || b.n == 0 {
		return err
	}
	return b.a.r.do(func() error {
		return b.a.r.ctx.drv.memcpyHtoD(b.ptr, noescape(unsafe.Pointer(unsafe.SliceData(src))), b.Bytes(), 0, false)
	})
}

// CopyTo copies the buffer into dst, which must have b.Len() elements
// (cuMemcpyDtoH).
func (b *Buffer[T]) CopyTo(dst []T) error {
	if err := b.sameLen("CopyTo", len(dst)); err != nil || b.n == 0 {
		return err
	}
	return b.a.r.do(func() error {
		return b.a.r.ctx.drv.memcpyDtoH(noescape(unsafe.Pointer(unsafe.SliceData(dst))), b.ptr, b.Bytes(), 0, false)
	})
}

// CopyFromAsync queues a copy of src to the device on s
// (cuMemcpyHtoDAsync). src stays alive and pinned in place
// (runtime.Pinner) until the stream has passed the copy: do not write it
// before then. From pageable Go memory the driver reads src before the
// call returns; from pinned memory the copy is truly asynchronous.
func (b *Buffer[T]) CopyFromAsync(s *Stream, src []T) error {
	if err := b.sameLen("CopyFromAsync", len(src)); err != nil || b.n == 0 {
		return err
	}
	return s.hostCopy(b.a.r, unsafe.Pointer(unsafe.SliceData(src)), nil, func(st cu.Stream) error {
		return b.a.r.ctx.drv.memcpyHtoD(b.ptr, unsafe.Pointer(unsafe.SliceData(src)), b.Bytes(), st, true)
	})
}

// CopyToAsync queues a copy of the buffer into dst on s
// (cuMemcpyDtoHAsync). dst stays alive and pinned in place until the
// stream has passed the copy; read it only after [Stream.Synchronize] or
// [Stream.Wait].
func (b *Buffer[T]) CopyToAsync(s *Stream, dst []T) error {
	if err := b.sameLen("CopyToAsync", len(dst)); err != nil || b.n == 0 {
		return err
	}
	return s.hostCopy(b.a.r, unsafe.Pointer(unsafe.SliceData(dst)), nil, func(st cu.Stream) error {
		return b.a.r.ctx.drv.memcpyDtoH(unsafe.Pointer(unsafe.SliceData(dst)), b.ptr, b.Bytes(), st, true)
	})
}

// CopyFromHostAsync queues a copy of the pinned buffer h, of b.Len()
// elements, to the device on s (cuMemcpyHtoDAsync); h stays reachable until
// the stream has passed the copy, so no cleanup frees it under the copy.
func (b *Buffer[T]) CopyFromHostAsync(s *Stream, h *HostBuffer[T]) error {
	if err := b.sameLen("CopyFromHostAsync", h.n); err != nil || b.n == 0 {
		return err
	}
	if err := h.r.use(); err != nil {
		return err
	}
	defer h.r.uses.release()
	return s.hostCopy(b.a.r, h.p, h, func(st cu.Stream) error {
		return b.a.r.ctx.drv.memcpyHtoD(b.ptr, h.p, b.Bytes(), st, true)
	})
}

// CopyToHostAsync queues a copy of the buffer into the pinned buffer h on s
// (cuMemcpyDtoHAsync), keeping h reachable as CopyFromHostAsync does.
func (b *Buffer[T]) CopyToHostAsync(s *Stream, h *HostBuffer[T]) error {
	if err := b.sameLen("CopyToHostAsync", h.n); err != nil || b.n == 0 {
		return err
	}
	if err := h.r.use(); err != nil {
		return err
	}
	defer h.r.uses.release()
	return s.hostCopy(b.a.r, h.p, h, func(st cu.Stream) error {
		return b.a.r.ctx.drv.memcpyDtoH(h.p, b.ptr, b.Bytes(), st, true)
	})
}

// CopyFromBuffer copies src, of the same length, into b: cuMemcpyDtoD in
// one context, cuMemcpyPeer between two.
func (b *Buffer[T]) CopyFromBuffer(src *Buffer[T]) error {
	if err := b.sameLen("CopyFromBuffer", src.n); err != nil || b.n == 0 {
		return err
	}
	if err := src.a.r.use(); err != nil {
		return err
	}
	defer src.a.r.uses.release()
	return b.a.r.do(func() error {
		if sc, dc := src.a.r.ctx.ctx, b.a.r.ctx.ctx; sc != dc {
			return b.a.r.ctx.drv.memcpyPeer(b.ptr, dc, src.ptr, sc, b.Bytes(), 0, false)
		}
		return b.a.r.ctx.drv.memcpyDtoD(b.ptr, src.ptr, b.Bytes(), 0, false)
	})
}

// CopyFromBufferAsync queues the copy of CopyFromBuffer on s
// (cuMemcpyDtoDAsync, cuMemcpyPeerAsync).
func (b *Buffer[T]) CopyFromBufferAsync(s *Stream, src *Buffer[T]) error {
	if err := b.sameLen("CopyFromBufferAsync", src.n); err != nil || b.n == 0 {
		return err
	}
	if err := src.a.r.use(); err != nil {
		return err
	}
	defer src.a.r.uses.release()
	return s.deviceOp(b.a.r, func(st cu.Stream) error {
		if sc, dc := src.a.r.ctx.ctx, b.a.r.ctx.ctx; sc != dc {
			return b.a.r.ctx.drv.memcpyPeer(b.ptr, dc, src.ptr, sc, b.Bytes(), st, true)
		}
		return b.a.r.ctx.drv.memcpyDtoD(b.ptr, src.ptr, b.Bytes(), st, true)
	})
}

// Fill sets every element to v (cuMemsetD8/D16/D32). T's size must be 1,
// 2 or 4 bytes, or v's bytes a repetition of its first 4, 2 or 1 (as 0 is).
func (b *Buffer[T]) Fill(v T) error {
	set, err := b.memset(v)
	if err != nil || b.n == 0 {
		return err
	}
	return b.a.r.do(func() error { return set(0, false) })
}

// FillAsync queues Fill on s (cuMemsetD8Async, ...).
func (b *Buffer[T]) FillAsync(s *Stream, v T) error {
	set, err := b.memset(v)
	if err != nil || b.n == 0 {
		return err
	}
	return s.deviceOp(b.a.r, func(st cu.Stream) error { return set(st, true) })
}

// Zero sets every byte to 0.
func (b *Buffer[T]) Zero() error {
	var z T
	return b.Fill(z)
}

// memset returns the call that fills b with v's bytes.
func (b *Buffer[T]) memset(v T) (func(st cu.Stream, async bool) error, error) {
	vb := unsafe.Slice((*byte)(unsafe.Pointer(&v)), unsafe.Sizeof(v))
	bytes := b.Bytes()
	var x uint32
	w := pattern(vb)
	switch w {
	case 4:
		x = *(*uint32)(unsafe.Pointer(&vb[0]))
	case 2:
		x = uint32(*(*uint16)(unsafe.Pointer(&vb[0])))
	case 1:
		x = uint32(vb[0])
	default:
		return nil, fmt.Errorf("cuda: Buffer[%s].Fill: a %d-byte value that is no repetition of 1, 2 or 4 bytes (cuMemsetD8/16/32 write those)", typeName[T](), len(vb))
	}
	return func(st cu.Stream, async bool) error {
		return b.a.r.ctx.drv.memset(b.ptr, x, w, bytes/uint64(w), st, async)
	}, nil
}

// pattern returns the width, 1, 2 or 4 bytes, of the smallest repeating
// unit of b that CUDA's memset can write (the widest aligned one is
// cheapest: 4 before 2 before 1 when b repeats at every width), or 0.
func pattern(b []byte) int {
	for _, w := range []int{4, 2, 1} {
		if len(b)%w != 0 {
			continue
		}
		ok := true
		for i := w; i < len(b) && ok; i++ {
			ok = b[i] == b[i%w]
		}
		if ok {
			return w
		}
	}
	return 0
}

// HostBuffer is pinned (page-locked) host memory holding elements of type
// T (cuMemHostAlloc, portable to every context): copies from and to it run
// asynchronously and at full speed.
type HostBuffer[T any] struct {
	r *resource
	p unsafe.Pointer
	n int
}

// AllocHost allocates n elements of pinned host memory through c.
func AllocHost[T any](c *Context, n int) (*HostBuffer[T], error) {
	size, err := elemSize[T]("HostBuffer", n)
	if err != nil {
		return nil, err
	}
	var h *HostBuffer[T]
	err = c.do(func(s *ctxState) error {
		var p unsafe.Pointer
		k := kindNone
		if n > 0 {
			var err error
			if p, err = s.drv.hostAlloc(uint64(n) * size); err != nil {
				return err
			}
			k = kindHost
		}
		h = &HostBuffer[T]{p: p, n: n}
		h.r = newResource(h, s, k, 0, p)
		return nil
	})
	return h, err
}

// Len returns the number of elements.
func (h *HostBuffer[T]) Len() int { return h.n }

// Slice returns the memory as a Go slice. It is valid until Close: do not
// keep it longer, and keep h reachable while it is used (runtime.KeepAlive
// or a later use of h), or its cleanup may free the memory under it.
func (h *HostBuffer[T]) Slice() []T {
	if h.p == nil || h.r.uses.closed() {
		return nil
	}
	return unsafe.Slice((*T)(h.p), h.n)
}

// Ptr returns the host address, for the cu package.
func (h *HostBuffer[T]) Ptr() unsafe.Pointer { return h.p }

// Close frees the memory (cuMemFreeHost). A second Close returns ErrFreed.
func (h *HostBuffer[T]) Close() error { return h.r.free() }

// Free is Close.
//
// Deprecated: use Close.
func (h *HostBuffer[T]) Free() error { return h.Close() }

// elemSize checks T can live in CUDA memory and n is a valid length.
func elemSize[T any](what string, n int) (uint64, error) {
	if n < 0 {
		return 0, fmt.Errorf("cuda: %s[%s]: negative length %d", what, typeName[T](), n)
	}
	t := reflect.TypeFor[T]()
	if k := t.Kind(); k < reflect.Bool || k > reflect.Complex128 { // else a number: plain, without plainType's map
		if err := plainType(t); err != nil {
			return 0, fmt.Errorf("cuda: %s[%s]: %w", what, t, err)
		}
	}
	size := uint64(t.Size())
	if size == 0 {
		return 0, fmt.Errorf("cuda: %s[%s]: zero-size element type", what, t)
	}
	if n > 0 && uint64(n) > (1<<62)/size {
		return 0, fmt.Errorf("cuda: %s[%s]: %d elements overflow", what, t, n)
	}
	return size, nil
}

var plainTypes sync.Map // reflect.Type -> error (nil: plain)

// plainType returns an error naming what in t is or holds a Go pointer:
// such values cannot be copied to the device or packed as kernel arguments.
func plainType(t reflect.Type) error {
	if v, ok := plainTypes.Load(t); ok {
		if v == nil {
			return nil
		}
		return v.(error)
	}
	err := checkPlain(t, t.String())
	if err == nil {
		plainTypes.Store(t, nil)
	} else {
		plainTypes.Store(t, err)
	}
	return err
}

func checkPlain(t reflect.Type, path string) error {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return nil
	case reflect.Array:
		return checkPlain(t.Elem(), path+"[]")
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if err := checkPlain(f.Type, path+"."+f.Name); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%s is a %s, which holds Go pointers", path, t.Kind())
}

func typeName[T any]() string { return reflect.TypeFor[T]().String() }

// copyDriver is the driver's copies and fills of linear memory: each the
// call on st (cuMemcpyHtoDAsync, ...) when async, else the synchronous
// one (cuMemcpyHtoD, ...).
type copyDriver interface {
	memcpyHtoD(dst cu.Deviceptr, src unsafe.Pointer, bytes uint64, st cu.Stream, async bool) error
	memcpyDtoH(dst unsafe.Pointer, src cu.Deviceptr, bytes uint64, st cu.Stream, async bool) error
	memcpyDtoD(dst, src cu.Deviceptr, bytes uint64, st cu.Stream, async bool) error
	// memcpyPeer copies between the contexts dctx and sctx (cuMemcpyPeer).
	memcpyPeer(dst cu.Deviceptr, dctx cu.Context, src cu.Deviceptr, sctx cu.Context, bytes uint64, st cu.Stream, async bool) error
	// memset sets n words of w bytes (1, 2 or 4) to x (cuMemsetD8, 16, 32).
	memset(dst cu.Deviceptr, x uint32, w int, n uint64, st cu.Stream, async bool) error
	memcpy2D(m *cu.CudaMemcpy2D, st cu.Stream, async bool) error
}

func (realDriver) memcpyHtoD(dst cu.Deviceptr, src unsafe.Pointer, bytes uint64, st cu.Stream, async bool) error {
	if async {
		return cu.MemcpyHtoDAsync(dst, src, bytes, st)
	}
	return cu.MemcpyHtoD(dst, src, bytes)
}

func (realDriver) memcpyDtoH(dst unsafe.Pointer, src cu.Deviceptr, bytes uint64, st cu.Stream, async bool) error {
	if async {
		return cu.MemcpyDtoHAsync(dst, src, bytes, st)
	}
	return cu.MemcpyDtoH(dst, src, bytes)
}

func (realDriver) memcpyDtoD(dst, src cu.Deviceptr, bytes uint64, st cu.Stream, async bool) error {
	if async {
		return cu.MemcpyDtoDAsync(dst, src, bytes, st)
	}
	return cu.MemcpyDtoD(dst, src, bytes)
}

func (realDriver) memcpyPeer(dst cu.Deviceptr, dctx cu.Context, src cu.Deviceptr, sctx cu.Context, bytes uint64, st cu.Stream, async bool) error {
	if async {
		return cu.MemcpyPeerAsync(dst, dctx, src, sctx, bytes, st)
	}
	return cu.MemcpyPeer(dst, dctx, src, sctx, bytes)
}

func (realDriver) memset(dst cu.Deviceptr, x uint32, w int, n uint64, st cu.Stream, async bool) error {
	switch {
	case w == 4 && async:
		return cu.MemsetD32Async(dst, x, n, st)
	case w == 4:
		return cu.MemsetD32(dst, x, n)
	case w == 2 && async:
		return cu.MemsetD16Async(dst, uint16(x), n, st)
	case w == 2:
		return cu.MemsetD16(dst, uint16(x), n)
	case async:
		return cu.MemsetD8Async(dst, uint8(x), n, st)
	}
	return cu.MemsetD8(dst, uint8(x), n)
}

func (realDriver) memcpy2D(m *cu.CudaMemcpy2D, st cu.Stream, async bool) error {
	if async {
		return cu.Memcpy2DAsync(m, st)
	}
	return cu.Memcpy2D(m)
}
