package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/internal/namedpipe"
	"github.com/cugen/cugen/internal/testset"
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

// TestUsage: no command, an unknown one or an unknown flag is a usage
// error, exit 2; a missing or doubled source, a stray argument, an output
// that cannot be meant (the root) or an invalid -importpath exit 1 with one
// message; no panic, nothing written.
func TestUsage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "usage:"},
		{[]string{"frobnicate"}, 2, "usage:"},
		{[]string{"gen", "-out", out}, 1, "-headers DIR, -set NAME or -ir FILE is required"},
		{[]string{"ir"}, 1, "-headers DIR or -set NAME is required"},
		{[]string{"gen", "-headers", "x", "-set", "12.4", "-out", out}, 1, "not both"},
		{[]string{"gen", "-bogus", "-out", out}, 2, "flag provided but not defined"},
		{[]string{"libs", "-lib"}, 2, "flag needs an argument"},
		{[]string{"gen", "-headers", "x", "-out", "/"}, 1, "-out / is the file system's root"},
		{[]string{"gen", "-headers", "x", "-out", "/.."}, 1, "is the file system's root"},
		{[]string{"gen", "-headers", "x", "-out", out, "-importpath", `bad"x`}, 1, `-importpath "bad\"x" is not a valid Go import path`},
		{[]string{"gen", "-headers", "x", "-out", out, "-importpath", "a//b"}, 1, "not a valid Go import path"},
		{[]string{"gen", "-headers", "x", "-out", out, "-importpath", "/abs"}, 1, "not a valid Go import path"},
		{[]string{"gen", "-headers", "x", "-out", out, "-importpath", "a/../b"}, 1, "not a valid Go import path"},
		{[]string{"gen", "-headers", "x", "-out", out, "-importpath", "a b"}, 1, "not a valid Go import path"},
		{[]string{"gen", "-headers", "x", "-out", out, "extra"}, 1, `unexpected argument "extra"`},
		{[]string{"headers"}, 1, "-set NAME is required"},
		{[]string{"libs"}, 1, "-lib NAME is required"},
	} {
		code, stdout, stderr := cugen(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("cugen %q: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.msg)
		}
		if stdout != "" {
			t.Errorf("cugen %q: stdout %q", c.args, stdout)
		}
	}
	untouched(t, out)
}

// TestUsageListsEveryFlag: the usage string has one line per command, and
// each line names exactly the flags that command's FlagSet defines (as -h
// prints them), so a flag added to a command cannot be left out of it.
func TestUsageListsEveryFlag(t *testing.T) {
	lines := map[string]string{}
	for _, l := range strings.Split(usage, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "cugen" {
			lines[f[1]] = l
		}
	}
	defined := regexp.MustCompile(`(?m)^  -([a-z]+)`)
	named := regexp.MustCompile(`(?:^|[ (|\[])-([a-z]+)`)
	for name := range commands {
		line, ok := lines[name]
		if !ok {
			t.Errorf("usage has no line for command %s", name)
			continue
		}
		code, _, stderr := cugen(t, name, "-h")
		if code != 2 {
			t.Errorf("cugen %s -h: exit %d, want 2", name, code)
		}
		want := map[string]bool{}
		for _, m := range defined.FindAllStringSubmatch(stderr, -1) {
			want[m[1]] = true
		}
		if len(want) == 0 {
			t.Errorf("cugen %s -h printed no flags: %q", name, stderr)
		}
		got := map[string]bool{}
		for _, m := range named.FindAllStringSubmatch(line, -1) {
			got[m[1]] = true
		}
		for f := range want {
			if !got[f] {
				t.Errorf("usage line %q lacks -%s, a flag of cugen %s", line, f, name)
			}
		}
		for f := range got {
			if !want[f] {
				t.Errorf("usage line %q names -%s, which cugen %s does not define", line, f, name)
			}
		}
		delete(lines, name)
	}
	for name, l := range lines {
		t.Errorf("usage line %q names no command %s", l, name)
	}
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
	dir := tinyHeaders(t)
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
	entries, _ = os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != ".cugen.lock cu cudart" {
		t.Errorf("%s holds %q, want .cugen.lock, cu and cudart", out, names)
	}
}

