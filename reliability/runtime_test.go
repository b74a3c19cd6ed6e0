//go:build linux && (amd64 || arm64)

package reliability

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/ffi/ffiimpl"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
)

// TestLibraryAbsent: both libraries point at missing files. Load and every
// call return a *ffi.LoadError naming the path tried and the variable it
// came from (errors.Is ffi.ErrNotLoaded); the runtime, which needs the
// driver and loads it first, names the driver's; error texts fall back to the
// header's messages; string-only functions return ""; nothing panics and the
// program goes on. Needs no library at all.
func TestLibraryAbsent(t *testing.T) {
	const missingCU, missingRT = "/nonexistent/cugen/libcuda.so.1", "/nonexistent/cugen/libcudart.so.12"
	if !isChild(t) {
		runChild(t, "CUGEN_LIBCUDA="+missingCU, "CUGEN_LIBCUDART="+missingRT)
		return
	}
	check := func(what string, err error, path, env string) {
		t.Helper()
		var le *ffi.LoadError
		switch {
		case err == nil:
			t.Errorf("%s: no error", what)
		case !errors.Is(err, ffi.ErrNotLoaded) || !errors.As(err, &le):
			t.Errorf("%s: %T %v, want a *ffi.LoadError", what, err, err)
		case !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), env):
			t.Errorf("%s: %q does not name %s and %s", what, err, path, env)
		}
	}
	check("cu.SharedLibrary().Load", cu.SharedLibrary().Load(), missingCU, "CUGEN_LIBCUDA")
	check("cudart.SharedLibrary().Load", cudart.SharedLibrary().Load(), missingCU, "CUGEN_LIBCUDA")
	if err := cudart.SharedLibrary().Load(); !strings.Contains(err.Error(), "runtime library: it needs the CUDA driver library, which did not load") {
		t.Errorf("cudart load error %q does not say the driver is missing", err)
	}
	check("cu.Load again", cu.SharedLibrary().Load(), missingCU, "CUGEN_LIBCUDA") // cached, same answer
	t.Logf("cu load error: %v", cu.SharedLibrary().Load())

	v, err := cu.DriverGetVersion()
	check("cu.DriverGetVersion", err, missingCU, "CUGEN_LIBCUDA")
	if v != 0 {
		t.Errorf("cu.DriverGetVersion = %d with a load error", v)
	}
	check("cu.Init", cu.Init(0), missingCU, "CUGEN_LIBCUDA")
	_, err = cu.CtxGetCurrent()
	check("cu.CtxGetCurrent", err, missingCU, "CUGEN_LIBCUDA")
	_, err = cu.GetErrorName(cu.ErrorInvalidValue)
	check("cu.GetErrorName", err, missingCU, "CUGEN_LIBCUDA")
	_, err = cudart.GetDeviceCount()
	check("cudart.GetDeviceCount", err, missingCU, "CUGEN_LIBCUDA")
	check("cudart.SetDevice", cudart.SetDevice(0), missingCU, "CUGEN_LIBCUDA")
	_, err = cudart.Malloc(1 << 20)
	check("cudart.Malloc", err, missingCU, "CUGEN_LIBCUDA")

	// Functions that return only a string cannot report the failure: "".
	if s := cudart.GetErrorString(cudart.ErrorInvalidValue); s != "" {
		t.Errorf("cudart.GetErrorString without a library = %q", s)
	}
	// Error texts come from the generated header table instead.
	for _, e := range []error{cu.ErrorInvalidValue, cudart.ErrorInvalidDevice} {
		if s := e.Error(); !strings.Contains(s, ": This indicates") {
			t.Errorf("%v: no header message without the library", s)
		}
	}
	if s := cu.Result(99999).Error(); !strings.Contains(s, "99999") {
		t.Errorf("unknown code text %q", s)
	}
	t.Log("still running after every call failed: the program goes on")
}

