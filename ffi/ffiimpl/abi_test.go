//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffiimpl_test

import (
	"math"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/ffi/ffiimpl"
)

// Go mirrors of the fixtures' C structs (testdata/abi.c).
type (
	s4   struct{ A, B int16 }
	s8   struct{ Type, ID int32 } // cudaMemLocation
	dim3 struct{ X, Y, Z uint32 }
	s16  struct{ A, B int64 }
	s16m struct {
		A int32
		B float32
		C float64
	}
	s16r struct {
		C float64
		A int64
	}
	hfa2    struct{ X, Y float32 }
	hfa3    struct{ X, Y, Z float32 }
	hfa4d   struct{ A, B, C, D float64 }
	fdesc   struct{ X, Y, Z, W, F int32 } // cudaChannelFormatDesc
	extent  struct{ W, H, D uintptr }     // cudaExtent
	pitched struct{ Ptr, Pitch, XSize, YSize uintptr }
	ipc     struct{ Reserved [64]byte } // cudaIpcMemHandle_t
	nppctx  struct {                    // NppStreamContext
		Stream                         uintptr
		Device, SMs, ThreadsPerSM, TPB int32
		SharedPerBlock                 uintptr
		CCMajor, CCMinor               int32
		StreamFlags                    uint32
		Reserved                       int32
	}
	nppsize struct{ W, H int32 } // NppiSize
)

var (
	lS4      = layoutOf[s4]()
	lS8      = layoutOf[s8]()
	lDim3    = layoutOf[dim3]()
	lS16     = layoutOf[s16]()
	lS16m    = layoutOf[s16m]()
	lS16r    = layoutOf[s16r]()
	lHFA2    = layoutOf[hfa2]()
	lHFA3    = layoutOf[hfa3]()
	lHFA4d   = layoutOf[hfa4d]()
	lFdesc   = layoutOf[fdesc]()
	lExtent  = layoutOf[extent]()
	lPitched = layoutOf[pitched]()
	lIPC     = layoutOf[ipc]()
	lNppCtx  = layoutOf[nppctx]()
	lNppSize = layoutOf[nppsize]()
)

// expect compares the fixtures' record with want, word by word.
func expect(t *testing.T, got *[64]uint64, want ...[]uint64) {
	t.Helper()
	w := slices.Concat(want...)
	if g := got[:len(w)]; !slices.Equal(g, w) {
		t.Errorf("C received\n%#x\nwant\n%#x", g, w)
	}
	if got[len(w)] != 0 {
		t.Errorf("C recorded more than expected: %#x", got[:len(w)+1])
	}
}

func u(v ...uint64) []uint64 { return v }
func i64(v int64) []uint64   { return u(uint64(v)) }
func f64(v float64) []uint64 {
	return u(math.Float64bits(v))
}
func f32(v float32) []uint64 { return u(uint64(math.Float32bits(v))) }

func TestIntArgs(t *testing.T) {
	names := []string{"i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9", "i10", "i11"}
	var vals []uint64
	for i := range 11 {
		// Distinct values using all 64 bits, some with the top bit set.
		vals = append(vals, 0x0101010101010101*uint64(i+1)^uint64(i%2)<<63)
	}
	for n, name := range names {
		var f ffiimpl.Frame
		for _, v := range vals[:n] {
			f.Int(uintptr(v))
		}
		ffiimpl.Call(fn(t, name), &f)
		if err := f.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := uint64(n)
		if n == 0 {
			want = 0x1122334455667788
		}
		if got := uint64(f.Ret()); got != want {
			t.Errorf("%s returned %#x, want %#x", name, got, want)
		}
		expect(t, rec(t), vals[:n])
	}
}

