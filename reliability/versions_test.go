//go:build linux && (amd64 || arm64)

package reliability

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cu"
)

// fakeDriver122 is a stand-in for a CUDA 12.2 driver: it has none of the
// symbols CUDA 12.3 and 12.4 added (cuLibraryGetKernelCount, 12.4).
const fakeDriver122 = `int cuDriverGetVersion(int *v) { *v = 12020; return 0; }
int cuInit(unsigned flags) { return 0; }
`

// TestOlderDriverSymbol: a function the loaded driver is too old for fails
// with an *ffi.SymbolError that says so, with the driver's CUDA version and
// what to do (cudarc #464: cuCtxCreate_v4 missing on an older driver).
// Before, it said only "(introduced in CUDA 12.4; this library is older)".
func TestOlderDriverSymbol(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "libcuda.so.1")
	if !isChild(t) {
		src := lib + ".c"
		os.WriteFile(src, []byte(fakeDriver122), 0o644)
		cc := os.Getenv("CC")
		if cc == "" {
			cc = "gcc"
		}
		if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
			t.Skipf("cannot build the stand-in library with %s: %v %s", cc, err, out)
		}
		runChild(t, "CUGEN_LIBCUDA="+lib)
		return
	}
	_, err := cu.LibraryGetKernelCount(0)
	var se *ffi.SymbolError
	if !errors.As(err, &se) || !errors.Is(err, ffi.ErrNoSymbol) {
		t.Fatalf("cu.LibraryGetKernelCount on a CUDA 12.2 driver: %v, want an *ffi.SymbolError", err)
	}
	want := "cugen: symbol cuLibraryGetKernelCount not found in CUDA driver library " + os.Getenv("CUGEN_LIBCUDA") +
		" (driver CUDA 12.2): it needs a driver of CUDA 12.4 or newer; upgrade the driver, or use bindings generated from headers no newer than CUDA 12.2"
	if err.Error() != want {
		t.Errorf("error:\n%s\nwant:\n%s", err, want)
	}
	if se.Version != "driver CUDA 12.2" || se.Since != "CUDA 12.4" {
		t.Errorf("SymbolError Version %q, Since %q", se.Version, se.Since)
	}
}
