//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package abitest_test

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/emit/internal/abitest"
	"github.com/cugen/cugen/emit/internal/abitest/cu"
	"github.com/cugen/cugen/emit/internal/abitest/cudart"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/ffi/ffiimpl"
)

var (
	fixture     string // the fixture library; "" if it could not be built
	fixtureSkip string // why fixture is ""
)

// TestMain builds emit/testdata/abi/abi.c and points both generated packages
// at it before anything calls them: they open their library once, lazily.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "abitest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixture, fixtureSkip, err = abitest.Build("../../testdata/abi", dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	abitest.Setenv(fixture, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func need(tb testing.TB) {
	tb.Helper()
	if fixture == "" {
		tb.Skip(fixtureSkip)
	}
}

// data returns the address of a data symbol of the fixture.
func data[T any](tb testing.TB, name string) *T {
	tb.Helper()
	a, err := cu.SharedLibrary().Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	return *(**T)(unsafe.Pointer(&a))
}

// recorded returns the words the last recording fixture function received.
func recorded(tb testing.TB) []uint64 {
	tb.Helper()
	r := data[[64]uint64](tb, "abi_rec")
	n := *data[int32](tb, "abi_nrec")
	return slices.Clone(r[:n])
}

func expectRec(t *testing.T, what string, want ...uint64) {
	t.Helper()
	if got := recorded(t); !slices.Equal(got, want) {
		t.Errorf("%s: C received\n%#x\nwant\n%#x", what, got, want)
	}
}

