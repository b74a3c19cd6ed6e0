package internal

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/cugen/cugen"

// levels reads the table of doc.go: package (relative to the module) ->
// level.
func levels(t *testing.T) map[string]int {
	t.Helper()
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^//\t(\d+)  (.+)$`)
	out := map[string]int{}
	for _, m := range row.FindAllStringSubmatch(string(src), -1) {
		l, _ := strconv.Atoi(m[1])
		for _, p := range strings.Fields(m[2]) {
			if _, dup := out[p]; dup {
				t.Errorf("doc.go places %s twice", p)
			}
			out[p] = l
		}
	}
	if len(out) < 20 {
		t.Fatalf("doc.go's table has %d packages: the rows did not parse", len(out))
	}
	return out
}

// imports is the module's packages that the non-test files of the
// package in dir (relative to the module root) import, every build tag's
// files included.
func imports(t *testing.T, root, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			switch {
			case p == module:
				out["."] = true
			case strings.HasPrefix(p, module+"/"):
				out[strings.TrimPrefix(p, module+"/")] = true
			}
		}
	}
	return out
}

// TestLevels: every package of the generator is in doc.go's table, and
// imports only packages of lower levels.
func TestLevels(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	level := levels(t)
	// The generator: every package under these, less emit's test fixtures
	// (generated ABI packages, imported by emit's tests alone).
	var pkgs []string
	for _, top := range []string{"ffi", "parser", "emit", "library", "internal", "cmd"} {
		filepath.WalkDir(filepath.Join(root, top), func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(rel, "emit/internal")) {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				if dir := filepath.ToSlash(filepath.Dir(rel)); dir != "internal" && (len(pkgs) == 0 || pkgs[len(pkgs)-1] != dir) {
					pkgs = append(pkgs, dir)
				}
			}
			return nil
		})
	}
	for p := range level {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("doc.go places %s, which does not exist", p)
		}
	}
	checked := map[string]bool{}
	for _, p := range pkgs {
		checked[p] = true
		l, ok := level[p]
		if !ok {
			t.Errorf("%s has no level: add it to internal/doc.go's table", p)
			continue
		}
		for im := range imports(t, root, p) {
			switch il, ok := level[im]; {
			case !ok:
				t.Errorf("%s (level %d) imports %s, which has no level in internal/doc.go", p, l, im)
			case il >= l:
				t.Errorf("%s (level %d) imports %s (level %d): a package imports only lower levels", p, l, im, il)
			}
		}
	}
	// The table's other packages, which the generator imports.
	for p, l := range level {
		if checked[p] {
			continue
		}
		for im := range imports(t, root, p) {
			if il, ok := level[im]; ok && il >= l {
				t.Errorf("%s (level %d) imports %s (level %d): a package imports only lower levels", p, l, im, il)
			}
		}
	}
}