// TestLibraryNotFoundBySearch: no variable set and no library on the
// loader's path: the error lists every file name and directory tried and
// says to install the NVIDIA driver, or which variable to set.
func TestLibraryNotFoundBySearch(t *testing.T) {
	if !isChild(t) {
		runChild(t, "CUGEN_LIBCUDA=", "CUGEN_LIBCUDART=", "LD_LIBRARY_PATH=", "CUDA_PATH=", "CUDA_HOME=")
		return
	}
	err := cu.SharedLibrary().Load()
	if err == nil {
		cugentest.SkipHasGPU(t, "a CUDA driver is installed on this machine (%s): nothing to show", cu.SharedLibrary().Path())
	}
	if !errors.Is(err, ffi.ErrNotLoaded) || !strings.Contains(err.Error(), "libcuda.so.1") || !strings.Contains(err.Error(), "; install the NVIDIA driver") || !strings.Contains(err.Error(), "set CUGEN_LIBCUDA to the path of the driver's library file") {
		t.Errorf("cu load error %q", err)
	}
	t.Logf("cu: %v", err)
	if err := cudart.SharedLibrary().Load(); err != nil {
		// The runtime needs the driver, and says so.
		if !strings.Contains(err.Error(), "needs the CUDA driver library") || !strings.Contains(err.Error(), "set CUGEN_LIBCUDA ") {
			t.Errorf("cudart load error %q", err)
		}
		t.Logf("cudart: %v", err)
	}
}

// TestWrongLibrary: libcuda.so.1 offered as the runtime library opens (it is
// a valid shared object) but is refused: it has no cudaRuntimeGetVersion, so
// it is not the CUDA runtime. Every runtime call is a *ffi.LoadError saying so
// (errors.Is ffi.ErrNotLoaded); the driver package keeps working.
func TestWrongLibrary(t *testing.T) {
	libcuda, _ := needLibs(t)
	if !isChild(t) {
		runChild(t, "CUGEN_LIBCUDART="+libcuda)
		return
	}
	err := cudart.SharedLibrary().Load()
	if !errors.Is(err, ffi.ErrNotLoaded) || !strings.Contains(err.Error(), "CUGEN_LIBCUDART="+libcuda+" is not the CUDA 12 runtime library (no cudaRuntimeGetVersion)") {
		t.Fatalf("libcuda.so.1 as the runtime: Load = %v, want a LoadError naming it as not a CUDA runtime", err)
	}
	t.Logf("cudart: %v", err)
	if _, err := cudart.GetDeviceCount(); !errors.Is(err, ffi.ErrNotLoaded) {
		t.Fatalf("cudart.GetDeviceCount with a refused library: %v", err)
	}
	if v, err := cu.DriverGetVersion(); err != nil || v == 0 {
		t.Errorf("cu.DriverGetVersion beside a refused runtime: %d, %v", v, err)
	}
}

// TestNotASharedObject: a file that is not ELF, named libcudart.so.12, is
// a *ffi.LoadError carrying the loader's reason.
func TestNotASharedObject(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "libcudart.so.12")
	if !isChild(t) {
		if err := os.WriteFile(fake, []byte("this is not an ELF file, just text long enough to be read\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		runChild(t, "CUGEN_LIBCUDART="+fake, "RELIABILITY_FAKE="+fake)
		return
	}
	fake = os.Getenv("RELIABILITY_FAKE")
	err := cudart.SharedLibrary().Load()
	if !errors.Is(err, ffi.ErrNotLoaded) || !strings.Contains(err.Error(), fake) {
		t.Fatalf("Load of a text file: %v", err)
	}
	t.Logf("cudart: %v", err)
	if _, err := cudart.GetDeviceCount(); !errors.Is(err, ffi.ErrNotLoaded) {
		t.Errorf("cudart.GetDeviceCount: %v", err)
	}
}

// fakeRuntime11 is a stand-in for a CUDA 11 libcudart.so.11: it exports
// what CUDA 11.8's runtime exports of these names (cudaGetDeviceProperties
// without the _v2 that CUDA 12 headers link to).
const fakeRuntime11 = `
int cudaRuntimeGetVersion(int *v) { *v = 11080; return 0; }
int cudaGetDeviceCount(int *n) { *n = 0; return 100; }
int cudaGetDeviceProperties(void *prop, int dev) { return 100; }
`

// TestWrongMajorVersion: a CUDA 11 runtime offered to the cuda12 package is
// refused at load (ffiimpl.RuntimeMajor: its cudaRuntimeGetVersion says 11.8),
// so no call can misread a struct whose layout changed between majors. Every
// call returns the LoadError; nothing panics.
func TestWrongMajorVersion(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "libcudart.so.11")
	if !isChild(t) {
		src := filepath.Join(filepath.Dir(lib), "fake.c")
		os.WriteFile(src, []byte(fakeRuntime11), 0o644)
		cc := os.Getenv("CC")
		if cc == "" {
			cc = "gcc"
		}
		if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
			t.Skipf("cannot build the stand-in library with %s: %v %s", cc, err, out)
		}
		runChild(t, "CUGEN_LIBCUDART="+lib)
		return
	}
	err := cudart.SharedLibrary().Load()
	if !errors.Is(err, ffi.ErrNotLoaded) || !strings.Contains(err.Error(), "CUDA runtime 11.8, this package needs CUDA runtime 12.x") {
		t.Fatalf("a CUDA 11 runtime offered to cuda12: Load = %v, want it refused for its major version", err)
	}
	t.Logf("cudart: %v", err)
	if _, err := cudart.GetDeviceProperties(0); !errors.Is(err, ffi.ErrNotLoaded) {
		t.Fatalf("cudart.GetDeviceProperties with a refused runtime: %v", err)
	}
}

