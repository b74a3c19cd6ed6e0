package cuda

import (
	"fmt"
	"reflect"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// AddressMode is what a texture read returns for a coordinate out of
// range, along one dimension.
type AddressMode uint8

const (
	AddressClamp  AddressMode = iota // the nearest edge element (the zero value)
	AddressWrap                      // the coordinate modulo the size; normalized coordinates only
	AddressMirror                    // the coordinate mirrored at each edge; normalized coordinates only
	AddressBorder                    // TextureOptions.BorderColor
)

func (m AddressMode) cu() cu.AddressMode {
	return [...]cu.AddressMode{cu.TrAddressModeClamp, cu.TrAddressModeWrap, cu.TrAddressModeMirror, cu.TrAddressModeBorder}[m]
}

func (m AddressMode) String() string {
	if m > AddressBorder {
		return fmt.Sprintf("AddressMode(%d)", uint8(m))
	}
	return [...]string{"clamp", "wrap", "mirror", "border"}[m]
}

// FilterMode is how a texture read between elements is computed.
type FilterMode uint8

const (
	FilterPoint  FilterMode = iota // the nearest element (the zero value)
	FilterLinear                   // linear interpolation of the 2, 4 or 8 nearest, in 9-bit fixed point
)

// TextureOptions are how a [Texture] reads its array (CUDA_TEXTURE_DESC).
// The zero value reads elements as they are, at unnormalized coordinates
// (x in [0, Width)), clamped at the edges, the nearest element.
type TextureOptions struct {
	// Address is the mode of x, y and z.
	Address [3]AddressMode
	Filter  FilterMode
	// NormalizedCoords reads at coordinates in [0, 1) across each
	// dimension rather than [0, size).
	NormalizedCoords bool
	// ReadNormalized reads 8- and 16-bit integer elements as floats in
	// [0, 1] (unsigned) or [-1, 1] (signed), cudaReadModeNormalizedFloat;
	// else integers read as they are (cudaReadModeElementType).
	ReadNormalized bool
	// SRGB converts uint8 elements read normalized from sRGB to linear.
	SRGB bool
	// BorderColor is what AddressBorder reads outside the array.
	BorderColor [4]float32
	// SeamlessCubemap filters across a cubemap's face edges.
	SeamlessCubemap bool
	// MaxAnisotropy is the anisotropic filtering's limit, 0 to 16.
	MaxAnisotropy uint32
}

// check returns why o does not fit an array of format f, shape d, or "".
func (o *TextureOptions) check(f cu.ArrayFormat, d ArrayDesc) string {
	integer, bits := formatInt(f)
	for i, m := range o.Address {
		if m > AddressBorder {
			return fmt.Sprintf("Address[%d] is %v", i, m)
		}
		if (m == AddressWrap || m == AddressMirror) && !o.NormalizedCoords {
			return fmt.Sprintf("Address[%d] is %v, which needs NormalizedCoords", i, m)
		}
	}
	switch {
	case o.Filter > FilterLinear:
		return fmt.Sprintf("FilterMode(%d)", o.Filter)
	case o.ReadNormalized && (!integer || bits == 32):
		return "ReadNormalized reads 8- and 16-bit integer elements; the array's are " + formatName(f)
	case o.Filter == FilterLinear && integer && !o.ReadNormalized:
		return "FilterLinear interpolates floats: integer elements (" + formatName(f) + ") need ReadNormalized"
	case o.SRGB && (f != cu.AdFormatUnsignedInt8 || !o.ReadNormalized):
		return "SRGB converts uint8 elements read normalized; the array's are " + formatName(f)
	case o.SeamlessCubemap && !d.Cubemap:
		return "SeamlessCubemap on an array that is not a cubemap"
	case o.MaxAnisotropy > 16:
		return fmt.Sprintf("MaxAnisotropy %d: at most 16", o.MaxAnisotropy)
	}
	return ""
}

// desc returns cuTexObjectCreate's texture descriptor of o.
func (o *TextureOptions) desc(f cu.ArrayFormat) cu.TextureDesc {
	td := cu.TextureDesc{MaxAnisotropy: o.MaxAnisotropy, BorderColor: o.BorderColor}
	for i, m := range o.Address {
		td.AddressMode[i] = m.cu()
	}
	if o.Filter == FilterLinear {
		td.FilterMode = cu.TrFilterModeLinear
	}
	if integer, _ := formatInt(f); integer && !o.ReadNormalized {
		td.Flags |= cu.TrsfReadAsInteger
	}
	if o.NormalizedCoords {
		td.Flags |= cu.TrsfNormalizedCoordinates
	}
	if o.SRGB {
		td.Flags |= cu.TrsfSrgb
	}
	if o.SeamlessCubemap {
		td.Flags |= cu.TrsfSeamlessCubemap
	}
	return td
}

func formatName(f cu.ArrayFormat) string {
	switch f {
	case cu.AdFormatUnsignedInt8:
		return "uint8"
	case cu.AdFormatSignedInt8:
		return "int8"
	case cu.AdFormatUnsignedInt16:
		return "uint16"
	case cu.AdFormatSignedInt16:
		return "int16"
	case cu.AdFormatUnsignedInt32:
		return "uint32"
	case cu.AdFormatSignedInt32:
		return "int32"
	case cu.AdFormatFloat:
		return "float32"
	}
	return f.String()
}

// Texture is a texture object (CUtexObject): a read-only view of an array
// that kernels sample (tex1D, tex2D, tex3D, tex2DLayered, texCubemap...),
// with the filtering and addressing of its [TextureOptions]. Pass it to a
// kernel's cudaTextureObject_t parameter as it is: Launch passes its
// handle and holds it, as it holds a *Buffer, until the launch is queued.
// The array stays allocated while the texture is open: Close the texture
// before the array.
type Texture struct {
	// The first two fields are bufHeader's, which is how Launch reads a
	// kernel argument that is a *Buffer[T] (kernelArg): the allocation
	// whose resource it holds, and the value it passes.
	a    *devAlloc    // its r is the texture object
	h    cu.Deviceptr // the CUtexObject
	opts TextureOptions
}

// isBuffer makes a *Texture a kernel argument (kernelArg): Launch passes
// its handle.
func (t *Texture) isBuffer() {}

// Texture creates a texture object reading the array (cuTexObjectCreate).
// Options that do not fit the array's format or shape are an *ArrayError
// before the driver sees them: linear filtering of integers read as they
// are, wrapping at unnormalized coordinates, sRGB of anything but uint8.
func (a *Array[T]) Texture(o TextureOptions) (*Texture, error) {
	b := a.b
	if why := o.check(b.format, b.desc); why != "" {
		return nil, &ArrayError{Op: a.op("Texture"), Reason: why}
	}
	res := b.resourceDesc()
	td := o.desc(b.format)
	var t *Texture
	err := b.newView(func(d arrayDriver) (uint64, error) {
		h, err := d.texCreate(&res, &td)
		return uint64(h), err
	}, func(s *ctxState, h uint64) *devAlloc {
		t = &Texture{a: &devAlloc{}, h: cu.Deviceptr(h), opts: o}
		t.a.r = newResource(t.a, s, kindTexture, h, nil)
		return t.a
	})
	if err != nil {
		return nil, fmt.Errorf("cuda: %s: %w", a.op("Texture"), err)
	}
	return t, nil
}

// resourceDesc returns the resource descriptor of the array.
func (b *arrayBase) resourceDesc() cu.ResourceDesc {
	res := cu.ResourceDesc{ResType: cu.ResourceTypeArray}
	res.Res.Array().HArray = cu.Array(b.r.h)
	return res
}

// newView creates a texture or surface over the array: create makes the
// object, wrap its Go value (whose resource keeps the array reachable and
// holds it open until the object is destroyed).
func (b *arrayBase) newView(create func(d arrayDriver) (uint64, error), wrap func(s *ctxState, h uint64) *devAlloc) error {
	if err := b.r.hold(); err != nil {
		return err
	}
	err := b.r.do(func() error {
		h, err := create(b.r.ctx.drv)
		if err != nil {
			return err
		}
		a := wrap(b.r.ctx, h)
		a.r.keep = b
		return nil
	})
	if err != nil {
		b.r.unhold()
	}
	return err
}

// Options returns the options the texture was made with.
func (t *Texture) Options() TextureOptions { return t.opts }

// Raw returns the driver's handle (CUtexObject), for the cu package.
func (t *Texture) Raw() cu.TexObject { return cu.TexObject(t.h) }

// Close destroys the texture object (cuTexObjectDestroy) and ends its hold
// on its array or memory. Close it after the kernels that read it have
// finished (a Synchronize): the driver does not say that it waits for
// them. A second Close returns ErrFreed.
func (t *Texture) Close() error { return t.a.r.free() }

// Surface is a surface object (CUsurfObject): a view of an array that
// kernels read and write (surf2Dread, surf2Dwrite...), at byte offsets in
// x. Pass it to a kernel's cudaSurfaceObject_t parameter as it is, as a
// [Texture]. The array must have been allocated with ArrayDesc.Surface.
type Surface struct {
	a *devAlloc    // bufHeader's first fields, as Texture's
	h cu.Deviceptr // the CUsurfObject
	_ [2]uint64    // bufHeader's size: Launch reads a *Surface as a *bufHeader (checkptr)
}

// isBuffer makes a *Surface a kernel argument (kernelArg).
func (s *Surface) isBuffer() {}

// Surface creates a surface object over the array (cuSurfObjectCreate),
// which must have been allocated with ArrayDesc.Surface.
func (a *Array[T]) Surface() (*Surface, error) {
	b := a.b
	if !b.desc.Surface {
		return nil, &ArrayError{Op: a.op("Surface"), Reason: "the array was allocated without ArrayDesc.Surface"}
	}
	res := b.resourceDesc()
	var out *Surface
	err := b.newView(func(d arrayDriver) (uint64, error) {
		h, err := d.surfCreate(&res)
		return uint64(h), err
	}, func(s *ctxState, h uint64) *devAlloc {
		out = &Surface{a: &devAlloc{}, h: cu.Deviceptr(h)}
		out.a.r = newResource(out.a, s, kindSurface, h, nil)
		return out.a
	})
	if err != nil {
		return nil, fmt.Errorf("cuda: %s: %w", a.op("Surface"), err)
	}
	return out, nil
}

// Raw returns the driver's handle (CUsurfObject), for the cu package.
func (s *Surface) Raw() cu.SurfObject { return cu.SurfObject(s.h) }

// Close destroys the surface object (cuSurfObjectDestroy) and ends its
// hold on the array. Close it after the kernels that use it have
// finished, as with [Texture.Close]. A second Close returns ErrFreed.
func (s *Surface) Close() error { return s.a.r.free() }

// memHold is what a texture over a buffer or pitched memory keeps: a hold
// of the memory's resource (hold.go), and its owner reachable, until the
// texture is destroyed.
type memHold struct {
	r     *resource
	owner any
}

// BufferTexture creates a texture object reading b as a 1D texture of
// b.Len() elements (cuTexObjectCreate of CU_RESOURCE_TYPE_LINEAR), which
// kernels read with tex1Dfetch at integer indices: no filtering, no
// addressing, no normalized coordinates (options setting them are an
// *ArrayError); ReadNormalized and SRGB apply. T is an element as for
// [AllocArray]. The buffer's address must be aligned as the device's
// CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT says (an allocation is; a view
// may not be). The buffer's Close refuses (ErrInUse) until the texture is
// closed.
func BufferTexture[T any](b *Buffer[T], o TextureOptions) (*Texture, error) {
	op := "BufferTexture[" + typeName[T]() + "]"
	if b == nil {
		return nil, &ArrayError{Op: op, Reason: "nil *Buffer"}
	}
	if b.n == 0 {
		return nil, &ArrayError{Op: op, Reason: "an empty buffer"}
	}
	res := cu.ResourceDesc{ResType: cu.ResourceTypeLinear}
	lin := res.Res.Linear()
	lin.DevPtr, lin.SizeInBytes = b.ptr, b.Bytes()
	return memTexture[T](op, b.a.r, b.a, &res, &lin.Format, &lin.NumChannels, o, true)
}

// PitchedTexture creates a texture object reading p as a 2D texture
// (cuTexObjectCreate of CU_RESOURCE_TYPE_PITCH2D), which kernels sample
// with tex2D as they do an array's: every option applies. p's Close
// refuses (ErrInUse) until the texture is closed.
func PitchedTexture[T any](p *Pitched[T], o TextureOptions) (*Texture, error) {
	op := "PitchedTexture[" + typeName[T]() + "]"
	if p == nil {
		return nil, &ArrayError{Op: op, Reason: "nil *Pitched"}
	}
	if p.width == 0 || p.height == 0 {
		return nil, &ArrayError{Op: op, Reason: fmt.Sprintf("an empty %d × %d array", p.width, p.height)}
	}
	res := cu.ResourceDesc{ResType: cu.ResourceTypePitch2D}
	p2 := res.Res.Pitch2D()
	p2.DevPtr, p2.Width, p2.Height, p2.PitchInBytes = p.ptr, uint64(p.width), uint64(p.height), p.pitch
	return memTexture[T](op, p.r, p, &res, &p2.Format, &p2.NumChannels, o, false)
}

// memTexture creates a texture over the memory of resource r (owned by
// owner), described by res, whose format and channels it sets from T.
func memTexture[T any](op string, r *resource, owner any, res *cu.ResourceDesc, format *cu.ArrayFormat, channels *uint32, o TextureOptions, linear bool) (*Texture, error) {
	f, ch, why := elemFormat(reflect.TypeFor[T]())
	if why != "" {
		return nil, &ArrayError{Op: op, Reason: why}
	}
	*format, *channels = f, uint32(ch)
	if linear && (o.Filter != FilterPoint || o.NormalizedCoords || o.Address != [3]AddressMode{} || o.SeamlessCubemap || o.MaxAnisotropy != 0) {
		return nil, &ArrayError{Op: op, Reason: "a buffer's texture is read by index (tex1Dfetch): Filter, NormalizedCoords, Address, SeamlessCubemap and MaxAnisotropy do not apply"}
	}
	if why := o.check(f, ArrayDesc{Width: 1, Height: 1}); why != "" {
		return nil, &ArrayError{Op: op, Reason: why}
	}
	td := o.desc(f)
	if err := r.hold(); err != nil {
		return nil, err
	}
	var t *Texture
	err := onThread(r.ctx, func() error {
		h, err := r.ctx.drv.texCreate(res, &td)
		if err != nil {
			return err
		}
		t = &Texture{a: &devAlloc{}, h: cu.Deviceptr(h), opts: o}
		t.a.r = newResource(t.a, r.ctx, kindTexture, uint64(h), nil)
		t.a.r.keep = &memHold{r: r, owner: owner}
		return nil
	})
	if err != nil {
		r.unhold()
		return nil, fmt.Errorf("cuda: %s: %w", op, err)
	}
	return t, nil
}
