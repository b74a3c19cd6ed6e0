package e2e13

// The CUDA 13 twins of e2e's tests of cuBLASXt, cuFFTXt, nvJPEG, nvFatbin
// and NVVM (e2e/*_test.go, CUDA 12): the generated/cuda13 packages against
// the toolkit's libraries (libcublas.so.13, libcufft.so.12,
// libnvjpeg.so.13, libnvfatbin.so.13, nvvm/lib64/libnvvm.so.4). They skip
// without a GPU or the library.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/internal/twin"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda13/cu"
	"github.com/cugen/cugen/generated/cuda13/cublas"
	"github.com/cugen/cugen/generated/cuda13/cublasxt"
	"github.com/cugen/cugen/generated/cuda13/cudart"
	"github.com/cugen/cugen/generated/cuda13/cufftxt"
	"github.com/cugen/cugen/generated/cuda13/nvfatbin"
	"github.com/cugen/cugen/generated/cuda13/nvjpeg"
	"github.com/cugen/cugen/generated/cuda13/nvrtc"
	"github.com/cugen/cugen/generated/cuda13/nvvm"
)

// TestCuBLASXtSgemm13 (GPU): cuBLASXt of CUDA 13 (in libcublas.so.13)
// selects device 0 and multiplies host matrices (column-major, 96x80 by
// 80x64) tiled on it; every element of C equals Go's float64 product
// within float32 rounding.
func TestCuBLASXtSgemm13(t *testing.T) {
	device13(t)
	cugentest.NeedLibrary(t, cublasxt.SharedLibrary().Load())
	h, err := cublasxt.Create()
	must(t, "cublasXtCreate", err)
	defer func() { must(t, "cublasXtDestroy", cublasxt.Destroy(h)) }()
	dev := int32(0)
	must(t, "cublasXtDeviceSelect", cublasxt.DeviceSelect(h, 1, &dev))
	must(t, "cublasXtSetBlockDim", cublasxt.SetBlockDim(h, 32)) // several tiles
	const m, k, n = 96, 80, 64
	a, b, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
	for i := range a {
		a[i] = float32(i%7) - 3
	}
	for i := range b {
		b[i] = float32(i%5)*0.5 - 1
	}
	alpha, beta := float32(1), float32(0)
	must(t, "cublasXtSgemm", cublasxt.Sgemm(h, cublas.OpN, cublas.OpN, m, n, k, &alpha, ffi.Host(&a[0]), m, ffi.Host(&b[0]), k, &beta, ffi.Host(&c[0]), m))
	worst := 0.0
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			want := 0.0
			for l := 0; l < k; l++ {
				want += float64(a[i+l*m]) * float64(b[l+j*k])
			}
			if d := math.Abs(float64(c[i+j*m]) - want); d > worst {
				worst = d
			}
		}
	}
	if worst > 1e-3 {
		t.Fatalf("C differs from the Go product by up to %g", worst)
	}
	t.Logf("cublasXtSgemm %dx%dx%d on device 0, block 32: largest difference %g", m, n, k, worst)
}

// TestCuFFTXtInvalidPlan13: cuFFTXt of CUDA 13 (in libcufft.so.12)
// refuses a plan handle cuFFT never made with CUFFT_INVALID_PLAN.
func TestCuFFTXtInvalidPlan13(t *testing.T) {
	cugentest.NeedLibrary(t, cufftxt.SharedLibrary().Load())
	gpus := []int32{0, 1}
	err := cufftxt.SetGPUs(12345, int32(len(gpus)), &gpus[0])
	var ce *ffi.CallError
	if !errors.As(err, &ce) || !errors.Is(err, cufftxt.InvalidPlan) {
		t.Fatalf("SetGPUs(a plan never made) = %v (%T), want CUFFT_INVALID_PLAN", err, err)
	}
	t.Logf("%v", err)
}

