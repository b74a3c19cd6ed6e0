package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/cudatest"
	"github.com/cugen/cugen/e2e/internal/twin"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/nvvm"
)

// newNVVMProgram creates a program holding one module of IR text,
// destroyed at the end of the test.
func newNVVMProgram(t *testing.T, ir string) nvvm.Program {
	t.Helper()
	prog, err := nvvm.CreateProgram()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := nvvm.DestroyProgram(&prog); err != nil || prog != 0 {
			t.Errorf("DestroyProgram: %v (handle after: %#x)", err, prog)
		}
	})
	if err := nvvm.AddModuleToProgram(prog, ir, uint64(len(ir)), new("scale.ll")); err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestNVVMCompilesIRToPTX12: Debian's libnvvm4 (CUDA 12.4) runs on the
// CPU: the version functions answer, and a kernel in NVVM IR text
// verifies and compiles to PTX for sm_90 with its entry point.
func TestNVVMCompilesIRToPTX12(t *testing.T) {
	cugentest.NeedLibrary(t, nvvm.SharedLibrary().Load())
	major, minor, err := nvvm.Version()
	if err != nil || major < 1 {
		t.Fatalf("nvvm.Version() = %d.%d, %v", major, minor, err)
	}
	irMajor, irMinor, dbgMajor, dbgMinor, err := nvvm.IRVersion()
	if err != nil || irMajor < 1 {
		t.Fatalf("nvvm.IRVersion() = %d.%d (debug %d.%d), %v", irMajor, irMinor, dbgMajor, dbgMinor, err)
	}
	prog := newNVVMProgram(t, fmt.Sprintf(twin.NVVMScale, irMajor, irMinor))
	opts := []string{"-arch=compute_90"}
	if err := nvvm.VerifyProgram(prog, opts); err != nil {
		t.Fatal(err)
	}
	if err := nvvm.CompileProgram(prog, opts); err != nil {
		t.Fatal(err)
	}
	size, err := nvvm.GetCompiledResultSize(prog)
	if err != nil {
		t.Fatal(err)
	}
	ptx, err := nvvm.GetCompiledResult(prog)
	if err != nil || uint64(len(ptx)) != size {
		t.Fatalf("len(GetCompiledResult) = %d, GetCompiledResultSize = %d, %v", len(ptx), size, err)
	}
	for _, want := range []string{".visible .entry scale(", ".target sm_90", "mul.f32", "mov.u32 \t%r1, %tid.x;"} {
		if !bytes.Contains(ptx, []byte(want)) {
			t.Errorf("the PTX lacks %q:\n%s", want, ptx)
		}
	}
	t.Logf("NVVM %d.%d, IR %d.%d (debug %d.%d): %d bytes of PTX", major, minor, irMajor, irMinor, dbgMajor, dbgMinor, len(ptx))
}

// TestNVVMCompileErrorCarriesLog12: IR that does not parse fails
// nvvmCompileProgram with NVVM's typed error, and the error carries
// the program log naming the fault.
func TestNVVMCompileErrorCarriesLog12(t *testing.T) {
	cugentest.NeedLibrary(t, nvvm.SharedLibrary().Load())
	prog := newNVVMProgram(t, "define void @broken( {\n")
	err := nvvm.CompileProgram(prog, nil)
	var ce *ffi.CallError
	if !errors.As(err, &ce) || !errors.Is(err, nvvm.ErrorCompilation) && !errors.Is(err, nvvm.ErrorInvalidIr) {
		t.Fatalf("CompileProgram(broken IR) = %v (%T), want an *ffi.CallError of NVVM_ERROR_COMPILATION or _INVALID_IR", err, err)
	}
	if len(ce.Log) == 0 {
		t.Errorf("the error carries no log: %v", err)
	}
	t.Logf("%v", err)
}

// TestNVVMKernelOnGPU12 (GPU): the NVVM IR kernel compiled to PTX for the
// device's architecture loads (cuModuleLoadData) and runs: 256 floats
// scaled by 3 in place, every element checked.
func TestNVVMKernelOnGPU12(t *testing.T) {
	cugentest.NeedLibrary(t, nvvm.SharedLibrary().Load())
	dev, done := gpu12(t)
	defer done()
	major, err := cu.DeviceGetAttribute(cu.DeviceAttributeComputeCapabilityMajor, dev)
	if err != nil {
		t.Fatal(err)
	}
	minor, err := cu.DeviceGetAttribute(cu.DeviceAttributeComputeCapabilityMinor, dev)
	if err != nil {
		t.Fatal(err)
	}
	irMajor, irMinor, _, _, err := nvvm.IRVersion()
	if err != nil {
		t.Fatal(err)
	}
	prog := newNVVMProgram(t, fmt.Sprintf(twin.NVVMScale, irMajor, irMinor))
	if err := nvvm.CompileProgram(prog, []string{fmt.Sprintf("-arch=compute_%d%d", major, minor)}); err != nil {
		t.Fatal(err)
	}
	ptx, err := nvvm.GetCompiledResult(prog)
	if err != nil {
		t.Fatal(err)
	}
	mod, fns := cudatest.LoadPTX(t, string(bytes.TrimRight(ptx, "\x00")), "scale")
	defer cu.ModuleUnload(mod)
	const n = 256
	host := make([]float32, n)
	for i := range host {
		host[i] = float32(i)
	}
	d, err := cu.MemAlloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	defer cu.MemFree(d)
	if err := cu.MemcpyHtoD(d, unsafe.Pointer(&host[0]), 4*n); err != nil {
		t.Fatal(err)
	}
	a := float32(3)
	args := []unsafe.Pointer{unsafe.Pointer(&d), unsafe.Pointer(&a)}
	if err := cu.LaunchKernel(fns[0], 1, 1, 1, n, 1, 1, 0, 0, args, nil); err != nil {
		t.Fatal(err)
	}
	if err := cu.MemcpyDtoH(unsafe.Pointer(&host[0]), d, 4*n); err != nil {
		t.Fatal(err)
	}
	for i, v := range host {
		if v != 3*float32(i) {
			t.Fatalf("p[%d] = %v, want %v", i, v, 3*float32(i))
		}
	}
	t.Logf("sm_%d%d: NVVM IR -> %d bytes of PTX, %d elements scaled on the device", major, minor, len(ptx), n)
}
