package e2e

import (
	"bytes"
	"errors"
	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/cudatest"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/nvjitlink"
	"github.com/cugen/cugen/generated/cuda12/nvrtc"
)

// needNVRTC skips (cugentest.NeedLibrary) without the NVRTC library (Debian's libnvrtc12 in make
// test, CUGEN_LIBNVRTC).
func needNVRTC(t *testing.T) {
	t.Helper()
	cugentest.NeedLibrary(t, nvrtc.SharedLibrary().Load())
}

// compile compiles src with options and returns the program.
func compile(t *testing.T, src string, options ...string) nvrtc.Program {
	t.Helper()
	prog, err := nvrtc.CreateProgram(src, new("saxpy.cu"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := nvrtc.DestroyProgram(&prog); err != nil {
			t.Error(err)
		}
	})
	if err := nvrtc.CompileProgram(prog, options); err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestNVRTCCompilesSAXPYToPTX compiles a kernel from a Go string to PTX
// and finds its entry point.
func TestNVRTCCompilesSAXPYToPTX(t *testing.T) {
	needNVRTC(t)
	major, minor, err := nvrtc.Version()
	if err != nil || major != 12 {
		t.Fatalf("nvrtc.Version() = %d.%d, %v; want 12.x", major, minor, err)
	}
	prog := compile(t, cudatest.SaxpySource, "--gpu-architecture=compute_90")
	ptx, err := nvrtc.GetPTX(prog)
	if err != nil {
		t.Fatal(err)
	}
	size, err := nvrtc.GetPTXSize(prog)
	if err != nil || uint64(len(ptx)) != size {
		t.Fatalf("len(GetPTX) = %d, GetPTXSize = %d, %v", len(ptx), size, err)
	}
	if !bytes.Contains(ptx, []byte(".visible .entry saxpy(")) || !bytes.Contains(ptx, []byte(".target sm_90")) || ptx[len(ptx)-1] != 0 {
		t.Errorf("PTX lacks the saxpy entry or sm_90 target or its NUL:\n%s", ptx)
	}
	t.Logf("NVRTC %d.%d: %d bytes of PTX", major, minor, len(ptx))
}

// TestNVRTCSupportedArchs reads the count-then-array pair in one call; the
// array is no scalar (the old binding wrote numArchs ints into one).
func TestNVRTCSupportedArchs(t *testing.T) {
	needNVRTC(t)
	n, err := nvrtc.GetNumSupportedArchs()
	if err != nil {
		t.Fatal(err)
	}
	archs, err := nvrtc.GetSupportedArchs()
	if err != nil || len(archs) != int(n) || n < 2 {
		t.Fatalf("GetSupportedArchs() = %v, %v; GetNumSupportedArchs() = %d", archs, err, n)
	}
	for i := 1; i < len(archs); i++ {
		if archs[i] <= archs[i-1] {
			t.Errorf("archs not ascending: %v", archs)
		}
	}
	if archs[len(archs)-1] < 90 {
		t.Errorf("NVRTC 12.4 supports sm_90: %v", archs)
	}
}

// TestNVRTCCompileErrorCarriesLog: a syntax error fails the compile with
// NVRTC_ERROR_COMPILATION, and the error holds the program log's line.
func TestNVRTCCompileErrorCarriesLog(t *testing.T) {
	needNVRTC(t)
	prog, err := nvrtc.CreateProgram("extern \"C\" __global__ void broken(float *y) { y[0] = ; }\n", new("broken.cu"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer nvrtc.DestroyProgram(&prog)
	err = nvrtc.CompileProgram(prog, []string{"--gpu-architecture=compute_90"})
	if !errors.Is(err, nvrtc.ErrorCompilation) {
		t.Fatalf("CompileProgram(broken) = %v, want ErrorCompilation", err)
	}
	var ce *ffi.CallError
	if !errors.As(err, &ce) || !strings.Contains(ce.Log, "broken.cu(1): error: expected an expression") {
		t.Fatalf("error %q: Log = %q, want the log's error line", err, ce.Log)
	}
	if !strings.Contains(err.Error(), "nvrtcCompileProgram: NVRTC_ERROR_COMPILATION") || !strings.Contains(err.Error(), "expected an expression") {
		t.Errorf("error text %q lacks the code or the log", err)
	}
	t.Logf("%v", err)
}

// TestNVRTCCreateProgramHeaderLengths: two slices sharing one C count
// must agree, or C would read past the shorter.
func TestNVRTCCreateProgramHeaderLengths(t *testing.T) {
	needNVRTC(t)
	_, err := nvrtc.CreateProgram(cudatest.SaxpySource, new("x.cu"), []string{"a", "b"}, []string{"a.h"})
	if err == nil || !strings.Contains(err.Error(), "len(includeNames) = 1 but len(headers) = 2") {
		t.Fatalf("CreateProgram with 2 headers and 1 name = %v", err)
	}
	// A header given by name from a Go string is found by the include.
	prog, err := nvrtc.CreateProgram("#include \"scale.h\"\nextern \"C\" __global__ void k(float *y) { y[0] = SCALE; }\n", new("k.cu"),
		[]string{"#define SCALE 2.5f\n"}, []string{"scale.h"})
	if err != nil {
		t.Fatal(err)
	}
	defer nvrtc.DestroyProgram(&prog)
	if err := nvrtc.CompileProgram(prog, []string{"--gpu-architecture=compute_90"}); err != nil {
		t.Fatal(err)
	}
	ptx, err := nvrtc.GetPTX(prog)
	if err != nil || !bytes.Contains(ptx, []byte("1075838976")) { // 2.5f as its bits
		t.Fatalf("PTX of k with SCALE from the header lacks 2.5f (%v):\n%s", err, ptx)
	}
}

// TestNVJitLinkLinksLTOIR compiles SAXPY to LTO-IR with NVRTC and links it
// with nvJitLink into a cubin for sm_90 holding the saxpy entry.
func TestNVJitLinkLinksLTOIR(t *testing.T) {
	needNVRTC(t)
	cugentest.NeedLibrary(t, nvjitlink.SharedLibrary().Load())
	prog := compile(t, cudatest.SaxpySource, "--gpu-architecture=sm_90", "-dlto")
	ltoir, err := nvrtc.GetLTOIR(prog)
	if err != nil || len(ltoir) == 0 {
		t.Fatalf("GetLTOIR: %d bytes, %v", len(ltoir), err)
	}
	h, err := nvjitlink.Create([]string{"-arch=sm_90", "-lto"})
	if err != nil {
		t.Fatal(err)
	}
	defer nvjitlink.Destroy(&h)
	if err := nvjitlink.AddData(h, nvjitlink.InputLtoir, unsafe.Pointer(&ltoir[0]), uint64(len(ltoir)), "saxpy.ltoir"); err != nil {
		t.Fatal(err)
	}
	if err := nvjitlink.Complete(h); err != nil {
		t.Fatal(err)
	}
	cubin, err := nvjitlink.GetLinkedCubin(h)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(cubin, []byte("\x7fELF")) || !bytes.Contains(cubin, []byte("saxpy")) {
		t.Fatalf("linked cubin (%d bytes) is not an ELF with saxpy", len(cubin))
	}
	major, minor, err := nvjitlink.Version()
	t.Logf("nvJitLink %d.%d (%v): %d bytes of LTO-IR -> %d-byte cubin", major, minor, err, len(ltoir), len(cubin))
}

// TestNVJitLinkCompleteErrorCarriesLog: linking for an architecture the
// input was not compiled for fails, and the error holds the error log.
func TestNVJitLinkCompleteErrorCarriesLog(t *testing.T) {
	needNVRTC(t)
	cugentest.NeedLibrary(t, nvjitlink.SharedLibrary().Load())
	prog := compile(t, "extern \"C\" __device__ float f(float); extern \"C\" __global__ void k(float *y) { y[0] = f(y[0]); }\n", "--gpu-architecture=sm_90", "-dlto", "-rdc=true")
	ltoir, err := nvrtc.GetLTOIR(prog)
	if err != nil {
		t.Fatal(err)
	}
	h, err := nvjitlink.Create([]string{"-arch=sm_90", "-lto"})
	if err != nil {
		t.Fatal(err)
	}
	defer nvjitlink.Destroy(&h)
	if err := nvjitlink.AddData(h, nvjitlink.InputLtoir, unsafe.Pointer(&ltoir[0]), uint64(len(ltoir)), "k.ltoir"); err != nil {
		t.Fatal(err)
	}
	err = nvjitlink.Complete(h)
	var ce *ffi.CallError
	if !errors.As(err, &ce) || ce.Log == "" || !strings.Contains(ce.Log, "f") {
		t.Fatalf("Complete with an undefined f = %v, want an error with the log", err)
	}
	t.Logf("%v", err)
}

// TestNVJitLinkFromSeveralThreads creates each handle on one OS thread and
// links and destroys it on another, as a goroutine that blocks between
// the calls may. nvJitLink 12.4 needs a handle's calls on one thread
// (library.NVJitLink's OneThread): before the package made every call on
// a thread of its own, this crashed the test binary in 10 of 10 runs
// (stop 48's CI failed on it, in TestNVJitLinkCompleteErrorCarriesLog,
// when the goroutine moved between the calls).
func TestNVJitLinkFromSeveralThreads(t *testing.T) {
	needNVRTC(t)
	cugentest.NeedLibrary(t, nvjitlink.SharedLibrary().Load())
	prog := compile(t, "extern \"C\" __device__ float f(float); extern \"C\" __global__ void k(float *y) { y[0] = f(y[0]); }\n", "--gpu-architecture=sm_90", "-dlto", "-rdc=true")
	ltoir, err := nvrtc.GetLTOIR(prog)
	if err != nil {
		t.Fatal(err)
	}
	onA, onB := lockedThread(t), lockedThread(t)
	for i := range 10 {
		var h nvjitlink.Handle
		onA(func() {
			if h, err = nvjitlink.Create([]string{"-arch=sm_90", "-lto"}); err == nil {
				err = nvjitlink.AddData(h, nvjitlink.InputLtoir, unsafe.Pointer(&ltoir[0]), uint64(len(ltoir)), "k.ltoir")
			}
		})
		if err != nil {
			t.Fatalf("link %d: %v", i, err)
		}
		onB(func() {
			err = nvjitlink.Complete(h)
			if derr := nvjitlink.Destroy(&h); derr != nil {
				t.Errorf("link %d: Destroy: %v", i, derr)
			}
		})
		var ce *ffi.CallError
		if !errors.As(err, &ce) || !strings.Contains(ce.Log, "f") {
			t.Fatalf("link %d: Complete with an undefined f = %v, want an error with the log", i, err)
		}
	}
}

// lockedThread starts a goroutine locked to an OS thread of its own for
// the test's life and returns a function that runs f there and waits.
func lockedThread(t *testing.T) func(f func()) {
	calls := make(chan func())
	t.Cleanup(func() { close(calls) })
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		for f := range calls {
			f()
		}
	}()
	return func(f func()) {
		done := make(chan struct{})
		calls <- func() { defer close(done); f() }
		<-done
	}
}