// TestNVJPEGHandle13 (GPU): libnvjpeg.so.13 reports the version of the
// header the package was generated from, and nvjpegCreateSimple makes a
// handle on the device.
func TestNVJPEGHandle13(t *testing.T) {
	device13(t)
	cugentest.NeedLibrary(t, nvjpeg.SharedLibrary().Load())
	major, err := nvjpeg.GetProperty(cudart.MajorVersion)
	if err != nil || major != nvjpeg.VerMajor {
		t.Fatalf("GetProperty(MAJOR_VERSION) = %d, %v; want NVJPEG_VER_MAJOR %d", major, err, nvjpeg.VerMajor)
	}
	minor, err := nvjpeg.GetProperty(cudart.MinorVersion)
	if err != nil || minor != nvjpeg.VerMinor {
		t.Errorf("GetProperty(MINOR_VERSION) = %d, %v; want NVJPEG_VER_MINOR %d", minor, err, nvjpeg.VerMinor)
	}
	h, err := nvjpeg.CreateSimple()
	must(t, "nvjpegCreateSimple", err)
	must(t, "nvjpegDestroy", nvjpeg.Destroy(h))
	t.Logf("nvJPEG %d.%d: a handle created and destroyed", major, minor)
}

// TestNVFatbinTwoArchs13: libnvfatbin.so.13 puts the cubins of sm_90 and
// sm_100 (compiled by NVRTC 13) into one fat binary holding two ELF
// entries, each the cubin given; a cubin added for the wrong architecture
// is refused with NVFATBIN_ERROR_ELF_ARCH_MISMATCH.
func TestNVFatbinTwoArchs13(t *testing.T) {
	cugentest.NeedLibrary(t, nvfatbin.SharedLibrary().Load())
	cugentest.NeedLibrary(t, nvrtc.SharedLibrary().Load())
	major, minor, err := nvfatbin.Version()
	if err != nil || major != 13 {
		t.Fatalf("nvfatbin.Version() = %d.%d, %v; want 13.x", major, minor, err)
	}
	h, err := nvfatbin.Create(nil)
	must(t, "nvFatbinCreate", err)
	defer func() { must(t, "nvFatbinDestroy", nvfatbin.Destroy(&h)) }()
	cubins := map[int][]byte{}
	for _, arch := range []int{90, 100} {
		c := compile13(t, fmt.Sprintf("--gpu-architecture=sm_%d", arch), nvrtc.GetCUBIN)
		cubins[arch] = c
		must(t, fmt.Sprintf("nvFatbinAddCubin(sm_%d)", arch), nvfatbin.AddCubin(h, unsafe.Pointer(&c[0]), uint64(len(c)), fmt.Sprint(arch), fmt.Sprintf("saxpy_sm%d", arch)))
	}
	c := cubins[90]
	err = nvfatbin.AddCubin(h, unsafe.Pointer(&c[0]), uint64(len(c)), "100", "wrong")
	if !errors.Is(err, nvfatbin.ErrorElfArchMismatch) {
		t.Errorf("AddCubin(sm_90 cubin as 100) = %v, want NVFATBIN_ERROR_ELF_ARCH_MISMATCH", err)
	}
	size, err := nvfatbin.Size(h)
	must(t, "nvFatbinSize", err)
	fat, err := nvfatbin.Get(h)
	if err != nil || uint64(len(fat)) != size {
		t.Fatalf("len(Get) = %d, Size = %d, %v", len(fat), size, err)
	}
	// The fatbin layout cuobjdump reads (e2e's parseFatbin): a 16-byte
	// header, then entries (kind 2 ELF, architecture at offset 28).
	le := binary.LittleEndian
	if len(fat) < 16 || le.Uint32(fat) != 0xBA55ED50 {
		t.Fatalf("no fatbin magic: % x", fat[:min(len(fat), 16)])
	}
	rest := fat[16 : 16+le.Uint64(fat[8:])]
	var archs []int
	for len(rest) >= 32 {
		eh, payload := uint64(le.Uint32(rest[4:])), le.Uint64(rest[8:])
		if eh < 32 || eh+payload > uint64(len(rest)) {
			t.Fatalf("entry header %d + payload %d bytes, %d left", eh, payload, len(rest))
		}
		arch := int(le.Uint32(rest[28:]))
		archs = append(archs, arch)
		if le.Uint16(rest) != 2 || !bytes.Equal(rest[eh:eh+payload], cubins[arch]) {
			t.Errorf("entry for sm_%d: kind %d, not the %d-byte cubin given", arch, le.Uint16(rest), len(cubins[arch]))
		}
		rest = rest[eh+payload:]
	}
	if slices.Sort(archs); !slices.Equal(archs, []int{90, 100}) {
		t.Errorf("fatbin entries for architectures %v, want [90 100]", archs)
	}
	t.Logf("nvFatbin %d.%d: %d-byte fatbin of cubins of %d and %d bytes", major, minor, len(fat), len(cubins[90]), len(cubins[100]))
}