func TestNarrowInts(t *testing.T) {
	a, b, c := int32(-5), int8(-7), int16(-300)
	d, e, g := uint32(0xfffffffe), uint8(200), uint16(65000)
	h, i, j := int64(-1<<40), int32(-2_000_000_000), int32(-1)
	k := int8(-128)
	var f ffiimpl.Frame
	// The caller extends: signed through int64, unsigned through uint64.
	f.Int(uintptr(int64(a)))
	f.Int(uintptr(int64(b)))
	f.Int(uintptr(int64(c)))
	f.Int(uintptr(d))
	f.Int(uintptr(e))
	f.Int(uintptr(g))
	f.Int(uintptr(h))
	f.Int(uintptr(int64(i)))
	f.Int(uintptr(int64(j))) // on the stack from here on both ABIs
	f.Int(uintptr(int64(k)))
	ffiimpl.Call(fn(t, "narrow"), &f)
	if got, want := int32(f.Ret()), a+int32(b)+int32(c)+i+j+int32(k); got != want {
		t.Errorf("narrow returned %d, want %d", got, want)
	}
	expect(t, rec(t), i64(int64(a)), i64(int64(b)), i64(int64(c)), u(uint64(d)), u(uint64(e)),
		u(uint64(g)), i64(h), i64(int64(i)), i64(int64(j)), i64(int64(k)))
}

func TestMixedFloats(t *testing.T) {
	// Values whose sums are exact, so the C result can be compared exactly.
	i1, f1, d1 := int32(-3), float32(1.5), 10.25
	i2, f2, d2 := int64(1<<40), float32(-2.75), -20.5
	i3, f3, d3 := uint8(250), float32(3.125), 30.0625
	i4, f4, d4 := uintptr(0xdeadbeefcafe), float32(4.5), 40.5
	i5, f5, d5 := int32(-5), float32(5.25), -50.125
	i6, f6, i7 := int64(-6), float32(6.5), int64(7)
	d6, i8 := 60.75, int32(-8)

	var f ffiimpl.Frame
	f.Int(uintptr(int64(i1)))
	f.Float32(f1)
	f.Float64(d1)
	f.Int(uintptr(i2))
	f.Float32(f2)
	f.Float64(d2)
	f.Int(uintptr(i3))
	f.Float32(f3)
	f.Float64(d3)
	f.Int(i4)
	f.Float32(f4)
	f.Float64(d4) // the 8th FP argument: the last in a register
	f.Int(uintptr(int64(i5)))
	f.Float32(f5)
	f.Float64(d5)
	f.Int(uintptr(i6))
	f.Float32(f6)
	f.Int(uintptr(i7)) // amd64: the 7th integer argument, on the stack
	f.Float64(d6)
	f.Int(uintptr(int64(i8)))
	ffiimpl.Call(fn(t, "mixed"), &f)

	want := float64(i1) + float64(f1) + d1 + float64(i2) + float64(f2) + d2 + float64(i3) + float64(f3) + d3 +
		float64(f4) + d4 + float64(i5) + float64(f5) + d5 + float64(i6) + float64(f6) + float64(i7) + d6 + float64(i8)
	if got := f.RetFloat64(); got != want {
		t.Errorf("mixed returned %v, want %v", got, want)
	}
	expect(t, rec(t), i64(int64(i1)), f32(f1), f64(d1), i64(i2), f32(f2), f64(d2), u(uint64(i3)), f32(f3),
		f64(d3), u(uint64(i4)), f32(f4), f64(d4), i64(int64(i5)), f32(f5), f64(d5), i64(i6), f32(f6),
		i64(i7), f64(d6), i64(int64(i8)))
}

func TestFloatResults(t *testing.T) {
	var f ffiimpl.Frame
	f.Float32(1.5)
	f.Float64(0.25)
	f.Float32(-4)
	ffiimpl.Call(fn(t, "retf"), &f)
	if got := f.RetFloat32(); got != 1.5*-4+0.25 {
		t.Errorf("retf returned %v", got)
	}
	expect(t, rec(t), f32(1.5), f64(0.25), f32(-4))

	f = ffiimpl.Frame{}
	n := int64(-3)
	f.Float64(math.Pi)
	f.Int(uintptr(n))
	ffiimpl.Call(fn(t, "retd"), &f)
	if got := f.RetFloat64(); got != math.Pi*-3 {
		t.Errorf("retd returned %v", got)
	}
	expect(t, rec(t), f64(math.Pi), i64(-3))
}

