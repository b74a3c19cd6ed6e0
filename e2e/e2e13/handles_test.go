// Package e2e13 holds the end-to-end tests that need the CUDA 13 packages
// (generated/cuda13) and a CUDA 13 runtime: what CUDA 12.4's runtime does
// not do. They skip without a GPU; docs/gpu.md has their H200 runs.
package e2e13

import (
	"errors"
	"runtime"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/cudatest"
	"github.com/cugen/cugen/generated/cuda13/cu"
	"github.com/cugen/cugen/generated/cuda13/cudart"
)

// TestLaunchHandles13: a CUkernel from cuLibraryGetKernel, converted to
// cudart.Kernel with no unsafe, is what the runtime's kernel functions take
// (cudaFuncGetAttributes, cudaFuncGetParamInfo, cudaOccupancy*,
// cudaLaunchKernel: CUDA 13 documents a cudaKernel_t there); cudart.Dim1
// launches it, and the Go literal Dim3{X: n} is the invalid {n, 0, 0} that
// Dim1 exists to avoid (refused by the runtime). Streams and device pointers cross from cu to cudart
// by plain conversion and Deviceptr.Pointer.
func TestLaunchHandles13(t *testing.T) {
	device13(t)

	src := append([]byte(cudatest.VecAddPTX), 0)
	lib, err := cu.LibraryLoadData(unsafe.Pointer(&src[0]), nil, nil, 0, nil, nil, 0)
	must(t, "cuLibraryLoadData", err)
	defer cu.LibraryUnload(lib)
	ck, err := cu.LibraryGetKernel(lib, "vadd")
	must(t, "cuLibraryGetKernel", err)
	k := cudart.Kernel(ck)

	attr, err := cudart.FuncGetAttributes(k)
	must(t, "cudaFuncGetAttributes(Kernel)", err)
	t.Logf("vadd: %d registers, max %d threads per block", attr.NumRegs, attr.MaxThreadsPerBlock)
	if off, size, err := cudart.FuncGetParamInfo(k, 3); err != nil || off != 24 || size != 4 {
		t.Errorf("cudaFuncGetParamInfo(Kernel, 3) = %d, %d, %v; want 24, 4", off, size, err)
	}
	const n, block = 1 << 16, 256
	if nb, err := cudart.OccupancyMaxActiveBlocksPerMultiprocessor(k, block, 0); err != nil || nb <= 0 {
		t.Errorf("cudaOccupancyMaxActiveBlocksPerMultiprocessor(Kernel) = %d, %v", nb, err)
	}

	a, b, c := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), float32(3*i)+0.25
	}
	bytes := uint64(n * 4)
	var d [3]cu.Deviceptr
	for i := range d {
		d[i], err = cu.MemAlloc(bytes)
		must(t, "cuMemAlloc", err)
		defer cu.MemFree(d[i])
	}
	must(t, "cuMemcpyHtoD", cu.MemcpyHtoD(d[0], unsafe.Pointer(&a[0]), bytes))
	must(t, "cuMemcpyHtoD", cu.MemcpyHtoD(d[1], unsafe.Pointer(&b[0]), bytes))
	stream, err := cu.StreamCreate(0)
	must(t, "cuStreamCreate", err)
	defer cu.StreamDestroy(stream)
	must(t, "cudaMemsetAsync(Deviceptr.Pointer())", cudart.MemsetAsync(d[2].Pointer(), 0, bytes, cudart.Stream(stream)))

	count := uint32(n)
	args := []unsafe.Pointer{unsafe.Pointer(&d[0]), unsafe.Pointer(&d[1]), unsafe.Pointer(&d[2]), unsafe.Pointer(&count)}
	err = cudart.LaunchKernel(k, cudart.Dim3{X: n / block}, cudart.Dim3{X: block}, args, 0, cudart.Stream(stream))
	// Runtime 13.0 answers cudaErrorInvalidValue, older ones
	// cudaErrorInvalidConfiguration: either way the launch is refused.
	if !errors.Is(err, cudart.ErrorInvalidValue) && !errors.Is(err, cudart.ErrorInvalidConfiguration) {
		t.Errorf("cudaLaunchKernel(Dim3{X: %d}) = %v, want it refused (Y and Z are 0)", n/block, err)
	}
	t.Logf("cudaLaunchKernel(Dim3{X: %d}, Dim3{X: %d}): %v", n/block, block, err)
	cudart.GetLastError() // the launch error stays in the runtime's last error
	must(t, "cudaLaunchKernel(Kernel, Dim1)", cudart.LaunchKernel(k, cudart.Dim1(n/block), cudart.Dim1(block), args, 0, cudart.Stream(stream)))
	must(t, "cuStreamSynchronize", cu.StreamSynchronize(stream))
	must(t, "cuMemcpyDtoH", cu.MemcpyDtoH(unsafe.Pointer(&c[0]), d[2], bytes))
	for i := range c {
		if c[i] != a[i]+b[i] {
			t.Fatalf("c[%d] = %v, want %v", i, c[i], a[i]+b[i])
		}
	}
	t.Logf("cudaLaunchKernel(cudart.Kernel(CUkernel), Dim1(%d), Dim1(%d)): %d sums right", n/block, block, n)
}

// device13 locks the test's goroutine to its OS thread and makes device
// 0's primary context current there until the test ends, or skips the
// test without a GPU or a CUDA 13 runtime.
func device13(t *testing.T) cu.Device {
	t.Helper()
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	cugentest.NeedDevice(t, cu.Init(0))
	v, err := cudart.RuntimeGetVersion()
	cugentest.NeedLibrary(t, err) // a CUDA 13 runtime (CUGEN_LIBCUDART=.../libcudart.so.13)
	if v < 13000 {
		t.Fatalf("cudaRuntimeGetVersion = %d from the cuda13 package's runtime", v)
	}
	dev, err := cu.DeviceGet(0)
	must(t, "cuDeviceGet", err)
	ctx, err := cu.DevicePrimaryCtxRetain(dev)
	must(t, "cuDevicePrimaryCtxRetain", err)
	t.Cleanup(func() { cu.DevicePrimaryCtxRelease(dev) })
	must(t, "cuCtxSetCurrent", cu.CtxSetCurrent(ctx))
	return dev
}

func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
