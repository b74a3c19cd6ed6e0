package e2e13

import (
	"fmt"
	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/cudatest"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/generated/cuda13/cu"
	"github.com/cugen/cugen/generated/cuda13/cudart"
	"github.com/cugen/cugen/generated/cuda13/nvrtc"
)

// compile13 compiles cudatest.SaxpySource with NVRTC 13 for one option set.
func compile13(t *testing.T, option string, get func(nvrtc.Program) ([]byte, error)) []byte {
	t.Helper()
	prog, err := nvrtc.CreateProgram(cudatest.SaxpySource, new("saxpy.cu"), nil, nil)
	must(t, "nvrtcCreateProgram", err)
	defer nvrtc.DestroyProgram(&prog)
	must(t, "nvrtcCompileProgram", nvrtc.CompileProgram(prog, []string{option}))
	out, err := get(prog)
	must(t, "nvrtcGet", err)
	return out
}

// TestNVRTCKernelOnGPU13 compiles SAXPY with the toolkit's NVRTC 13 for
// the device, loads the PTX with cuModuleLoadData and the cubin with
// cudaLibraryLoadData, launches it through the driver and through the
// runtime (cudaLaunchKernel with the cudaKernel_t) and checks the results.
func TestNVRTCKernelOnGPU13(t *testing.T) {
	dev := device13(t)
	cugentest.NeedLibrary(t, nvrtc.SharedLibrary().Load())
	major, err := cu.DeviceGetAttribute(cu.DeviceAttributeComputeCapabilityMajor, dev)
	must(t, "cuDeviceGetAttribute", err)
	minor, err := cu.DeviceGetAttribute(cu.DeviceAttributeComputeCapabilityMinor, dev)
	must(t, "cuDeviceGetAttribute", err)
	arch := fmt.Sprintf("%d%d", major, minor)

	const n = 1 << 20
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(n-i)
	}
	dx, err := cudart.Malloc(4 * n)
	must(t, "cudaMalloc", err)
	defer cudart.Free(dx)
	dy, err := cudart.Malloc(4 * n)
	must(t, "cudaMalloc", err)
	defer cudart.Free(dy)
	a, count := float32(2), uint64(n)
	args := []unsafe.Pointer{unsafe.Pointer(&a), unsafe.Pointer(&dx), unsafe.Pointer(&dy), unsafe.Pointer(&count)}
	check := func(how string, launch func() error) {
		must(t, "cudaMemcpy", cudart.Memcpy(dx, unsafe.Pointer(&x[0]), 4*n, cudart.MemcpyHostToDevice))
		must(t, "cudaMemcpy", cudart.Memcpy(dy, unsafe.Pointer(&y[0]), 4*n, cudart.MemcpyHostToDevice))
		must(t, how, launch())
		got := make([]float32, n)
		must(t, "cudaMemcpy", cudart.Memcpy(unsafe.Pointer(&got[0]), dy, 4*n, cudart.MemcpyDeviceToHost))
		for i := range got {
			if want := 2*x[i] + y[i]; got[i] != want {
				t.Fatalf("%s: y[%d] = %v, want %v", how, i, got[i], want)
			}
		}
		t.Logf("%s: %d elements checked", how, n)
	}

	ptx := compile13(t, "--gpu-architecture=compute_"+arch, nvrtc.GetPTX)
	mod, err := cu.ModuleLoadData(unsafe.Pointer(&ptx[0]))
	must(t, "cuModuleLoadData", err)
	defer cu.ModuleUnload(mod)
	fn, err := cu.ModuleGetFunction(mod, "saxpy")
	must(t, "cuModuleGetFunction", err)
	check("PTX via cuModuleLoadData, cuLaunchKernel", func() error {
		return cu.LaunchKernel(fn, n/256, 1, 1, 256, 1, 1, 0, 0, args, nil)
	})

	cubin := compile13(t, "--gpu-architecture=sm_"+arch, nvrtc.GetCUBIN)
	lib, err := cudart.LibraryLoadData(unsafe.Pointer(&cubin[0]), nil, nil, 0, nil, nil, 0)
	must(t, "cudaLibraryLoadData", err)
	defer cudart.LibraryUnload(lib)
	kernel, err := cudart.LibraryGetKernel(lib, "saxpy")
	must(t, "cudaLibraryGetKernel", err)
	check("cubin via cudaLibraryLoadData, cudaLaunchKernel", func() error {
		if err := cudart.LaunchKernel(kernel, cudart.Dim1(n/256), cudart.Dim1(256), args, 0, 0); err != nil {
			return err
		}
		return cudart.DeviceSynchronize()
	})
	t.Logf("sm_%s: %d bytes of PTX, %d bytes of cubin", arch, len(ptx), len(cubin))
}