func TestStructLaunchKernel(t *testing.T) {
	grid, block := dim3{0x7fffffff, 65535, 3}, dim3{1024, 1, 0xffffffff}
	var f ffiimpl.Frame
	f.Int(0x1111222233334444)
	f.Struct(unsafe.Pointer(&grid), lDim3)
	f.Struct(unsafe.Pointer(&block), lDim3)
	f.Int(0x5555666677778888)
	f.Int(48 << 10)
	f.Int(0x9999aaaabbbbcccc)
	ffiimpl.Call(fn(t, "launch"), &f)
	if int32(f.Ret()) != 3 {
		t.Errorf("launch returned %d", int32(f.Ret()))
	}
	expect(t, rec(t), u(0x1111222233334444), words(&grid), words(&block), u(0x5555666677778888, 48<<10, 0x9999aaaabbbbcccc))
}

func TestStructMemset3D(t *testing.T) {
	p := pitched{0xabcdef012345, 512, 500, 300}
	e := extent{500, 300, 1 << 33}
	minus1 := int64(-1)
	var f ffiimpl.Frame
	f.Struct(unsafe.Pointer(&p), lPitched)
	f.Int(uintptr(minus1))
	f.Struct(unsafe.Pointer(&e), lExtent)
	f.Int(0x77)
	ffiimpl.Call(fn(t, "memset3d"), &f)
	if int32(f.Ret()) != 4 {
		t.Errorf("memset3d returned %d", int32(f.Ret()))
	}
	expect(t, rec(t), words(&p), i64(-1), words(&e), u(0x77))
}

func TestStructIPC(t *testing.T) {
	var h ipc
	for i := range h.Reserved {
		h.Reserved[i] = byte(i*7 + 1)
	}
	fp := fn(t, "ipcopen") // before the Frame holds a stack pointer
	var dev uintptr
	var f ffiimpl.Frame
	f.Int(uintptr(unsafe.Pointer(&dev)))
	f.Struct(unsafe.Pointer(&h), lIPC)
	f.Int(1)
	ffiimpl.Call(fp, &f)
	runtime.KeepAlive(&dev)
	if int32(f.Ret()) != 5 {
		t.Errorf("ipcopen returned %d", int32(f.Ret()))
	}
	expect(t, rec(t), u(uint64(uintptr(unsafe.Pointer(&dev)))), words(&h), u(1))
}

// TestStructNPPStreamContext: NPP's _Ctx functions (nppiAdd_8u_C1RSfs_Ctx)
// take the 48-byte NppStreamContext by value after six integer arguments
// and two more: on amd64 the NppiSize, the int and the context go to the
// stack in order (the context copied whole), on arm64 the NppiSize and the
// int take the last registers and the context is passed as a pointer to a
// copy. C receives every field, and the negative status comes back.
func TestStructNPPStreamContext(t *testing.T) {
	ctx := nppctx{Stream: 0x7f00deadbeef, Device: 3, SMs: 132, ThreadsPerSM: 2048, TPB: 1024, SharedPerBlock: 48 << 10,
		CCMajor: 9, CCMinor: 0, StreamFlags: 1, Reserved: -1}
	roi := nppsize{301, 203}
	var f ffiimpl.Frame
	f.Int(0x1000)
	f.Int(uintptr(320))
	f.Int(0x2000)
	f.Int(uintptr(336))
	f.Int(0x3000)
	f.Int(uintptr(352))
	f.Struct(unsafe.Pointer(&roi), lNppSize)
	f.Int(uintptr(2))
	f.Struct(unsafe.Pointer(&ctx), lNppCtx)
	ffiimpl.Call(fn(t, "nppadd"), &f)
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	if int32(f.Ret()) != -8 {
		t.Errorf("nppadd returned %d", int32(f.Ret()))
	}
	expect(t, rec(t), u(0x1000, 320, 0x2000, 336, 0x3000, 352), words(&roi), u(2), words(&ctx))
}

