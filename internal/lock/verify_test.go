package lock

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (slash paths to contents) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var headers = map[string]string{
	"cuda.h":             "#include \"crt/host_defines.h\"\ntypedef int CUresult;\n",
	"crt/host_defines.h": "#define __host__\n",
}

func TestVerifyTampered(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, headers)
	e := &Entry{Kind: KindSet, Name: "12.4", CUDA: "12.4.1", Lock: "headers.lock"}
	if err := Update(e, dir, []string{"cuda.h", "./crt/host_defines.h", "cuda.h"}); err != nil {
		t.Fatal(err)
	}
	if len(e.Files) != 2 || e.Files[0].Path != "crt/host_defines.h" {
		t.Fatalf("Update: files = %v", e.Files)
	}
	if err := Verify(dir, e); err != nil {
		t.Fatal(err)
	}
	want := e.Files[1].SHA256
	writeTree(t, dir, map[string]string{"cuda.h": "typedef long CUresult;\n"})
	got := sha(t, filepath.Join(dir, "cuda.h"))
	err := Verify(dir, e)
	var m *MismatchError
	if !errors.As(err, &m) || m.Got != got || m.Want != want {
		t.Fatalf("Verify = %v, want a *MismatchError for cuda.h", err)
	}
	for _, s := range []string{filepath.Join(dir, "cuda.h"), got, want, "headers.lock", "set 12.4"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("Verify error %q does not name %s", err, s)
		}
	}
	os.Remove(filepath.Join(dir, "crt/host_defines.h"))
	err = Verify(dir, e)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "crt/host_defines.h: missing") {
		t.Errorf("Verify with a missing file = %v", err)
	}
}

func TestVerifyCapsReport(t *testing.T) {
	e := &Entry{Kind: KindSet, Name: "x"}
	for i := range 15 {
		e.Files = append(e.Files, File{Path: string(rune('a'+i)) + ".h", SHA256: h1})
	}
	err := Verify(t.TempDir(), e)
	n := strings.Count(err.Error(), "\n") + 1
	if n != maxReported+1 || !strings.Contains(err.Error(), "5 more of the 15 files set x pins") {
		t.Errorf("Verify reported %d lines:\n%v", n, err)
	}
}

func TestUpdateRejects(t *testing.T) {
	e := &Entry{Kind: KindSet, Name: "x"}
	dir := t.TempDir()
	for _, files := range [][]string{nil, {"../x.h"}, {"/etc/passwd"}, {"missing.h"}} {
		if err := Update(e, dir, files); err == nil {
			t.Errorf("Update(%q) succeeded", files)
		}
	}
}

func TestMirror(t *testing.T) {
	deb822 := `Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://snapshot.debian.org/archive/debian/20250520T000000Z
Suites: bookworm

Types: deb-src
URIs: http://src.example/debian

Enabled: no
Types: deb
URIs: http://off.example/debian

Types: deb
URIs: http://security.example/debian-security http://mirror.example/debian/
Suites: bookworm
`
	if got := mirrorIn822(deb822); got != "http://mirror.example/debian" {
		t.Errorf("mirrorIn822 = %q", got)
	}
	dir := t.TempDir()
	list := filepath.Join(dir, "sources.list")
	writeTree(t, dir, map[string]string{"sources.list": "# deb http://no.example/debian x main\n" +
		"deb-src http://src.example/debian bookworm main\n" +
		"deb [arch=amd64 signed-by=/k.gpg] https://one.example/debian bookworm main\n"})
	if got := mirrorIn(list, false); got != "https://one.example/debian" {
		t.Errorf("mirrorIn(one-line) = %q", got)
	}
	t.Setenv("CUGEN_DEBIAN_MIRROR", "http://env.example/debian")
	if got := Mirror(); got != "http://env.example/debian" {
		t.Errorf("Mirror with CUGEN_DEBIAN_MIRROR = %q", got)
	}
}

func TestDefaultCacheDir(t *testing.T) {
	t.Setenv("CUGEN_CACHE", "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	if d, _ := DefaultCacheDir(); d != "/xdg/cugen" {
		t.Errorf("DefaultCacheDir = %q, want /xdg/cugen", d)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "/home/u")
	if d, _ := DefaultCacheDir(); d != "/home/u/.cache/cugen" {
		t.Errorf("DefaultCacheDir = %q, want /home/u/.cache/cugen", d)
	}
	t.Setenv("CUGEN_CACHE", "/c")
	if d, _ := DefaultCacheDir(); d != "/c" {
		t.Errorf("DefaultCacheDir = %q, want /c", d)
	}
}

// TestDefaultCacheDirListUnsafe: a cache directory that could not stand as
// one entry of LD_LIBRARY_PATH is refused, naming the variable it came
// from (issue 37). Was: CUGEN_CACHE=DIR/plant:x was taken, cugen libs
// printed it into LD_LIBRARY_PATH, which the loader split at the ':', and
// NVRTC loaded a builtins library planted in DIR/plant.
func TestDefaultCacheDirListUnsafe(t *testing.T) {
	for _, c := range []struct{ name, value string }{
		{"CUGEN_CACHE", "/tmp/plant:x"},
		{"CUGEN_CACHE", "/tmp/plant;x"},
		{"CUGEN_CACHE", "/tmp/$ORIGIN/x"},
		{"CUGEN_CACHE", "/tmp/plant\nexport X=1"},
		{"XDG_CACHE_HOME", "/tmp/plant:x"},
		{"HOME", "/home/a:b"},
	} {
		t.Setenv("CUGEN_CACHE", "")
		t.Setenv("XDG_CACHE_HOME", "")
		t.Setenv(c.name, c.value)
		d, err := DefaultCacheDir()
		if err == nil || !strings.Contains(err.Error(), c.name+"=") {
			t.Errorf("%s=%q: DefaultCacheDir = %q, %v; want an error naming %s", c.name, c.value, d, err, c.name)
		}
	}
	plant := filepath.Join(t.TempDir(), "plant:x")
	e := fakeDeb(t, plant) // a fetch that would succeed there
	if _, err := Cached(e, plant); err == nil || !strings.Contains(err.Error(), "search path") {
		t.Errorf("Cached in %s: %v; want the directory refused", plant, err)
	}
	if _, err := Fetch(context.Background(), e, plant, nil); err == nil || !strings.Contains(err.Error(), "search path") {
		t.Errorf("Fetch into %s: %v; want the directory refused", plant, err)
	}
}
