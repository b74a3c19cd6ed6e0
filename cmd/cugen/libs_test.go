package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	modfiles "github.com/cugen/cugen"
	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/library"
)

// cachedLibs returns the cached, verified directory of each Debian package
// of cugen's headers.lock named, or skips t.
func cachedLibs(t *testing.T, names ...string) map[string]string {
	t.Helper()
	l, err := lock.Parse(bytes.NewReader(modfiles.HeadersLock), "headers.lock")
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{}
	for _, n := range names {
		e, err := l.Lib(n)
		if err != nil {
			t.Fatal(err)
		}
		dir, err := lock.Cached(e, "")
		if err != nil {
			t.Skipf("%s is not in the cache (make test fetches it): %v", n, err)
		}
		dirs[n] = dir
	}
	return dirs
}

// TestLibsByName: cugen libs -major 12 nvrtc cublas prints, for a shell's
// eval, the variables of the two libraries naming their shared objects,
// and an LD_LIBRARY_PATH that puts the directories of what they open by
// soname (NVRTC's builtins, cuBLAS's cuBLASLt) before the one it had. Was:
// only -lib with a Debian package name, and nothing said that NVRTC needs
// its builtins.
func TestLibsByName(t *testing.T) {
	dirs := cachedLibs(t, "libnvrtc12", "libnvrtc-builtins12.4", "libcublas12", "libcublaslt12")
	code, stdout, stderr := cugen(t, "libs", "-major", "12", "nvrtc", "cublas")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cmd := exec.Command(sh, "-c", `eval "$1" && printf '%s\n' "$CUGEN_LIBNVRTC" "$CUGEN_LIBCUBLAS" "$LD_LIBRARY_PATH"`, "sh", stdout)
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH=/before")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sh eval of\n%s: %v\n%s", stdout, err, out)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	want := []string{
		filepath.Join(dirs["libnvrtc12"], "libnvrtc.so.12"),
		filepath.Join(dirs["libcublas12"], "libcublas.so.12"),
		dirs["libnvrtc-builtins12.4"] + ":" + dirs["libcublaslt12"] + ":/before",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("after eval of\n%s\ngot\n%s\nwant\n%s", stdout, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range want[:2] {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
	// -lib names libraries as gen's -lib does, in any case: the same
	// lines (issue 39: -lib took only a Debian package's name here).
	code, lib, stderr := cugen(t, "libs", "-lib", "NVRTC,cublas")
	if code != 0 || lib != stdout {
		t.Errorf("libs -lib NVRTC,cublas: exit %d, %s\n%s\nwant the lines of -major 12 nvrtc cublas:\n%s", code, stderr, lib, stdout)
	}
}

// TestLibsEnv: cugen libs -env -major 12 prints make test's environment
// from the library registry: every library with a locked Debian package
// gets its variable (cuBLASXt shares cuBLAS's), the driver's libraries
// (libcuda, NVML) their Debian copies; LD_LIBRARY_PATH gets the runtime's
// directory and those of what the libraries open by soname (NVRTC's
// builtins, cuBLASLt, nvJitLink, NPP's core), never the driver's (nvJitLink
// would open Debian's libcuda, which fails without a device) nor NVTX's
// (internal/doctor's TestNVTXAdvice needs it found only through its
// variable). Was: the Makefile listed each library's variable by hand.
func TestLibsEnv(t *testing.T) {
	var pkgs []string
	for _, d := range library.All {
		pkgs = append(pkgs, d.LockLibs...)
	}
	dirs := cachedLibs(t, pkgs...)
	code, stdout, stderr := cugen(t, "libs", "-env", "-major", "12")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cmd := exec.Command(sh, "-c", `eval "$1" && env`, "sh", stdout)
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH=/before")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sh eval of\n%s: %v\n%s", stdout, err, out)
	}
	env := map[string]string{}
	for _, kv := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	for _, d := range library.All {
		if len(d.LockLibs) == 0 {
			if strings.Contains(stdout, d.Load.EnvVar+"=") {
				t.Errorf("%s: no locked package, yet a line sets %s:\n%s", d.Package, d.Load.EnvVar, stdout)
			}
			continue
		}
		want := filepath.Join(dirs[d.LockLibs[0]], d.Load.FilesFor(12)[0])
		if env[d.Load.EnvVar] != want {
			t.Errorf("%s: %s=%q, want %q", d.Package, d.Load.EnvVar, env[d.Load.EnvVar], want)
		}
		if _, err := os.Stat(want); err != nil {
			t.Error(err)
		}
	}
	path := strings.Split(env["LD_LIBRARY_PATH"], ":")
	wantPath := []string{dirs["libcudart12"], dirs["libnvrtc-builtins12.4"], dirs["libnvjitlink12"], dirs["libcublas12"], dirs["libcublaslt12"], dirs["libcusparse12"], dirs["libnppc12"], "/before"}
	if strings.Join(path, "\n") != strings.Join(wantPath, "\n") {
		t.Errorf("LD_LIBRARY_PATH:\n%s\nwant\n%s", strings.Join(path, "\n"), strings.Join(wantPath, "\n"))
	}
	if n := strings.Count(stdout, "export CUGEN_LIBCUBLAS="); n != 1 {
		t.Errorf("%d lines set CUGEN_LIBCUBLAS, want 1:\n%s", n, stdout)
	}
}

