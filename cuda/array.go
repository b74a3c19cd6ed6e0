package cuda

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// ArrayDesc is the shape of an [Array]. The zero value of each field but
// Width means "none": Height 0 is a 1D array, Depth 0 a 1D or 2D one,
// Layers 0 an array that is not layered.
type ArrayDesc struct {
	Width  int // elements per row, at least 1
	Height int // rows; 0 for a 1D array
	Depth  int // slices of a 3D array; 0 for 1D and 2D arrays
	// Layers makes a layered array of this many 1D (Height 0) or 2D
	// layers (Depth must be 0); with Cubemap, of this many cubemaps.
	Layers int
	// Cubemap makes six Width × Width faces (Height must equal Width,
	// Depth be 0), sampled by direction (texCubemap).
	Cubemap bool
	// Surface allows [Array.Surface]: kernels may write the array
	// (CUDA_ARRAY3D_SURFACE_LDST).
	Surface bool
}

// extent returns the array's size in elements along x, y and z, as copies
// see it: a 1D array is 1 row of 1 slice, layers and cubemap faces are
// slices.
func (d ArrayDesc) extent() (w, h, z uint64) {
	w, h, z = uint64(d.Width), uint64(max(d.Height, 1)), uint64(max(d.Depth, 1))
	switch {
	case d.Cubemap:
		z = 6 * uint64(max(d.Layers, 1))
	case d.Layers > 0:
		z = uint64(d.Layers)
	}
	return w, h, z
}

// Len returns the array's number of elements: what a copy moves.
func (d ArrayDesc) Len() int {
	w, h, z := d.extent()
	return int(w * h * z)
}

func (d ArrayDesc) String() string {
	var s string
	switch w, h, z := d.extent(); {
	case d.Cubemap:
		s = fmt.Sprintf("cubemap %d × %d", w, h)
	case d.Depth > 0:
		s = fmt.Sprintf("3D %d × %d × %d", w, h, z)
	case d.Height > 0:
		s = fmt.Sprintf("2D %d × %d", w, h)
	default:
		s = fmt.Sprintf("1D %d", w)
	}
	if d.Layers > 0 {
		s += fmt.Sprintf(", %d layers", d.Layers)
	}
	return s
}

// check returns why d is not an array's shape, or "".
func (d ArrayDesc) check(elem uint64) string {
	switch {
	case d.Width < 1 || d.Height < 0 || d.Depth < 0 || d.Layers < 0:
		return fmt.Sprintf("Width %d, Height %d, Depth %d, Layers %d: want Width ≥ 1 and none negative", d.Width, d.Height, d.Depth, d.Layers)
	case d.Depth > 0 && d.Height == 0:
		return fmt.Sprintf("Depth %d with Height 0: a 3D array has rows", d.Depth)
	case d.Depth > 0 && d.Layers > 0:
		return "Depth and Layers both set: layers are of 1D or 2D arrays"
	case d.Cubemap && (d.Height != d.Width || d.Depth != 0):
		return fmt.Sprintf("cubemap of %d × %d × %d: its faces are Width × Width (Height = Width, Depth 0)", d.Width, d.Height, d.Depth)
	}
	w, h, z := d.extent()
	if w > 1<<31 || h > 1<<31 || z > 1<<31 || w*h > (1<<62)/z/elem {
		return fmt.Sprintf("%d × %d × %d elements overflow", w, h, z)
	}
	return ""
}

// descriptor returns cuArray3DCreate's descriptor of d.
func (d ArrayDesc) descriptor(f cu.ArrayFormat, channels int) cu.Array3DDescriptor {
	a := cu.Array3DDescriptor{
		Width: uint64(d.Width), Height: uint64(d.Height), Depth: uint64(d.Depth),
		Format: f, NumChannels: uint32(channels),
	}
	if d.Layers > 0 {
		a.Flags |= cu.Array3DLayered
		a.Depth = uint64(d.Layers)
	}
	if d.Cubemap {
		a.Flags |= cu.Array3DCubemap
		a.Depth = 6 * uint64(max(d.Layers, 1))
	}
	if d.Surface {
		a.Flags |= cu.Array3DSurfaceLdst
	}
	return a
}

