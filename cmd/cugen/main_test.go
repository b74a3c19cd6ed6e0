package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cugen/cugen/parser/lock"
)

// cugen runs the command in-process and returns its exit code and output.
func cugen(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("cugen %s panicked: %v", strings.Join(args, " "), r)
		}
	}()
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// untouched fails unless out does not exist.
func untouched(t *testing.T, out string) {
	t.Helper()
	if _, err := os.Lstat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s was created (%v): the run failed, nothing should be written", out, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range entries {
		if strings.Contains(e.Name(), "cugen-") {
			t.Errorf("work directory %s left behind", e.Name())
		}
	}
}

var located = regexp.MustCompile(`(?m)^cuda\.h:\d+:\d+: `)

// TestBrokenHeaders: a header with a syntax error is exit 1 and a
// file:line:col: message, for gen and ir alike; nothing is written.
func TestBrokenHeaders(t *testing.T) {
	for name, src := range map[string]string{
		"syntax":     "#define CUDA_VERSION 12040\ntypedef int CUdevice;\nCUresult cuBroken(CUdevice d\n;\n",
		"include":    "#define CUDA_VERSION 12040\n#include \"nowhere.h\"\n",
		"error":      "#define CUDA_VERSION 12040\n#error this header set is broken\n",
		"dev-zero":   "#define CUDA_VERSION 12040\n#include \"../../../../../../../../../../dev/zero\"\n",
		"expansion":  "#define CUDA_VERSION 12040\n#define a x x\n#define b a a a a a a a a\n#define c b b b b b b b b\n#define d c c c c c c c c\n#define e d d d d d d d d\n#define f e e e e e e e e\n#define g f f f f f f f f\n#define h g g g g g g g g\n#if h h h h\n#endif\n",
		"no-version": "typedef int CUdevice;\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "cuda.h"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := cugen(t, "gen", "-headers", dir, "-out", out, "-importpath", "example.com/out")
			t.Logf("exit %d, stderr: %s", code, stderr)
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if name == "no-version" {
				if !strings.HasPrefix(stderr, "cuda.h: ") {
					t.Errorf("stderr %q does not name cuda.h", stderr)
				}
			} else if !located.MatchString(stderr) {
				t.Errorf("stderr %q has no cuda.h:line:col:", stderr)
			}
			if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine") {
				t.Errorf("stderr shows a panic: %s", stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			untouched(t, out)
			if code, _, stderr := cugen(t, "ir", "-headers", dir); code != 1 || stderr == "" {
				t.Errorf("cugen ir: exit %d, stderr %q", code, stderr)
			}
		})
	}
}

// TestMissingHeaderDir: not a directory, or no cuda.h in it.
func TestMissingHeaderDir(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	for _, dir := range []string{filepath.Join(t.TempDir(), "absent"), t.TempDir()} {
		code, _, stderr := cugen(t, "gen", "-headers", dir, "-out", out)
		if code != 1 || !strings.Contains(stderr, dir) {
			t.Errorf("headers %s: exit %d, stderr %q", dir, code, stderr)
		}
	}
	untouched(t, out)
}

// TestUsage: no command, an unknown one, a missing or doubled source, an
// unknown flag or a stray argument: non-zero exit, a message, no panic.
func TestUsage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	for _, c := range []struct {
		args []string
		code int // -1: any failure
		msg  string
	}{
		{nil, 2, "usage:"},
		{[]string{"frobnicate"}, 2, "usage:"},
		{[]string{"gen", "-out", out}, 1, "-headers DIR or -set NAME is required"},
		{[]string{"ir"}, 1, "-headers DIR or -set NAME is required"},
		{[]string{"gen", "-headers", "x", "-set", "12.4", "-out", out}, 1, "not both"},
		{[]string{"gen", "-bogus", "-out", out}, -1, "flag provided but not defined"},
		{[]string{"gen", "-headers", "x", "-out", out, "extra"}, 1, `unexpected argument "extra"`},
		{[]string{"headers"}, 1, "-set NAME is required"},
		{[]string{"libs"}, 1, "-lib NAME is required"},
	} {
		code, stdout, stderr := cugen(t, c.args...)
		if (code != c.code && !(c.code == -1 && code != 0)) || !strings.Contains(stderr, c.msg) {
			t.Errorf("cugen %q: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.msg)
		}
		if stdout != "" {
			t.Errorf("cugen %q: stdout %q", c.args, stdout)
		}
	}
	untouched(t, out)
}

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

