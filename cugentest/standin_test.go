package cugentest_test

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	cuda "github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys"
	syscu "github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/generated/cuda12/cu"
)

// TestStandinContextDemo runs the context demo's driver calls through the
// generated cu package against the stand-in driver (testdata/cudastandin.c,
// memory in host RAM), in a fresh process: before cuInit every call is
// CUDA_ERROR_NOT_INITIALIZED; then the device, a context of one's own and
// the primary context, each thread's own current context, memory copied
// there and back, and the driver's refusals as typed errors with the
// driver's text (CUDA_ERROR_INVALID_CONTEXT on a thread with no context or
// a destroyed one, CUDA_ERROR_INVALID_DEVICE, CUDA_ERROR_INVALID_VALUE).
// make test-windows runs it under wine with the stand-in built as
// nvcuda.dll and found by the Windows search, beside the test binary.
func TestStandinContextDemo(t *testing.T) {
	env := cugentest.StandinDriver(t)
	if !cugentest.IsChild(t) {
		cugentest.RunChild(t, env...)
		return
	}
	runtime.LockOSThread() // the current context belongs to this OS thread
	defer runtime.UnlockOSThread()
	cugentest.NeedStandin(t, cu.SharedLibrary())

	wantErr := func(what string, err, want error, text string) {
		t.Helper()
		t.Logf("%s: %v", what, err)
		if !errors.Is(err, want) {
			t.Fatalf("%s = %v, want %v", what, err, want)
		}
		if err.Error() != text {
			t.Fatalf("%s error text %q, want %q", what, err.Error(), text)
		}
	}
	ctx, err := cu.CtxGetCurrent()
	if ctx != 0 {
		t.Fatalf("cuCtxGetCurrent before cuInit = %#x", ctx)
	}
	wantErr("cuCtxGetCurrent before cuInit", err, cu.ErrorNotInitialized, "cuCtxGetCurrent: CUDA_ERROR_NOT_INITIALIZED: initialization error")
	if err := cu.Init(0); err != nil {
		t.Fatal(err)
	}
	if v, err := cu.DriverGetVersion(); err != nil || v != 12040 {
		t.Fatalf("cuDriverGetVersion = %d, %v; want 12040", v, err)
	}
	if n, err := cu.DeviceGetCount(); err != nil || n != 1 {
		t.Fatalf("cuDeviceGetCount = %d, %v; want 1", n, err)
	}
	dev, err := cu.DeviceGet(0)
	if err != nil {
		t.Fatal(err)
	}
	if name, err := cu.DeviceGetName(dev); err != nil || name != "cugen stand-in GPU" {
		t.Fatalf("cuDeviceGetName = %q, %v", name, err)
	}
	_, err = cu.DeviceGet(1)
	wantErr("cuDeviceGet(1)", err, cu.ErrorInvalidDevice, "cuDeviceGet: CUDA_ERROR_INVALID_DEVICE: invalid device ordinal")
	if ctx, err := cu.CtxGetCurrent(); err != nil || ctx != 0 {
		t.Fatalf("cuCtxGetCurrent after cuInit = %#x, %v; want no context", ctx, err)
	}
	_, err = cu.MemAlloc(64)
	wantErr("cuMemAlloc with no context", err, cu.ErrorInvalidContext, "cuMemAlloc: CUDA_ERROR_INVALID_CONTEXT: invalid device context")

	// A context of one's own is current on this thread only.
	mine, err := cu.CtxCreate(0, dev)
	if err != nil {
		t.Fatal(err)
	}
	if cur, err := cu.CtxGetCurrent(); err != nil || cur != mine {
		t.Fatalf("cuCtxGetCurrent after cuCtxCreate = %#x, %v; want %#x", cur, err, mine)
	}
	free0, total, err := cu.MemGetInfo()
	if err != nil || total != 1<<30 || free0 != total {
		t.Fatalf("cuMemGetInfo = %d, %d, %v; want all of 1 GiB free", free0, total, err)
	}
	src := []int32{1, -2, 3 << 20, -4 << 24, 5, 6, 7, 1<<31 - 1}
	bytes := uint64(len(src)) * 4
	p, err := cu.MemAlloc(bytes)
	if err != nil {
		t.Fatal(err)
	}
	if free, _, err := cu.MemGetInfo(); err != nil || free != free0-bytes {
		t.Fatalf("cuMemGetInfo after cuMemAlloc(%d): free %d, %v; want %d", bytes, free, err, free0-bytes)
	}
	if err := cu.MemcpyHtoD(p, unsafe.Pointer(&src[0]), bytes); err != nil {
		t.Fatal(err)
	}
	got := make([]int32, len(src))
	if err := cu.MemcpyDtoH(unsafe.Pointer(&got[0]), p, bytes); err != nil {
		t.Fatal(err)
	}
	t.Logf("copied there and back: %v", got)
	if !slices.Equal(got, src) {
		t.Fatalf("cuMemcpyHtoD then cuMemcpyDtoH: %v, want %v", got, src)
	}
	err = cu.MemcpyDtoH(unsafe.Pointer(&got[0]), p+4, bytes)
	wantErr("cuMemcpyDtoH past the allocation", err, cu.ErrorInvalidValue, "cuMemcpyDtoH: CUDA_ERROR_INVALID_VALUE: invalid argument")

	// Another OS thread has no current context until it sets one.
	type result struct {
		before      cu.Context
		allocErr    error
		after       cu.Context
		copied      []int32
		setErr, err error
	}
	done := make(chan result)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var r result
		r.before, r.err = cu.CtxGetCurrent()
		_, r.allocErr = cu.MemAlloc(16)
		if r.err == nil {
			r.setErr = cu.CtxSetCurrent(mine)
			r.after, r.err = cu.CtxGetCurrent()
			r.copied = make([]int32, len(src))
			if r.err == nil {
				r.err = cu.MemcpyDtoH(unsafe.Pointer(&r.copied[0]), p, bytes)
			}
		}
		done <- r
	}()
	r := <-done
	t.Logf("other thread: before %#x, cuMemAlloc %v, after cuCtxSetCurrent %#x (%v), copied %v, %v", r.before, r.allocErr, r.after, r.setErr, r.copied, r.err)
	if r.before != 0 || r.err != nil || r.setErr != nil || r.after != mine || !slices.Equal(r.copied, src) {
		t.Fatalf("another thread: before %#x, after %#x (%v, %v), copied %v; want no context, then %#x and the values", r.before, r.after, r.setErr, r.err, r.copied, mine)
	}
	wantErr("cuMemAlloc on a thread with no context", r.allocErr, cu.ErrorInvalidContext, "cuMemAlloc: CUDA_ERROR_INVALID_CONTEXT: invalid device context")

	// The primary context is another context, counted.
	primary, err := cu.DevicePrimaryCtxRetain(dev)
	if err != nil {
		t.Fatal(err)
	}
	if primary == mine || primary == 0 {
		t.Fatalf("primary context %#x, own context %#x", primary, mine)
	}
	if _, active, err := cu.DevicePrimaryCtxGetState(dev); err != nil || active != 1 {
		t.Fatalf("cuDevicePrimaryCtxGetState after retain: active %d, %v", active, err)
	}

	// Destroying the context pops it and frees its memory; it is then an
	// invalid context.
	if err := cu.CtxDestroy(mine); err != nil {
		t.Fatal(err)
	}
	if cur, err := cu.CtxGetCurrent(); err != nil || cur != 0 {
		t.Fatalf("cuCtxGetCurrent after cuCtxDestroy = %#x, %v; want none", cur, err)
	}
	wantErr("cuCtxSetCurrent of a destroyed context", cu.CtxSetCurrent(mine), cu.ErrorInvalidContext, "cuCtxSetCurrent: CUDA_ERROR_INVALID_CONTEXT: invalid device context")
	wantErr("cuCtxDestroy twice", cu.CtxDestroy(mine), cu.ErrorInvalidContext, "cuCtxDestroy: CUDA_ERROR_INVALID_CONTEXT: invalid device context")
	if err := cu.CtxSetCurrent(primary); err != nil {
		t.Fatal(err)
	}
	if free, _, err := cu.MemGetInfo(); err != nil || free != free0 {
		t.Fatalf("cuMemGetInfo after cuCtxDestroy: free %d, %v; want %d (the context's memory freed)", free, err, free0)
	}
	wantErr("cuMemFree of the destroyed context's memory", cu.MemFree(p), cu.ErrorInvalidValue, "cuMemFree: CUDA_ERROR_INVALID_VALUE: invalid argument")
	if err := cu.DevicePrimaryCtxRelease(dev); err != nil {
		t.Fatal(err)
	}
	if _, active, err := cu.DevicePrimaryCtxGetState(dev); err != nil || active != 0 {
		t.Fatalf("cuDevicePrimaryCtxGetState after release: active %d, %v", active, err)
	}
	err = cu.CtxSynchronize()
	wantErr("cuCtxSynchronize in the released primary context", err, cu.ErrorInvalidContext, "cuCtxSynchronize: CUDA_ERROR_INVALID_CONTEXT: invalid device context")
}