// ArrayError is a misuse of an array, texture or surface that the layer
// refuses before the driver sees it: a shape it cannot have, an element
// type CUDA arrays do not hold, a copy of the wrong size, options that do
// not fit the array's format.
type ArrayError struct {
	Op     string // "AllocArray", "Array[float32].CopyFrom", ...
	Reason string
	Err    error // ErrInUse, or nil
}

func (e *ArrayError) Error() string { return "cuda: " + e.Op + ": " + e.Reason }

func (e *ArrayError) Unwrap() error { return e.Err }

// ErrInUse is returned (in an *ArrayError) by the Close of an array that
// textures or surfaces are open over: close them first.
var ErrInUse = errors.New("cuda: in use by a texture or surface")

// elemFormat returns the CUDA array format and channel count of T: an 8-,
// 16- or 32-bit integer or float32, alone, or 2 or 4 of one of them in a
// Go array or struct ([4]uint8, struct{ X, Y float32 }).
func elemFormat(t reflect.Type) (f cu.ArrayFormat, channels int, why string) {
	scalar := func(k reflect.Kind) cu.ArrayFormat {
		switch k {
		case reflect.Uint8:
			return cu.AdFormatUnsignedInt8
		case reflect.Uint16:
			return cu.AdFormatUnsignedInt16
		case reflect.Uint32:
			return cu.AdFormatUnsignedInt32
		case reflect.Int8:
			return cu.AdFormatSignedInt8
		case reflect.Int16:
			return cu.AdFormatSignedInt16
		case reflect.Int32:
			return cu.AdFormatSignedInt32
		case reflect.Float32:
			return cu.AdFormatFloat
		}
		return 0
	}
	const want = "want an 8-, 16- or 32-bit integer or float32, alone or 2 or 4 of one kind ([4]uint8, struct{ X, Y float32 })"
	var elem reflect.Type
	switch t.Kind() {
	case reflect.Array:
		channels, elem = t.Len(), t.Elem()
	case reflect.Struct:
		channels = t.NumField()
		for i := range channels {
			ft := t.Field(i).Type
			if elem == nil {
				elem = ft
			} else if ft.Kind() != elem.Kind() {
				return 0, 0, "fields of different kinds: " + want
			}
		}
	default:
		channels, elem = 1, t
	}
	if channels != 1 && channels != 2 && channels != 4 {
		return 0, 0, fmt.Sprintf("%d channels: %s", channels, want)
	}
	if f = scalar(elem.Kind()); f == 0 {
		return 0, 0, want
	}
	if t.Size() != uintptr(channels)*elem.Size() {
		return 0, 0, "padded: " + want
	}
	return f, channels, ""
}

// formatInt reports whether f is an integer format, and its bits.
func formatInt(f cu.ArrayFormat) (integer bool, bits int) {
	switch f {
	case cu.AdFormatUnsignedInt8, cu.AdFormatSignedInt8:
		return true, 8
	case cu.AdFormatUnsignedInt16, cu.AdFormatSignedInt16:
		return true, 16
	case cu.AdFormatUnsignedInt32, cu.AdFormatSignedInt32:
		return true, 32
	}
	return false, 32
}

// Array is a CUDA array of T (CUarray): memory laid out for textures and
// surfaces, in 1, 2 or 3 dimensions, layered or a cubemap (see
// [ArrayDesc]). Kernels read it through a [Texture] and read and write it
// through a [Surface]; the host fills and reads it with the copies below,
// which move the whole array, its elements packed x fastest, then rows,
// then slices (layers, faces).
//
// T is the element, and gives the array's format: uint8, int8, uint16,
// int16, uint32, int32 or float32, alone or 2 or 4 of one of them in a Go
// array or a struct ([4]uint8 for RGBA8, [2]float32 or
// struct{ X, Y float32 } for float2).
type Array[T any] struct{ b *arrayBase }