// layoutForms runs a struct test with the layouts as listed leaves and as
// runs of equal leaves (Scalar.Count), the form the generator emits for
// arrays: both must pass the same way.
func layoutForms(t *testing.T, test func(t *testing.T, l func(*ffiimpl.Layout) *ffiimpl.Layout)) {
	t.Run("leaves", func(t *testing.T) { test(t, func(l *ffiimpl.Layout) *ffiimpl.Layout { return l }) })
	t.Run("runs", func(t *testing.T) { test(t, runs) })
}

func TestStructSmallClasses(t *testing.T) { layoutForms(t, structSmallClasses) }

func structSmallClasses(t *testing.T, L func(*ffiimpl.Layout) *ffiimpl.Layout) {
	a := s4{-2, 0x7ffe}
	b := s8{1, -3}
	c := s16{-1 << 62, 1<<63 - 2}
	d := s16m{-9, 1.25, -1e300}
	e := hfa2{0.5, -0.75}
	g := s16r{math.Inf(-1), -77}
	h := fdesc{8, 16, 24, 32, 2}
	i := hfa3{1, 2, 3}
	j := hfa4d{1e-300, 2, -3, 4.5}
	var f ffiimpl.Frame
	f.Struct(unsafe.Pointer(&a), L(lS4))
	f.Struct(unsafe.Pointer(&b), L(lS8))
	f.Struct(unsafe.Pointer(&c), L(lS16))
	f.Struct(unsafe.Pointer(&d), L(lS16m))
	f.Struct(unsafe.Pointer(&e), L(lHFA2))
	f.Struct(unsafe.Pointer(&g), L(lS16r))
	f.Struct(unsafe.Pointer(&h), L(lFdesc))
	f.Struct(unsafe.Pointer(&i), L(lHFA3))
	f.Struct(unsafe.Pointer(&j), L(lHFA4d))
	ffiimpl.Call(fn(t, "small"), &f)
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	if int32(f.Ret()) != 6 {
		t.Errorf("small returned %d", int32(f.Ret()))
	}
	expect(t, rec(t), words(&a), words(&b), words(&c), words(&d), words(&e), words(&g), words(&h), words(&i), words(&j))
}

func TestStructStraddle(t *testing.T) { layoutForms(t, structStraddle) }

func structStraddle(t *testing.T, L func(*ffiimpl.Layout) *ffiimpl.Layout) {
	s := s16{0x0123456789abcdef, -0x0123456789abcdef}
	var f ffiimpl.Frame
	for i := range int64(7) {
		f.Int(uintptr(i + 1))
	}
	f.Struct(unsafe.Pointer(&s), L(lS16))
	f.Int(0xfeedface)
	ffiimpl.Call(fn(t, "straddle"), &f)
	if int32(f.Ret()) != 7 {
		t.Errorf("straddle returned %d", int32(f.Ret()))
	}
	expect(t, rec(t), u(1, 2, 3, 4, 5, 6, 7), words(&s), u(0xfeedface))

	h := hfa3{-1, 0.5, 1e30}
	m := s16m{42, -0.125, 6.5}
	f = ffiimpl.Frame{}
	var ds []uint64
	for i := range 7 {
		f.Float64(float64(i) + 0.5)
		ds = append(ds, f64(float64(i)+0.5)...)
	}
	f.Struct(unsafe.Pointer(&h), L(lHFA3))
	f.Float64(99.5)
	f.Struct(unsafe.Pointer(&m), L(lS16m))
	ffiimpl.Call(fn(t, "fstraddle"), &f)
	if got := f.RetFloat64(); got != 0.5+99.5 {
		t.Errorf("fstraddle returned %v", got)
	}
	expect(t, rec(t), ds, words(&h), f64(99.5), words(&m))
}

