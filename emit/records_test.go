package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"testing"
)

var anonStorageRE = regexp.MustCompile(`^_anon\d+$`)

// TestNoUnreachableMembers: structs.go declares no method a user cannot
// call and no member named like an internal one. A C member the header
// reserves (_internal_padding, _oversize of CUdevResource) is padding, not
// an unexported field or an uncallable accessor _oversize() (it was both).
func TestNoUnreachableMembers(t *testing.T) {
	api, origin := load124(t)
	pkgs, err := Generate(api, opts124(origin))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		f, err := parser.ParseFile(token.NewFileSet(), "structs.go", p.Files["structs.go"], 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Recv != nil && !n.Name.IsExported() {
					t.Errorf("%s/structs.go: method %s cannot be called outside the package", p.Name, n.Name.Name)
				}
			case *ast.StructType:
				for _, fl := range n.Fields.List {
					for _, id := range fl.Names {
						// _ is padding, raw a union's storage, _anonN an
						// anonymous union's (their members have accessors).
						if !id.IsExported() && id.Name != "_" && id.Name != "raw" && !anonStorageRE.MatchString(id.Name) {
							t.Errorf("%s/structs.go: field %s is neither a C member nor padding", p.Name, id.Name)
						}
					}
				}
			}
			return true
		})
	}
}