// arrayBase is an Array's state, whatever T: what textures and surfaces
// over it keep reachable.
type arrayBase struct {
	r        *resource
	desc     ArrayDesc
	format   cu.ArrayFormat
	channels int
	elem     uint64 // bytes per element
}

// AllocArray allocates a CUDA array of T of shape d in c (cuArray3DCreate),
// not initialised.
func AllocArray[T any](c *Context, d ArrayDesc) (*Array[T], error) {
	op := "AllocArray[" + typeName[T]() + "]"
	t := reflect.TypeFor[T]()
	f, ch, why := elemFormat(t)
	if why != "" {
		return nil, &ArrayError{Op: op, Reason: why}
	}
	if why := d.check(uint64(t.Size())); why != "" {
		return nil, &ArrayError{Op: op, Reason: why}
	}
	desc := d.descriptor(f, ch)
	var out *Array[T]
	err := c.do(func(s *ctxState) error {
		h, err := s.drv.arrayCreate(&desc)
		if err != nil {
			return fmt.Errorf("cuda: %s of %v: %w", op, d, err)
		}
		b := &arrayBase{desc: d, format: f, channels: ch, elem: uint64(t.Size())}
		b.r = newResource(b, s, kindArray, uint64(h), nil)
		out = &Array[T]{b: b}
		return nil
	})
	return out, err
}

// Desc returns the array's shape.
func (a *Array[T]) Desc() ArrayDesc { return a.b.desc }

// Len returns the number of elements a copy moves.
func (a *Array[T]) Len() int { return a.b.desc.Len() }

// Format returns the array's format and channels, from T.
func (a *Array[T]) Format() (cu.ArrayFormat, int) { return a.b.format, a.b.channels }

// Raw returns the driver's handle (CUarray), for the cu package.
func (a *Array[T]) Raw() cu.Array { return cu.Array(a.b.r.h) }

// Close frees the array (cuArrayDestroy). While textures or surfaces made
// from it are open, it frees nothing and returns an *ArrayError wrapping
// ErrInUse: close them first. A second Close returns ErrFreed.
func (a *Array[T]) Close() error {
	return a.b.r.closeHeld(func() string { return a.op("Close") }, "textures or surfaces") // hold.go
}

func (a *Array[T]) op(name string) string { return "Array[" + typeName[T]() + "]." + name }

func (a *Array[T]) checkLen(op string, n int) error {
	if want := a.b.desc.Len(); n != want {
		return &ArrayError{Op: a.op(op), Reason: fmt.Sprintf("%d elements for a %v array of %d", n, a.b.desc, want)}
	}
	return nil
}

// copy3D describes a copy of the whole array from (toArray) or to packed
// memory of type mt at host or dev.
func (b *arrayBase) copy3D(toArray bool, mt cu.Memorytype, host unsafe.Pointer, dev cu.Deviceptr) cu.CudaMemcpy3D {
	w, h, z := b.desc.extent()
	row := w * b.elem
	m := cu.CudaMemcpy3D{WidthInBytes: row, Height: h, Depth: z}
	if toArray {
		m.SrcMemoryType, m.SrcHost, m.SrcDevice, m.SrcPitch, m.SrcHeight = mt, host, dev, row, h
		m.DstMemoryType, m.DstArray = cu.MemorytypeArray, cu.Array(b.r.h)
	} else {
		m.SrcMemoryType, m.SrcArray = cu.MemorytypeArray, cu.Array(b.r.h)
		m.DstMemoryType, m.DstHost, m.DstDevice, m.DstPitch, m.DstHeight = mt, host, dev, row, h
	}
	return m
}

// CopyFrom copies src, a.Len() elements, into the array (cuMemcpy3D).
func (a *Array[T]) CopyFrom(src []T) error { return a.hostSync("CopyFrom", src, true) }

