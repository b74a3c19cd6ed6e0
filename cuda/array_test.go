package cuda

import (
	"errors"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// fakeArr is the fake driver's arrays, textures and surfaces: arrays hold
// their bytes, so host copies round-trip; device copies are only recorded.
type fakeArr struct {
	arrays map[cu.Array]*fakeArray
	objs   map[uint64]cu.Array // live texture and surface objects, by handle: their array
	next   uint64
	tex    cu.TextureDesc // the last cuTexObjectCreate's
	res    cu.ResourceDesc
	copies []fakeCopy
}

type fakeArray struct {
	d    cu.Array3DDescriptor
	data []byte
}

type fakeCopy struct {
	m     cu.CudaMemcpy3D
	async bool
}

func (a *fakeArr) live() int { return len(a.arrays) + len(a.objs) }

func (a *fakeArr) init() {
	if a.arrays == nil {
		a.arrays, a.objs, a.next = map[cu.Array]*fakeArray{}, map[uint64]cu.Array{}, 1
	}
}

func fakeFormatSize(f cu.ArrayFormat) uint64 {
	switch f {
	case cu.AdFormatUnsignedInt8, cu.AdFormatSignedInt8:
		return 1
	case cu.AdFormatUnsignedInt16, cu.AdFormatSignedInt16:
		return 2
	}
	return 4
}

func (f *fakeDriver) arrayCreate(d *cu.Array3DDescriptor) (cu.Array, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.arr.init()
	n := d.Width * max(d.Height, 1) * max(d.Depth, 1) * fakeFormatSize(d.Format) * uint64(d.NumChannels)
	h := cu.Array(0xa0000 + f.arr.next)
	f.arr.next++
	f.arr.arrays[h] = &fakeArray{d: *d, data: make([]byte, n)}
	return h, nil
}

func (f *fakeDriver) newObj(res *cu.ResourceDesc) (uint64, error) {
	f.arr.init()
	f.arr.res = *res
	var arr cu.Array // 0 for memory: a buffer's or pitched texture
	switch res.ResType {
	case cu.ResourceTypeArray:
		if arr = res.Res.Array().HArray; f.arr.arrays[arr] == nil {
			f.t.Errorf("texture or surface over %#x, not a live array", arr)
			return 0, cu.ErrorInvalidValue
		}
	case cu.ResourceTypeLinear, cu.ResourceTypePitch2D:
		p := uint64(res.Res.Linear().DevPtr) // the first field of both
		if len(f.live) == 0 || p < 0x10000 {
			f.t.Errorf("texture over %#x, with no memory live", p)
			return 0, cu.ErrorInvalidValue
		}
	default:
		f.t.Errorf("texture or surface over a %v", res.ResType)
		return 0, cu.ErrorInvalidValue
	}
	h := f.arr.next
	f.arr.next++
	f.arr.objs[h] = arr
	return h, nil
}

func (f *fakeDriver) texCreate(res *cu.ResourceDesc, tex *cu.TextureDesc) (cu.TexObject, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.arr.tex = *tex
	h, err := f.newObj(res)
	return cu.TexObject(h), err
}

func (f *fakeDriver) surfCreate(res *cu.ResourceDesc) (cu.SurfObject, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	h, err := f.newObj(res)
	return cu.SurfObject(h), err
}

func (f *fakeDriver) memcpy3D(m *cu.CudaMemcpy3D, st cu.Stream, async bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.arr.copies = append(f.arr.copies, fakeCopy{*m, async})
	var arr *fakeArray
	switch {
	case m.DstMemoryType == cu.MemorytypeArray:
		arr = f.arr.arrays[m.DstArray]
	case m.SrcMemoryType == cu.MemorytypeArray:
		arr = f.arr.arrays[m.SrcArray]
	}
	if arr == nil {
		f.t.Errorf("cuMemcpy3D with no live array: %+v", m)
		return cu.ErrorInvalidValue
	}
	if uint64(len(arr.data)) != m.WidthInBytes*m.Height*m.Depth {
		f.t.Errorf("cuMemcpy3D of %d × %d × %d bytes, the array has %d", m.WidthInBytes, m.Height, m.Depth, len(arr.data))
	}
	for z := range m.Depth {
		for y := range m.Height {
			a := arr.data[(z*m.Height+y)*m.WidthInBytes:][:m.WidthInBytes]
			switch {
			case m.SrcMemoryType == cu.MemorytypeHost:
				copy(a, unsafe.Slice((*byte)(unsafe.Add(m.SrcHost, (z*m.SrcHeight+y)*m.SrcPitch)), m.WidthInBytes))
			case m.DstMemoryType == cu.MemorytypeHost:
				copy(unsafe.Slice((*byte)(unsafe.Add(m.DstHost, (z*m.DstHeight+y)*m.DstPitch)), m.WidthInBytes), a)
			}
		}
	}
	return nil
}

func (f *fakeDriver) destroyArray(r *resource) {
	f.arr.init()
	if r.kind == kindArray {
		h := cu.Array(r.h)
		if f.arr.arrays[h] == nil {
			f.t.Errorf("cuArrayDestroy of %#x, not created or destroyed before", r.h)
		}
		for obj, arr := range f.arr.objs {
			if arr == h {
				f.t.Errorf("cuArrayDestroy of %#x under the live object %d", r.h, obj)
			}
		}
		delete(f.arr.arrays, h)
		return
	}
	if _, ok := f.arr.objs[r.h]; !ok {
		f.t.Errorf("destroy of %v %d, not created or destroyed before", r.kind, r.h)
	}
	delete(f.arr.objs, r.h)
	dropSource(r)
}

// TestArrayElemFormat: the Go element types and the formats they give,
// and the types refused.
func TestArrayElemFormat(t *testing.T) {
	type float2 struct{ X, Y float32 }
	type mixed struct {
		A float32
		B int32
	}
	type rgba struct{ R, G, B, A uint8 }
	for _, c := range []struct {
		t  reflect.Type
		f  cu.ArrayFormat
		ch int
	}{
		{reflect.TypeFor[float32](), cu.AdFormatFloat, 1},
		{reflect.TypeFor[uint8](), cu.AdFormatUnsignedInt8, 1},
		{reflect.TypeFor[int8](), cu.AdFormatSignedInt8, 1},
		{reflect.TypeFor[uint16](), cu.AdFormatUnsignedInt16, 1},
		{reflect.TypeFor[int16](), cu.AdFormatSignedInt16, 1},
		{reflect.TypeFor[uint32](), cu.AdFormatUnsignedInt32, 1},
		{reflect.TypeFor[int32](), cu.AdFormatSignedInt32, 1},
		{reflect.TypeFor[[4]uint8](), cu.AdFormatUnsignedInt8, 4},
		{reflect.TypeFor[[2]int16](), cu.AdFormatSignedInt16, 2},
		{reflect.TypeFor[[4]float32](), cu.AdFormatFloat, 4},
		{reflect.TypeFor[float2](), cu.AdFormatFloat, 2},
		{reflect.TypeFor[rgba](), cu.AdFormatUnsignedInt8, 4},
		{reflect.TypeFor[[1]int32](), cu.AdFormatSignedInt32, 1},
	} {
		f, ch, why := elemFormat(c.t)
		if f != c.f || ch != c.ch || why != "" {
			t.Errorf("%v: %v × %d (%s), want %v × %d", c.t, f, ch, why, c.f, c.ch)
		}
	}
	for _, c := range []struct {
		t   reflect.Type
		why string
	}{
		{reflect.TypeFor[float64](), "want an 8-, 16- or 32-bit integer"},
		{reflect.TypeFor[int](), "want an 8-, 16- or 32-bit integer"},
		{reflect.TypeFor[complex64](), "want an 8-, 16- or 32-bit integer"},
		{reflect.TypeFor[[3]float32](), "3 channels"},
		{reflect.TypeFor[[8]uint8](), "8 channels"},
		{reflect.TypeFor[mixed](), "fields of different kinds"},
		{reflect.TypeFor[[2]float64](), "want an 8-, 16- or 32-bit integer"},
		{reflect.TypeFor[[2]*int32](), "want an 8-, 16- or 32-bit integer"},
		{reflect.TypeFor[struct{}](), "0 channels"},
	} {
		if _, _, why := elemFormat(c.t); !strings.Contains(why, c.why) {
			t.Errorf("%v: %q, want %q", c.t, why, c.why)
		}
	}
	_, c := newFake(t)
	defer c.Close()
	if _, err := AllocArray[float64](c, ArrayDesc{Width: 4}); err == nil || !strings.Contains(err.Error(), "AllocArray[float64]: want an 8-") {
		t.Errorf("AllocArray[float64]: %v", err)
	}
}

// TestArrayShapes: each shape's cuArray3DCreate descriptor and element
// count, and the shapes refused before the driver.
func TestArrayShapes(t *testing.T) {
	f, c := newFake(t)
	for _, tc := range []struct {
		d       ArrayDesc
		w, h, z uint64 // the descriptor's
		flags   uint32
		n       int
		name    string
	}{
		{ArrayDesc{Width: 100}, 100, 0, 0, 0, 100, "1D 100"},
		{ArrayDesc{Width: 64, Height: 32}, 64, 32, 0, 0, 64 * 32, "2D 64 × 32"},
		{ArrayDesc{Width: 8, Height: 4, Depth: 3}, 8, 4, 3, 0, 96, "3D 8 × 4 × 3"},
		{ArrayDesc{Width: 16, Layers: 5}, 16, 0, 5, cu.Array3DLayered, 80, "1D 16, 5 layers"},
		{ArrayDesc{Width: 8, Height: 8, Layers: 3, Surface: true}, 8, 8, 3, cu.Array3DLayered | cu.Array3DSurfaceLdst, 192, "2D 8 × 8, 3 layers"},
		{ArrayDesc{Width: 4, Height: 4, Cubemap: true}, 4, 4, 6, cu.Array3DCubemap, 96, "cubemap 4 × 4"},
		{ArrayDesc{Width: 4, Height: 4, Cubemap: true, Layers: 2}, 4, 4, 12, cu.Array3DCubemap | cu.Array3DLayered, 192, "cubemap 4 × 4, 2 layers"},
	} {
		a, err := AllocArray[[2]float32](c, tc.d)
		if err != nil {
			t.Fatalf("%v: %v", tc.d, err)
		}
		fa := f.arr.arrays[a.Raw()]
		want := cu.Array3DDescriptor{Width: tc.w, Height: tc.h, Depth: tc.z, Format: cu.AdFormatFloat, NumChannels: 2, Flags: tc.flags}
		if fa == nil || fa.d != want {
			t.Errorf("%v: created %+v, want %+v", tc.d, fa, want)
		}
		if a.Len() != tc.n || tc.d.String() != tc.name || a.Desc() != tc.d {
			t.Errorf("%v: %d elements, %q; want %d, %q", tc.d, a.Len(), tc.d.String(), tc.n, tc.name)
		}
		if ff, ch := a.Format(); ff != cu.AdFormatFloat || ch != 2 {
			t.Errorf("Format() = %v, %d", ff, ch)
		}
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		d   ArrayDesc
		why string
	}{
		{ArrayDesc{}, "Width 0, Height 0, Depth 0, Layers 0: want Width ≥ 1"},
		{ArrayDesc{Width: 4, Height: -1}, "none negative"},
		{ArrayDesc{Width: 4, Layers: -2}, "none negative"},
		{ArrayDesc{Width: 4, Depth: 2}, "Depth 2 with Height 0"},
		{ArrayDesc{Width: 4, Height: 4, Depth: 2, Layers: 2}, "Depth and Layers both set"},
		{ArrayDesc{Width: 4, Height: 5, Cubemap: true}, "cubemap of 4 × 5 × 0"},
		{ArrayDesc{Width: 1 << 31, Height: 1 << 31, Depth: 1 << 20}, "overflow"},
	} {
		_, err := AllocArray[float32](c, tc.d)
		var ae *ArrayError
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%+v: %v, want an *ArrayError %q", tc.d, err, tc.why)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// TestArrayCopies: host copies round-trip through the array with
// cuMemcpy3D descriptors of the array's extent; buffer copies describe
// device memory; wrong sizes and closed arrays are refused.
func TestArrayCopies(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	type rgba [4]uint8
	a, err := AllocArray[rgba](c, ArrayDesc{Width: 5, Height: 3, Layers: 2})
	if err != nil {
		t.Fatal(err)
	}
	src := make([]rgba, 30)
	for i := range src {
		src[i] = rgba{byte(i), byte(2 * i), byte(3 * i), 255}
	}
	if err := a.CopyFrom(src); err != nil {
		t.Fatal(err)
	}
	up := f.arr.copies[len(f.arr.copies)-1]
	want := cu.CudaMemcpy3D{
		SrcMemoryType: cu.MemorytypeHost, SrcHost: unsafe.Pointer(&src[0]), SrcPitch: 20, SrcHeight: 3,
		DstMemoryType: cu.MemorytypeArray, DstArray: a.Raw(),
		WidthInBytes: 20, Height: 3, Depth: 2,
	}
	if up.m != want || up.async {
		t.Errorf("to the array: %+v, want %+v", up, want)
	}
	dst := make([]rgba, 30)
	if err := a.CopyTo(dst); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dst, src) {
		t.Errorf("round trip: %v, want %v", dst, src)
	}
	buf, err := Alloc[rgba](c, 30)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	if err := a.CopyToBuffer(buf); err != nil {
		t.Fatal(err)
	}
	down := f.arr.copies[len(f.arr.copies)-1]
	want = cu.CudaMemcpy3D{
		SrcMemoryType: cu.MemorytypeArray, SrcArray: a.Raw(),
		DstMemoryType: cu.MemorytypeDevice, DstDevice: buf.Ptr(), DstPitch: 20, DstHeight: 3,
		WidthInBytes: 20, Height: 3, Depth: 2,
	}
	if down.m != want || down.async {
		t.Errorf("to the buffer: %+v, want %+v", down, want)
	}
	if err := a.CopyFromBuffer(buf); err != nil {
		t.Fatal(err)
	}
	if m := f.arr.copies[len(f.arr.copies)-1].m; m.SrcMemoryType != cu.MemorytypeDevice || m.SrcDevice != buf.Ptr() || m.DstArray != a.Raw() {
		t.Errorf("from the buffer: %+v", m)
	}
	short, err := Alloc[rgba](c, 29)
	if err != nil {
		t.Fatal(err)
	}
	defer short.Close()
	ncopies := len(f.arr.copies)
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"CopyFrom 29", a.CopyFrom(src[:29]), "Array[cuda.rgba].CopyFrom: 29 elements for a 2D 5 × 3, 2 layers array of 30"},
		{"CopyTo 31", a.CopyTo(make([]rgba, 31)), "CopyTo: 31 elements"},
		{"CopyFromBuffer 29", a.CopyFromBuffer(short), "CopyFromBuffer: 29 elements"},
		{"CopyToBuffer nil", a.CopyToBuffer(nil), "CopyToBuffer: nil *Buffer"},
		{"CopyFromHostAsync nil", a.CopyFromHostAsync(nil, nil), "nil *HostBuffer"},
	} {
		var ae *ArrayError
		if !errors.As(tc.err, &ae) || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: %v, want an *ArrayError %q", tc.name, tc.err, tc.want)
		}
	}
	if err := a.CopyToAsync(nil, dst); !errors.Is(err, errNilStream) {
		t.Errorf("CopyToAsync on a nil stream: %v", err)
	}
	if err := a.CopyFromBufferAsync(nil, buf); !errors.Is(err, errNilStream) {
		t.Errorf("CopyFromBufferAsync on a nil stream: %v", err)
	}
	if len(f.arr.copies) != ncopies {
		t.Errorf("the refused copies reached the driver")
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.CopyFrom(src); !errors.Is(err, ErrFreed) {
		t.Errorf("CopyFrom after Close: %v", err)
	}
	if err := a.CopyToBuffer(buf); !errors.Is(err, ErrFreed) {
		t.Errorf("CopyToBuffer after Close: %v", err)
	}
	if err := a.Close(); !errors.Is(err, ErrFreed) {
		t.Errorf("second Close: %v", err)
	}
}

