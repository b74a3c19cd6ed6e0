package cuda

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// Pitched is device memory holding a 2D array of T, height rows of width
// elements, each row starting Pitch() bytes after the one before
// (cuMemAllocPitch): the padding aligns every row for coalesced access.
// A kernel takes it as p.Ptr() and the pitch (element (x, y) is at byte
// y*Pitch() + x*sizeof(T)). Host copies take the rows packed, width*height
// elements.
type Pitched[T any] struct {
	r             *resource
	ptr           cu.Deviceptr
	width, height int
	pitch         uint64
}

// AllocPitched allocates a width × height array of T in c
// (cuMemAllocPitch), not initialised. Either may be 0 (no memory).
func AllocPitched[T any](c *Context, width, height int) (*Pitched[T], error) {
	if width < 0 || height < 0 {
		return nil, fmt.Errorf("cuda: Pitched[%s]: negative size %d × %d", typeName[T](), width, height)
	}
	size, err := elemSize[T]("Pitched", width)
	if err != nil {
		return nil, err
	}
	if width > 0 && uint64(height) > (1<<62)/size/uint64(width) {
		return nil, fmt.Errorf("cuda: Pitched[%s]: %d × %d elements overflow", typeName[T](), width, height)
	}
	var out *Pitched[T]
	err = c.do(func(s *ctxState) error {
		out = &Pitched[T]{width: width, height: height}
		k := kindNone
		if width > 0 && height > 0 {
			var err error
			if out.ptr, out.pitch, err = s.drv.memAllocPitch(uint64(width)*size, uint64(height), pitchElem(size)); err != nil {
				return err
			}
			k = kindMem
		}
		out.r = newResource(out, s, k, uint64(out.ptr), nil)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// pitchElem is cuMemAllocPitch's ElementSizeBytes for elements of size
// bytes: the widest access, 4, 8 or 16, that divides it.
func pitchElem(size uint64) uint32 {
	switch {
	case size%16 == 0:
		return 16
	case size%8 == 0:
		return 8
	}
	return 4
}

// Width returns the elements per row.
func (p *Pitched[T]) Width() int { return p.width }

// Height returns the rows.
func (p *Pitched[T]) Height() int { return p.height }

// Pitch returns the bytes from one row's start to the next's.
func (p *Pitched[T]) Pitch() uint64 { return p.pitch }

// Ptr returns the device address of element (0, 0), for kernels and the cu
// package.
func (p *Pitched[T]) Ptr() cu.Deviceptr { return p.ptr }

// Close frees the memory (cuMemFree). While textures over it are open
// ([PitchedTexture]), it frees nothing and returns an *ArrayError wrapping
// ErrInUse. A second Close returns ErrFreed.
func (p *Pitched[T]) Close() error {
	return p.r.closeHeld(func() string { return "Pitched[" + typeName[T]() + "].Close" }, "textures") // hold.go
}

func (p *Pitched[T]) rowBytes() uint64 { return uint64(p.width) * uint64(unsafe.Sizeof(*new(T))) }

func (p *Pitched[T]) check(op string, n int) error {
	if n != p.width*p.height {
		return fmt.Errorf("cuda: Pitched[%s].%s: %d elements for a %d × %d array", typeName[T](), op, n, p.width, p.height)
	}
	return nil
}

// copy2D describes a copy between p and packed host rows at h.
func (p *Pitched[T]) copy2D(h unsafe.Pointer, toDevice bool) cu.CudaMemcpy2D {
	m := cu.CudaMemcpy2D{WidthInBytes: p.rowBytes(), Height: uint64(p.height)}
	if toDevice {
		m.SrcMemoryType, m.SrcHost, m.SrcPitch = cu.MemorytypeHost, h, p.rowBytes()
		m.DstMemoryType, m.DstDevice, m.DstPitch = cu.MemorytypeDevice, p.ptr, p.pitch
	} else {
		m.SrcMemoryType, m.SrcDevice, m.SrcPitch = cu.MemorytypeDevice, p.ptr, p.pitch
		m.DstMemoryType, m.DstHost, m.DstPitch = cu.MemorytypeHost, h, p.rowBytes()
	}
	return m
}

// CopyFrom copies src, width*height elements row after row, into the
// array (cuMemcpy2D).
func (p *Pitched[T]) CopyFrom(src []T) error { return p.copySync("CopyFrom", src, true) }

// CopyTo copies the array into dst, width*height elements row after row
// (cuMemcpy2D).
func (p *Pitched[T]) CopyTo(dst []T) error { return p.copySync("CopyTo", dst, false) }

func (p *Pitched[T]) copySync(op string, h []T, toDevice bool) error {
	if err := p.check(op, len(h)); err != nil || len(h) == 0 {
		return err
	}
	return p.r.do(func() error {
		// The descriptor holds the Go pointer through the call: pinned.
		var pin runtime.Pinner
		hp := unsafe.Pointer(unsafe.SliceData(h))
		pin.Pin(hp)
		defer pin.Unpin()
		m := p.copy2D(hp, toDevice)
		return p.r.ctx.drv.memcpy2D(&m, 0, false)
	})
}

// CopyFromAsync queues the copy of CopyFrom on s (cuMemcpy2DAsync); src
// stays alive and pinned until the stream has passed it, as with
// [Buffer.CopyFromAsync].
func (p *Pitched[T]) CopyFromAsync(s *Stream, src []T) error {
	return p.copyAsync("CopyFromAsync", s, src, true)
}

// CopyToAsync queues the copy of CopyTo on s (cuMemcpy2DAsync); read dst
// after [Stream.Synchronize] or [Stream.Wait].
func (p *Pitched[T]) CopyToAsync(s *Stream, dst []T) error {
	return p.copyAsync("CopyToAsync", s, dst, false)
}

func (p *Pitched[T]) copyAsync(op string, s *Stream, h []T, toDevice bool) error {
	if err := p.check(op, len(h)); err != nil || len(h) == 0 {
		return err
	}
	hp := unsafe.Pointer(unsafe.SliceData(h))
	return s.hostCopy(p.r, hp, nil, func(st cu.Stream) error {
		m := p.copy2D(hp, toDevice)
		return p.r.ctx.drv.memcpy2D(&m, st, true)
	})
}

func (realDriver) memAllocPitch(width, height uint64, elem uint32) (cu.Deviceptr, uint64, error) {
	return cu.MemAllocPitch(width, height, elem)
}