func check(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func s64(v int64) uint64   { return uint64(v) }
func f32(v float32) uint64 { return uint64(math.Float32bits(v)) }
func f64(v float64) uint64 { return math.Float64bits(v) }

func fnv1a(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// words packs bytes the way the fixture records a struct: little-endian
// 8-byte words, the tail zero.
func words(b []byte) []uint64 {
	w := make([]uint64, (len(b)+7)/8)
	for i, c := range b {
		w[i/8] |= uint64(c) << (8 * (i % 8))
	}
	return w
}

// Package-level objects whose addresses cross into C: their addresses do
// not change, unlike those of stack objects when the stack grows.
var (
	g1, g2   int64
	gByte    = [1]byte{0x5A}
	gSlots   [2]unsafe.Pointer
	gCounter uint32
	gArgs    [1]unsafe.Pointer
)

func TestLoadsFixture(t *testing.T) {
	need(t)
	for _, l := range []*ffi.Library{cu.SharedLibrary(), cudart.SharedLibrary()} {
		if err := l.Load(); err != nil {
			t.Fatal(err)
		}
		if l.Path() != fixture {
			t.Errorf("%s loaded from %s, want the fixture %s", l.Name(), l.Path(), fixture)
		}
	}
}

func TestIntegers(t *testing.T) {
	need(t)
	type args struct {
		i8   int8
		u8   uint8
		i16  int16
		u16  uint16
		i32  int32
		u32  uint32
		i64  int64
		u64  uint64
		size uint64
		dptr cu.Deviceptr
		dev  cu.Device
		sign cu.AbiSign
		loc  cu.MemLocationType
	}
	for _, a := range []args{
		{math.MinInt8, math.MaxUint8, math.MinInt16, math.MaxUint16, math.MinInt32, math.MaxUint32,
			math.MinInt64, math.MaxUint64, 1<<63 + 5, 0xDEADBEEFCAFEF00D, -7, cu.AbiSignNegative, cu.MemLocationTypeMax},
		{math.MaxInt8, 0, math.MaxInt16, 0, math.MaxInt32, 0, math.MaxInt64, 0, 0, 0, math.MaxInt32, cu.AbiSignPositive, cu.MemLocationTypeHost},
		{-1, 1, -1, 1, -1, 1, -1, 1, 1, 1, -1, cu.AbiSignZero, cu.MemLocationTypeInvalid},
		{-5, 0x80, -300, 0x8000, -123456789, 0x80000000, -1 << 40, 1 << 63, 42, 1 << 32, math.MinInt32, cu.AbiSign(-1), cu.MemLocationTypeDevice},
	} {
		check(t, "AbiIntegers", cu.AbiIntegers(a.i8, a.u8, a.i16, a.u16, a.i32, a.u32, a.i64, a.u64, a.size, a.dptr, a.dev, a.sign, a.loc))
		expectRec(t, fmt.Sprintf("AbiIntegers%+v", a),
			s64(int64(a.i8)), uint64(a.u8), s64(int64(a.i16)), uint64(a.u16), s64(int64(a.i32)), uint64(a.u32),
			uint64(a.i64), a.u64, a.size, uint64(a.dptr), s64(int64(a.dev)), s64(int64(a.sign)),
			// CUmemLocationType has no negative value: gcc makes it unsigned int.
			uint64(uint32(a.loc)))
	}
}

func TestFloats(t *testing.T) {
	need(t)
	nan32 := math.Float32frombits(0x7fc0_1234)
	nan64 := math.Float64frombits(0x7ff8_0000_dead_beef)
	for _, v := range [][10]float64{
		{1.5, -2.25, 3.125, -4e10, 5.5, 6e-300, -7.75, 8e300, 9.5, -10.0625},
		{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), float64(math.SmallestNonzeroFloat32), math.SmallestNonzeroFloat64, math.MaxFloat32, math.MaxFloat64, 1, -1},
	} {
		f := func(i int) float32 { return float32(v[i]) }
		check(t, "AbiFloats", cu.AbiFloats(-1, f(0), v[1], -2, f(2), v[3], 3, f(4), v[5], -4, f(6), v[7], 5, f(8), v[9], 6, 7, math.MinInt32))
		expectRec(t, fmt.Sprint("AbiFloats", v),
			s64(-1), f32(f(0)), f64(v[1]), s64(-2), f32(f(2)), f64(v[3]), 3, f32(f(4)), f64(v[5]),
			s64(-4), f32(f(6)), f64(v[7]), 5, f32(f(8)), f64(v[9]), 6, 7, s64(math.MinInt32))
	}
	// NaN payloads cross as bits.
	check(t, "AbiFloats", cu.AbiFloats(0, nan32, nan64, 0, nan32, nan64, 0, nan32, nan64, 0, nan32, nan64, 0, nan32, nan64, 0, 0, 0))
	got := recorded(t)
	for _, i := range []int{1, 4, 7, 10, 13} {
		if got[i] != f32(nan32) || got[i+1] != f64(nan64) {
			t.Errorf("NaN argument pair %d arrived as %#x %#x", i, got[i], got[i+1])
		}
	}
}

func TestScalarResults(t *testing.T) {
	need(t)
	if got := cudart.AbiScale(1.5, -3, 2.25); got != -11.25 {
		t.Errorf("AbiScale = %v, want -11.25", got)
	}
	if got := cudart.AbiHalf(3); got != 1.5 {
		t.Errorf("AbiHalf = %v, want 1.5", got)
	}
	for _, v := range []int32{0, 5, -5, math.MaxInt32, -math.MaxInt32} {
		if got := cudart.AbiNegate(v); got != -v {
			t.Errorf("AbiNegate(%d) = %d", v, got)
		}
	}
	cudart.AbiRecord(math.MinInt64)
	expectRec(t, "AbiRecord", 1<<63)
	cudart.AbiRecord(-2)
	expectRec(t, "AbiRecord", s64(-2))
}

func TestOutParams(t *testing.T) {
	need(t)
	for _, ord := range []int32{0, 3, -7, math.MaxInt32, math.MinInt32} {
		d, err := cu.DeviceGet(ord)
		check(t, "DeviceGet", err)
		if d != cu.Device(ord) {
			t.Errorf("DeviceGet(%d) = %d", ord, d)
		}
	}
	for _, c := range []struct {
		flags uint32
		dev   cu.Device
	}{{0, 0}, {0xFFFFFFFF, -1}, {4, 2}} {
		ctx, err := cu.CtxCreate(c.flags, c.dev)
		check(t, "CtxCreate", err)
		want := cu.Context(0xC7C0000000000000 ^ uint64(c.flags)<<32 ^ uint64(uint32(c.dev)))
		if ctx != want {
			t.Errorf("CtxCreate(%#x, %d) = %#x, want %#x", c.flags, c.dev, ctx, want)
		}
		check(t, "CtxSetCurrent", cu.CtxSetCurrent(ctx))
		expectRec(t, "CtxSetCurrent", uint64(ctx))
	}
	uuid, err := cu.DeviceGetUuid(5)
	check(t, "DeviceGetUuid", err)
	for i, b := range uuid.Bytes {
		if b != byte(5*16+i) {
			t.Fatalf("DeviceGetUuid(5) = %x", uuid.Bytes)
		}
	}
	name, err := cu.DeviceGetName(3)
	check(t, "DeviceGetName", err)
	if want := "ABI device 3 (len 256)"; name != want {
		t.Errorf("DeviceGetName(3) = %q, want %q", name, want)
	}
	// The LUID is an 8-byte array C fills completely (issue 12, bug 4: it
	// was one byte, and C wrote 7 past it).
	luid, mask, err := cu.DeviceGetLuid(2)
	check(t, "DeviceGetLuid", err)
	var wantLuid [8]byte
	for i := range wantLuid {
		wantLuid[i] = byte(0xA0 + 2*8 + i)
	}
	if luid != wantLuid || mask != 1<<2 {
		t.Errorf("DeviceGetLuid(2) = %x, %#x; want %x, 0x4", luid, mask, wantLuid)
	}
	ms, err := cu.EventElapsedTime(1000, 1006)
	check(t, "EventElapsedTime", err)
	if ms != 1.5 {
		t.Errorf("EventElapsedTime = %v, want 1.5", ms)
	}
	h, err := cu.IpcGetMemHandle(0x1234_5678_9abc_def0)
	check(t, "IpcGetMemHandle", err)
	for i, b := range h.Reserved {
		if b != byte(0xf0+3*i) {
			t.Fatalf("IpcGetMemHandle = %x", h.Reserved)
		}
	}
	n, err := cudart.GetDeviceCount()
	check(t, "GetDeviceCount", err)
	if n != 3 {
		t.Errorf("GetDeviceCount = %d, want 3", n)
	}
	prop, err := cudart.GetDeviceProperties(4)
	check(t, "GetDeviceProperties", err)
	var wantProp cudart.DeviceProp
	copy(wantProp.Name[:], "ABI GPU 4")
	wantProp.TotalGlobalMem = 4<<33 | 5
	wantProp.Major, wantProp.Minor = 9, 4
	wantProp.Flag = 0xA5
	wantProp.ClockGHz = 5.5
	wantProp.Ports = [3]uint16{1, 2, 65535}
	if prop != wantProp {
		t.Errorf("GetDeviceProperties(4) =\n%+v\nwant\n%+v", prop, wantProp)
	}
	pp, err := cudart.Malloc3D(cudart.Extent{Width: 1000, Height: 20, Depth: 3})
	check(t, "Malloc3D", err)
	expectRec(t, "Malloc3D", 1000, 20, 3)
	if uintptr(pp.Ptr) != 0x100003 || pp.Pitch != 1024 || pp.Xsize != 1000 || pp.Ysize != 20 {
		t.Errorf("Malloc3D = %+v", pp)
	}
}

func TestStringIn(t *testing.T) {
	need(t)
	for _, s := range []string{"kernel", "", "ünïcødé_κ", strings.Repeat("x", 10000)} {
		f, err := cu.ModuleGetFunction(0x77, s)
		check(t, "ModuleGetFunction", err)
		if want := cu.Function(fnv1a([]byte(s)) ^ 0x77); f != want {
			t.Errorf("ModuleGetFunction(%.20q) = %#x, want %#x", s, f, want)
		}
		expectRec(t, "ModuleGetFunction", uint64(len(s)))
	}
	// C sees the string up to its first NUL, as a C string.
	f, err := cu.ModuleGetFunction(0, "ab\x00cd")
	check(t, "ModuleGetFunction", err)
	if f != cu.Function(fnv1a([]byte("ab"))) {
		t.Errorf("ModuleGetFunction with a NUL = %#x", f)
	}
}

func TestStructsByValue(t *testing.T) {
	need(t)
	m := cu.AbiMixed{I: -3, F: 1.25, D: -2.5e300}
	v := cu.AbiFloat3{X: 1, Y: -2, Z: 3.5}
	echo, err := cu.AbiStructs(m, v, -9)
	check(t, "AbiStructs", err)
	expectRec(t, "AbiStructs", s64(-3), f32(1.25), f64(-2.5e300), f32(1), f32(-2), f32(3.5), s64(-9))
	if want := (cu.AbiMixed{I: -6, F: 2.5, D: -5e300}); echo != want {
		t.Errorf("AbiStructs echo = %+v, want %+v", echo, want)
	}

	loc := cu.MemLocation{Type: cu.MemLocationTypeHost, Id: -4}
	check(t, "MemPrefetchAsync", cu.MemPrefetchAsync(0xFEED_0000_0000_0001, 1<<40, loc, 0x80000001, 0x5EA))
	expectRec(t, "MemPrefetchAsync", 0xFEED_0000_0000_0001, 1<<40, 2, s64(-4), 0x80000001, 0x5EA)

	var h cu.IpcMemHandle
	for i := range h.Reserved {
		h.Reserved[i] = byte(7*i + 1)
	}
	dptr, err := cu.IpcOpenMemHandle(h, 3)
	check(t, "IpcOpenMemHandle", err)
	expectRec(t, "cu.IpcOpenMemHandle", append(words(h.Reserved[:]), 3)...)
	if want := cu.Deviceptr(fnv1a(h.Reserved[:]) ^ 3); dptr != want {
		t.Errorf("IpcOpenMemHandle = %#x, want %#x", dptr, want)
	}

	var rh cudart.IpcMemHandle
	sum := uintptr(0)
	for i := range rh.Reserved {
		rh.Reserved[i] = byte(255 - i)
		sum += uintptr(rh.Reserved[i])
	}
	p, err := cudart.IpcOpenMemHandle(rh, 1)
	check(t, "cudart.IpcOpenMemHandle", err)
	expectRec(t, "cudart.IpcOpenMemHandle", append(words(rh.Reserved[:]), 1)...)
	if uintptr(p) != 0x200000+sum {
		t.Errorf("cudart.IpcOpenMemHandle = %#x, want %#x", uintptr(p), 0x200000+sum)
	}

	gArgs[0] = unsafe.Pointer(&g2)
	grid, block := cudart.Dim3{X: 1, Y: 0xFFFFFFFF, Z: 3}, cudart.Dim3{X: 4, Y: 5, Z: 0x80000000}
	check(t, "LaunchKernel", cudart.LaunchKernel(cudart.Kernel(uintptr(unsafe.Pointer(&g1))), grid, block, gArgs[:], 4096, 7))
	expectRec(t, "LaunchKernel", uint64(uintptr(unsafe.Pointer(&g1))), 1, 0xFFFFFFFF, 3, 4, 5, 0x80000000,
		uint64(uintptr(unsafe.Pointer(&gArgs[0]))), uint64(uintptr(unsafe.Pointer(&g2))), 4096, 7)

	pp := cudart.PitchedPtr{Ptr: unsafe.Pointer(&g1), Pitch: 512, Xsize: 100, Ysize: 7}
	check(t, "Memset3D", cudart.Memset3D(pp, -1, cudart.Extent{Width: 1 << 33, Height: 2, Depth: 1}))
	expectRec(t, "Memset3D", uint64(uintptr(unsafe.Pointer(&g1))), 512, 100, 7, s64(-1), 1<<33, 2, 1)
}

func TestStructResults(t *testing.T) {
	need(t)
	if got, want := cudart.CreateChannelDesc(1, -2, 3, math.MinInt32, cudart.ChannelFormatKindFloat),
		(cudart.ChannelFormatDesc{X: 1, Y: -2, Z: 3, W: math.MinInt32, F: cudart.ChannelFormatKindFloat}); got != want {
		t.Errorf("CreateChannelDesc = %+v, want %+v", got, want)
	}
	if got, want := cudart.AbiMakeDim3(1, 0xFFFFFFFF, 3), (cudart.Dim3{X: 1, Y: 0xFFFFFFFF, Z: 3}); got != want {
		t.Errorf("AbiMakeDim3 = %+v, want %+v", got, want)
	}
}

func TestPointers(t *testing.T) {
	need(t)
	gSlots = [2]unsafe.Pointer{}
	gCounter = 21
	check(t, "AbiPointers", cu.AbiPointers(unsafe.Pointer(&g1), unsafe.Pointer(&gByte), &gSlots[0], &gCounter))
	expectRec(t, "AbiPointers", uint64(uintptr(unsafe.Pointer(&g1))), uint64(uintptr(unsafe.Pointer(&gByte))), 0x5A,
		uint64(uintptr(unsafe.Pointer(&gSlots[0]))), uint64(uintptr(unsafe.Pointer(&gCounter))))
	if gSlots[0] != unsafe.Pointer(&g1) || gSlots[1] != nil {
		t.Errorf("C stored %v, want %p", gSlots, &g1)
	}
	if gCounter != 42 {
		t.Errorf("counter = %d, want 42", gCounter)
	}
	check(t, "AbiPointers", cu.AbiPointers(nil, nil, nil, nil))
	expectRec(t, "AbiPointers(nil...)", 0, 0, 0, 0, 0)
}

func TestErrors(t *testing.T) {
	need(t)
	if err := cu.AbiFail(cu.Success); err != nil {
		t.Errorf("AbiFail(Success) = %#v, want nil", err)
	}
	for _, c := range []struct {
		err  error
		is   error
		text string
	}{
		{cu.AbiFail(cu.ErrorInvalidValue), cu.ErrorInvalidValue, "cuAbiFail: CUDA_ERROR_INVALID_VALUE: invalid argument"},
		{cu.AbiFail(cu.ErrorInvalidDevice), cu.ErrorInvalidDevice, "cuAbiFail: CUDA_ERROR_INVALID_DEVICE: invalid device ordinal"},
		{cu.AbiFail(12345), cu.Result(12345), "cuAbiFail: CUresult(12345): unknown error"},
		{cu.AbiFail(-1), cu.Result(-1), "cuAbiFail: CUresult(-1): unknown error"},
		{cu.AbiFailAlias(cu.ErrorInvalidValue), cu.ErrorInvalidValue, "cuAbiFail: CUDA_ERROR_INVALID_VALUE: invalid argument"},
		{second(cu.DeviceGet(99)), cu.ErrorInvalidValue, "cuDeviceGet: CUDA_ERROR_INVALID_VALUE: invalid argument"},
		{cu.LaunchHostFunc(0xBAD, func() {}), cu.ErrorInvalidValue, "cuLaunchHostFunc: CUDA_ERROR_INVALID_VALUE: invalid argument"},
		{second(cu.GetErrorName(777)), cu.ErrorInvalidValue, "cuGetErrorName: CUDA_ERROR_INVALID_VALUE: invalid argument"},
		{cudart.SetDevice(99), cudart.ErrorInvalidDevice, "cudaSetDevice: cudaErrorInvalidDevice: invalid device ordinal"},
		{second(cudart.GetDeviceProperties(-1)), cudart.ErrorInvalidDevice, "cudaGetDeviceProperties: cudaErrorInvalidDevice: invalid device ordinal"},
		{cudart.LaunchHostFunc(0xBAD, func() {}), cudart.ErrorInvalidValue, "cudaLaunchHostFunc: cudaErrorInvalidValue: invalid argument"},
	} {
		if c.err == nil {
			t.Errorf("want error %q, got nil", c.text)
			continue
		}
		if !errors.Is(c.err, c.is) {
			t.Errorf("%v: errors.Is(err, %v) = false", c.err, c.is)
		}
		if errors.Is(c.err, cu.ErrorUnknown) || errors.Is(c.err, cudart.ErrorUnknown) {
			t.Errorf("%v: matches ErrorUnknown too", c.err)
		}
		if c.err.Error() != c.text {
			t.Errorf("error text %q, want %q", c.err.Error(), c.text)
		}
		var ce *ffi.CallError
		if !errors.As(c.err, &ce) || !strings.HasPrefix(c.text, ce.Func+": ") {
			t.Errorf("%v: not an *ffi.CallError naming the C function", c.err)
		}
	}
	// The same failure is the same error value: the error path does not allocate.
	if a, b := cu.AbiFail(cu.ErrorOutOfMemory), cu.AbiFail(cu.ErrorOutOfMemory); a != b {
		t.Errorf("repeated failures gave different errors %p %p", a, b)
	}

	// Names and messages from the library.
	for r, want := range map[cu.Result][2]string{
		cu.Success:            {"CUDA_SUCCESS", "no error"},
		cu.ErrorInvalidValue:  {"CUDA_ERROR_INVALID_VALUE", "invalid argument"},
		cu.ErrorInvalidDevice: {"CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
	} {
		name, err := cu.GetErrorName(r)
		check(t, "GetErrorName", err)
		msg, err := cu.GetErrorString(r)
		check(t, "GetErrorString", err)
		if name != want[0] || msg != want[1] || r.String() != want[0] || r.Message() != want[1] {
			t.Errorf("%d: GetErrorName %q GetErrorString %q String %q Message %q, want %q", int32(r), name, msg, r.String(), r.Message(), want)
		}
	}
	if got := cudart.GetErrorName(cudart.ErrorInvalidValue); got != "cudaErrorInvalidValue" {
		t.Errorf("cudart.GetErrorName = %q", got)
	}
	if got := cudart.GetErrorString(cudart.ErrorInvalidDevice); got != "invalid device ordinal" {
		t.Errorf("cudart.GetErrorString = %q", got)
	}
	if got := cudart.Error(4242).Error(); got != "cudaError_t(4242): unknown error" {
		t.Errorf("cudart.Error(4242) = %q", got)
	}
}

func second[T any](_ T, err error) error { return err }

// TestOnDevice runs the generated thread helper against the fixture's
// cudaSetDevice.
func TestOnDevice(t *testing.T) {
	need(t)
	ran := false
	check(t, "OnDevice", cudart.OnDevice(6, func() error {
		ran = true
		expectRec(t, "OnDevice's cudaSetDevice", 6)
		return nil
	}))
	if !ran {
		t.Error("OnDevice(6) did not run fn")
	}
	want := errors.New("from fn")
	if err := cudart.OnDevice(1, func() error { return want }); err != want {
		t.Errorf("OnDevice returned %v, want fn's error", err)
	}
	err := cudart.OnDevice(99, func() error { t.Error("fn ran after cudaSetDevice failed"); return nil })
	if !errors.Is(err, cudart.ErrorInvalidDevice) {
		t.Errorf("OnDevice(99) = %v, want cudaErrorInvalidDevice", err)
	}
}

// TestCallbacks runs every one-shot callback wrapper: on the calling thread
// (NULL stream), from a new C thread, and not at all when registration fails.
func TestCallbacks(t *testing.T) {
	need(t)
	live := ffiimpl.LiveHandles()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := gettid()

	// NULL stream: C calls back before returning, on this thread.
	ran := false
	check(t, "LaunchHostFunc", cu.LaunchHostFunc(0, func() { ran = gettid() == tid }))
	if !ran {
		t.Error("cu.LaunchHostFunc on the NULL stream: callback did not run on the calling thread")
	}
	ran = false
	check(t, "cudart.LaunchHostFunc", cudart.LaunchHostFunc(0, func() { ran = gettid() == tid }))
	if !ran {
		t.Error("cudart.LaunchHostFunc on the NULL stream: callback did not run on the calling thread")
	}

	// Another stream: C calls back from a thread of its own.
	tids := make(chan int, 4)
	check(t, "LaunchHostFunc", cu.LaunchHostFunc(1, func() { tids <- gettid() }))
	check(t, "cudart.LaunchHostFunc", cudart.LaunchHostFunc(2, func() { tids <- gettid() }))
	type status struct {
		stream uintptr
		code   int32
		tid    int
	}
	statuses := make(chan status, 2)
	check(t, "StreamAddCallback", cu.StreamAddCallback(0x51, func(s cu.Stream, r cu.Result) {
		statuses <- status{uintptr(s), int32(r), gettid()}
	}, uint32(cu.ErrorInvalidDevice)))
	check(t, "cudart.StreamAddCallback", cudart.StreamAddCallback(^cudart.Stream(0)-5, func(s cudart.Stream, e cudart.Error) {
		statuses <- status{uintptr(s), int32(e), gettid()}
	}, uint32(cudart.ErrorMemoryAllocation)))
	for range 2 {
		if got := <-tids; got == tid {
			t.Error("LaunchHostFunc on a stream: callback ran on the calling thread, not C's")
		}
	}
	got := []status{<-statuses, <-statuses}
	slices.SortFunc(got, func(a, b status) int { return int(a.code - b.code) })
	if got[0].stream != ^uintptr(0)-5 || got[0].code != int32(cudart.ErrorMemoryAllocation) ||
		got[1].stream != 0x51 || got[1].code != int32(cu.ErrorInvalidDevice) {
		t.Errorf("StreamAddCallback callbacks got %+v", got)
	}
	for _, s := range got {
		if s.tid == tid {
			t.Error("StreamAddCallback: callback ran on the calling thread, not C's")
		}
	}
	check(t, "CtxSynchronize", cu.CtxSynchronize())
	check(t, "DeviceSynchronize", cudart.DeviceSynchronize())

	// A failed registration never calls back and releases its handle.
	for range 3 {
		if err := cu.LaunchHostFunc(0xBAD, func() { t.Error("callback of a failed registration ran") }); err == nil {
			t.Error("LaunchHostFunc(0xBAD) succeeded")
		}
		if err := cudart.StreamAddCallback(0xBAD, func(cudart.Stream, cudart.Error) { t.Error("callback of a failed registration ran") }, 0); err == nil {
			t.Error("cudart.StreamAddCallback(0xBAD) succeeded")
		}
	}
	if got := ffiimpl.LiveHandles(); got != live {
		t.Errorf("LiveHandles() = %d after every callback ran, want %d", got, live)
	}
	// One C entry point per callback typedef and package, whatever the
	// number of calls.
	if n := *data[int32](t, "abi_nfns"); n > 4 {
		t.Errorf("C received %d distinct callback addresses, want at most 4", n)
	}
}

// TestCallbackChurn makes a million one-shot callbacks: the handle table
// stays bounded, and every call reuses the same C entry point (purego can
// make only 2000 per process).
func TestCallbackChurn(t *testing.T) {
	need(t)
	n := 1_000_000
	if testing.Short() {
		n = 20_000
	}
	var calls atomic.Int64
	count := func() { calls.Add(1) }
	check(t, "LaunchHostFunc", cu.LaunchHostFunc(0, count)) // make the entry point before counting
	calls.Store(0)
	live := ffiimpl.LiveHandles()
	fns := *data[int32](t, "abi_nfns")
	started := *data[int64](t, "abi_callbacks")
	peak := 0
	for i := range n {
		stream := cu.Stream(0) // on the calling thread
		if i%10_000 == 0 {
			stream = 1 // a new C thread now and then
		}
		if err := cu.LaunchHostFunc(stream, count); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if i%1000 == 0 {
			peak = max(peak, ffiimpl.LiveHandles()-live)
		}
	}
	check(t, "CtxSynchronize", cu.CtxSynchronize())
	if got := calls.Load(); got != int64(n) {
		t.Errorf("%d callbacks ran, want %d", got, n)
	}
	if got := *data[int64](t, "abi_callbacks") - started; got != int64(n) {
		t.Errorf("C started %d callbacks, want %d", got, n)
	}
	if got := ffiimpl.LiveHandles(); got != live {
		t.Errorf("LiveHandles() = %d after %d callbacks, want %d", got, n, live)
	}
	if peak > 100 {
		t.Errorf("up to %d handles live during the loop, want a bounded few", peak)
	}
	if got := *data[int32](t, "abi_nfns"); got != fns {
		t.Errorf("C received %d new callback addresses in %d calls, want 0", got-fns, n)
	}
	t.Logf("%d one-shot callbacks, at most %d handles live at a sample", n, peak)
}

// TestCallbackConcurrent registers callbacks from several goroutines at once
// while C threads run earlier ones.
func TestCallbackConcurrent(t *testing.T) {
	need(t)
	live := ffiimpl.LiveHandles()
	var calls atomic.Int64
	var wg sync.WaitGroup
	const workers, per = 4, 200
	for w := range workers {
		wg.Go(func() {
			for i := range per {
				s := cu.Stream(w + 1)
				if i%2 == 0 {
					s = 0
				}
				if err := cu.LaunchHostFunc(s, func() { calls.Add(1) }); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	check(t, "CtxSynchronize", cu.CtxSynchronize())
	if calls.Load() != workers*per {
		t.Errorf("%d callbacks ran, want %d", calls.Load(), workers*per)
	}
	if got := ffiimpl.LiveHandles(); got != live {
		t.Errorf("LiveHandles() = %d, want %d", got, live)
	}
}

// TestZeroAllocs checks that successful calls with integers, pointers,
// out-parameters and structs by value, and repeated failures, do not
// allocate.
func TestZeroAllocs(t *testing.T) {
	need(t)
	var h cu.IpcMemHandle
	var rh cudart.IpcMemHandle
	loc := cu.MemLocation{Type: cu.MemLocationTypeDevice, Id: 1}
	m, v := cu.AbiMixed{I: 1, F: 2, D: 3}, cu.AbiFloat3{X: 1, Y: 2, Z: 3}
	pp := cudart.PitchedPtr{Pitch: 512}
	ext := cudart.Extent{Width: 1, Height: 2, Depth: 3}
	dim := cudart.Dim3{X: 1, Y: 1, Z: 1}
	for _, c := range []struct {
		name string
		f    func() error
	}{
		{"cu.AbiIntegers", func() error {
			return cu.AbiIntegers(-1, 2, -3, 4, -5, 6, -7, 8, 9, 10, -11, cu.AbiSignNegative, cu.MemLocationTypeHost)
		}},
		{"cu.AbiFloats", func() error {
			return cu.AbiFloats(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18)
		}},
		{"cu.DeviceGet", func() error { _, err := cu.DeviceGet(3); return err }},
		{"cu.CtxCreate", func() error { _, err := cu.CtxCreate(1, 2); return err }},
		{"cu.CtxSetCurrent", func() error { return cu.CtxSetCurrent(0x1234) }},
		{"cu.DeviceGetUuid", func() error { _, err := cu.DeviceGetUuid(1); return err }},
		{"cu.EventElapsedTime", func() error { _, err := cu.EventElapsedTime(1, 2); return err }},
		{"cu.IpcGetMemHandle", func() error { _, err := cu.IpcGetMemHandle(1); return err }},
		{"cu.IpcOpenMemHandle", func() error { _, err := cu.IpcOpenMemHandle(h, 1); return err }},
		{"cu.MemPrefetchAsync", func() error { return cu.MemPrefetchAsync(1, 2, loc, 0, 0) }},
		{"cu.AbiStructs", func() error { _, err := cu.AbiStructs(m, v, 1); return err }},
		{"cu.AbiPointers", func() error {
			return cu.AbiPointers(unsafe.Pointer(&g1), unsafe.Pointer(&gByte), &gSlots[0], &gCounter)
		}},
		{"cu.CtxSynchronize", func() error { return cu.CtxSynchronize() }},
		{"cudart.GetDeviceCount", func() error { _, err := cudart.GetDeviceCount(); return err }},
		{"cudart.SetDevice", func() error { return cudart.SetDevice(1) }},
		{"cudart.GetDeviceProperties", func() error { _, err := cudart.GetDeviceProperties(1); return err }},
		{"cudart.LaunchKernel", func() error {
			return cudart.LaunchKernel(cudart.Kernel(uintptr(unsafe.Pointer(&g1))), dim, dim, gArgs[:], 0, 0)
		}},
		{"cudart.Malloc3D", func() error { _, err := cudart.Malloc3D(ext); return err }},
		{"cudart.Memset3D", func() error { return cudart.Memset3D(pp, 0, ext) }},
		{"cudart.IpcOpenMemHandle", func() error { _, err := cudart.IpcOpenMemHandle(rh, 0); return err }},
		{"cudart.CreateChannelDesc", func() error { cudart.CreateChannelDesc(1, 2, 3, 4, 0); return nil }},
		{"cudart.AbiMakeDim3", func() error { cudart.AbiMakeDim3(1, 2, 3); return nil }},
		{"cudart.AbiScale", func() error { cudart.AbiScale(1, 2, 3); return nil }},
		{"cudart.AbiNegate", func() error { cudart.AbiNegate(1); return nil }},
		{"cudart.AbiRecord", func() error { cudart.AbiRecord(1); return nil }},
		{"failing cu.AbiFail", func() error { _ = cu.AbiFail(cu.ErrorInvalidValue); return nil }},
		{"failing cudart.SetDevice", func() error { _ = cudart.SetDevice(99); return nil }},
	} {
		if err := c.f(); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if n := testing.AllocsPerRun(200, func() { c.f() }); n != 0 {
			t.Errorf("%s: %v allocations per call, want 0", c.name, n)
		}
	}
}

func BenchmarkCall(b *testing.B) {
	need(b)
	b.Run("cu.DeviceGet", func(b *testing.B) {
		for b.Loop() {
			cu.DeviceGet(1)
		}
	})
	b.Run("cu.AbiIntegers", func(b *testing.B) {
		for b.Loop() {
			cu.AbiIntegers(-1, 2, -3, 4, -5, 6, -7, 8, 9, 10, -11, cu.AbiSignNegative, cu.MemLocationTypeHost)
		}
	})
	b.Run("cudart.LaunchKernel", func(b *testing.B) {
		dim := cudart.Dim3{X: 1, Y: 1, Z: 1}
		for b.Loop() {
			cudart.LaunchKernel(cudart.Kernel(uintptr(unsafe.Pointer(&g1))), dim, dim, gArgs[:], 0, 0)
		}
	})
	b.Run("cu.LaunchHostFunc", func(b *testing.B) {
		f := func() {}
		for b.Loop() {
			cu.LaunchHostFunc(0, f)
		}
	})
}

// TestAlignedOut: a struct output whose C alignment (64, like CUtensorMap)
// exceeds what Go gives a variable reaches C at a 64-byte aligned address
// (the fixture fails otherwise) and comes back intact, without allocating.
func TestAlignedOut(t *testing.T) {
	need(t)
	for seed := uint64(0); seed < 64; seed++ { // varied stack depths and offsets
		out, err := cu.AbiAlignedOut(seed)
		if err != nil {
			t.Fatalf("seed %d: %v (the fixture saw an unaligned pointer)", seed, err)
		}
		for i, w := range out.Words {
			if w != seed+uint64(i) {
				t.Fatalf("seed %d: words[%d] = %d", seed, i, w)
			}
		}
	}
	if n := testing.AllocsPerRun(100, func() { cu.AbiAlignedOut(7) }); n != 0 {
		t.Errorf("AbiAlignedOut: %v allocs, want 0", n)
	}
}

// TestRegisteredCallbacks: a callback registered until its unregister call
// runs every time C fires it, with C's arguments; unregistering releases
// its handle, so a thousand register/unregister rounds leave the table as
// it was.
func TestRegisteredCallbacks(t *testing.T) {
	need(t)
	before := ffiimpl.LiveHandles()
	var got []uint64
	h, err := cu.DeviceRegisterAsyncNotification(0, func(info *cu.AsyncNotificationInfo, cb cu.AsyncCallbackHandle) {
		got = append(got, info.BytesOverBudget)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []uint64{7, 1 << 40} {
		if err := cu.AbiFireAsync(b); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 2 || got[0] != 7 || got[1] != 1<<40 {
		t.Fatalf("the registered callback saw %v, want [7 %d]", got, uint64(1<<40))
	}
	if err := cu.DeviceUnregisterAsyncNotification(0, h); err != nil {
		t.Fatal(err)
	}
	cu.AbiFireAsync(9)
	if len(got) != 2 {
		t.Fatalf("an unregistered callback ran: %v", got)
	}
	for i := 0; i < 1000; i++ {
		h, err := cu.DeviceRegisterAsyncNotification(0, func(*cu.AsyncNotificationInfo, cu.AsyncCallbackHandle) {})
		if err != nil {
			t.Fatal(err)
		}
		if err := cu.DeviceUnregisterAsyncNotification(0, h); err != nil {
			t.Fatal(err)
		}
	}
	if n := ffiimpl.LiveHandles(); n != before {
		t.Fatalf("live handles %d after register/unregister rounds, want %d", n, before)
	}
}

// TestSynchronousCallback: a callback without userData that C calls during
// the call (cuOccupancyMaxPotentialBlockSize's shared-memory function) runs
// the Go func given to that call, also from several goroutines at once.
func TestSynchronousCallback(t *testing.T) {
	need(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				seen := 0
				sum, best, err := cu.OccupancyMaxPotentialBlockSize(0, func(block int32) uint64 {
					seen++
					return uint64(1000*g + 256 - int(block)) // least memory at 128 threads
				}, 0, 0)
				if err != nil {
					errs <- err
					return
				}
				if want := int32(3*(1000*g+256) - 32 - 64 - 128); seen != 3 || sum != want || best != 128 {
					errs <- fmt.Errorf("goroutine %d: calls %d, sum %d (want %d), best %d", g, seen, sum, want, best)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// alignedAt returns a *cu.AbiAligned at off bytes past a 64-byte boundary
// of a heap buffer, its words set to 1..16: a value where Go may leave one
// (Go aligns variables to at most 8, C's type to 64).
func alignedAt(off uintptr) *cu.AbiAligned {
	buf := make([]byte, 4*64)
	base := (64 - uintptr(unsafe.Pointer(&buf[0]))%64) % 64
	p := (*cu.AbiAligned)(unsafe.Pointer(&buf[base+off]))
	for i := range p.Words {
		p.Words[i] = uint64(i + 1)
	}
	return p
}

// TestAlignedValues: a parameter listed in AlignedValues reaches C at its C
// alignment wherever the Go value sits. A misaligned value is copied to an
// aligned buffer for the call and, unless const, back after it. Before
// ffiimpl.AlignedIn the fixture saw the misaligned pointers and refused
// them (a library's aligned loads would fault there).
func TestAlignedValues(t *testing.T) {
	need(t)
	if runtime.GOOS != "linux" {
		t.Skip("no readability probe on " + runtime.GOOS + " (ffi.Readable): a misaligned value passes to C as it is")
	}
	for off := uintptr(0); off < 64; off += 8 {
		p := alignedAt(off)
		if err := cu.AbiAlignedInOut(p, 100); err != nil {
			t.Fatalf("offset %d: AbiAlignedInOut: %v (the fixture saw an unaligned pointer)", off, err)
		}
		for i, w := range p.Words {
			if w != uint64(i+101) {
				t.Fatalf("offset %d: words[%d] = %d after the call, want %d (not copied back)", off, i, w, i+101)
			}
		}
		sum, err := cu.AbiAlignedIn(p)
		if err != nil {
			t.Fatalf("offset %d: AbiAlignedIn: %v", off, err)
		}
		if want := uint64(16*101 + 120); sum != want {
			t.Fatalf("offset %d: sum %d, want %d", off, sum, want)
		}
	}
	// A local variable, wherever the stack puts it.
	var local cu.AbiAligned
	local.Words[3] = 7
	if err := cu.AbiAlignedInOut(&local, 1); err != nil || local.Words[3] != 8 {
		t.Fatalf("a stack value: %v, words[3] = %d", err, local.Words[3])
	}
	p := alignedAt(8)
	if n := testing.AllocsPerRun(100, func() { cu.AbiAlignedIn(p) }); n != 0 {
		t.Errorf("AbiAlignedIn of a misaligned value: %v allocs, want 0", n)
	}
}
