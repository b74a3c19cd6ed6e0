package main

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cugen/cugen/internal/gen"
	"github.com/cugen/cugen/internal/kernels"
	"github.com/cugen/cugen/internal/testset"
)

// TestKernelsCudaFlag: -cuda goes into kernels.go's import declaration
// and its recorded command line, so it is held to the import path rules
// before anything runs: an invalid one (issue 37 row 1: `bad"path x`
// was taken, exit 0) and one with a newline (which put a directive into
// the recorded command line) are one-line errors naming the flag.
func TestKernelsCudaFlag(t *testing.T) {
	for _, p := range []string{`bad"path x`, "example.com/cuda\n//go:generate touch PWNED", "example.com/cuda/", "-x"} {
		out := filepath.Join(t.TempDir(), "kernels")
		code, _, stderr := cugen(t, "kernels", "-src", "no-such.cu", "-out", out, "-cuda", p)
		if code != 1 || !strings.HasPrefix(stderr, "cugen: -cuda ") || !strings.Contains(stderr, "is not a valid Go import path") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("-cuda %q: exit %d, stderr %q; want exit 1 and one line: cugen: -cuda ... is not a valid Go import path", p, code, stderr)
		}
		untouched(t, out)
	}
}

// TestRecordedCommandLine: the command line every generated file records
// is one line whatever its arguments hold (a -name or -origin with a
// newline put a //go:generate line into the header, issue 37 row 1),
// and a shell reads it back as the same arguments.
func TestRecordedCommandLine(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skipf("no bash to read the command lines back: %v", err)
	}
	hostile := []string{
		"axpy<float /*\n//go:generate touch PWNED\n// */>",
		"a\rb\x00c\x7fd\u2028e\u0085f 'g' \\h $i `j` \"k\"",
		"plain", "x,y", "",
	}
	read := func(line string) []string {
		// cugen is a function printing its arguments, each ended by NUL.
		out, err := exec.Command(bash, "-c", `cugen() { for a; do printf '%s\0' "$a"; done; }; eval "$1"`, "bash", line).Output()
		if err != nil {
			t.Fatalf("bash reading %q: %v", line, err)
		}
		return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	}
	for _, h := range hostile {
		if strings.ContainsRune(h, 0) {
			continue // bash's arguments are C strings: NUL is checked below
		}
		line := kernels.Command("k.cu", "sm_90", nil, nil, []string{h}, "out", "", "")
		if strings.ContainsAny(line, "\n\r\u2028\u2029\u0085") {
			t.Errorf("kernels -name %q: the command line %q is not one line", h, line)
			continue
		}
		got := read(line)
		if i := slices.Index(got, "-name"); i < 0 || i+1 >= len(got) || got[i+1] != h {
			t.Errorf("kernels -name %q: %q reads back as %q", h, line, got)
		}
	}
	for _, h := range hostile {
		line := gen.CommandLine([]string{"cugen", h})
		if strings.ContainsAny(line, "\n\r\x00\u2028\u2029\u0085") {
			t.Errorf("CommandLine(cugen, %q) = %q: not one line of printable text", h, line)
		}
		if strings.ContainsRune(h, 0) {
			continue
		}
		if got := read(line); !slices.Equal(got, []string{h}) {
			t.Errorf("CommandLine(cugen, %q) = %q reads back as %q", h, line, got)
		}
	}
	src := &gen.Source{Set: "12.4"}
	line := gen.Command(src, "x.json", "", hostile[0], true, filepath.Join(t.TempDir(), "o"), "example.com/o")
	if strings.ContainsAny(line, "\n\r") {
		t.Errorf("gen -origin %q: the command line %q is not one line", hostile[0], line)
	}
}

