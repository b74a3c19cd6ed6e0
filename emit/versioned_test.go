package emit

import (
	"github.com/cugen/cugen/library"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// typeSpecs returns every type declaration of Go source files: name ->
// the alias target's name, or "" for a defined type.
func typeSpecs(t *testing.T, files map[string][]byte) map[string]string {
	t.Helper()
	specs := map[string]string{}
	for name, src := range files {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				specs[ts.Name.Name] = ""
				if id, ok := ts.Type.(*ast.Ident); ok && ts.Assign.IsValid() {
					specs[ts.Name.Name] = id.Name
				}
			}
			return true
		})
	}
	return specs
}

// TestVersionedPairs: for every typedef X_vN X of the 12.4 headers, Go
// declares X's name as the type X_vN's declaration gives and X_vN's as its
// alias (type Deviceptr
// uint64; type DeviceptrV2 = Deviceptr), the way round users write it. It
// was the reverse (type Deviceptr = DeviceptrV2).
func TestVersionedPairs(t *testing.T) {
	api, origin := load124(t)
	pkgs, err := Generate(api, opts124(origin))
	if err != nil {
		t.Fatal(err)
	}
	pairs := 0
	// Each model is made as Generate makes it: after the earlier
	// packages, whose types it imports (cupti's CUdevice is cu's).
	var earlier []*model
	for _, p := range pkgs {
		var lib *library.Desc
		for _, d := range library.All {
			if d.Package == p.Name {
				lib = d
			}
		}
		m, err := newModel(api, lib, opts124(origin), earlier...)
		if err != nil {
			t.Fatal(err)
		}
		earlier = append(earlier, m)
		specs := typeSpecs(t, p.Files)
		for x, y := range m.versioned {
			gx, gy := m.typeNames[x], m.typeNames[y]
			pairs++
			// GoX takes the declaration of X_vN: a defined type, or the
			// alias X_vN is of a third type (CUkernelNodeAttrValue_v1 of
			// CUlaunchAttributeValue).
			if target, ok := specs[gx]; !ok || target == gy {
				t.Errorf("%s: %s (C %s) is not declared, or an alias of %s", p.Name, gx, x, target)
			}
			if specs[gy] != gx {
				t.Errorf("%s: %s (C %s) is %q, want an alias of %s", p.Name, gy, y, specs[gy], gx)
			}
		}
	}
	if pairs < 45 {
		t.Errorf("%d versioned pairs in the 12.4 packages, want the 49 of CUDA 12.4", pairs)
	}
}

// reverseAliasRE is an alias of a name to that name with a version suffix.
var reverseAliasRE = regexp.MustCompile(`(?m)^type (\w+) = (\w+)V[0-9]+$`)

// TestCommittedVersionedPairs checks the committed packages of both
// majors: no type is an alias of its own versioned name.
func TestCommittedVersionedPairs(t *testing.T) {
	for _, dir := range []string{"../generated/cuda12", "../generated/cuda13"} {
		for _, pkg := range []string{"cu", "cudart"} {
			files, _ := filepath.Glob(filepath.Join(dir, pkg, "*.go"))
			if len(files) == 0 {
				t.Fatalf("no Go files in %s/%s", dir, pkg)
			}
			for _, file := range files {
				src, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range reverseAliasRE.FindAllStringSubmatch(string(src), -1) {
					if m[1] == m[2] {
						t.Errorf("%s: %s, want the unversioned name defined and the versioned one its alias", file, m[0])
					}
				}
			}
		}
	}
}

// TestMethodsOnDefinedTypes: every method the 12.4 packages declare has
// the defined type of a versioned pair as its receiver, never the alias:
// go doc lists a type's methods only under a receiver that names it, so
// Pointer on DeviceptrV2 was missing from `go doc cu.Deviceptr` (issue 26).
func TestMethodsOnDefinedTypes(t *testing.T) {
	api, origin := load124(t)
	pkgs, err := Generate(api, opts124(origin))
	if err != nil {
		t.Fatal(err)
	}
	methods := 0
	var deviceptrPointer bool
	for _, p := range pkgs {
		specs := typeSpecs(t, p.Files)
		for name, src := range p.Files {
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil {
					continue
				}
				typ := fd.Recv.List[0].Type
				if st, ok := typ.(*ast.StarExpr); ok {
					typ = st.X
				}
				id, ok := typ.(*ast.Ident)
				if !ok {
					continue
				}
				methods++
				if target := specs[id.Name]; target != "" {
					t.Errorf("%s: method %s.%s is declared on the alias %s of %s, want the defined type", p.Name, id.Name, fd.Name.Name, id.Name, target)
				}
				if p.Name == "cu" && id.Name == "Deviceptr" && fd.Name.Name == "Pointer" {
					deviceptrPointer = true
				}
			}
		}
	}
	if !deviceptrPointer {
		t.Errorf("cu: no method Deviceptr.Pointer")
	}
	if methods < 100 {
		t.Errorf("%d methods in the 12.4 packages, want the String, Error, ... of every package", methods)
	}
}