// TestGenPrintsAPIChanges: a regeneration reads the package's previous
// api.txt back and prints each changed declaration as its old and new line;
// an api.txt in cugen's earlier JSON format gives a warning, not a failure.
func TestGenPrintsAPIChanges(t *testing.T) {
	dir := tinyHeaders(t)
	out := filepath.Join(t.TempDir(), "out")
	gen := func() (string, string) {
		t.Helper()
		code, stdout, stderr := cugen(t, "gen", "-headers", dir, "-out", out, "-importpath", "example.com/out")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return stdout, stderr
	}
	gen()
	cuda := filepath.Join(dir, "cuda.h")
	src, err := os.ReadFile(cuda)
	if err != nil {
		t.Fatal(err)
	}
	src = bytes.Replace(src, []byte("cuDeviceGetCount(int *count)"), []byte("cuDeviceGetCount(unsigned int *count)"), 1)
	if err := os.WriteFile(cuda, src, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _ := gen()
	want := "cugen: package cu: API changes (api.txt): 0 removed, 0 added, 1 changed\n" +
		"  - func cuDeviceGetCount(int *count) CUresult\n" +
		"  + func cuDeviceGetCount(unsigned int *count) CUresult\n"
	if !strings.Contains(stdout, want) {
		t.Errorf("stdout %q, want it to contain %q", stdout, want)
	}
	if strings.Contains(stdout, "package cudart: API changes") {
		t.Errorf("stdout %q reports changes in the unchanged cudart", stdout)
	}
	api := filepath.Join(out, "cudart", "api.txt")
	if err := os.WriteFile(api, []byte("# Code generated by cugen from CUDA 12.4 headers. DO NOT EDIT.\n{\"function\":{}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr := gen(); !strings.Contains(stderr, "a JSON manifest of an earlier cugen") {
		t.Errorf("stderr %q, want a warning about the JSON api.txt", stderr)
	}
}

// tinyHeaders writes a minimal header set (one driver and one runtime
// function) and returns its directory.
func tinyHeaders(t *testing.T) string {
	t.Helper()
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
	return dir
}

// TestGenBadOutput: what is found in -out fails the run with an error
// naming it, promptly, and changes nothing: a FIFO named api.txt (it hung
// the run: opening a FIFO waits for a writer), a symbolic link planted as
// the work directory .cu.cugen-new (recovery moved files out of its
// target), a user file whose first line is another generator's marker
// beginning with cugen's name (it was deleted as stale).
func TestGenBadOutput(t *testing.T) {
	dir := tinyHeaders(t)
	gen := func(t *testing.T, out string) (int, string) {
		done := make(chan struct{})
		var code int
		var stderr string
		go func() {
			code, _, stderr = cugen(t, "gen", "-headers", dir, "-out", out, "-importpath", "example.com/out")
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("cugen gen hangs")
		}
		return code, stderr
	}
	fresh := func(t *testing.T) string {
		out := filepath.Join(t.TempDir(), "out")
		if code, stderr := gen(t, out); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return out
	}

	t.Run("fifo", func(t *testing.T) {
		out := fresh(t)
		fifo := filepath.Join(out, "cu", "api.txt")
		os.Remove(fifo)
		if err := namedpipe.Make(fifo); err != nil {
			t.Skip(err)
		}
		if code, stderr := gen(t, out); code != 1 || !strings.Contains(stderr, fifo) {
			t.Errorf("exit %d, stderr %q; want 1 and the FIFO's path", code, stderr)
		}
	})
	t.Run("planted-link", func(t *testing.T) {
		out := fresh(t)
		elsewhere := t.TempDir()
		mine := filepath.Join(elsewhere, "precious.go")
		os.WriteFile(mine, []byte("package x\n"), 0o644)
		link := filepath.Join(out, ".cu.cugen-new")
		if err := os.Symlink(elsewhere, link); err != nil {
			t.Fatal(err)
		}
		if code, stderr := gen(t, out); code != 1 || !strings.Contains(stderr, link) {
			t.Errorf("exit %d, stderr %q; want 1 and the link's path", code, stderr)
		}
		if b, err := os.ReadFile(mine); err != nil || string(b) != "package x\n" {
			t.Errorf("file in the link's target: %q, %v", b, err)
		}
	})
	t.Run("other-generator", func(t *testing.T) {
		out := fresh(t)
		p := filepath.Join(out, "cu", "ext.go")
		text := "// Code generated by cugenext from my.yaml. DO NOT EDIT.\n\npackage cu\n"
		os.WriteFile(p, []byte(text), 0o644)
		if code, stderr := gen(t, out); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if b, err := os.ReadFile(p); err != nil || string(b) != text {
			t.Errorf("%s after regeneration: %q, %v", p, b, err)
		}
	})
	t.Run("read-only-package", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("running as root: permissions are not enforced")
		}
		out := fresh(t)
		cu := filepath.Join(out, "cu")
		os.Chmod(cu, 0o555)
		defer os.Chmod(cu, 0o755)
		if code, stderr := gen(t, out); code != 1 || !strings.Contains(stderr, cu) {
			t.Errorf("exit %d, stderr %q; want 1 and %s", code, stderr, cu)
		}
		entries, _ := os.ReadDir(out)
		for _, e := range entries {
			if strings.Contains(e.Name(), "cugen-") {
				t.Errorf("left in %s: %s", out, e.Name())
			}
		}
	})
}