// CopyTo copies the array into dst, a.Len() elements (cuMemcpy3D).
func (a *Array[T]) CopyTo(dst []T) error { return a.hostSync("CopyTo", dst, false) }

func (a *Array[T]) hostSync(op string, h []T, toArray bool) error {
	if err := a.checkLen(op, len(h)); err != nil {
		return err
	}
	b := a.b
	return b.r.do(func() error {
		// The descriptor holds the Go pointer through the call: pinned.
		var pin runtime.Pinner
		hp := unsafe.Pointer(unsafe.SliceData(h))
		pin.Pin(hp)
		defer pin.Unpin()
		m := b.copy3D(toArray, cu.MemorytypeHost, hp, 0)
		return b.r.ctx.drv.memcpy3D(&m, 0, false)
	})
}

// CopyFromAsync queues the copy of CopyFrom on s (cuMemcpy3DAsync); src
// stays alive and pinned until the stream has passed it, as with
// [Buffer.CopyFromAsync].
func (a *Array[T]) CopyFromAsync(s *Stream, src []T) error {
	return a.hostAsync("CopyFromAsync", s, src, true)
}

// CopyToAsync queues the copy of CopyTo on s (cuMemcpy3DAsync); read dst
// after [Stream.Synchronize] or [Stream.Wait].
func (a *Array[T]) CopyToAsync(s *Stream, dst []T) error {
	return a.hostAsync("CopyToAsync", s, dst, false)
}

func (a *Array[T]) hostAsync(op string, s *Stream, h []T, toArray bool) error {
	if err := a.checkLen(op, len(h)); err != nil {
		return err
	}
	b := a.b
	hp := unsafe.Pointer(unsafe.SliceData(h))
	return s.hostCopy(b.r, hp, nil, func(st cu.Stream) error {
		m := b.copy3D(toArray, cu.MemorytypeHost, hp, 0)
		return b.r.ctx.drv.memcpy3D(&m, st, true)
	})
}

// CopyFromHostAsync queues a copy of the pinned buffer h, of a.Len()
// elements, into the array on s (cuMemcpy3DAsync); h stays reachable until
// the stream has passed the copy.
func (a *Array[T]) CopyFromHostAsync(s *Stream, h *HostBuffer[T]) error {
	return a.pinnedAsync("CopyFromHostAsync", s, h, true)
}

// CopyToHostAsync queues a copy of the array into the pinned buffer h on s
// (cuMemcpy3DAsync), keeping h reachable as CopyFromHostAsync does.
func (a *Array[T]) CopyToHostAsync(s *Stream, h *HostBuffer[T]) error {
	return a.pinnedAsync("CopyToHostAsync", s, h, false)
}

func (a *Array[T]) pinnedAsync(op string, s *Stream, h *HostBuffer[T], toArray bool) error {
	if h == nil {
		return &ArrayError{Op: a.op(op), Reason: "nil *HostBuffer"}
	}
	if err := a.checkLen(op, h.n); err != nil {
		return err
	}
	if err := h.r.use(); err != nil {
		return err
	}
	defer h.r.uses.release()
	b := a.b
	return s.hostCopy(b.r, h.p, h, func(st cu.Stream) error {
		m := b.copy3D(toArray, cu.MemorytypeHost, h.p, 0)
		return b.r.ctx.drv.memcpy3D(&m, st, true)
	})
}

// CopyFromBuffer copies the device buffer src, of a.Len() elements packed
// as the host copies take them, into the array (cuMemcpy3D). Both must be
// of one context.
func (a *Array[T]) CopyFromBuffer(src *Buffer[T]) error {
	return a.bufferCopy("CopyFromBuffer", nil, src, true)
}

// CopyToBuffer copies the array into the device buffer dst, of a.Len()
// elements (cuMemcpy3D).
func (a *Array[T]) CopyToBuffer(dst *Buffer[T]) error {
	return a.bufferCopy("CopyToBuffer", nil, dst, false)
}

