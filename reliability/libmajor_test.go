//go:build linux && (amd64 || arm64)

package reliability

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cublasxt"
	"github.com/cugen/cugen/generated/cuda12/cufft"
	"github.com/cugen/cugen/generated/cuda12/cusolvermg"
	"github.com/cugen/cugen/generated/cuda12/nppc"
	"github.com/cugen/cugen/generated/cuda12/nppial"
	"github.com/cugen/cugen/generated/cuda12/nvrtc"
)

// Stand-ins of the next majors: NVRTC 13 (nvrtcVersion) and cuFFT 12
// (cufftGetProperty), the one a CUDA 13 toolkit ships.
const (
	fakeNVRTC13 = `int nvrtcVersion(int *major, int *minor) { *major = 13; *minor = 0; return 0; }
int nvrtcCompileProgram(void *prog, int n, const char **options) { return 6; }
`
	fakeCuFFT12 = `int cufftGetProperty(int type, int *value) { *value = type == 0 ? 12 : 0; return 0; }
int cufftCreate(int *plan) { *plan = 1; return 0; }
`
	// NPP 13's core, and an image library that depends on it: its version
	// is its libnppc's.
	fakeNPPC13 = `typedef struct { int major, minor, build; } version;
static const version v = {13, 0, 1};
const version *nppGetLibVersion(void) { return &v; }
`
	fakeNPPIAL13 = `int nppiAdd_8u_C1RSfs_Ctx(void) { return 0; }
`
	// CUDA 13's cuBLAS (cuBLASXt is in it), and a cuSOLVERMg that needs
	// it: cuSOLVERMg has no version function of its own.
	fakeCuBLAS13 = `int cublasGetProperty(int type, int *value) { *value = type == 0 ? 13 : 0; return 0; }
int cublasXtCreate(void **h) { *h = 0; return 0; }
`
	fakeCuSOLVERMg12 = `int cusolverMgCreate(void **h) { *h = 0; return 0; }
`
)

// TestWrongMajorLibraries: a library of another major offered to a package
// is refused at load by the library's own version function, against the
// major the package's soname carries (cuda12/nvrtc needs NVRTC 12; cuda12/
// cufft needs cuFFT 11, which ships with CUDA 12), and no call reaches it.
func TestWrongMajorLibraries(t *testing.T) {
	if !isChild(t) {
		dir := t.TempDir()
		cc := os.Getenv("CC")
		if cc == "" {
			cc = "gcc"
		}
		var env []string
		for _, l := range []struct {
			file, src, envVar string
			link              []string
		}{
			{"libnvrtc.so.13", fakeNVRTC13, "CUGEN_LIBNVRTC", nil},
			{"libcufft.so.12", fakeCuFFT12, "CUGEN_LIBCUFFT", nil},
			{"libnppc.so.13", fakeNPPC13, "CUGEN_LIBNPPC", nil},
			{"libnppial.so.13", fakeNPPIAL13, "CUGEN_LIBNPPIAL", needs(dir, "libnppc.so.13")},
			{"libcublas.so.13", fakeCuBLAS13, "CUGEN_LIBCUBLAS", nil},
			{"libcusolverMg.so.12", fakeCuSOLVERMg12, "CUGEN_LIBCUSOLVERMG", needs(dir, "libcublas.so.13")},
		} {
			src, lib := filepath.Join(dir, l.file+".c"), filepath.Join(dir, l.file)
			os.WriteFile(src, []byte(l.src), 0o644)
			args := append([]string{"-shared", "-fPIC", "-o", lib, src}, l.link...)
			if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
				t.Skipf("cannot build the stand-in library with %s: %v %s", cc, err, out)
			}
			env = append(env, l.envVar+"="+lib)
		}
		runChild(t, env...)
		return
	}
	for _, c := range []struct {
		name string
		load func() error
		call func() error
		want string
	}{
		{"nvrtc", nvrtc.SharedLibrary().Load, func() error { return nvrtc.CompileProgram(0, nil) }, "NVRTC 13.0, this package needs NVRTC 12.x"},
		{"cufft", cufft.SharedLibrary().Load, func() error { _, err := cufft.Create(); return err }, "cuFFT 12, this package needs cuFFT 11"},
		// NPP has no error result for a call without its library:
		// GetLibVersion returns nil when it cannot call.
		{"nppc", nppc.SharedLibrary().Load, func() error {
			if v := nppc.GetLibVersion(); v != nil {
				return fmt.Errorf("GetLibVersion = %+v", *v)
			}
			return ffi.ErrNotLoaded
		}, "NPP core 13.0, this package needs NPP core 12.x"},
		{"nppial", nppial.SharedLibrary().Load, nppial.SharedLibrary().Load, "NPP core 13.0, this package needs NPP core 12.x"},
		{"cublasxt", cublasxt.SharedLibrary().Load, func() error { _, err := cublasxt.Create(); return err }, "cuBLASXt 13, this package needs cuBLASXt 12"},
		{"cusolvermg", cusolvermg.SharedLibrary().Load, func() error { _, err := cusolvermg.Create(); return err }, "cuBLAS 13, this package needs cuBLAS 12"},
	} {
		err := c.load()
		if !errors.Is(err, ffi.ErrNotLoaded) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Load = %v, want it refused: %q", c.name, err, c.want)
		}
		if err := c.call(); !errors.Is(err, ffi.ErrNotLoaded) {
			t.Errorf("%s: a call with the library refused = %v, want ffi.ErrNotLoaded", c.name, err)
		}
		t.Logf("%s: %v", c.name, err)
	}
}

// needs returns the linker flags that make a stand-in depend on the
// stand-in lib in dir (kept though no symbol of it is used).
func needs(dir, lib string) []string {
	return []string{"-L" + dir, "-Wl,--no-as-needed", "-l:" + lib, "-Wl,-rpath," + dir}
}

// TestVersionStructUnreadable: an NPP whose nppGetLibVersion returns NULL,
// or a pointer to nothing readable, is refused at load with what it
// returned, never read (ffi's probe asks the kernel before the read).
func TestVersionStructUnreadable(t *testing.T) {
	if !isChild(t) {
		dir := t.TempDir()
		cc := os.Getenv("CC")
		if cc == "" {
			cc = "gcc"
		}
		src, lib := filepath.Join(dir, "nppc.c"), filepath.Join(dir, "libnppc.so.12")
		for _, ptr := range []string{"0x0", "0x1000"} {
			os.WriteFile(src, []byte("const void *nppGetLibVersion(void) { return (const void *)"+ptr+"; }\n"), 0o644)
			if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
				t.Skipf("cannot build the stand-in library with %s: %v %s", cc, err, out)
			}
			runChild(t, "CUGEN_LIBNPPC="+lib, "CUGEN_TEST_WANT=nppGetLibVersion returned "+ptr+", no version it can be read from")
		}
		return
	}
	err := nppc.SharedLibrary().Load()
	if want := os.Getenv("CUGEN_TEST_WANT"); !errors.Is(err, ffi.ErrNotLoaded) || !strings.Contains(err.Error(), want) {
		t.Errorf("Load = %v, want it refused: %q", err, want)
	}
	if v := nppc.GetLibVersion(); v != nil {
		t.Errorf("GetLibVersion = %+v with the library refused, want nil", *v)
	}
}