// TestStandinLayer runs the layer's (package cuda) devices, contexts and memory through
// the generated cu package, not the fake driver, against the stand-in
// driver (cugentest/testdata/cudastandin.c: memory in host RAM), in a
// fresh process: values copied there and back, filled and copied between
// buffers; the free memory the driver counts; the primary context made
// current where the layer runs a call, rebound when other code took it
// off the thread behind the layer's back (the call is refused with
// CUDA_ERROR_INVALID_CONTEXT and runs again), and released once the
// context and every buffer made from it are closed; typed errors. make
// test-windows runs it under wine, the stand-in being nvcuda.dll. The
// stand-in reports CUDA 12.4: with -tags cuda12 the API runs on it; in a
// build for CUDA 13 (no tag) its first call is refused, naming the tag.
func TestStandinLayer(t *testing.T) {
	env := cugentest.StandinDriver(t)
	if !cugentest.IsChild(t) {
		cugentest.RunChild(t, env...)
		return
	}
	cugentest.NeedStandin(t, syscu.SharedLibrary())

	// The stand-in is a CUDA 12.4 driver: a build for CUDA 13 (no tag)
	// fails at its first call, naming the tag to build with.
	if sys.Major > 12 {
		_, err := cuda.DeviceCount()
		want := "built for CUDA 13 (no cuda tag); this driver supports CUDA 12.4: build with -tags cuda12"
		if !errors.Is(err, cuda.ErrWrongMajor) || !strings.Contains(err.Error(), want) {
			t.Fatalf("DeviceCount on a CUDA 12.4 driver in a CUDA %d build: %v; want an error saying %q", sys.Major, err, want)
		}
		if _, err := cuda.NewContext(0); !errors.Is(err, cuda.ErrWrongMajor) {
			t.Fatalf("NewContext after it: %v, want the same refusal", err)
		}
		return
	}

	if n, err := cuda.DeviceCount(); err != nil || n != 1 {
		t.Fatalf("DeviceCount = %d, %v; want 1", n, err)
	}
	d, err := cuda.GetDevice(0)
	if err != nil {
		t.Fatal(err)
	}
	name, err := d.Name()
	major, minor, cerr := d.ComputeCapability()
	mem, merr := d.TotalMem()
	t.Logf("device 0: %q, compute capability %d.%d, %d bytes", name, major, minor, mem)
	if err != nil || cerr != nil || merr != nil || name != "cugen stand-in GPU" || major != 9 || minor != 0 || mem != 1<<30 {
		t.Fatalf("device 0: %q %v, %d.%d %v, %d %v", name, err, major, minor, cerr, mem, merr)
	}
	if _, err := cuda.GetDevice(1); !errors.Is(err, syscu.ErrorInvalidDevice) {
		t.Fatalf("GetDevice(1) = %v, want CUDA_ERROR_INVALID_DEVICE", err)
	}

	c, err := cuda.NewContext(0)
	if err != nil {
		t.Fatal(err)
	}
	free0, total, err := c.MemInfo()
	if err != nil || total != 1<<30 {
		t.Fatalf("MemInfo = %d, %d, %v", free0, total, err)
	}
	src := []float64{1.5, -2.25, 3e300, math.Inf(-1), 5, 6, 7}
	b, err := cuda.AllocFrom(c, src)
	if err != nil {
		t.Fatal(err)
	}
	if free, _, err := c.MemInfo(); err != nil || free != free0-b.Bytes() {
		t.Fatalf("MemInfo after allocating %d bytes: free %d, %v; want %d", b.Bytes(), free, err, free0-b.Bytes())
	}
	got := make([]float64, len(src))
	if err := b.CopyTo(got); err != nil || !slices.Equal(got, src) {
		t.Fatalf("AllocFrom then CopyTo: %v, %v; want %v", got, err, src)
	}
	b2, err := cuda.Alloc[float64](c, len(src))
	if err != nil {
		t.Fatal(err)
	}
	clear(got)
	if err := b2.CopyFromBuffer(b); err != nil {
		t.Fatal(err)
	}
	if err := b2.CopyTo(got); err != nil || !slices.Equal(got, src) {
		t.Fatalf("CopyFromBuffer then CopyTo: %v, %v; want %v", got, err, src)
	}
	w, err := cuda.Alloc[uint32](c, 5)
	if err != nil {
		t.Fatal(err)
	}
	words := make([]uint32, 5)
	if err := w.Fill(0xdeadbeef); err != nil {
		t.Fatal(err)
	}
	if err := w.CopyTo(words); err != nil || slices.ContainsFunc(words, func(v uint32) bool { return v != 0xdeadbeef }) {
		t.Fatalf("Fill(0xdeadbeef) then CopyTo: %#x, %v", words, err)
	}
	t.Logf("copied %v there and back, filled %#x", got, words)

	// The layer's call runs with the context current on its thread.
	primary := c.Raw()
	if err := c.Do(func() error {
		cur, err := syscu.CtxGetCurrent()
		if err == nil && cur != primary {
			t.Errorf("current context in Do: %#x, want the primary context %#x", cur, primary)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}

	// Other code takes the context off the thread where the layer
	// remembers it current: the call is refused, and runs again bound.
	runtime.LockOSThread()
	clear(got)
	if err := b.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	if err := syscu.CtxSetCurrent(0); err != nil {
		t.Fatal(err)
	}
	if cur, err := syscu.CtxGetCurrent(); err != nil || cur != 0 {
		t.Fatalf("after cuCtxSetCurrent(NULL): %#x, %v", cur, err)
	}
	clear(got)
	if err := b.CopyTo(got); err != nil || !slices.Equal(got, src) {
		t.Fatalf("CopyTo after the context was taken off the thread: %v, %v; want %v", got, err, src)
	}
	if cur, err := syscu.CtxGetCurrent(); err != nil || cur != primary {
		t.Fatalf("after the call: current %#x, %v; want the primary context %#x again", cur, err, primary)
	}
	runtime.UnlockOSThread()

	// Misuse is refused before the driver is called.
	if err := b2.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b2.Close(); !errors.Is(err, cuda.ErrFreed) {
		t.Fatalf("second Close = %v, want ErrFreed", err)
	}
	if err := b2.CopyTo(got); !errors.Is(err, cuda.ErrFreed) {
		t.Fatalf("CopyTo after Close = %v, want ErrFreed", err)
	}
	if err := b.CopyTo(got[:2]); err == nil {
		t.Fatal("CopyTo into 2 elements of 7: no error")
	}

	// The context is released once every buffer made from it is closed.
	active := func() int32 {
		t.Helper()
		_, a, err := syscu.DevicePrimaryCtxGetState(d.Raw())
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.MemInfo(); !errors.Is(err, cuda.ErrClosed) {
		t.Fatalf("MemInfo after Close = %v, want ErrClosed", err)
	}
	if active() != 1 {
		t.Fatal("the primary context was released while buffers made from it are open")
	}
	if err := w.CopyTo(words); err != nil {
		t.Fatalf("a buffer after its context's Close: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if active() != 0 {
		t.Fatal("the primary context is still retained after the context and its buffers were closed")
	}

	// With no context current, the driver's refusal is a typed error.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := syscu.CtxSetCurrent(0); err != nil {
		t.Fatal(err)
	}
	_, err = syscu.MemAlloc(8)
	if !errors.Is(err, syscu.ErrorInvalidContext) || err.Error() != "cuMemAlloc: CUDA_ERROR_INVALID_CONTEXT: invalid device context" {
		t.Fatalf("cuMemAlloc with no context = %v, want CUDA_ERROR_INVALID_CONTEXT", err)
	}
}