// CopyFromBufferAsync queues the copy of CopyFromBuffer on s
// (cuMemcpy3DAsync).
func (a *Array[T]) CopyFromBufferAsync(s *Stream, src *Buffer[T]) error {
	if s == nil {
		return errNilStream
	}
	return a.bufferCopy("CopyFromBufferAsync", s, src, true)
}

// CopyToBufferAsync queues the copy of CopyToBuffer on s (cuMemcpy3DAsync).
func (a *Array[T]) CopyToBufferAsync(s *Stream, dst *Buffer[T]) error {
	if s == nil {
		return errNilStream
	}
	return a.bufferCopy("CopyToBufferAsync", s, dst, false)
}

func (a *Array[T]) bufferCopy(op string, s *Stream, buf *Buffer[T], toArray bool) error {
	if buf == nil {
		return &ArrayError{Op: a.op(op), Reason: "nil *Buffer"}
	}
	if err := a.checkLen(op, buf.n); err != nil {
		return err
	}
	br := buf.a.r
	if err := br.use(); err != nil {
		return err
	}
	defer br.uses.release()
	b := a.b
	if br.ctx.ctx != b.r.ctx.ctx {
		return &ArrayError{Op: a.op(op), Reason: "the buffer belongs to another context than the array"}
	}
	copyOn := func(st cu.Stream, async bool) error {
		m := b.copy3D(toArray, cu.MemorytypeDevice, nil, buf.ptr)
		return b.r.ctx.drv.memcpy3D(&m, st, async)
	}
	if s == nil {
		return b.r.do(func() error { return copyOn(0, false) })
	}
	return s.deviceOp(b.r, func(st cu.Stream) error { return copyOn(st, true) })
}

// arrayDriver is the driver's arrays, textures and surfaces: the real
// driver, or the fake of the tests.
type arrayDriver interface {
	arrayCreate(d *cu.Array3DDescriptor) (cu.Array, error)
	texCreate(res *cu.ResourceDesc, tex *cu.TextureDesc) (cu.TexObject, error)
	surfCreate(res *cu.ResourceDesc) (cu.SurfObject, error)
	// memcpy3D is cuMemcpy3D, or cuMemcpy3DAsync on st when async.
	memcpy3D(m *cu.CudaMemcpy3D, st cu.Stream, async bool) error
}

func (realDriver) arrayCreate(d *cu.Array3DDescriptor) (cu.Array, error) {
	return cu.Array3DCreate(d)
}

func (realDriver) texCreate(res *cu.ResourceDesc, tex *cu.TextureDesc) (cu.TexObject, error) {
	return cu.TexObjectCreate(res, tex, nil)
}

func (realDriver) surfCreate(res *cu.ResourceDesc) (cu.SurfObject, error) {
	return cu.SurfObjectCreate(res)
}

func (realDriver) memcpy3D(m *cu.CudaMemcpy3D, st cu.Stream, async bool) error {
	if async {
		return cu.Memcpy3DAsync(m, st)
	}
	return cu.Memcpy3D(m)
}

// destroyArray frees an array, texture or surface (cuArrayDestroy,
// cuTexObjectDestroy, cuSurfObjectDestroy).
func (realDriver) destroyArray(r *resource) error {
	switch r.kind {
	case kindArray:
		return cu.ArrayDestroy(cu.Array(r.h))
	case kindTexture:
		err := cu.TexObjectDestroy(cu.TexObject(r.h))
		dropSource(r)
		return err
	case kindSurface:
		err := cu.SurfObjectDestroy(cu.SurfObject(r.h))
		dropSource(r)
		return err
	}
	return nil
}

// dropSource ends a texture's or surface's hold on its array, buffer or
// pitched memory.
func dropSource(r *resource) {
	switch k := r.keep.(type) {
	case *arrayBase:
		k.r.unhold()
	case *memHold:
		k.r.unhold()
	}
}