// TestMain lets TestGenConcurrent run this test binary as cugen.
func TestMain(m *testing.M) {
	if os.Getenv("CUGEN_TEST_AS_CUGEN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestGenConcurrent: two cugen processes generating into one -out at the
// same time take turns (OUT/.cugen.lock): both exit 0 and OUT holds the
// complete set. Before the lock, 16 of 30 tries left 14-22 of 24 files
// and one run still exited 0.
func TestGenConcurrent(t *testing.T) {
	dir := tinyHeaders(t)
	ref := filepath.Join(t.TempDir(), "ref")
	if code, _, stderr := cugen(t, "gen", "-headers", dir, "-out", ref, "-importpath", "example.com/out"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	snapshot := func(out string) map[string]string {
		m := map[string]string{}
		for _, p := range []string{"cu", "cudart"} {
			entries, _ := os.ReadDir(filepath.Join(out, p))
			for _, e := range entries {
				b, _ := os.ReadFile(filepath.Join(out, p, e.Name()))
				m[p+"/"+e.Name()] = string(b)
			}
		}
		return m
	}
	want := snapshot(ref)
	for round := range 10 {
		out := filepath.Join(t.TempDir(), "out")
		var cmds []*exec.Cmd
		var outs []*bytes.Buffer
		for range 2 {
			c := exec.Command(exe, "gen", "-headers", dir, "-out", out, "-importpath", "example.com/out")
			c.Env = append(os.Environ(), "CUGEN_TEST_AS_CUGEN=1")
			var b bytes.Buffer
			c.Stdout, c.Stderr = &b, &b
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			cmds, outs = append(cmds, c), append(outs, &b)
		}
		for i, c := range cmds {
			if err := c.Wait(); err != nil {
				t.Errorf("round %d, run %d: %v\n%s", round, i, err, outs[i])
			}
		}
		got := snapshot(out)
		if len(got) != len(want) {
			t.Errorf("round %d: %d files, want %d", round, len(got), len(want))
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("round %d: %s differs from a single run's", round, k)
			}
		}
	}
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

// snapshot describes every entry under dir (type, size, modification time,
// content hash), to show that a command wrote nothing there.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		desc := fmt.Sprintf("%v %d %d", st.Mode(), st.Size(), st.ModTime().UnixNano())
		if st.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			desc += " " + hex.EncodeToString(sum[:])
		}
		m[p] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGenCheck: gen -check regenerates in memory and writes nothing. Up to
// date, it exits 0 with one line; otherwise it exits 1 listing each stale,
// missing and extra generated file, after the API changes against the
// committed api.txt, and the error says how to update. The output
// directory's entries, bytes and modification times are the same
// afterwards, and a directory never generated into is not created (no lock
// file either).
func TestGenCheck(t *testing.T) {
	dir := tinyHeaders(t)
	out := filepath.Join(t.TempDir(), "out")
	// -layer=false: no note that these headers give no layer (TestGenLayer).
	args := []string{"gen", "-headers", dir, "-out", out, "-importpath", "example.com/out", "-layer=false"}
	check := func(t *testing.T) (int, string, string) {
		t.Helper()
		before := snapshot(t, filepath.Dir(out))
		code, stdout, stderr := cugen(t, append(args, "-check")...)
		after := snapshot(t, filepath.Dir(out))
		for p, d := range before {
			if after[p] != d {
				t.Errorf("gen -check changed %s: %q, was %q", p, after[p], d)
			}
		}
		for p := range after {
			if _, ok := before[p]; !ok {
				t.Errorf("gen -check created %s", p)
			}
		}
		return code, stdout, stderr
	}
	stale := func(t *testing.T, want ...string) {
		t.Helper()
		code, stdout, stderr := check(t)
		if code != 1 {
			t.Errorf("exit %d, want 1; stdout %q, stderr %q", code, stdout, stderr)
		}
		for _, w := range want {
			if !strings.Contains(stdout, w) {
				t.Errorf("stdout %q lacks %q", stdout, w)
			}
		}
		if last := strings.TrimSpace(stderr); !strings.HasPrefix(last, "cugen: gen -check: "+out+" is stale: ") || !strings.HasSuffix(last, "run the same cugen gen without -check to update it") {
			t.Errorf("stderr %q, want the one error line", stderr)
		}
	}

	// Never generated: every file is missing, and nothing is created.
	stale(t, "cugen: missing cu/funcs.go\n", "cugen: missing cudart/api.txt\n")
	untouched(t, out)

	if code, _, stderr := cugen(t, args...); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := check(t)
	if code != 0 || stdout != "cugen: "+out+" is up to date (CUDA 12.4 headers)\n" || stderr != "" {
		t.Fatalf("up to date: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	t.Run("edited", func(t *testing.T) {
		f := filepath.Join(out, "cu", "funcs.go")
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(f, b, 0o644)
		if err := os.WriteFile(f, append(b, "// an edit\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		stale(t, "cugen: stale cu/funcs.go\n")
	})
	t.Run("missing", func(t *testing.T) {
		f := filepath.Join(out, "cudart", "errors.go")
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(f, b, 0o644)
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
		stale(t, "cugen: missing cudart/errors.go\n")
	})
	t.Run("extra", func(t *testing.T) {
		// A generated file this generation does not have (a regeneration
		// deletes it) is listed; a user's file is not.
		old, mine := filepath.Join(out, "cu", "old.go"), filepath.Join(out, "cu", "mine.go")
		defer os.Remove(old)
		defer os.Remove(mine)
		if err := os.WriteFile(old, []byte("// Code generated by cugen from CUDA 12.3 headers. DO NOT EDIT.\n\npackage cu\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(mine, []byte("package cu\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stdout, _ := check(t)
		if strings.Contains(stdout, "mine.go") {
			t.Errorf("stdout %q lists the user's file", stdout)
		}
		stale(t, "cugen: extra cu/old.go\n")
	})
	if code, _, _ := check(t); code != 0 {
		t.Fatalf("not up to date after the subtests restored the files")
	}

	// A new function in the headers: the API change against api.txt, then
	// the files it changes; regenerating makes the check pass.
	cuda := filepath.Join(dir, "cuda.h")
	src, err := os.ReadFile(cuda)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cuda, append(src, "CUresult cuDeviceGetFoo(int *foo);\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	stale(t, "cugen: package cu: API changes (api.txt): 0 removed, 1 added, 0 changed\n  + func cuDeviceGetFoo(int *foo) CUresult\n",
		"cugen: stale cu/api.txt\n", "cugen: stale cu/funcs.go\n", "cugen: stale cu/load.go\n")
	if _, stdout, _ := check(t); strings.Contains(stdout, "cudart") {
		t.Errorf("stdout %q lists the unchanged cudart", stdout)
	}
	if code, _, stderr := cugen(t, args...); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := check(t); code != 0 {
		t.Errorf("after regenerating: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestGenFromCompressedIR: `cugen ir -out F.gz` writes the IR gzip-compressed
// and deterministically, and `cugen gen -ir F.gz` emits exactly what
// `cugen gen -headers` emits: how generated/cuda13 is regenerated without
// the toolkit. A truncated file fails with its name, writing nothing.
func TestGenFromCompressedIR(t *testing.T) {
	dir := tinyHeaders(t)
	root := t.TempDir()
	irFile := filepath.Join(root, "ir.json.gz")
	for i := 0; i < 2; i++ {
		if code, _, stderr := cugen(t, "ir", "-headers", dir, "-out", irFile); code != 0 {
			t.Fatalf("cugen ir -out: exit %d: %s", code, stderr)
		}
		b, err := os.ReadFile(irFile)
		if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Fatalf("%s is not gzip (%v)", irFile, err)
		}
		if i == 0 {
			os.WriteFile(irFile+".first", b, 0o644)
		} else if first, _ := os.ReadFile(irFile + ".first"); !bytes.Equal(first, b) {
			t.Errorf("two runs of cugen ir -out wrote different bytes")
		}
	}
	fromHeaders, fromIR := filepath.Join(root, "a"), filepath.Join(root, "b")
	if code, _, stderr := cugen(t, "gen", "-headers", dir, "-out", fromHeaders, "-importpath", "example.com/x"); code != 0 {
		t.Fatalf("gen -headers: exit %d: %s", code, stderr)
	}
	if code, _, stderr := cugen(t, "gen", "-ir", irFile, "-out", fromIR, "-importpath", "example.com/x"); code != 0 {
		t.Fatalf("gen -ir: exit %d: %s", code, stderr)
	}
	for _, pkg := range []string{"cu", "cudart"} {
		files, _ := filepath.Glob(filepath.Join(fromHeaders, pkg, "*"))
		if len(files) == 0 {
			t.Fatalf("no files in %s/%s", fromHeaders, pkg)
		}
		for _, f := range files {
			a, _ := os.ReadFile(f)
			b, err := os.ReadFile(filepath.Join(fromIR, pkg, filepath.Base(f)))
			// The header's second line is the command that regenerates
			// the file, which differs; the rest may not.
			a, cmdA := cutCommandLine(a)
			b, cmdB := cutCommandLine(b)
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s/%s differs between gen -headers and gen -ir (%v)", pkg, filepath.Base(f), err)
			}
			if want := "cugen gen -headers DIR -out DIR -importpath example.com/x"; cmdA != want {
				t.Errorf("%s/%s: gen -headers recorded %q, want %q", pkg, filepath.Base(f), cmdA, want)
			}
			if want := "cugen gen -ir DIR -out DIR -importpath example.com/x"; cmdB != want {
				t.Errorf("%s/%s: gen -ir recorded %q, want %q", pkg, filepath.Base(f), cmdB, want)
			}
		}
	}
	b, _ := os.ReadFile(irFile)
	bad := filepath.Join(root, "bad.json.gz")
	os.WriteFile(bad, b[:len(b)/2], 0o644)
	out := filepath.Join(root, "c")
	code, _, stderr := cugen(t, "gen", "-ir", bad, "-out", out)
	if code != 1 || !strings.Contains(stderr, bad) {
		t.Errorf("gen -ir of a truncated file: exit %d, stderr %q; want 1 naming it", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s was created by a failed run", out)
	}
}

// TestWithHeaders: -with adds a header directory to a -headers parse, as a
// set's with lines do (nccl.h from NCCL's wheel beside a toolkit's
// headers); without it the library is not bound, and -with needs -headers.
// Uses the shared header cache; skipped where set 12.4 is not fetched.
func TestWithHeaders(t *testing.T) {
	set := testset.Set(t, "12.4")
	dir, nccl := set.Dir, ""
	for i, h := range set.With {
		if h.Name == "libnccl-dev" {
			nccl = set.WithDirs[i]
		}
	}
	if nccl == "" {
		t.Fatal("set 12.4 does not read libnccl-dev")
	}
	code, stdout, stderr := cugen(t, "ir", "-headers", dir)
	if code != 0 || strings.Contains(stdout, `"ncclAllReduce"`) {
		t.Fatalf("without -with: exit %d, ncclAllReduce bound %v: %s", code, strings.Contains(stdout, `"ncclAllReduce"`), stderr)
	}
	code, stdout, stderr = cugen(t, "ir", "-headers", dir, "-with", nccl)
	if code != 0 || !strings.Contains(stdout, `"ncclAllReduce"`) {
		t.Fatalf("with -with: exit %d, ncclAllReduce bound %v: %s", code, strings.Contains(stdout, `"ncclAllReduce"`), stderr)
	}
	code, _, stderr = cugen(t, "ir", "-set", "12.4", "-with", nccl)
	if code != 1 || !strings.Contains(stderr, "-with goes with -headers") {
		t.Errorf("-set with -with: exit %d, %q", code, stderr)
	}
}

// TestGenHostileCache: cugen gen -set over a cache whose pinned cuda.h is
// a FIFO or a link to /dev/zero (issue 24). Was: blocked in open(2)
// forever; hashed /dev/zero forever. Now exit 1 at once, naming the file,
// before anything is written; the cached .deb here is a stand-in that
// does not verify, so nothing is downloaded.
func TestGenHostileCache(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(p string) error
		msg   string
	}{
		{"fifo", func(p string) error { return namedpipe.Make(p) }, "cuda.h: not a regular file"},
		{"dev-zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "cuda.h: a symbolic link to a file outside its directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := filepath.Join(t.TempDir(), "cache")
			t.Setenv("CUGEN_CACHE", cache)
			inc := filepath.Join(cache, "headers/12.4/usr/include")
			os.MkdirAll(inc, 0o755)
			os.MkdirAll(filepath.Join(cache, "debs"), 0o755)
			if err := os.WriteFile(filepath.Join(cache, "debs", "nvidia-cuda-dev_12.4.127~12.4.1-2_amd64.deb"), []byte("not a deb"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := c.plant(filepath.Join(inc, "cuda.h")); err != nil {
				t.Skip(err)
			}
			// The 12.4 set's origin, cut down to cuda.h.
			lockFile := filepath.Join(t.TempDir(), "headers.lock")
			text := "set 12.4\n\tcuda 12.4.1\n" +
				"\tdeb nvidia-cuda-dev 12.4.127~12.4.1-2 amd64 trixie d846838f914a0176948d48a8bcade5d6dbcccb5c9374343f6475f5503f173ee0\n" +
				"\troot usr/include\n\tsha256 " + strings.Repeat("1", 64) + " cuda.h\n"
			if err := os.WriteFile(lockFile, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out")
			type result struct {
				code   int
				stderr string
			}
			done := make(chan result, 1)
			go func() {
				var o, e bytes.Buffer
				done <- result{run([]string{"gen", "-set", "12.4", "-lock", lockFile, "-out", out}, &o, &e), e.String()}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("cugen gen -set did not return within 30 s")
			}
			t.Logf("exit %d, stderr: %s", r.code, r.stderr)
			if r.code != 1 || !strings.Contains(r.stderr, filepath.Join(inc, c.msg)) {
				t.Errorf("exit %d, stderr %q; want exit 1 and %s", r.code, r.stderr, c.msg)
			}
			untouched(t, out)
		})
	}
}

// cutCommandLine removes a generated file's second line, the command that
// regenerates it ("// cugen gen ..." or "# cugen gen ..."), and returns it.
func cutCommandLine(b []byte) ([]byte, string) {
	first, rest, _ := bytes.Cut(b, []byte("\n"))
	second, rest, _ := bytes.Cut(rest, []byte("\n"))
	cmd := strings.TrimPrefix(strings.TrimPrefix(string(second), "// "), "# ")
	return append(append(first, '\n'), rest...), cmd
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

// TestGenLib: -lib selects the packages gen writes and gen -check checks,
// with the packages they import (cudart's context demo test imports cu);
// a library the headers do not declare is an error and an unknown name a
// usage error listing cugen's libraries in one line, both before anything
// is written. Names are in any case.
// Was: no -lib flag (exit 2 for every case).
func TestGenLib(t *testing.T) {
	dir := tinyHeaders(t)
	list := func(out string) string {
		entries, _ := os.ReadDir(out)
		var names []string
		for _, e := range entries {
			if e.IsDir() {
				names = append(names, e.Name())
			}
		}
		return strings.Join(names, " ")
	}
	for _, c := range []struct {
		lib, want, note string
	}{
		{"cu", "cu", ""},
		{"cudart", "cu cudart", "cugen: -lib: cu too (cudart imports it)"}, // its context demo test imports cu
		{"cudart,cu", "cu cudart", ""},
		{"CUDART,Cu", "cu cudart", ""}, // any case (issue 40)
	} {
		out := filepath.Join(t.TempDir(), "out")
		code, stdout, stderr := cugen(t, "gen", "-headers", dir, "-lib", c.lib, "-out", out, "-importpath", "example.com/out")
		if code != 0 || list(out) != c.want || c.note != "" && !strings.Contains(stdout, c.note) {
			t.Errorf("-lib %s: exit %d, wrote %q, stdout %q, stderr %q; want %q and %q", c.lib, code, list(out), stdout, stderr, c.want, c.note)
		}
		// Recorded as the package names, whatever the case given.
		if b, _ := os.ReadFile(filepath.Join(out, "cu", "doc.go")); !strings.Contains(string(b), " -lib "+strings.ToLower(c.lib)+" ") {
			t.Errorf("-lib %s: cu/doc.go does not record -lib %s:\n%.300s", c.lib, strings.ToLower(c.lib), b)
		}
		code, stdout, stderr = cugen(t, "gen", "-check", "-headers", dir, "-lib", c.lib, "-out", out, "-importpath", "example.com/out")
		if code != 0 {
			t.Errorf("-lib %s -check: exit %d, stdout %q, stderr %q", c.lib, code, stdout, stderr)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := cugen(t, "gen", "-headers", dir, "-lib", "cu,nvrtc", "-out", out)
	if want := "cugen: -lib nvrtc: the headers declare no function of NVRTC (nvrtc.h)"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("-lib cu,nvrtc over headers without nvrtc.h: exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	untouched(t, out)
	code, stdout, stderr = cugen(t, "gen", "-headers", dir, "-lib", "cu,cuda", "-out", out)
	// One line (issue 40: the usage's 27 lines followed it).
	if want := `cugen gen: -lib: unknown library "cuda" (cugen's libraries: cu, cudart, nvrtc, nvjitlink, cublas,`; code != 2 || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
		t.Errorf("-lib cu,cuda: exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
	untouched(t, out)
}

// TestIRLib: ir -lib parses only the named libraries' headers beside the
// driver's and the runtime's (the IR of cuDNN beside a set's own); an
// unknown name is a usage error.
func TestIRLib(t *testing.T) {
	set := testset.Set(t, "12.4")
	nccl := ""
	for i, h := range set.With {
		if h.Name == "libnccl-dev" {
			nccl = set.WithDirs[i]
		}
	}
	code, stdout, stderr := cugen(t, "ir", "-headers", set.Dir, "-with", nccl, "-lib", "nccl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for name, want := range map[string]bool{`"ncclAllReduce"`: true, `"cuInit"`: true, `"cudaMalloc"`: true, `"cublasCreate_v2"`: false, `"nvrtcVersion"`: false} {
		if strings.Contains(stdout, name) != want {
			t.Errorf("ir -lib nccl: %s in the IR: %v, want %v", name, !want, want)
		}
	}
	if code, _, stderr := cugen(t, "ir", "-headers", set.Dir, "-lib", "nosuch"); code != 2 || !strings.Contains(stderr, `unknown library "nosuch"`) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("ir -lib nosuch: exit %d, %q", code, stderr)
	}
}