// TestTextureOptions: each option's place in CUDA_TEXTURE_DESC, and the
// options refused for the array's format or shape.
func TestTextureOptions(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	fl, err := AllocArray[float32](c, ArrayDesc{Width: 8, Height: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	tex, err := fl.Texture(TextureOptions{
		Address: [3]AddressMode{AddressWrap, AddressMirror, AddressBorder}, Filter: FilterLinear,
		NormalizedCoords: true, BorderColor: [4]float32{1, 2, 3, 4}, MaxAnisotropy: 8,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := cu.TextureDesc{
		AddressMode: [3]cu.AddressMode{cu.TrAddressModeWrap, cu.TrAddressModeMirror, cu.TrAddressModeBorder},
		FilterMode:  cu.TrFilterModeLinear, Flags: cu.TrsfNormalizedCoordinates,
		MaxAnisotropy: 8, BorderColor: [4]float32{1, 2, 3, 4},
	}
	if f.arr.tex != want {
		t.Errorf("float32, wrapped, linear: %+v, want %+v", f.arr.tex, want)
	}
	if tex.Raw() == 0 || tex.Options().Filter != FilterLinear {
		t.Errorf("Raw %d, options %+v", tex.Raw(), tex.Options())
	}
	if err := tex.Close(); err != nil {
		t.Fatal(err)
	}
	u8, err := AllocArray[[4]uint8](c, ArrayDesc{Width: 8, Height: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer u8.Close()
	for _, tc := range []struct {
		o     TextureOptions
		flags uint32
	}{
		{TextureOptions{}, cu.TrsfReadAsInteger},                                                      // integers as they are
		{TextureOptions{ReadNormalized: true, Filter: FilterLinear}, 0},                               // as floats
		{TextureOptions{ReadNormalized: true, SRGB: true}, cu.TrsfSrgb},                               // sRGB
		{TextureOptions{NormalizedCoords: true}, cu.TrsfReadAsInteger | cu.TrsfNormalizedCoordinates}, // both
	} {
		tex, err := u8.Texture(tc.o)
		if err != nil {
			t.Fatalf("%+v: %v", tc.o, err)
		}
		if f.arr.tex.Flags != tc.flags {
			t.Errorf("%+v: flags %#x, want %#x", tc.o, f.arr.tex.Flags, tc.flags)
		}
		tex.Close()
	}
	i32, err := AllocArray[int32](c, ArrayDesc{Width: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer i32.Close()
	for _, tc := range []struct {
		a interface {
			Texture(TextureOptions) (*Texture, error)
		}
		o    TextureOptions
		want string
	}{
		{fl, TextureOptions{Address: [3]AddressMode{AddressWrap}}, "Address[0] is wrap, which needs NormalizedCoords"},
		{fl, TextureOptions{Address: [3]AddressMode{0, AddressMirror}}, "Address[1] is mirror, which needs NormalizedCoords"},
		{fl, TextureOptions{Address: [3]AddressMode{0, 0, 7}}, "Address[2] is AddressMode(7)"},
		{fl, TextureOptions{Filter: 2}, "FilterMode(2)"},
		{fl, TextureOptions{ReadNormalized: true}, "ReadNormalized reads 8- and 16-bit integer elements; the array's are float32"},
		{i32, TextureOptions{ReadNormalized: true}, "the array's are int32"},
		{u8, TextureOptions{Filter: FilterLinear}, "FilterLinear interpolates floats: integer elements (uint8) need ReadNormalized"},
		{i32, TextureOptions{Filter: FilterLinear}, "integer elements (int32)"},
		{u8, TextureOptions{SRGB: true}, "SRGB converts uint8 elements read normalized"},
		{fl, TextureOptions{SRGB: true}, "the array's are float32"},
		{fl, TextureOptions{SeamlessCubemap: true}, "not a cubemap"},
		{fl, TextureOptions{MaxAnisotropy: 17}, "MaxAnisotropy 17"},
	} {
		_, err := tc.a.Texture(tc.o)
		var ae *ArrayError
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an *ArrayError %q", tc.o, err, tc.want)
		}
	}
	if _, err := fl.Surface(); err == nil || !strings.Contains(err.Error(), "Array[float32].Surface: the array was allocated without ArrayDesc.Surface") {
		t.Errorf("Surface of an array without the flag: %v", err)
	}
	if n := len(f.arr.objs); n != 0 {
		t.Errorf("%d objects live", n)
	}
}

// TestTextureHoldsArray: an array's Close with a texture or surface open
// over it refuses (ErrInUse) and frees nothing; once they are closed, or
// become unreachable, it frees; no texture is made over a closed array;
// the fake fails the test if an array is destroyed under a live object.
func TestTextureHoldsArray(t *testing.T) {
	f, c := newFake(t)
	a, err := AllocArray[float32](c, ArrayDesc{Width: 16, Height: 16, Surface: true})
	if err != nil {
		t.Fatal(err)
	}
	tex, err := a.Texture(TextureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	surf, err := a.Surface()
	if err != nil {
		t.Fatal(err)
	}
	if surf.Raw() == 0 || surf.Raw() == cu.SurfObject(tex.Raw()) {
		t.Errorf("handles %d, %d", tex.Raw(), surf.Raw())
	}
	err = a.Close()
	var ae *ArrayError
	if !errors.Is(err, ErrInUse) || !errors.As(err, &ae) || !strings.Contains(err.Error(), "2 textures or surfaces are open over it") {
		t.Fatalf("Close under a texture and a surface: %v", err)
	}
	if err := tex.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); !errors.Is(err, ErrInUse) {
		t.Fatalf("Close under a surface: %v", err)
	}
	if err := a.CopyFrom(make([]float32, 256)); err != nil {
		t.Fatalf("a refused Close closed the array: %v", err)
	}
	if err := surf.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tex.Close(); !errors.Is(err, ErrFreed) {
		t.Errorf("second Close of the texture: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Texture(TextureOptions{}); !errors.Is(err, ErrFreed) {
		t.Errorf("Texture of a closed array: %v", err)
	}
	if _, err := a.Surface(); !errors.Is(err, ErrFreed) {
		t.Errorf("Surface of a closed array: %v", err)
	}

	// A texture dropped without Close ends its hold when collected.
	b, err := AllocArray[float32](c, ArrayDesc{Width: 4})
	if err != nil {
		t.Fatal(err)
	}
	func() {
		if _, err := b.Texture(TextureOptions{}); err != nil {
			t.Fatal(err)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		err := b.Close()
		if err == nil {
			break
		}
		if !errors.Is(err, ErrInUse) || time.Now().After(deadline) {
			t.Fatalf("Close after the texture became unreachable: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// TestTextureKernelArg: a *Texture and a *Surface pass to a kernel as their
// 64-bit handles, checked against an 8-byte parameter (cudaTextureObject_t),
// held for the launch like buffers, and refused once closed.
func TestTextureKernelArg(t *testing.T) {
	// Launch reads a kernelArg's first two words (bufAt): the allocation
	// whose resource it holds and the 64-bit value it passes.
	// It converts the pointer to a *bufHeader, so each must be at least as
	// large (else -race's checkptr fails: the pointer straddles two
	// allocations).
	check := func(name string, size, a, h uintptr) {
		var b bufHeader
		if size < unsafe.Sizeof(b) || a != unsafe.Offsetof(b.a) || h != unsafe.Offsetof(b.ptr) {
			t.Errorf("%s's layout differs from bufHeader's", name)
		}
	}
	var tx Texture
	check("Texture", unsafe.Sizeof(tx), unsafe.Offsetof(tx.a), unsafe.Offsetof(tx.h))
	var sf Surface
	check("Surface", unsafe.Sizeof(sf), unsafe.Offsetof(sf.a), unsafe.Offsetof(sf.h))

	f, c := newFake(t)
	defer c.Close()
	a, err := AllocArray[float32](c, ArrayDesc{Width: 8, Height: 8, Surface: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	tex, err := a.Texture(TextureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	surf, err := a.Surface()
	if err != nil {
		t.Fatal(err)
	}
	out, err := Alloc[float32](c, 64)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	k := &Kernel{name: "transform", known: true, params: []Param{{0, 8}, {8, 4}, {16, 8}, {24, 8}}}
	var words [stackArgWords]uint64
	var offs [stackArgs]int
	args := []any{out, int32(8), tex, surf}
	k.packFree(args, words[:], offs[:len(args)])
	if words[0] != uint64(out.Ptr()) || words[2] != uint64(tex.Raw()) || words[3] != uint64(surf.Raw()) {
		t.Errorf("packed %x, want the texture's handle %x and the surface's %x", words[:4], tex.Raw(), surf.Raw())
	}
	// Packing them allocates nothing, as packing buffers does.
	if allocs := testing.AllocsPerRun(100, func() {
		k.packFree(args, words[:], offs[:len(args)])
	}); allocs != 0 {
		t.Errorf("%v allocations a pack of a texture and a surface, want 0", allocs)
	}
	// The raw handle passes too.
	if _, err := k.layout([]any{out, int32(8), tex.Raw(), surf.Raw()}); err != nil {
		t.Errorf("raw handles: %v", err)
	}
	// 8 bytes against a 4-byte parameter.
	k4 := &Kernel{name: "k", known: true, params: []Param{{0, 4}}}
	if _, err := k4.layout([]any{tex}); err == nil || !strings.Contains(err.Error(), "argument 0 (*cuda.Texture): 8 bytes, but the kernel's parameter 0 is 4 bytes") {
		t.Errorf("texture for a 4-byte parameter: %v", err)
	}
	// Held during the launch.
	m := fakeModule(c)
	defer m.Close()
	lk := &Kernel{name: "transform", fn: 1, mod: m}
	var during [2]uint64
	f.onLaunch = func() {
		during[0] = tex.a.r.uses.state.Load() &^ (usesClosed | usesDone | usesLaunched)
		during[1] = surf.a.r.uses.state.Load() &^ (usesClosed | usesDone | usesLaunched)
	}
	withGuards(t, false, func() { // else the launch's guard holds them (launchguard.go)
		if err := lk.Launch(Config{}, out, int32(8), tex, surf); err != nil {
			t.Fatal(err)
		}
	})
	f.onLaunch = nil
	if during != [2]uint64{1, 1} || tex.a.r.uses.state.Load()&^usesLaunched != 0 {
		t.Errorf("uses during the launch %v, after %d", during, tex.a.r.uses.state.Load())
	}
	if err := tex.Close(); err != nil {
		t.Fatal(err)
	}
	if err := surf.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := k.layout([]any{out, int32(8), tex, surf}); err == nil || !strings.Contains(err.Error(), "argument 2 (*cuda.Texture): closed") {
		t.Errorf("a closed texture: %v", err)
	}
}

// TestTextureKernelsCompile: the GPU tests' texture and surface kernels
// (tex1D..texCubemap, surf2Dwrite on cudaTextureObject_t and
// cudaSurfaceObject_t parameters) compile with NVRTC and no include path,
// here where there is no GPU.
func TestTextureKernelsCompile(t *testing.T) {
	needNVRTC(t)
	out, err := Compile(Source{Code: textureSource, Arch: "compute_90"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes of PTX, log %q", len(out.Image), out.Log)
}

// TestMemTexture: textures over a buffer (linear) and pitched memory
// describe the memory with T's format; the options a buffer's texture
// cannot have are refused; the memory's Close refuses while a texture is
// open over it, and frees once it is closed or collected.
func TestMemTexture(t *testing.T) {
	f, c := newFake(t)
	buf, err := Alloc[float32](c, 100)
	if err != nil {
		t.Fatal(err)
	}
	tex, err := BufferTexture(buf, TextureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := cu.ResourceDesc{ResType: cu.ResourceTypeLinear}
	*want.Res.Linear() = cu.ResourceDescV1ResLinear{DevPtr: buf.Ptr(), Format: cu.AdFormatFloat, NumChannels: 1, SizeInBytes: 400}
	if f.arr.res != want {
		t.Errorf("buffer texture: %+v, want %+v", f.arr.res, want)
	}
	err = within(t, "Close of a buffer under a texture", buf.Close)
	var ae *ArrayError
	if !errors.Is(err, ErrInUse) || !errors.As(err, &ae) || !strings.Contains(err.Error(), "Buffer[float32].Close: 1 textures are open over it") {
		t.Fatalf("Close of a buffer under a texture: %v", err)
	}
	if buf.a.r.uses.closed() {
		t.Fatal("a refused Close closed the buffer")
	}
	// A view's texture holds the buffer it was sliced from.
	view, err := BufferTexture(buf.Slice(10, 20), TextureOptions{ReadNormalized: false})
	if err != nil {
		t.Fatal(err)
	}
	if l := f.arr.res.Res.Linear(); l.DevPtr != buf.Ptr()+40 || l.SizeInBytes != 40 {
		t.Errorf("a view's texture: %+v", *l)
	}
	for _, tc := range []struct {
		o    TextureOptions
		want string
	}{
		{TextureOptions{Filter: FilterLinear}, "a buffer's texture is read by index (tex1Dfetch)"},
		{TextureOptions{NormalizedCoords: true}, "do not apply"},
		{TextureOptions{Address: [3]AddressMode{AddressBorder}}, "do not apply"},
		{TextureOptions{ReadNormalized: true}, "ReadNormalized reads 8- and 16-bit integer elements; the array's are float32"},
	} {
		if _, err := BufferTexture(buf, tc.o); !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
	if _, err := BufferTexture[float32](nil, TextureOptions{}); err == nil || !strings.Contains(err.Error(), "nil *Buffer") {
		t.Errorf("nil buffer: %v", err)
	}
	empty, err := Alloc[float32](c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BufferTexture(empty, TextureOptions{}); err == nil || !strings.Contains(err.Error(), "an empty buffer") {
		t.Errorf("empty buffer: %v", err)
	}
	empty.Close()
	f64, err := Alloc[float64](c, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BufferTexture(f64, TextureOptions{}); err == nil || !strings.Contains(err.Error(), "BufferTexture[float64]: want an 8-") {
		t.Errorf("float64 buffer: %v", err)
	}
	f64.Close()
	if err := tex.Close(); err != nil {
		t.Fatal(err)
	}
	if err := buf.Close(); !errors.Is(err, ErrInUse) {
		t.Fatalf("Close under the view's texture: %v", err)
	}
	if err := view.Close(); err != nil {
		t.Fatal(err)
	}
	if err := buf.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := BufferTexture(buf, TextureOptions{}); !errors.Is(err, ErrFreed) {
		t.Errorf("texture of a closed buffer: %v", err)
	}

	p, err := AllocPitched[[4]uint8](c, 10, 5)
	if err != nil {
		t.Fatal(err)
	}
	// Dropped without Close below: the hold ends when it is collected.
	if _, err := PitchedTexture(p, TextureOptions{Filter: FilterLinear, ReadNormalized: true, Address: [3]AddressMode{AddressBorder, AddressBorder}}); err != nil {
		t.Fatal(err)
	}
	want = cu.ResourceDesc{ResType: cu.ResourceTypePitch2D}
	*want.Res.Pitch2D() = cu.ResourceDescV1ResPitch2D{DevPtr: p.Ptr(), Format: cu.AdFormatUnsignedInt8, NumChannels: 4, Width: 10, Height: 5, PitchInBytes: p.Pitch()}
	if f.arr.res != want || f.arr.tex.FilterMode != cu.TrFilterModeLinear || f.arr.tex.Flags != 0 {
		t.Errorf("pitched texture: %+v, %+v", f.arr.res, f.arr.tex)
	}
	if _, err := PitchedTexture(p, TextureOptions{Filter: FilterLinear}); err == nil || !strings.Contains(err.Error(), "need ReadNormalized") {
		t.Errorf("linear filtering of uint8 read as integers: %v", err)
	}
	if err := within(t, "Close of pitched memory under a texture", p.Close); !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "Pitched[[4]uint8].Close") {
		t.Fatalf("Close of pitched memory under a texture: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		err := p.Close()
		if err == nil {
			break
		}
		if !errors.Is(err, ErrInUse) || time.Now().After(deadline) {
			t.Fatalf("Close after the texture became unreachable: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// within returns fn's result, failing the test if it takes 10 seconds: a
// Close that ignored a texture's hold would wait for ever for the use the
// texture holds.
func within(t *testing.T, what string, fn func() error) error {
	t.Helper()
	ch := make(chan error, 1)
	go func() { ch <- fn() }()
	select {
	case err := <-ch:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still waiting after 10 s", what)
		return nil
	}
}
