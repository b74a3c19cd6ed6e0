package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// TestOneHeaderVersion: a package declares the version of its headers
// once, as HeaderVersion; CUDA_VERSION (CUDART_VERSION) was also a const
// Version in consts.go holding the same number.
func TestOneHeaderVersion(t *testing.T) {
	api, origin := load124(t)
	pkgs, err := Generate(api, opts124(origin))
	if err != nil {
		t.Fatal(err)
	}
	want := strconv.Itoa(int(api.CUDAVersion))
	for _, p := range pkgs {
		var holders []string
		for name, src := range p.Files {
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if vs, ok := n.(*ast.ValueSpec); ok {
					for i, v := range vs.Values {
						if lit, ok := v.(*ast.BasicLit); ok && lit.Value == want {
							holders = append(holders, vs.Names[i].Name)
						}
					}
				}
				return true
			})
		}
		if strings.Join(holders, " ") != "HeaderVersion" {
			t.Errorf("%s: %v hold %s, want HeaderVersion alone", p.Name, holders, want)
		}
	}
}
