package emit

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"

	"github.com/cugen/cugen/internal/genfiles"
	"github.com/cugen/cugen/parser/ir"
)

var generatedRE = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// checkGeneratedFiles checks what every generated file must be: it starts
// with cugen's marker on a line Go recognises as generated code, Go files
// are gofmt-clean, and every exported function of funcs.go has a doc
// comment naming itself and the C function it wraps.
func checkGeneratedFiles(t *testing.T, pkgs []*Package) {
	t.Helper()
	for _, p := range pkgs {
		for _, name := range sortedKeys(p.Files) {
			src := p.Files[name]
			first, _, _ := bytes.Cut(src, []byte("\n"))
			if !genfiles.IsGenerated(src) {
				t.Errorf("%s/%s: first line %q lacks %q", p.Name, name, first, genfiles.Marker)
			}
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			if !bytes.HasPrefix(src, []byte("// "+genfiles.Marker)) {
				t.Errorf("%s/%s: first line %q does not start with // %s", p.Name, name, first, genfiles.Marker)
			}
			if !generatedRE.Match(first) {
				t.Errorf("%s/%s: first line %q does not match %s", p.Name, name, first, generatedRE)
			}
			formatted, err := format.Source(src)
			if err != nil {
				t.Errorf("%s/%s: %v", p.Name, name, err)
				continue
			}
			if !bytes.Equal(formatted, src) {
				t.Errorf("%s/%s is not gofmt-clean%s", p.Name, name, firstDiff(src, formatted))
			}
			if name == "funcs.go" {
				checkFuncDocs(t, p.Name, src)
			}
			if errs, _ := commentWidthErrors(p.Name+"/"+name, src); len(errs) > 0 {
				t.Errorf("%d comment lines past %d columns, the first: %s", len(errs), commentWidth, errs[0])
			}
		}
	}
}

// A wrapper's doc comment (STYLE item 5) starts with the Go identifier:
// "MemGetInfo gets free and total memory." from the header's brief, then
// says where it comes from in its own paragraph: "It wraps cuMemGetInfo
// (symbol cuMemGetInfo_v2, cuda.h).". Without a brief to lead, the first
// paragraph is that: "MemGetInfo wraps cuMemGetInfo (symbol ...).". An
// alias macro's function says what it calls instead.
var (
	wrapsDocRE = regexp.MustCompile(`^(\w+) wraps (\w+) \(symbol (\w+), ([\w./]+)\)\.`)
	itWrapsRE  = regexp.MustCompile(`^It wraps (\w+) \(symbol (\w+), ([\w./]+)\)\.`)
	aliasDocRE = regexp.MustCompile(`^(\w+) is (\w+), which ([\w./]+) defines as (\w+): it calls \[(\w+)\]\.`)
)

func checkFuncDocs(t *testing.T, pkg string, src []byte) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), pkg+"/funcs.go", src, parser.ParseComments)
	if err != nil {
		t.Errorf("%s/funcs.go: %v", pkg, err)
		return
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || !fd.Name.IsExported() {
			continue
		}
		paras := strings.Split(fd.Doc.Text(), "\n\n")
		for i, p := range paras {
			paras[i] = strings.Join(strings.Fields(p), " ")
		}
		name := fd.Name.Name
		first, _, _ := strings.Cut(paras[0], " ")
		var m []string
		switch {
		case wrapsDocRE.MatchString(paras[0]):
			m = wrapsDocRE.FindStringSubmatch(paras[0])
		case aliasDocRE.MatchString(paras[0]):
			m = aliasDocRE.FindStringSubmatch(paras[0])
		case len(paras) > 1 && itWrapsRE.MatchString(paras[1]):
			m = []string{paras[0], first}
		}
		if m == nil || m[1] != name || first != name {
			t.Errorf("%s.%s: doc comment does not start %q then %q (or %q)", pkg, name,
				name+" does what the brief says.", "It wraps cuX (symbol cuX_v2, cuda.h).", name+" wraps cuX (symbol cuX_v2, cuda.h).")
		}
	}
}

