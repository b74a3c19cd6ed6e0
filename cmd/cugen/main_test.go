package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// This file holds what the command's tests share (cugen, untouched,
// tinyHeaders, TestMain) and the tests of its usage: commands, flags and
// header directories it cannot read. gen_test.go tests gen, lock_test.go
// the header sets of headers.lock, ir_test.go the ir command.

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

// TestMain lets TestGenConcurrent run this test binary as cugen.
func TestMain(m *testing.M) {
	if os.Getenv("CUGEN_TEST_AS_CUGEN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