// arg is one argument for structResult: the arguments must be added
// without calling anything that could grow the stack once the result
// pointer is in the Frame (see the stack invariant on ffiimpl.Frame), so they
// are data, not a closure.
type arg struct {
	kind byte // 'i', 'f' (float), 'd' (double)
	bits uint64
}

func I(v int64) arg   { return arg{'i', uint64(v)} }
func F(v float32) arg { return arg{'f', uint64(math.Float32bits(v))} }
func D(v float64) arg { return arg{'d', math.Float64bits(v)} }

// structResult calls name with args and a struct result.
func structResult[T any](t *testing.T, name string, l *ffiimpl.Layout, args ...arg) T {
	t.Helper()
	fp := fn(t, name) // before the Frame holds a stack pointer
	var r T
	var f ffiimpl.Frame
	f.StructResult(unsafe.Pointer(&r), l)
	for _, a := range args {
		switch a.kind {
		case 'i':
			f.Int(uintptr(a.bits))
		case 'f':
			f.Float32(math.Float32frombits(uint32(a.bits)))
		case 'd':
			f.Float64(math.Float64frombits(a.bits))
		}
	}
	ffiimpl.Call(fp, &f)
	f.RetStruct(unsafe.Pointer(&r), l)
	runtime.KeepAlive(&r)
	if err := f.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

func TestStructResults(t *testing.T) {
	check := func(name string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s returned %+v, want %+v", name, got, want)
		}
	}
	check("make_desc", structResult[fdesc](t, "make_desc", lFdesc, I(8), I(-8), I(0x7fffffff), I(-1<<31), I(2)),
		fdesc{8, -8, 0x7fffffff, -1 << 31, 2})
	check("ret8", structResult[s8](t, "ret8", lS8, I(-1), I(0x12345678)), s8{-1, 0x12345678})
	check("retdim3", structResult[dim3](t, "retdim3", lDim3, I(1), I(0xffffffff), I(3)), dim3{1, 0xffffffff, 3})
	check("ret16", structResult[s16](t, "ret16", lS16, I(-1<<63), I(1<<62)), s16{-1 << 63, 1 << 62})
	check("ret16m", structResult[s16m](t, "ret16m", lS16m, I(-7), F(2.5), D(-1e200)), s16m{-7, 2.5, -1e200})
	check("ret16r", structResult[s16r](t, "ret16r", lS16r, D(0.1), I(-2)), s16r{0.1, -2})
	check("rethfa2", structResult[hfa2](t, "rethfa2", lHFA2, F(1.25), F(-8)), hfa2{1.25, -8})
	check("rethfa3", structResult[hfa3](t, "rethfa3", lHFA3, F(1), F(-2), F(3e-30)), hfa3{1, -2, 3e-30})
	check("rethfa4d", structResult[hfa4d](t, "rethfa4d", lHFA4d, D(1), D(-2), D(3e300), D(math.SmallestNonzeroFloat64)),
		hfa4d{1, -2, 3e300, math.SmallestNonzeroFloat64})
	check("retextent", structResult[extent](t, "retextent", lExtent, I(1<<40), I(2), I(3), I(-9)), extent{1 << 40, 2, 3})
	expect(t, rec(t), i64(-9)) // the argument after the hidden result pointer arrived intact
}

