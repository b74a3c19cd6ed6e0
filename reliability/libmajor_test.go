package reliability

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cufft"
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
		for _, l := range []struct{ file, src, envVar string }{
			{"libnvrtc.so.13", fakeNVRTC13, "CUGEN_LIBNVRTC"},
			{"libcufft.so.12", fakeCuFFT12, "CUGEN_LIBCUFFT"},
		} {
			src, lib := filepath.Join(dir, l.file+".c"), filepath.Join(dir, l.file)
			os.WriteFile(src, []byte(l.src), 0o644)
			if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
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
