// Package e2e runs the generated packages end to end against real CUDA
// libraries: kernels JIT-compiled from PTX, memory copies, callbacks. Every
// test skips with its reason where there is no GPU (CI); the GPU runs are
// recorded in docs/gpu.md.
package e2e

import (
	"math"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/e2e/cudatest"
	"github.com/cugen/cugen/ffi/ffiimpl"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
)

// gpu12 makes device 0's primary context current on a locked thread.
func gpu12(t testing.TB) (cu.Device, func()) {
	t.Helper()
	return cudatest.Device0(t)
}

// loadPTX JIT-compiles the test's PTX and returns its functions.
func loadPTX(t testing.TB) (mod cu.Module, vadd, empty cu.Function) {
	t.Helper()
	mod, fns := cudatest.LoadPTX(t, cudatest.VecAddPTX, "vadd", "empty")
	return mod, fns[0], fns[1]
}

// TestVectorAdd12: PTX through cuModuleLoadData, cuMemAlloc, copies in,
// cuLaunchKernel, copies out, every element compared.
func TestVectorAdd12(t *testing.T) {
	dev, done := gpu12(t)
	defer done()
	name, err := cu.DeviceGetName(dev)
	if err != nil {
		t.Fatal(err)
	}
	drv, _ := cu.DriverGetVersion()
	t.Logf("device 0: %s, driver API version %d", name, drv)
	mod, vadd, _ := loadPTX(t)
	defer cu.ModuleUnload(mod)

	const n = 1 << 20
	a, b, c := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), float32(2*i)+0.5
	}
	bytes := uint64(n * 4)
	var dev3 [3]cu.Deviceptr
	for i := range dev3 {
		if dev3[i], err = cu.MemAlloc(bytes); err != nil {
			t.Fatal(err)
		}
		defer cu.MemFree(dev3[i])
	}
	if err := cu.MemcpyHtoD(dev3[0], unsafe.Pointer(&a[0]), bytes); err != nil {
		t.Fatal(err)
	}
	if err := cu.MemcpyHtoD(dev3[1], unsafe.Pointer(&b[0]), bytes); err != nil {
		t.Fatal(err)
	}
	count := uint32(n)
	args := []unsafe.Pointer{unsafe.Pointer(&dev3[0]), unsafe.Pointer(&dev3[1]), unsafe.Pointer(&dev3[2]), unsafe.Pointer(&count)}
	const block = 256
	if err := cu.LaunchKernel(vadd, (n+block-1)/block, 1, 1, block, 1, 1, 0, 0, args, nil); err != nil {
		t.Fatalf("cuLaunchKernel: %v", err)
	}
	if err := cu.CtxSynchronize(); err != nil {
		t.Fatal(err)
	}
	if err := cu.MemcpyDtoH(unsafe.Pointer(&c[0]), dev3[2], bytes); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i := range c {
		if c[i] != a[i]+b[i] {
			if bad < 5 {
				t.Errorf("c[%d] = %v, want %v", i, c[i], a[i]+b[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d elements wrong", bad, n)
	}
	t.Logf("vadd: %d elements, all equal to a+b", n)
}

// TestHostCallbacks12: cuLaunchHostFunc and cuStreamAddCallback run Go
// funcs on CUDA's callback thread through one static trampoline each.
func TestHostCallbacks12(t *testing.T) {
	_, done := gpu12(t)
	defer done()
	const calls = 3000 // more than purego's 2000 callbacks: one trampoline serves all
	got := make(chan int, calls)
	for i := 0; i < calls; i++ {
		i := i
		if err := cu.LaunchHostFunc(0, func() { got <- i }); err != nil {
			t.Fatal(err)
		}
	}
	status := make(chan cu.Result, 1)
	if err := cu.StreamAddCallback(0, func(_ cu.Stream, s cu.Result) { status <- s }, 0); err != nil {
		t.Fatal(err)
	}
	if err := cu.CtxSynchronize(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < calls; i++ {
		select {
		case v := <-got:
			if v != i {
				t.Fatalf("host function %d ran as %d-th: stream order broken", v, i)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of %d host functions ran", i, calls)
		}
	}
	if s := <-status; s != cu.Success {
		t.Fatalf("stream callback status %v", s)
	}
	t.Logf("%d host functions and 1 stream callback ran in order", calls)
}

// pinnedBuffers makes device 0 the runtime's current device and allocates
// size bytes of pinned host memory and of device memory; free releases
// both.
func pinnedBuffers(t testing.TB, size uint64) (host, dev unsafe.Pointer, free func()) {
	t.Helper()
	if err := cudart.SetDevice(0); err != nil {
		t.Fatal(err)
	}
	host, err := cudart.MallocHost(size)
	if err != nil {
		t.Fatal(err)
	}
	if dev, err = cudart.Malloc(size); err != nil {
		cudart.FreeHost(host)
		t.Fatal(err)
	}
	return host, dev, func() {
		cudart.Free(dev)
		cudart.FreeHost(host)
	}
}

// TestPinnedCopy12 copies 256 MB from pinned host memory to the device with
// cudaMemcpy and reports the bandwidth (best of 5).
func TestPinnedCopy12(t *testing.T) {
	_, done := gpu12(t)
	defer done()
	const size = 256 << 20
	host, devPtr, free := pinnedBuffers(t, size)
	defer free()
	hb := unsafe.Slice((*byte)(host), size)
	for i := range hb {
		hb[i] = byte(i * 7)
	}
	best := math.Inf(1)
	for i := 0; i < 6; i++ { // the first is a warm-up
		start := time.Now()
		if err := cudart.Memcpy(devPtr, host, size, cudart.MemcpyHostToDevice); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start).Seconds(); i > 0 && d < best {
			best = d
		}
	}
	back := make([]byte, 4096)
	if err := cudart.Memcpy(unsafe.Pointer(&back[0]), unsafe.Add(devPtr, size-4096), 4096, cudart.MemcpyDeviceToHost); err != nil {
		t.Fatal(err)
	}
	for i := range back {
		if back[i] != hb[size-4096+i] {
			t.Fatalf("byte %d differs after the round trip", size-4096+i)
		}
	}
	t.Logf("256 MB pinned host-to-device cudaMemcpy: %.1f GB/s (best of 5)", size/best/1e9)
}

// TestTensorMapEncode12: cuTensorMapEncodeTiled requires its CUtensorMap
// output 64-byte aligned; the generated wrapper hands the driver an aligned
// buffer (Go aligns variables to 8 at most) and copies the result out.
func TestTensorMapEncode12(t *testing.T) {
	_, done := gpu12(t)
	defer done()
	const rows, cols = 64, 64
	buf, err := cu.MemAlloc(rows * cols * 4)
	if err != nil {
		t.Fatal(err)
	}
	defer cu.MemFree(buf)
	dims := []uint64{cols, rows}
	strides := []uint64{cols * 4} // rank-1 strides, in bytes
	box := []uint32{16, 16}
	elem := []uint32{1, 1}
	tm, err := cu.TensorMapEncodeTiled(cu.TensorMapDataTypeFloat32, 2, *(*unsafe.Pointer)(unsafe.Pointer(&buf)), &dims[0], &strides[0], &box[0], &elem[0],
		cu.TensorMapInterleaveNone, cu.TensorMapSwizzleNone, cu.TensorMapL2PromotionNone, cu.TensorMapFloatOobFillNone)
	if err != nil {
		t.Fatalf("cuTensorMapEncodeTiled: %v", err)
	}
	nonzero := 0
	for _, w := range tm.Opaque {
		if w != 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Fatal("the encoded tensor map is all zero")
	}
	t.Logf("cuTensorMapEncodeTiled: 64x64 float32, 16x16 box: %d of %d words set", nonzero, len(tm.Opaque))
}

// TestCallbackKinds12: the other callback kinds against the real driver: a
// synchronous callback (cuOccupancyMaxPotentialBlockSize asks a Go func for
// the shared memory of each block size it considers) and a registered one
// (cuDeviceRegisterAsyncNotification, then its unregister call, which
// releases the Go func's handle).
func TestCallbackKinds12(t *testing.T) {
	dev, done := gpu12(t)
	defer done()
	mod, vadd, _ := loadPTX(t)
	defer cu.ModuleUnload(mod)
	asked := map[int32]bool{}
	minGrid, block, err := cu.OccupancyMaxPotentialBlockSize(vadd, func(blockSize int32) uint64 {
		asked[blockSize] = true
		return uint64(blockSize) * 16 // 16 bytes of shared memory per thread
	}, 0, 0)
	if err != nil {
		t.Fatalf("cuOccupancyMaxPotentialBlockSize: %v", err)
	}
	if len(asked) == 0 || block <= 0 || minGrid <= 0 {
		t.Fatalf("occupancy: grid %d, block %d, the Go func was asked %d block sizes", minGrid, block, len(asked))
	}
	t.Logf("cuOccupancyMaxPotentialBlockSize: min grid %d, block %d; the Go callback was asked %d block sizes", minGrid, block, len(asked))
	before := ffiimpl.LiveHandles()
	h, err := cu.DeviceRegisterAsyncNotification(dev, func(*cu.AsyncNotificationInfo, cu.AsyncCallbackHandle) {})
	if err != nil {
		t.Fatalf("cuDeviceRegisterAsyncNotification: %v", err)
	}
	if ffiimpl.LiveHandles() != before+1 {
		t.Fatalf("registration holds %d handles, want 1", ffiimpl.LiveHandles()-before)
	}
	if err := cu.DeviceUnregisterAsyncNotification(dev, h); err != nil {
		t.Fatalf("cuDeviceUnregisterAsyncNotification: %v", err)
	}
	if ffiimpl.LiveHandles() != before {
		t.Fatalf("unregistering left %d handles", ffiimpl.LiveHandles()-before)
	}
	t.Log("cuDeviceRegisterAsyncNotification / Unregister: the Go func's handle lived exactly as long as the registration")
}