// TestGenerated12_4 checks every file generated from the 12.4 headers.
func TestGenerated12_4(t *testing.T) {
	api, origin := load124(t)
	pkgs, err := Generate(api, opts124(origin))
	if err != nil {
		t.Fatal(err)
	}
	checkGeneratedFiles(t, pkgs)
	for _, p := range pkgs {
		for _, name := range []string{"doc.go", "types.go", "enums.go", "structs.go", "consts.go", "errors.go", "funcs.go", "load.go", "audit.txt", "symbols_test.go"} {
			if p.Files[name] == nil {
				t.Errorf("%s: no %s (every package has the same files)", p.Name, name)
			}
		}
		if p.Bound == 0 || p.Bound != p.Declared-len(p.Skipped) {
			t.Errorf("%s: bound %d of %d with %d skipped", p.Name, p.Bound, p.Declared, len(p.Skipped))
		}
	}
}

// TestDeterministic generates the 12.4 packages twice from one IR: the bytes
// must be identical (no map order, no time, no machine paths).
func TestDeterministic(t *testing.T) {
	api, origin := load124(t)
	a, err := Generate(api, opts124(origin))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(api, opts124(origin))
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatalf("%d packages, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Name != b[i].Name || len(a[i].Files) != len(b[i].Files) {
			t.Fatalf("package %d: %s with %d files, then %s with %d", i, a[i].Name, len(a[i].Files), b[i].Name, len(b[i].Files))
		}
		for name, src := range a[i].Files {
			if !bytes.Equal(src, b[i].Files[name]) {
				t.Errorf("%s/%s differs between two runs%s", a[i].Name, name, firstDiff(src, b[i].Files[name]))
			}
			for _, leak := range []string{"/root/", "/home/", "/tmp/", ".cache/cugen"} {
				if bytes.Contains(src, []byte(leak)) {
					t.Errorf("%s/%s contains a machine path (%q)", a[i].Name, name, leak)
				}
			}
		}
	}
}

// TestGeneratedUpToDate is the whole pipeline: it regenerates generated/cuda12
// from the locked 12.4 headers in memory, as make generate does, and lists
// the committed files that differ.
func TestGeneratedUpToDate(t *testing.T) {
	api, origin := load124(t)
	pkgs, err := Generate(api, opts124(origin))
	if err != nil {
		t.Fatal(err)
	}
	stale, err := staleFiles("../generated/cuda12", pkgs)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Errorf("generated/cuda12 is stale; run make generate:\n%s", strings.Join(stale, "\n"))
	}
}

// TestGenerateNeedsErrorEnums: a header set without a library's result enum
// is an error, not a package that does not compile.
func TestGenerateNeedsErrorEnums(t *testing.T) {
	api := &ir.API{CUDAVersion: 12040}
	if _, err := Generate(api, Options{Origin: "test"}); err == nil || !strings.Contains(err.Error(), "error enum") {
		t.Errorf("Generate without error enums: %v, want an error naming the error enum", err)
	}
}

// TestHelperNames: every exported function the generator writes besides
// the wrappers (helpers.go, load.go of the committed packages) is in
// helperNames, the one list assignNames keeps C names off.
func TestHelperNames(t *testing.T) {
	listed := map[string]bool{}
	for _, n := range helperNames {
		listed[n] = true
	}
	seen := map[string]bool{}
	for _, dir := range []string{"../generated/cuda12/cu", "../generated/cuda12/cudart", "../generated/cuda13/cu", "../generated/cuda13/cudart"} {
		for _, file := range []string{"helpers.go", "load.go"} {
			f, err := parser.ParseFile(token.NewFileSet(), dir+"/"+file, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
					seen[fd.Name.Name] = true
					if !listed[fd.Name.Name] {
						t.Errorf("%s/%s: %s is not in helperNames", dir, file, fd.Name.Name)
					}
				}
			}
		}
	}
	for _, n := range helperNames {
		if !seen[n] {
			t.Errorf("helperNames lists %s, which no generated package declares", n)
		}
	}
}