func TestFrameErrors(t *testing.T) {
	// Leave a mark the fixtures would erase if they were called.
	var f ffiimpl.Frame
	f.Int(0xabc)
	ffiimpl.Call(fn(t, "i1"), &f)
	r := rec(t)

	f = ffiimpl.Frame{}
	for range 64 {
		f.Int(1)
	}
	ffiimpl.Call(fn(t, "i0"), &f)
	if f.Err() != ffiimpl.ErrFrameOverflow {
		t.Errorf("64 integer arguments: Err() = %v, want ErrFrameOverflow", f.Err())
	}

	f = ffiimpl.Frame{}
	var big [8]ipc
	for i := range big {
		f.Struct(unsafe.Pointer(&big[i]), lIPC)
	}
	ffiimpl.Call(fn(t, "i0"), &f)
	if f.Err() != ffiimpl.ErrFrameOverflow {
		t.Errorf("8 IPC handles: Err() = %v, want ErrFrameOverflow", f.Err())
	}

	f = ffiimpl.Frame{}
	var d fdesc
	f.Int(1)
	f.StructResult(unsafe.Pointer(&d), lFdesc)
	ffiimpl.Call(fn(t, "i0"), &f)
	if f.Err() != ffiimpl.ErrFrameOrder {
		t.Errorf("StructResult after an argument: Err() = %v, want ErrFrameOrder", f.Err())
	}

	f = ffiimpl.Frame{}
	ffiimpl.Call(0, &f)
	if f.Err() != ffiimpl.ErrNilFunc {
		t.Errorf("Call(0): Err() = %v, want ErrNilFunc", f.Err())
	}
	if r[0] != 0xabc {
		t.Errorf("a failed Call called its function")
	}
}

