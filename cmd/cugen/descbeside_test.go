package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cugen/cugen/internal/testset"
)

// twoLines is the gen.go of a module that binds cugen's libraries and a
// library of its own into one directory: the README's line, then the
// -desc line over the same set, with the library's own header directory.
const twoLines = `// Package main binds CUDA's driver, runtime and NVRTC, and mylib.
package main

//go:generate go tool cugen gen -set 12.4 -lib cu,cudart,nvrtc -out cuda
//go:generate go tool cugen gen -desc mylib/mylib.json -set 12.4 -with mylib -out cuda
`

var generateLine = regexp.MustCompile(`(?m)^//go:generate go tool cugen (.+)$`)

// TestGenDescBesideLibs: the two go:generate lines of twoLines share
// ./cuda in one module, and each passes its gen -check after go generate,
// in either order. The -desc line
// (-set with -with: the library's headers beside the pinned set) writes
// only its package, mylib, importing the cu and cudart the other line
// wrote: their files are never rewritten (the same bytes, the same files,
// the same mtimes), nor is nvrtc or the layer. Where no cu or cudart is
// there yet, it writes them; the other line then replaces them as its
// own; the -desc line's own, written before an edit of its flags, it
// rewrites. A cu of another CUDA major is refused, naming the fix. Before the
// fix the -desc line failed ("-with goes with -headers"), and with
// -headers it rewrote cu and cudart, so the first line's check failed
// (25 files differ).
func TestGenDescBesideLibs(t *testing.T) {
	set := testset.Set(t, "12.4")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]string // each line's arguments after "go tool cugen"
	for _, m := range generateLine.FindAllStringSubmatch(twoLines, -1) {
		lines = append(lines, strings.Fields(m[1]))
	}
	if len(lines) != 2 {
		t.Fatalf("twoLines has %d go:generate lines, want 2", len(lines))
	}
	libs, desc := lines[0], lines[1]
	// module writes a module with gen.go and mylib's description and
	// header, and makes it the working directory: cugen records its
	// paths relative to the module, as go generate runs it.
	module := func(t *testing.T) {
		mod := t.TempDir()
		writeModule(t, mod, root)
		if err := os.MkdirAll(filepath.Join(mod, "mylib"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"mylib.json", "mylib.h"} {
			if err := os.WriteFile(filepath.Join(mod, "mylib", f), []byte(readFile(t, filepath.Join(mylibDir, f))), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(mod, "gen.go"), []byte(twoLines), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Chdir(mod)
	}
	gen := func(t *testing.T, args []string) string {
		t.Helper()
		code, stdout, stderr := cugen(t, args...)
		if code != 0 {
			t.Fatalf("cugen %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
		return stdout
	}
	check := func(t *testing.T, args []string) string {
		t.Helper()
		c := append([]string{args[0], "-check"}, args[1:]...)
		code, stdout, stderr := cugen(t, c...)
		if code != 0 || !strings.Contains(stdout, "cugen: cuda is up to date") {
			t.Errorf("cugen %s: exit %d\n%s%s", strings.Join(c, " "), code, stdout, stderr)
		}
		return stdout
	}
	const kept = "cugen: mylib imports cuda/cu and cuda/cudart as another gen line wrote them (cugen gen -set 12.4 -lib cu,cudart,nvrtc -out cuda); -desc leaves them as they are"

	t.Run("libs line first", func(t *testing.T) {
		module(t)
		gen(t, libs)
		before := untouchedSnapshot(t, "cuda", "mylib")
		if out := gen(t, desc); !strings.Contains(out, kept) || !strings.Contains(out, "mylib 7/7 bound") || strings.Contains(out, "cudart 304") {
			t.Errorf("the -desc line printed %q; want mylib 7/7 bound only, and %q", out, kept)
		}
		sameState(t, before, untouchedSnapshot(t, "cuda", "mylib"))
		check(t, libs)
		check(t, desc)
		if b := readFile(t, filepath.Join("cuda", "mylib", "funcs.go")); !strings.Contains(b, "\n// cugen gen -set 12.4 -with mylib -desc mylib/mylib.json -out cuda\n") || !strings.Contains(b, `cudart "example.com/mylibuse/cuda/cudart"`) {
			t.Errorf("cuda/mylib/funcs.go does not record the -desc line or import the module's cudart:\n%.400s", b)
		}
		// A cu of another major: refused, nothing written.
		api := filepath.Join("cuda", "cu", "api.txt")
		b := readFile(t, api)
		if !strings.Contains(b, "\nversion cuda 12040 ") {
			t.Fatalf("%s has no version line of CUDA 12.4", api)
		}
		if err := os.WriteFile(api, []byte(strings.Replace(b, "\nversion cuda 12040 ", "\nversion cuda 13000 ", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		before = untouchedSnapshot(t, "cuda", "")
		code, _, stderr := cugen(t, desc...)
		if want := "cugen: cuda/cu is of CUDA 13.0 (its api.txt; written by cugen gen -set 12.4 -lib cu,cudart,nvrtc -out cuda), mylib imports it, and the headers -desc parses are of CUDA 12.4: give both gen lines the same -set (or -headers)\n"; code != 1 || stderr != want {
			t.Errorf("-desc beside a cu of CUDA 13: exit %d, stderr %q; want exit 1 and %q", code, stderr, want)
		}
		sameState(t, before, untouchedSnapshot(t, "cuda", ""))
	})

	t.Run("desc line first", func(t *testing.T) {
		module(t)
		// No cu or cudart yet: the -desc line writes them, and only
		// them and its own (no nvrtc, no layer). Run first with
		// -headers, then edited to -set, it is still the same line: it
		// rewrites the cu and cudart it wrote.
		edited := slices.Clone(desc)
		edited[slices.Index(edited, "-set")], edited[slices.Index(edited, "12.4")] = "-headers", set.Dir
		gen(t, edited)
		if out := gen(t, desc); !strings.Contains(out, "cu 432/432 bound") || !strings.Contains(out, "cudart 304/304 bound") || !strings.Contains(out, "mylib 7/7 bound") || strings.Contains(out, "Go layer") {
			t.Errorf("the -desc line, after its -headers form, printed %q; want cu, cudart and mylib", out)
		}
		if got := dirs(t, "cuda"); got != "cu cudart mylib" {
			t.Errorf("cuda holds %s; want cu cudart mylib", got)
		}
		check(t, desc)
		// The other line takes cu and cudart over; the -desc line then
		// leaves them (TestGenDescBesideLibs/libs_line_first: untouched).
		gen(t, libs)
		check(t, libs)
		if out := check(t, desc); !strings.Contains(out, kept) {
			t.Errorf("the -desc line's check printed %q; want %q", out, kept)
		}
	})

	// -with with -set is for -desc; a -desc over a set without -with
	// asks for -with, which now works: neither message sends the user
	// to the other.
	t.Run("messages", func(t *testing.T) {
		module(t)
		code, _, stderr := cugen(t, "gen", "-set", "12.4", "-with", "mylib", "-out", "cuda")
		if code != 1 || !strings.Contains(stderr, "-with goes with -headers DIR, or with -set NAME and -desc FILE") {
			t.Errorf("-set -with without -desc: exit %d, stderr %q", code, stderr)
		}
		code, _, stderr = cugen(t, "gen", "-desc", "mylib/mylib.json", "-set", "12.4", "-out", "cuda")
		if code != 1 || !strings.Contains(stderr, "mylib.h is not in the header directories (give the directory holding it with -with") {
			t.Errorf("-desc -set without -with: exit %d, stderr %q", code, stderr)
		}
		untouched(t, "cuda")
	})
}

// fileState is a generated file as a run left it.
type fileState struct {
	data []byte
	info fs.FileInfo
}

// untouchedSnapshot records every file under out but those of package skip.
func untouchedSnapshot(t *testing.T, out, skip string) map[string]fileState {
	t.Helper()
	m := map[string]fileState{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && skip != "" && p == filepath.Join(out, skip) {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() == ".cugen.lock" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		m[p] = fileState{b, info}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sameState fails t unless after holds the files of before, untouched:
// the same file (not a new one renamed into place), mtime and bytes.
func sameState(t *testing.T, before, after map[string]fileState) {
	t.Helper()
	if len(before) == 0 {
		t.Fatal("nothing to compare: no files")
	}
	for p, b := range before {
		a, ok := after[p]
		switch {
		case !ok:
			t.Errorf("%s was removed", p)
		case !os.SameFile(a.info, b.info) || !a.info.ModTime().Equal(b.info.ModTime()):
			t.Errorf("%s was rewritten (mtime %v, was %v)", p, a.info.ModTime(), b.info.ModTime())
		case !bytes.Equal(a.data, b.data):
			t.Errorf("%s changed", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s was added", p)
		}
	}
}

// dirs lists the directories in dir, space-separated.
func dirs(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return strings.Join(names, " ")
}