// TestSymbolAbsent: a made-up symbol of the real libraries.
func TestSymbolAbsent(t *testing.T) {
	libcuda, libcudart := needLibs(t)
	for _, c := range []struct{ path, env, sym string }{
		{libcuda, "CUGEN_LIBCUDA", "cuMadeUpFunction_v9"},
		{libcudart, "CUGEN_LIBCUDART", "cudaMadeUpFunction"},
	} {
		lib := ffi.NewLibrary(ffi.LibraryDesc{Name: "test " + c.env, EnvVar: c.env, Files: []string{filepath.Base(c.path)}})
		p := ffiimpl.Bind(lib).NewProc(c.sym, "CUDA 99.0")
		addr, err := p.Addr()
		var se *ffi.SymbolError
		if addr != 0 || !errors.Is(err, ffi.ErrNoSymbol) || !errors.As(err, &se) {
			t.Fatalf("%s: (%#x, %v), want a *ffi.SymbolError", c.sym, addr, err)
		}
		if !strings.Contains(err.Error(), c.sym) || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), ": it needs CUDA 99.0 or newer; upgrade the test "+c.env+" library, or use bindings generated from older headers") {
			t.Errorf("error text %q", err)
		}
		if _, err2 := p.Addr(); err2 != err {
			t.Errorf("second Addr: %v, want the cached %v", err2, err)
		}
		// A real symbol of the same library still resolves.
		real := "cuInit"
		if c.env == "CUGEN_LIBCUDART" {
			real = "cudaGetDeviceCount"
		}
		if a, err := ffiimpl.Bind(lib).NewProc(real, "").Addr(); err != nil || a == 0 {
			t.Errorf("%s: %#x, %v", real, a, err)
		}
		t.Logf("%v", err)
	}
}

