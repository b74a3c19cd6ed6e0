package e2e

import (
	"fmt"
	"github.com/cugen/cugen/e2e/cudatest"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/nvrtc"
)

// TestNVRTCKernelOnGPU12 compiles SAXPY from a Go string with NVRTC for
// the device's architecture, loads it as PTX (cuModuleLoadData) and as a
// cubin (cuLibraryLoadData, context-independent), launches it both ways
// and checks every element.
func TestNVRTCKernelOnGPU12(t *testing.T) {
	dev, done := gpu12(t)
	defer done()
	needNVRTC(t)
	major, err := cu.DeviceGetAttribute(cu.DeviceAttributeComputeCapabilityMajor, dev)
	if err != nil {
		t.Fatal(err)
	}
	minor, err := cu.DeviceGetAttribute(cu.DeviceAttributeComputeCapabilityMinor, dev)
	if err != nil {
		t.Fatal(err)
	}
	arch := fmt.Sprintf("%d%d", major, minor)

	ptxProg := compile(t, cudatest.SaxpySource, "--gpu-architecture=compute_"+arch)
	ptx, err := nvrtc.GetPTX(ptxProg) // NUL-terminated, as cuModuleLoadData wants
	if err != nil {
		t.Fatal(err)
	}
	mod, err := cu.ModuleLoadData(unsafe.Pointer(&ptx[0]))
	if err != nil {
		t.Fatal(err)
	}
	defer cu.ModuleUnload(mod)
	fromPTX, err := cu.ModuleGetFunction(mod, "saxpy")
	if err != nil {
		t.Fatal(err)
	}
	runSAXPY12(t, "PTX via cuModuleLoadData", fromPTX)

	cubinProg := compile(t, cudatest.SaxpySource, "--gpu-architecture=sm_"+arch)
	cubin, err := nvrtc.GetCUBIN(cubinProg)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := cu.LibraryLoadData(unsafe.Pointer(&cubin[0]), nil, nil, 0, nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer cu.LibraryUnload(lib)
	kernel, err := cu.LibraryGetKernel(lib, "saxpy")
	if err != nil {
		t.Fatal(err)
	}
	fromCubin, err := cu.KernelGetFunction(kernel)
	if err != nil {
		t.Fatal(err)
	}
	runSAXPY12(t, "cubin via cuLibraryLoadData", fromCubin)
	t.Logf("sm_%s: %d bytes of PTX, %d bytes of cubin", arch, len(ptx), len(cubin))
}

// runSAXPY12 launches saxpy(2, x, y, n) over 1<<20 elements and checks y.
func runSAXPY12(t *testing.T, how string, fn cu.Function) {
	t.Helper()
	const n = 1 << 20
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(n-i)
	}
	dx, err := cu.MemAlloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	defer cu.MemFree(dx)
	dy, err := cu.MemAlloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	defer cu.MemFree(dy)
	if err := cu.MemcpyHtoD(dx, unsafe.Pointer(&x[0]), 4*n); err != nil {
		t.Fatal(err)
	}
	if err := cu.MemcpyHtoD(dy, unsafe.Pointer(&y[0]), 4*n); err != nil {
		t.Fatal(err)
	}
	a, count := float32(2), uint64(n)
	args := []unsafe.Pointer{unsafe.Pointer(&a), unsafe.Pointer(&dx), unsafe.Pointer(&dy), unsafe.Pointer(&count)}
	if err := cu.LaunchKernel(fn, n/256, 1, 1, 256, 1, 1, 0, 0, args, nil); err != nil {
		t.Fatal(err)
	}
	if err := cu.MemcpyDtoH(unsafe.Pointer(&y[0]), dy, 4*n); err != nil {
		t.Fatal(err)
	}
	for i := range y {
		if want := 2*float32(i) + float32(n-i); y[i] != want {
			t.Fatalf("%s: y[%d] = %v, want %v", how, i, y[i], want)
		}
	}
	t.Logf("%s: %d elements checked", how, n)
}