// TestCallAllocs checks that a call, with stack out-parameters and by-value
// structs, neither allocates nor moves anything to the heap.
func TestCallAllocs(t *testing.T) {
	launch, narrow, makeDesc := fn(t, "launch"), fn(t, "narrow"), fn(t, "make_desc")
	allocs := testing.AllocsPerRun(1000, func() {
		grid, block := dim3{1, 2, 3}, dim3{4, 5, 6}
		var out uintptr
		var f ffiimpl.Frame
		f.Int(uintptr(unsafe.Pointer(&out)))
		f.Struct(unsafe.Pointer(&grid), lDim3)
		f.Struct(unsafe.Pointer(&block), lDim3)
		f.Int(0)
		f.Int(0)
		f.Int(0)
		ffiimpl.Call(launch, &f)
		runtime.KeepAlive(&out)

		var g ffiimpl.Frame
		for range 10 {
			g.Int(1)
		}
		ffiimpl.Call(narrow, &g)

		var d fdesc
		var h ffiimpl.Frame
		h.StructResult(unsafe.Pointer(&d), lFdesc)
		for range 5 {
			h.Int(1)
		}
		ffiimpl.Call(makeDesc, &h)
		h.RetStruct(unsafe.Pointer(&d), lFdesc)
		runtime.KeepAlive(&d)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per call, want 0", allocs)
	}
	t.Logf("sizeof(Frame) = %d bytes on %s", unsafe.Sizeof(ffiimpl.Frame{}), runtime.GOARCH)
}

// TestStackMoves checks the stack invariant from the other side: calls made
// at many stack depths, through a Frame and through CallInts, with the
// goroutine stack growing in between, still pass pointers to the right stack
// objects.
func TestStackMoves(t *testing.T) {
	i1 := fn(t, "i1")
	r := rec(t)
	var recurse func(n int)
	recurse = func(n int) {
		var pad [64]uintptr // grow the stack quickly
		var out uintptr
		var f ffiimpl.Frame
		f.Int(uintptr(unsafe.Pointer(&out)))
		ffiimpl.Call(i1, &f)
		if r[0] != uint64(uintptr(unsafe.Pointer(&out))) {
			t.Fatalf("depth %d: C got %#x, &out is %p", n, r[0], &out)
		}
		runtime.KeepAlive(&out)
		var out2 uintptr
		ffiimpl.CallInts(i1, uintptr(unsafe.Pointer(&out2)), 0, 0, 0, 0, 0)
		if r[0] != uint64(uintptr(unsafe.Pointer(&out2))) {
			t.Fatalf("depth %d, CallInts: C got %#x, &out2 is %p", n, r[0], &out2)
		}
		runtime.KeepAlive(&out2)
		if n > 0 {
			recurse(n - 1)
		}
		runtime.KeepAlive(&pad)
	}
	recurse(300)
}

// TestCallInts passes 0 to 6 integer arguments through CallInts, each with
// all 64 bits in use, and checks what C received and returned.
func TestCallInts(t *testing.T) {
	var vals [6]uintptr
	for i := range vals {
		vals[i] = uintptr(0x0101010101010101*uint64(i+1) ^ uint64(i%2)<<63)
	}
	for n := 0; n <= 6; n++ {
		var a [6]uintptr
		copy(a[:n], vals[:n])
		got := ffiimpl.CallInts(fn(t, "i"+string(rune('0'+n))), a[0], a[1], a[2], a[3], a[4], a[5])
		want := uint64(n)
		if n == 0 {
			want = 0x1122334455667788
		}
		if uint64(got) != want {
			t.Errorf("i%d returned %#x, want %#x", n, got, want)
		}
		w := make([]uint64, n)
		for i := range w {
			w[i] = uint64(vals[i])
		}
		expect(t, rec(t), w)
	}
	// Narrow C types: the caller extends, the result is cut to the C width.
	var x int32
	d, e := int32(-40), int32(2)
	r := ffiimpl.CallInts(fn(t, "b6"), uintptr(unsafe.Pointer(&x)), uintptr(unsafe.Pointer(&x)), 5, uintptr(int64(d)), uintptr(int64(e)), 0)
	runtime.KeepAlive(&x)
	if int32(r) != d+e+5+1 {
		t.Errorf("b6 = %d; want %d", int32(r), d+e+5+1)
	}
	// A zero address panics, as a nil func value's call does, and calls nothing.
	func() {
		defer func() {
			if p := recover(); p != ffiimpl.ErrNilFunc {
				t.Errorf("CallInts(0) panicked with %v, want ErrNilFunc", p)
			}
		}()
		ffiimpl.CallInts(0, 1, 2, 3, 4, 5, 6)
	}()
}

// TestCallIntsAllocs: a stack out-parameter passed through CallInts stays
// on the stack, and nothing allocates.
func TestCallIntsAllocs(t *testing.T) {
	b2 := fn(t, "b2")
	allocs := testing.AllocsPerRun(1000, func() {
		var out uintptr
		r := ffiimpl.CallInts(b2, uintptr(unsafe.Pointer(&out)), 7, 0, 0, 0, 0)
		runtime.KeepAlive(&out)
		if int32(r) != 8 {
			t.Fatalf("b2 = %d", int32(r))
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per call, want 0", allocs)
	}
}

// TestStackAlignment checks the stack pointer C sees at entry through both
// trampolines: 16-byte alignment at the call instruction, as both ABIs
// require (compilers use aligned vector stores to the stack on that
// assumption).
func TestStackAlignment(t *testing.T) {
	want := uint64(0) // arm64: SP itself is aligned
	if runtime.GOARCH == "amd64" {
		want = 8 // the return address sits on the aligned stack
	}
	entry := fn(t, "entry_sp")
	var f ffiimpl.Frame
	ffiimpl.Call(entry, &f)
	if got := uint64(f.Ret()) % 16; got != want {
		t.Errorf("Call: SP at entry = %#x, %d mod 16, want %d", f.Ret(), got, want)
	}
	// A Frame with stack words takes the same path with outgoing words.
	var g ffiimpl.Frame
	for range 10 {
		g.Int(1)
	}
	ffiimpl.Call(entry, &g)
	if got := uint64(g.Ret()) % 16; got != want {
		t.Errorf("Call with stack words: SP at entry = %#x, %d mod 16, want %d", g.Ret(), got, want)
	}
	sp := ffiimpl.CallInts(entry, 0, 0, 0, 0, 0, 0)
	if got := uint64(sp) % 16; got != want {
		t.Errorf("CallInts: SP at entry = %#x, %d mod 16, want %d", sp, got, want)
	}
}