// TestGenDescHostileText: the text a description and its library's
// headers bring (a doc with "/*", "*/" and a //go:generate line, issue
// 37 rows 1 and 6; a header's doc comment line " * //go:generate ...")
// generates a package that builds and holds it as comment text only. It
// failed before the sanitiser: a //go:generate line in doc.go and
// funcs.go, or exit 1 with a 27-line gofmt dump for the "/*".
func TestGenDescHostileText(t *testing.T) {
	set := testset.Set(t, "12.4")
	dir := t.TempDir()
	h := readFile(t, filepath.Join(mylibDir, "mylib.h"))
	old := " * \\brief Returns the library's version.\n *\n"
	if !strings.Contains(h, old) {
		t.Fatalf("mylib.h lacks %q", old)
	}
	h = strings.Replace(h, old, old+" * //go:generate touch PWNED\n *\n * /* x\n *\n * //line evil.go:1\n *\n", 1)
	if err := os.WriteFile(filepath.Join(dir, "mylib.h"), []byte(h), 0o644); err != nil {
		t.Fatal(err)
	}
	j := strings.Replace(readFile(t, filepath.Join(mylibDir, "mylib.json")), `"title": "mylib",`,
		`"title": "mylib",
  "doc": "Use it. /* not a block\n//go:generate touch PWNED\n*/ func Evil() {}\n//line evil.go:1",`, 1)
	desc := filepath.Join(dir, "mylib.json")
	if err := os.WriteFile(desc, []byte(j), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := cugen(t, "gen", "-desc", desc, "-headers", set.Dir, "-with", dir, "-out", out, "-importpath", "example.com/out", "-layer=false")
	if code != 0 {
		t.Fatalf("gen -desc: exit %d: %s", code, stderr)
	}
	delivered := false
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		delivered = delivered || strings.Contains(string(src), "touch PWNED")
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		if err != nil {
			t.Errorf("%s does not parse: %v", p, err)
			return nil
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				if rest, ok := strings.CutPrefix(c.Text, "//"); !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
					t.Errorf("%s: %q is a directive or block comment", fset.Position(c.Pos()), c.Text)
				}
			}
		}
		for i, l := range strings.Split(string(src), "\n") {
			if tl := strings.TrimLeft(l, " \t"); strings.HasPrefix(tl, "//go:") || strings.HasPrefix(tl, "//line") || strings.HasPrefix(tl, "/*") {
				t.Errorf("%s:%d: %q", p, i+1, l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !delivered {
		t.Error("no generated file holds the hostile text: the test reached no comment")
	}
}

// TestGenDescOverridesThatCannotApply: an override of a description file
// that names a function and parameter the headers have, but cannot apply
// to them, fails gen -desc with exit 1 and one line naming the file, the
// field, the function or parameter and why; nothing is written (issue
// 37 row 6: each was accepted and the package was byte-identical to one
// generated without it).
func TestGenDescOverridesThatCannotApply(t *testing.T) {
	set := testset.Set(t, "12.4")
	good := readFile(t, filepath.Join(mylibDir, "mylib.json"))
	const reg = `"registeredCallbacks": {`
	if !strings.Contains(good, reg) {
		t.Fatalf("mylib.json lacks %q", reg)
	}
	for _, c := range []struct{ name, override, want string }{
		{"direction of no pointer", `"directions": {"mylibScale.n": {"dir": "out", "why": "w"}}`,
			"field overrides.directions: mylibScale.n: cannot apply: parameter n is not a pointer (C type int)"},
		{"direction of a const pointer", `"directions": {"mylibSum.x": {"dir": "inout", "why": "w"}}`,
			"field overrides.directions: mylibSum.x: cannot apply: parameter x points to const"},
		{"array of no pointer", `"arrays": {"mylibScale.alpha": {"len": 4, "why": "w"}}`,
			"field overrides.arrays: mylibScale.alpha: cannot apply: parameter alpha is not a pointer (C type float)"},
		{"callback of no callback", `"oneShotCallbacks": {"mylibGetVersion": "w"}`,
			"field overrides.oneShotCallbacks: mylibGetVersion: cannot apply: no parameter is a C function pointer"},
		{"synchronous callback with userData", `"synchronousCallbacks": {"mylibSetLogger": "w"}`,
			"field overrides.synchronousCallbacks: mylibSetLogger: cannot apply: no parameter is a C function pointer whose type takes no userData"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "mylib.json")
			if err := os.WriteFile(file, []byte(strings.Replace(good, reg, c.override+",\n    "+reg, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out")
			code, _, stderr := cugen(t, "gen", "-desc", file, "-headers", set.Dir, "-with", mylibDir, "-out", out, "-importpath", "example.com/out")
			if code != 1 || !strings.HasPrefix(stderr, file+": "+c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit 1 and one line: %s: %s...", code, stderr, file, c.want)
			}
			untouched(t, out)
		})
	}
}
