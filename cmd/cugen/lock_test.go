package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/internal/testset"
)

// This file tests how gen holds a header set to headers.lock: unknown
// sets, altered hashes, headers the lock does not pin.

// TestLockFailures: an unknown set, a malformed lock and a lock whose
// hashes were altered all fail before anything is written to -out (and,
// with CUGEN_CACHE pointing at an empty cache, before any download).
func TestLockFailures(t *testing.T) {
	real, err := os.ReadFile("../../headers.lock")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	cache := filepath.Join(tmp, "cache")
	t.Setenv("CUGEN_CACHE", cache)
	write := func(name, text string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.lock", string(real))
	// Malformed: a hash that is not one.
	malformed := write("malformed.lock", regexp.MustCompile(`(?m)^(\tsha256 )[0-9a-f]{64}( cuda\.h)$`).ReplaceAllString(string(real), "${1}not-a-hash${2}"))
	// Tampered: every digit 0 of the 12.4 set's hashes becomes 1. The
	// cache holds a stand-in for the set's .deb, so Fetch compares it with
	// the lock and stops there instead of calling apt.
	tampered := write("tampered.lock", tamper(t, string(real), "12.4"))
	os.MkdirAll(filepath.Join(cache, "debs"), 0o755)
	for _, deb := range []string{"nvidia-cuda-dev_12.4.127~12.4.1-2_amd64.deb"} {
		if err := os.WriteFile(filepath.Join(cache, "debs", deb), []byte("not a deb"), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	for _, c := range []struct {
		name, lock, set, msg string
	}{
		{"unknown set", good, "99.9", "99.9"},
		{"malformed lock", malformed, "12.4", "malformed.lock"},
		{"tampered lock", tampered, "12.4", "sha256"},
		{"missing lock", filepath.Join(tmp, "absent.lock"), "12.4", "absent.lock"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, _, stderr := cugen(t, "gen", "-set", c.set, "-lock", c.lock, "-out", out)
			t.Logf("exit %d, stderr: %s", code, firstLine(stderr))
			if code != 1 || !strings.Contains(stderr, c.msg) {
				t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, stderr, c.msg)
			}
			untouched(t, out)
		})
	}
}

// tamper changes the hashes of one set of a lock file.
func tamper(t *testing.T, lock, set string) string {
	t.Helper()
	var b strings.Builder
	in := false
	changed := 0
	for _, l := range strings.SplitAfter(lock, "\n") {
		if strings.HasPrefix(l, "set ") || strings.HasPrefix(l, "lib ") {
			in = strings.TrimSpace(l) == "set "+set
		}
		if in && (strings.HasPrefix(l, "\tsha256 ") || strings.HasPrefix(l, "\tdeb ")) {
			l = strings.ReplaceAll(l, "0", "1")
			changed++
		}
		b.WriteString(l)
	}
	if changed == 0 {
		t.Fatalf("set %s not found in the lock", set)
	}
	return b.String()
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// TestLockUnpinnedHeader: a header the parse reads but the lock does not
// pin (a header added to parser's list, like the profiler's) stops gen with
// the file's name, and `cugen lock` pins it. The set is a toolkit entry
// over a copy of parser/testdata/profiler.
func TestLockUnpinnedHeader(t *testing.T) {
	tmp := t.TempDir()
	inc := filepath.Join(tmp, "tk", "include")
	if err := os.MkdirAll(inc, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "../../parser/testdata/profiler"
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(inc, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum := func(name string) string {
		b, err := os.ReadFile(filepath.Join(inc, name))
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%x", sha256.Sum256(b))
	}
	// The lock pins everything but the two profiler headers.
	var lk strings.Builder
	lk.WriteString("set t1\n\tcuda 12.4\n\ttoolkit\n")
	for _, f := range []string{"cuda.h", "cuda_runtime.h", "cuda_runtime_api.h", "driver_types.h"} {
		fmt.Fprintf(&lk, "\tsha256 %s %s\n", sum(f), f)
	}
	lockFile := filepath.Join(tmp, "t.lock")
	if err := os.WriteFile(lockFile, []byte(lk.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CUDA_HOME", filepath.Join(tmp, "tk"))
	out := filepath.Join(tmp, "out")

	code, _, stderr := cugen(t, "gen", "-set", "t1", "-lock", lockFile, "-out", out, "-importpath", "example.com/x")
	if code != 1 || !strings.Contains(stderr, "does not pin: cudaProfiler.h, cuda_profiler_api.h") || !strings.Contains(stderr, "cugen lock -set t1") {
		t.Fatalf("gen with an unpinned header: exit %d, stderr %q", code, stderr)
	}
	untouched(t, out)

	if code, stdout, stderr := cugen(t, "lock", "-set", "t1", "-lock", lockFile); code != 0 {
		t.Fatalf("lock: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	b, err := os.ReadFile(lockFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"cudaProfiler.h", "cuda_profiler_api.h"} {
		if line := "sha256 " + sum(f) + " " + f; !strings.Contains(string(b), line) {
			t.Errorf("lock after cugen lock lacks %q:\n%s", line, b)
		}
	}
	if code, _, stderr := cugen(t, "gen", "-set", "t1", "-lock", lockFile, "-out", out, "-importpath", "example.com/x"); code != 0 {
		t.Fatalf("gen after cugen lock: exit %d, stderr %q", code, stderr)
	}
}

// TestLockPinsParsedFiles: with -set, every file the parse reads from the
// header directory must be listed in the lock entry with its sha256. Was:
// a lock cut short, or a header dropped into the verified directory, was
// parsed unverified and the output stamped with the set's name.
func TestLockPinsParsedFiles(t *testing.T) {
	home := t.TempDir()
	inc := filepath.Join(home, "include")
	files := map[string]string{
		"cuda.h": "#define CUDA_VERSION 12040\ntypedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;\n" +
			"#include \"a.h\"\n#include \"b.h\"\n#if __has_include(\"opt.h\")\n#include \"opt.h\"\n#endif\n",
		"a.h": "typedef int CUdevice;\n",
		"b.h": "typedef struct CUctx_st *CUcontext;\n",
	}
	os.MkdirAll(inc, 0o755)
	var all, short strings.Builder
	for _, name := range []string{"a.h", "b.h", "cuda.h"} {
		if err := os.WriteFile(filepath.Join(inc, name), []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(files[name]))
		line := "\tsha256 " + hex.EncodeToString(sum[:]) + " " + name + "\n"
		all.WriteString(line)
		if name == "cuda.h" {
			short.WriteString(line)
		}
	}
	t.Setenv("CUDA_HOME", home)
	t.Setenv("CUDA_PATH", "")
	tmp := t.TempDir()
	writeLock := func(name, shas string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte("set t\n\tcuda 12.4.1\n\ttoolkit\n"+shas), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	full, cut := writeLock("full.lock", all.String()), writeLock("cut.lock", short.String())

	if code, _, stderr := cugen(t, "ir", "-set", "t", "-lock", full); code != 0 {
		t.Fatalf("full lock: exit %d: %s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := cugen(t, "gen", "-set", "t", "-lock", cut, "-out", out, "-importpath", "example.com/out")
	t.Logf("cut lock: exit %d: %s", code, stderr)
	if want := "a.h: the parse read 2 file(s) of the header directory that set t of " + cut + " (cugen lock -set t pins a header added to the parser's list) does not pin: a.h, b.h"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("cut lock: exit %d, stderr %q; want exit 1 and %q", code, stderr, want)
	}
	untouched(t, out)

	// A header dropped into the verified directory.
	if err := os.WriteFile(filepath.Join(inc, "opt.h"), []byte("typedef int CUstream;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"gen", "-set", "t", "-lock", full, "-out", out, "-importpath", "example.com/out"},
		{"ir", "-set", "t", "-lock", full},
		{"diff", "-old", "set:t", "-new", "set:t", "-lock", full},
	} {
		code, _, stderr := cugen(t, args...)
		if !strings.Contains(stderr, "opt.h: the parse read 1 file(s)") || code != 1 {
			t.Errorf("cugen %s with opt.h planted: exit %d, stderr %q", args[0], code, stderr)
		}
	}
	untouched(t, out)
}

// TestLockCutShortRealSet: set 12.4 locked by only 7 of its 18 sha256
// lines: the 11 others are named. Uses the shared header cache; skipped
// where set 12.4 is not fetched.
func TestLockCutShortRealSet(t *testing.T) {
	set := testset.Set(t, "12.4")
	e := set.Set
	cut := *e
	cut.Files = e.Files[:7]
	p := filepath.Join(t.TempDir(), "cut.lock")
	// The set's headers entries go along whole.
	if err := (&lock.Lock{Entries: append([]*lock.Entry{&cut}, set.With...)}).WriteFile(p); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cugen(t, "ir", "-set", "12.4", "-lock", p)
	t.Logf("exit %d: %s", code, stderr)
	if code != 1 || !strings.Contains(stderr, fmt.Sprintf("the parse read %d file(s) of the header directory that set 12.4 of %s", len(e.Files)-7, p)) {
		t.Errorf("exit %d, stderr %q; want exit 1 and the 11 files not pinned", code, stderr)
	}
	for _, f := range e.Files[7:] {
		if !strings.Contains(stderr, f.Path) {
			t.Errorf("stderr does not name %s", f.Path)
		}
	}
}

// TestSetWithoutLockFile: in a directory with no headers.lock (any
// module), -set reads the lock cugen carries. Was: "open headers.lock: no
// such file or directory" for headers, libs and gen alike, naming no set.
// Now headers -set 12.4 prints the cached set's directory, an unknown set
// and a missing one are errors naming the sets cugen knows.
func TestSetWithoutLockFile(t *testing.T) {
	set := testset.Set(t, "12.4")
	t.Chdir(t.TempDir())
	code, stdout, stderr := cugen(t, "headers", "-set", "12.4")
	if code != 0 || strings.TrimSpace(stdout) != set.Dir {
		t.Errorf("headers -set 12.4: exit %d, stdout %q, stderr %q; want %s", code, stdout, stderr, set.Dir)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gen", "-set", "9.9", "-out", "out"}, `cugen's headers.lock has no set "9.9" (it has: 11.8, 12.4, 12.5`},
		{[]string{"gen", "-out", "out"}, "cugen: -headers DIR, -set NAME or -ir FILE is required (the sets of cugen's headers.lock: 11.8, 12.4, 12.5"},
		{[]string{"headers"}, "cugen: -set NAME is required (the sets of cugen's headers.lock: 11.8, 12.4, 12.5"},
		{[]string{"libs"}, "cugen libs: -lib NAME is required (the libraries of cugen's headers.lock: libcublas12,"},
		{[]string{"libs", "-lib", "libnothing9"}, `cugen's headers.lock has no lib "libnothing9" (it has: libcublas12,`},
	} {
		code, _, stderr := cugen(t, c.args...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("cugen %s: exit %d, stderr %q; want exit 1 and %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
		untouched(t, "out")
	}
}
