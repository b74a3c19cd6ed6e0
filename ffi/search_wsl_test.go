//go:build linux && (amd64 || arm64)

package ffi

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// wslDriver is a stand-in for the libcuda.so.1 that WSL 2 maps into a
// distribution from the Windows driver: it answers cuInit,
// cuDriverGetVersion and cuDeviceGetCount, and says which copy it is.
const wslDriver = `
int cuInit(unsigned flags) { return flags == 0 ? 0 : 1; }
int cuDriverGetVersion(int *v) { *v = 12060; return 0; }
int cuDeviceGetCount(int *n) { *n = 1; return 0; }
const char *standin_which(void) { return WHICH; }
`

// buildWSLTree lays out under root the directory WSL 2 gives a
// distribution, /usr/lib/wsl/lib: the driver as regular files
// (libcuda.so, libcuda.so.1, libcuda.so.1.1: copies, not links, as
// ldconfig complains there) beside the DirectX core libraries it rides on
// (libdxcore.so, libd3d12.so, libd3d12core.so), NVML and nvidia-smi. The
// driver files are the stand-in built with cc, which names itself which.
func buildWSLTree(t *testing.T, root, which string) string {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s) to build the stand-in driver", cc)
	}
	dir := filepath.Join(root, "usr/lib/wsl/lib")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "libcuda.c")
	if err := os.WriteFile(src, []byte(`#define WHICH "`+which+`"`+"\n"+wslDriver), 0o644); err != nil {
		t.Fatal(err)
	}
	build := func(out, src string) {
		if b, err := exec.Command(cc, "-shared", "-fPIC", "-o", out, src).CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", out, err, b)
		}
	}
	build(filepath.Join(dir, "libcuda.so.1.1"), src)
	lib, err := os.ReadFile(filepath.Join(dir, "libcuda.so.1.1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"libcuda.so", "libcuda.so.1"} {
		if err := os.WriteFile(filepath.Join(dir, f), lib, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	other := filepath.Join(t.TempDir(), "dx.c")
	if err := os.WriteFile(other, []byte("int standin_dx(void) { return 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	build(filepath.Join(dir, "libdxcore.so"), other)
	dx, err := os.ReadFile(filepath.Join(dir, "libdxcore.so"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"libd3d12.so", "libd3d12core.so", "libnvidia-ml.so.1"} {
		if err := os.WriteFile(filepath.Join(dir, f), dx, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "nvidia-smi"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "libcuda.so.1")
}

// TestSearchWSLTree: on a WSL 2 system tree (a stand-in /usr/lib/wsl/lib
// under a root) with no driver anywhere else, the driver's description
// loads WSL's libcuda.so.1, through the exported LibraryDesc.Root as
// through the search, and its calls answer (cuInit, cuDriverGetVersion
// 12.6, cuDeviceGetCount 1, the copy naming itself). Without WSL's
// directory in the tree, the load fails and names it among the absent.
func TestSearchWSLTree(t *testing.T) {
	if h, err := dlopenNow("libcuda.so.1"); err == nil {
		dlclose(h)
		t.Skip("the dynamic loader finds a libcuda.so.1 of this machine's, which comes first in the search")
	}
	root := t.TempDir()
	want := buildWSLTree(t, root, "wsl")
	desc := LibraryDesc{Name: "CUDA driver", EnvVar: "CUGEN_TEST_WSL_LIBCUDA", Files: []string{"libcuda.so.1", "libcuda.so"},
		WSL: true, Identify: "cuDriverGetVersion", Root: root}
	got, le := loadIn(t, &desc, fakeSearch(root, nil))
	if got != want {
		t.Fatalf("loaded %q (%v), want WSL's %q", got, le, want)
	}
	l := NewLibrary(desc)
	if err := l.Load(); err != nil {
		t.Fatal(err)
	}
	if l.Path() != want {
		t.Fatalf("LibraryDesc.Root: loaded %q, want %q", l.Path(), want)
	}
	call := func(sym string, args ...any) uintptr {
		t.Helper()
		fn, err := l.Lookup(sym)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Call(fn, args...)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	var v, n int32
	if r := call("cuInit", 0); int32(r) != 0 {
		t.Fatalf("cuInit = %d", int32(r))
	}
	if r := call("cuDriverGetVersion", &v); int32(r) != 0 || v != 12060 {
		t.Fatalf("cuDriverGetVersion = %d, %d", int32(r), v)
	}
	if r := call("cuDeviceGetCount", &n); int32(r) != 0 || n != 1 {
		t.Fatalf("cuDeviceGetCount = %d, %d", int32(r), n)
	}
	if which := GoString(call("standin_which"), 16); which != "wsl" {
		t.Fatalf("the copy loaded says %q, want wsl", which)
	}
	t.Logf("loaded %s: cuDriverGetVersion %d, %d device", l.Path(), v, n)

	// No WSL directory: nothing loads, and the error names it.
	bare := t.TempDir()
	desc.Root = bare
	if _, le := loadIn(t, &desc, fakeSearch(bare, nil)); le == nil || !slices.Contains(le.Absent, filepath.Join(bare, "usr/lib/wsl/lib")) {
		t.Fatalf("without /usr/lib/wsl/lib: %v, want it among the absent", le)
	}
}