// TestGenWritesOnlyOut: a good run over a tiny header set writes the two
// packages and nothing else, and a rerun keeps a user file.
func TestGenWritesOnlyOut(t *testing.T) {
	dir := t.TempDir()
	src := "#define CUDA_VERSION 12040\ntypedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1 } CUresult;\n" +
		"typedef int CUdevice;\n/**\n * \\param count - Returned number of devices\n */\nCUresult cuDeviceGetCount(int *count);\n"
	rt := "#define CUDART_VERSION 12040\ntypedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 } cudaError_t;\n" +
		"/**\n * \\param count - Returns the number of devices\n */\nextern cudaError_t cudaGetDeviceCount(int *count);\n"
	for name, text := range map[string]string{"cuda.h": src, "cuda_runtime.h": "#include \"cuda_runtime_api.h\"\n", "cuda_runtime_api.h": rt} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := t.TempDir()
	out := filepath.Join(root, "out")
	for i := 0; i < 2; i++ {
		code, stdout, stderr := cugen(t, "gen", "-headers", dir, "-out", out, "-importpath", "example.com/out")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if !strings.Contains(stdout, "cugen: CUDA 12.4 headers") {
			t.Errorf("stdout %q", stdout)
		}
		if i == 0 {
			if err := os.WriteFile(filepath.Join(out, "cu", "mine.go"), []byte("package cu\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, "cu", "mine.go")); err != nil || string(b) != "package cu\n" {
		t.Errorf("user file after regeneration: %q, %v", b, err)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Errorf("%s holds %d entries, want only out", root, len(entries))
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
	if want := "a.h: the parse read 2 file(s) of the header directory that set t of " + cut + " does not pin: a.h, b.h"; code != 1 || !strings.Contains(stderr, want) {
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
	l, err := lock.ReadFile("../../headers.lock")
	if err != nil {
		t.Fatal(err)
	}
	e, err := l.Entry("12.4")
	if err != nil {
		t.Fatal(err)
	}
	cache, err := lock.DefaultCacheDir()
	if err != nil {
		t.Skip(err)
	}
	if err := lock.Verify(filepath.Join(cache, "headers", e.Name, e.Root), e); err != nil {
		t.Skipf("set 12.4 not in the cache (make headers): %v", firstLine(err.Error()))
	}
	if len(e.Files) != 18 {
		t.Fatalf("set 12.4 lists %d files, this test expects 18", len(e.Files))
	}
	cut := *e
	cut.Files = e.Files[:7]
	p := filepath.Join(t.TempDir(), "cut.lock")
	if err := (&lock.Lock{Entries: []*lock.Entry{&cut}}).WriteFile(p); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cugen(t, "ir", "-set", "12.4", "-lock", p)
	t.Logf("exit %d: %s", code, stderr)
	if code != 1 || !strings.Contains(stderr, "the parse read 11 file(s) of the header directory that set 12.4 of "+p+" does not pin: ") {
		t.Errorf("exit %d, stderr %q; want exit 1 and the 11 files not pinned", code, stderr)
	}
	for _, f := range e.Files[7:] {
		if !strings.Contains(stderr, f.Path) {
			t.Errorf("stderr does not name %s", f.Path)
		}
	}
}

// TestDriverOnlyHeaders: a header directory holding only cuda.h cannot
// give the cudart package; the error says what is missing. Was: "no error
// enum (CUresult / cudaError_t) in the headers".
func TestDriverOnlyHeaders(t *testing.T) {
	dir := t.TempDir()
	src := "#define CUDA_VERSION 12040\ntypedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;\nCUresult cuInit(unsigned int flags);\n"
	if err := os.WriteFile(filepath.Join(dir, "cuda.h"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := cugen(t, "gen", "-headers", dir, "-out", out, "-importpath", "example.com/out")
	if want := "cuda_runtime_api.h not found in the header directory"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, stderr, want)
	}
	untouched(t, out)
}