// TestArgumentChecks documents, with real calls on Debian's libraries (no
// GPU), what happens to bad arguments: Go converts and passes values
// through; CUDA checks them.
func TestArgumentChecks(t *testing.T) {
	needLibs(t)
	if !isChild(t) {
		runChild(t) // a fresh process: cuInit not called yet
		return
	}
	// Before cuInit every driver call that needs it says so. (Checked
	// first: on driver 580 some of the calls below initialize the driver.)
	if _, err := cu.CtxGetCurrent(); !errors.Is(err, cu.ErrorNotInitialized) {
		t.Errorf("cu.CtxGetCurrent before cuInit: %v", err)
	}
	// cuDriverGetVersion needs no device and no cuInit.
	v, err := cu.DriverGetVersion()
	if err != nil || v < 12000 {
		t.Fatalf("cu.DriverGetVersion = %d, %v", v, err)
	}
	// An unknown code: CUDA says CUDA_ERROR_INVALID_VALUE, the string is "".
	name, err := cu.GetErrorName(cu.Result(99999))
	if name != "" || !errors.Is(err, cu.ErrorInvalidValue) || err.Error() != "cuGetErrorName: CUDA_ERROR_INVALID_VALUE: invalid argument" {
		t.Errorf("cu.GetErrorName(99999) = %q, %v", name, err)
	}
	if name, err := cu.GetErrorName(cu.ErrorNotInitialized); name != "CUDA_ERROR_NOT_INITIALIZED" || err != nil {
		t.Errorf("cu.GetErrorName(3) = %q, %v", name, err)
	}
	// The runtime answers an unknown code with text, not an error.
	if s := cudart.GetErrorString(cudart.Error(99999)); s != "unrecognized error code" {
		t.Errorf("cudart.GetErrorString(99999) = %q", s)
	}
	if s := cudart.GetErrorName(cudart.Error(99999)); s != "unrecognized error code" {
		t.Errorf("cudart.GetErrorName(99999) = %q", s)
	}
	if s := cudart.GetErrorString(cudart.ErrorInvalidDevice); s != "invalid device ordinal" {
		t.Errorf("cudart.GetErrorString(ErrorInvalidDevice) = %q", s)
	}
	// nil pointers are passed to C unchanged; CUDA rejects them.
	if err := cu.GetExportTable(nil, nil); !errors.Is(err, cu.ErrorInvalidValue) {
		t.Errorf("cu.GetExportTable(nil, nil): %v", err)
	}
	var tbl unsafe.Pointer
	if err := cu.GetExportTable(&tbl, nil); !errors.Is(err, cu.ErrorInvalidValue) {
		t.Errorf("cu.GetExportTable(&tbl, nil): %v", err)
	}
	if err := cudart.GetExportTable(nil, nil); !errors.Is(err, cudart.ErrorInvalidValue) {
		t.Errorf("cudart.GetExportTable(nil, nil): %v", err)
	}
	// Out-of-range flags: CUDA checks.
	if err := cu.Init(99); !errors.Is(err, cu.ErrorInvalidValue) {
		t.Errorf("cu.Init(99): %v", err)
	}
	// A Go string is copied with a NUL appended; an embedded NUL is not
	// checked in Go, so C sees the string up to it.
	p, st, err := cu.GetProcAddress("cuInit\x00ignored", 12000, 0)
	q, _, _ := cu.GetProcAddress("cuInit", 12000, 0)
	if err != nil || p == nil || p != q || st != cu.GetProcAddressSuccess {
		t.Errorf("cu.GetProcAddress with an embedded NUL: %p (%p) %v %v", p, q, st, err)
	}
	if p, st, err := cu.GetProcAddress("", 12000, 0); p != nil || err != nil || st != cu.GetProcAddressSymbolNotFound {
		t.Errorf("cu.GetProcAddress(\"\"): %p %v %v", p, st, err)
	}
	// Without a device, the runtime's first call initializes and reports
	// cudaErrorNoDevice before looking at its arguments.
	n, err := cudart.GetDeviceCount()
	t.Logf("cudart.GetDeviceCount: %d, %v", n, err)
	if err == nil {
		cugentest.SkipHasGPU(t, "this machine has a CUDA device; the rest shows the no-device case")
	}
	if !errors.Is(err, cudart.ErrorNoDevice) || err.Error() != "cudaGetDeviceCount: cudaErrorNoDevice: no CUDA-capable device is detected" {
		t.Errorf("cudart.GetDeviceCount: %v", err)
	}
	if err := cudart.Memcpy(nil, nil, 16, cudart.MemcpyHostToHost); !errors.Is(err, cudart.ErrorNoDevice) {
		t.Errorf("cudart.Memcpy(nil, nil): %v", err)
	}
	if err := cudart.SetDevice(-1); !errors.Is(err, cudart.ErrorNoDevice) {
		t.Errorf("cudart.SetDevice(-1): %v", err)
	}
	// cuInit failed inside the runtime; the driver stays uninitialized.
	if err := cu.Init(0); !errors.Is(err, cu.ErrorNoDevice) {
		t.Errorf("cu.Init(0): %v", err)
	}
	if _, err := cu.MemAlloc(1 << 20); !errors.Is(err, cu.ErrorNotInitialized) {
		t.Errorf("cu.MemAlloc after a failed cuInit: %v", err)
	}
}