// TestLibsByNameErrors: a CUDA 13 library names where CUDA 13's libraries
// come from; the driver's libraries are refused (they must match the
// kernel module); an unknown name lists the known ones; a missing -major,
// a flag after the names and -lib with names are errors. Nothing is
// printed on stdout.
func TestLibsByNameErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-major", "13", "nvrtc"}, "cugen libs: -major 13: Debian has no CUDA 13 packages, so cugen locks none: CUDA 13's libraries come from the CUDA 13 toolkit or NVIDIA's pip wheels (nvrtc: pip install nvidia-cuda-nvrtc)"},
		{[]string{"-major", "12", "cu"}, "cugen libs: cu: libcuda.so.1 or libcuda.so comes with the NVIDIA driver"},
		{[]string{"-major", "12", "nvml"}, "cugen libs: nvml: libnvidia-ml.so.1 comes with the NVIDIA driver"},
		{[]string{"-major", "12", "nope"}, `cugen libs: no library "nope" (the libraries: cu, cudart, nvrtc,`},
		{[]string{"nvrtc"}, "cugen libs: nvrtc: -major 12 is required"},
		{[]string{"-major", "12"}, "cugen libs: -major 12: name the libraries (cu, cudart,"},
		{[]string{"-major", "11", "nvrtc"}, "cugen libs: -major 11: cugen fetches the libraries of CUDA 12"},
		{[]string{"nvrtc", "-major", "12"}, "cugen libs: flag -major after the library names: give the flags first"},
		{[]string{"-lib", "libnvrtc12", "-major", "12", "nvrtc"}, "cugen libs: -lib NAME (a Debian package) or -major N with library names, not both"},
		{[]string{"-env", "-major", "12", "nvrtc"}, "cugen libs: -env takes no library names (it prints every library's): nvrtc"},
		{[]string{"-env"}, "cugen libs: -env: -major 12 is required"},
		{[]string{"-env", "-major", "13"}, "cugen libs: -major 13: Debian has no CUDA 13 packages"},
		{[]string{"-env", "-lib", "libnvrtc12"}, "cugen libs: -lib NAME (a Debian package) or -major N with library names, not both"},
	} {
		code, stdout, stderr := cugen(t, append([]string{"libs"}, c.args...)...)
		if code != 1 || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("cugen libs %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(c.args, " "), code, stdout, stderr, c.want)
		}
	}
}

// TestLibsCacheColon: a cache directory with a ':' is refused, naming
// CUGEN_CACHE, and nothing is printed for the shell (issue 37). Was: exit 0
// and LD_LIBRARY_PATH='DIR/plant:x/libs/...', which the loader split at
// the ':', so NVRTC loaded the builtins library planted in DIR/plant.
func TestLibsCacheColon(t *testing.T) {
	cachedLibs(t, "libnvrtc12", "libnvrtc-builtins12.4")
	real, err := lock.DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	plant := filepath.Join(t.TempDir(), "plant:x")
	if err := os.Mkdir(plant, 0o755); err != nil {
		t.Fatal(err)
	}
	// The cache's libraries, so that only the directory's name is wrong.
	if err := os.Symlink(filepath.Join(real, "libs"), filepath.Join(plant, "libs")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CUGEN_CACHE", plant)
	code, stdout, stderr := cugen(t, "libs", "-major", "12", "nvrtc")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "CUGEN_CACHE=") || !strings.Contains(stderr, "':'") {
		t.Errorf("cugen libs -major 12 nvrtc with CUGEN_CACHE=%s: exit %d, stdout %q, stderr %q; want exit 1, nothing for the shell, and an error naming CUGEN_CACHE and the ':'", plant, code, stdout, stderr)
	}
}
