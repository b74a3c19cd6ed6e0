//go:build linux && (amd64 || arm64)

package doctor

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	cugen "github.com/cugen/cugen"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/internal/lock"
)

// cachedLib returns the cached, verified directory of the Debian package
// name of cugen's headers.lock, or skips t.
func cachedLib(t *testing.T, name string) string {
	t.Helper()
	l, err := lock.Parse(bytes.NewReader(cugen.HeadersLock), "headers.lock")
	if err != nil {
		t.Fatal(err)
	}
	e, err := l.Lib(name)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := lock.Cached(e, "")
	if err != nil {
		t.Skipf("%s is not in the cache (make test fetches it): %v", name, err)
	}
	return dir
}

// TestNVRTCCompiles: doctor checks that NVRTC works, not only loads.
// Debian's libnvrtc12 without libnvrtc-builtins on the loader's path
// loads, but every compile fails: doctor reports that
// nvrtcCompileProgram failed with NVRTC_ERROR_BUILTIN_OPERATION_FAILURE,
// an error since -lib names nvrtc, with the fix (the builtins' soname,
// LD_LIBRARY_PATH, Debian's package, cugen libs -major 12 nvrtc). With
// the builtins' directory on LD_LIBRARY_PATH the one-line kernel
// compiles and there is no problem. Was: "NVRTC 12.4 (nvrtcVersion)" and
// no problem either way. Each case runs in a fresh process (the loader
// reads LD_LIBRARY_PATH when the process starts).
func TestNVRTCCompiles(t *testing.T) {
	nvrtc := filepath.Join(cachedLib(t, "libnvrtc12"), "libnvrtc.so.12")
	builtins := cachedLib(t, "libnvrtc-builtins12.4")
	for _, c := range []struct {
		name, path string
	}{{"without", ""}, {"with", builtins}} {
		t.Run(c.name, func(t *testing.T) {
			if !childOf(t) {
				t.Setenv("CUGEN_LIBNVRTC", nvrtc)
				t.Setenv("LD_LIBRARY_PATH", c.path)
				inChild(t)
				return
			}
			rep, lines := doctor(t, Options{Majors: []int{12}, Libs: []string{"nvrtc"}})
			hasLine(t, lines, regexp.QuoteMeta("cuda12/nvrtc: version: NVRTC 12.4 (nvrtcVersion)"))
			if c.path != "" {
				hasLine(t, lines, regexp.QuoteMeta("cuda12/nvrtc: compile: ok (a one-line kernel, nvrtcCompileProgram)"))
				if rep.Errors != 0 {
					t.Errorf("Errors = %d, want 0", rep.Errors)
				}
				return
			}
			// Unless this system's loader finds the builtins anyway
			// (a toolkit in ld.so.conf): then there is nothing to show.
			b := ffi.NewLibrary(ffi.LibraryDesc{Name: "NVRTC builtins", Files: []string{"libnvrtc-builtins.so.12.4"}})
			defer func() {
				if b.Load() == nil {
					t.Skipf("the loader finds %s without LD_LIBRARY_PATH: nothing to show", b.Path())
				}
			}()
			hasLine(t, lines, regexp.QuoteMeta("cuda12/nvrtc: compile: nvrtcCompileProgram failed: NVRTC_ERROR_BUILTIN_OPERATION_FAILURE (7)"))
			hasLine(t, lines, regexp.QuoteMeta(`error: cuda12/nvrtc: nvrtcCompileProgram failed: NVRTC_ERROR_BUILTIN_OPERATION_FAILURE (7): NVRTC loads but cannot compile: it opens libnvrtc-builtins.so.12.4 by its soname and the loader did not find it (or it is not NVRTC 12.4's): put the directory holding it on LD_LIBRARY_PATH (the toolkit and NVIDIA's wheel have it next to libnvrtc); Debian's libnvrtc12 needs the package libnvrtc-builtins12.4: eval "$(cugen libs -major 12 nvrtc)" fetches both and sets CUGEN_LIBNVRTC and LD_LIBRARY_PATH`))
			if rep.Errors != 1 {
				t.Errorf("Errors = %d, want 1", rep.Errors)
			}
		})
	}
}

// TestNVRTCCompileFailureStandIn: an NVRTC whose compile fails for
// another reason is a problem naming the result and the first line of
// the compile log, a note when nvrtc is not named.
func TestNVRTCCompileFailureStandIn(t *testing.T) {
	if !inChild(t) {
		return
	}
	dir := isolate(t)
	lib := filepath.Join(dir, "libnvrtc.so.12")
	standIn(t, lib, "int nvrtcVersion(int *major, int *minor) { *major = 12; *minor = 4; return 0; }\n"+
		"int nvrtcCreateProgram(void **p, const char *s, const char *n, int k, void *h, void *i) { *p = (void *)1; return 0; }\n"+
		"int nvrtcCompileProgram(void *p, int n, void *o) { return 6; }\n"+
		"int nvrtcDestroyProgram(void **p) { *p = 0; return 0; }\n"+
		"const char *nvrtcGetErrorString(int r) { return r == 6 ? \"NVRTC_ERROR_COMPILATION\" : \"?\"; }\n"+
		"static const char log[] = \"bad.cu(1): error: broken\\nmore\";\n"+
		"int nvrtcGetProgramLogSize(void *p, unsigned long *n) { *n = sizeof log; return 0; }\n"+
		"int nvrtcGetProgramLog(void *p, char *b) { for (unsigned long i = 0; i < sizeof log; i++) b[i] = log[i]; return 0; }\n")
	t.Setenv("CUGEN_LIBNVRTC", lib)
	rep, lines := doctor(t, Options{Majors: []int{12}})
	hasLine(t, lines, regexp.QuoteMeta("note: cuda12/nvrtc: nvrtcCompileProgram failed: NVRTC_ERROR_COMPILATION (6): NVRTC loads but cannot compile a one-line kernel: bad.cu(1): error: broken: reinstall NVRTC"))
	if rep.Notes == 0 {
		t.Errorf("Notes = %d, want the compile failure among them", rep.Notes)
	}
}

// childOf reports whether this is the fresh process inChild started for t.
func childOf(t *testing.T) bool {
	return os.Getenv(childEnv) == t.Name()
}