// TestNVVMKernelOnGPU13 (GPU): CUDA 13's libNVVM (nvvm/lib64) compiles the
// NVVM IR kernel to PTX for the device; it loads and scales 256 floats by
// 3 in place, every element checked. IR that does not parse fails with
// NVVM's typed error carrying the program log.
func TestNVVMKernelOnGPU13(t *testing.T) {
	dev := device13(t)
	cugentest.NeedLibrary(t, nvvm.SharedLibrary().Load())
	vmaj, vmin, err := nvvm.Version()
	must(t, "nvvmVersion", err)
	irMajor, irMinor, _, _, err := nvvm.IRVersion()
	must(t, "nvvmIRVersion", err)
	major, err := cu.DeviceGetAttribute(cu.DeviceAttributeComputeCapabilityMajor, dev)
	must(t, "cuDeviceGetAttribute", err)
	minor, err := cu.DeviceGetAttribute(cu.DeviceAttributeComputeCapabilityMinor, dev)
	must(t, "cuDeviceGetAttribute", err)

	broken := nvvmProgram(t, "define void @broken( {\n")
	err = nvvm.CompileProgram(broken, nil)
	var ce *ffi.CallError
	if !errors.As(err, &ce) || !errors.Is(err, nvvm.ErrorCompilation) && !errors.Is(err, nvvm.ErrorInvalidIr) || ce.Log == "" {
		t.Errorf("CompileProgram(broken IR) = %v, want NVVM_ERROR_COMPILATION or _INVALID_IR with the log", err)
	}

	prog := nvvmProgram(t, fmt.Sprintf(twin.NVVMScale, irMajor, irMinor))
	must(t, "nvvmCompileProgram", nvvm.CompileProgram(prog, []string{fmt.Sprintf("-arch=compute_%d%d", major, minor)}))
	ptx, err := nvvm.GetCompiledResult(prog)
	must(t, "nvvmGetCompiledResult", err)
	if !bytes.Contains(ptx, []byte(".visible .entry scale(")) {
		t.Fatalf("the PTX has no entry scale:\n%s", ptx)
	}
	img := append(bytes.TrimRight(ptx, "\x00"), 0)
	mod, err := cu.ModuleLoadData(unsafe.Pointer(&img[0]))
	must(t, "cuModuleLoadData", err)
	defer cu.ModuleUnload(mod)
	fn, err := cu.ModuleGetFunction(mod, "scale")
	must(t, "cuModuleGetFunction", err)
	const n = 256
	host := make([]float32, n)
	for i := range host {
		host[i] = float32(i)
	}
	d, err := cu.MemAlloc(4 * n)
	must(t, "cuMemAlloc", err)
	defer cu.MemFree(d)
	must(t, "cuMemcpyHtoD", cu.MemcpyHtoD(d, unsafe.Pointer(&host[0]), 4*n))
	a := float32(3)
	must(t, "cuLaunchKernel", cu.LaunchKernel(fn, 1, 1, 1, n, 1, 1, 0, 0, []unsafe.Pointer{unsafe.Pointer(&d), unsafe.Pointer(&a)}, nil))
	must(t, "cuMemcpyDtoH", cu.MemcpyDtoH(unsafe.Pointer(&host[0]), d, 4*n))
	for i, v := range host {
		if v != 3*float32(i) {
			t.Fatalf("p[%d] = %v, want %v", i, v, 3*float32(i))
		}
	}
	t.Logf("NVVM %d.%d (IR %d.%d), sm_%d%d: %d bytes of PTX, %d elements scaled on the device", vmaj, vmin, irMajor, irMinor, major, minor, len(ptx), n)
}

// nvvmProgram creates a program holding one module of IR text, destroyed
// at the end of the test.
func nvvmProgram(t *testing.T, ir string) nvvm.Program {
	t.Helper()
	prog, err := nvvm.CreateProgram()
	must(t, "nvvmCreateProgram", err)
	t.Cleanup(func() {
		if err := nvvm.DestroyProgram(&prog); err != nil {
			t.Errorf("nvvmDestroyProgram: %v", err)
		}
	})
	must(t, "nvvmAddModuleToProgram", nvvm.AddModuleToProgram(prog, ir, uint64(len(ir)), new("scale.ll")))
	return prog
}
