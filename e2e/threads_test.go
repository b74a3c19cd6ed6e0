package e2e

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/cudatest"
	"github.com/cugen/cugen/e2e/internal/twin"
	"github.com/cugen/cugen/generated/cuda12/nvfatbin"
	"github.com/cugen/cugen/generated/cuda12/nvrtc"
	"github.com/cugen/cugen/generated/cuda12/nvvm"
)

// TestCompilersFromSeveralThreads: NVRTC, libNVVM and nvFatbin, called
// through their packages without a thread of their own (no
// library.Desc.OneThread), keep working when one object's calls come
// from different OS threads, as a goroutine's do after it blocks: each
// program or fat binary is created on one locked thread, compiled (once
// in two with an error, the path nvJitLink 12.4 crashed on) on a second
// and read and destroyed on a third, ten times. nvJitLink fails this
// (TestNVJitLinkFromSeveralThreads); these would crash the test binary.
func TestCompilersFromSeveralThreads(t *testing.T) {
	needNVRTC(t)
	cugentest.NeedLibrary(t, nvfatbin.SharedLibrary().Load())
	cugentest.NeedLibrary(t, nvvm.SharedLibrary().Load())
	on := [3]func(func()){lockedThread(t), lockedThread(t), lockedThread(t)}
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	src := [2]string{cudatest.SaxpySource, "extern \"C\" __global__ void k(float *y) { y[0] = ; }\n"}
	for i := range 10 {
		var prog nvrtc.Program
		var err error
		on[0](func() { prog, err = nvrtc.CreateProgram(src[i%2], new("k.cu"), nil, nil) })
		must("nvrtcCreateProgram", err)
		on[1](func() { err = nvrtc.CompileProgram(prog, []string{"--gpu-architecture=sm_90"}) })
		if (err != nil) != (i%2 == 1) {
			t.Fatalf("program %d: CompileProgram = %v", i, err)
		}
		var cubin []byte
		on[2](func() {
			err = nil
			if i%2 == 0 {
				cubin, err = nvrtc.GetCUBIN(prog)
			}
			if derr := nvrtc.DestroyProgram(&prog); err == nil {
				err = derr
			}
		})
		must("nvrtcGetCUBIN, nvrtcDestroyProgram", err)
		if i%2 == 1 {
			continue
		}
		var h nvfatbin.Handle
		on[1](func() { h, err = nvfatbin.Create(nil) })
		must("nvFatbinCreate", err)
		on[2](func() { err = nvfatbin.AddCubin(h, unsafe.Pointer(&cubin[0]), uint64(len(cubin)), "90", "saxpy") })
		must("nvFatbinAddCubin", err)
		var fat []byte
		on[0](func() {
			fat, err = nvfatbin.Get(h)
			if derr := nvfatbin.Destroy(&h); err == nil {
				err = derr
			}
		})
		if err != nil || len(fat) <= len(cubin) {
			t.Fatalf("fat binary %d: %d bytes for a %d-byte cubin, %v", i, len(fat), len(cubin), err)
		}
	}
	irMajor, irMinor, _, _, err := nvvm.IRVersion()
	must("nvvmIRVersion", err)
	ir := [2]string{fmt.Sprintf(twin.NVVMScale, irMajor, irMinor), "define void @broken( {\n"}
	for i := range 10 {
		var prog nvvm.Program
		on[i%3](func() {
			if prog, err = nvvm.CreateProgram(); err == nil {
				err = nvvm.AddModuleToProgram(prog, ir[i%2], uint64(len(ir[i%2])), new("k.ll"))
			}
		})
		must("nvvmCreateProgram, nvvmAddModuleToProgram", err)
		on[(i+1)%3](func() { err = nvvm.CompileProgram(prog, []string{"-arch=compute_90"}) })
		if (err != nil) != (i%2 == 1) {
			t.Fatalf("NVVM program %d: CompileProgram = %v", i, err)
		}
		on[(i+2)%3](func() { err = nvvm.DestroyProgram(&prog) })
		must("nvvmDestroyProgram", err)
	}
}
