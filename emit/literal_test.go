package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/ffi/ffiimpl"
)

// literalTypes are the structs generated code spells as keyed literals.
var literalTypes = map[string]reflect.Type{
	"ffi.LibraryDesc":      reflect.TypeOf(ffi.LibraryDesc{}),
	"ffiimpl.Layout":       reflect.TypeOf(ffiimpl.Layout{}),
	"ffiimpl.Scalar":       reflect.TypeOf(ffiimpl.Scalar{}),
	"cugentest.ContextAPI": reflect.TypeOf(cugentest.ContextAPI{}),
}

// TestLiteralKeysDeclaredOrder: a struct literal in generated code lists
// its keys in the struct's declared order, as a person writes it, not
// sorted by name (jen.Dict's order; load.go had EnvVar, Files, Identify,
// Name).
func TestLiteralKeysDeclaredOrder(t *testing.T) {
	api, origin := load124(t)
	opts := opts124(origin)
	opts.Demo, opts.ImportPath = true, "example.com/out"
	pkgs, err := Generate(api, opts)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, p := range pkgs {
		for name, src := range p.Files {
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			// check verifies one literal of typ against its struct's
			// field order.
			check := func(lit *ast.CompositeLit, typ string, rt reflect.Type) {
				seen[typ]++
				last := -1
				for _, e := range lit.Elts {
					key := e.(*ast.KeyValueExpr).Key.(*ast.Ident).Name
					sf, ok := rt.FieldByName(key)
					if !ok {
						t.Errorf("%s/%s: %s has no field %s", p.Name, name, typ, key)
						continue
					}
					if sf.Index[0] < last {
						t.Errorf("%s/%s: %s literal: %s is out of its declared order", p.Name, name, typ, key)
					}
					last = sf.Index[0]
				}
			}
			selName := func(e ast.Expr) string {
				sel, ok := e.(*ast.SelectorExpr)
				if !ok {
					return ""
				}
				return sel.X.(*ast.Ident).Name + "." + sel.Sel.Name
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				if at, ok := lit.Type.(*ast.ArrayType); ok {
					// []ffiimpl.Scalar{{...}}: the elements' type is elided.
					typ := selName(at.Elt)
					if rt, ok := literalTypes[typ]; ok {
						for _, e := range lit.Elts {
							if el, ok := e.(*ast.CompositeLit); ok && el.Type == nil {
								check(el, typ, rt)
							}
						}
					}
					return true
				}
				typ := selName(lit.Type)
				if rt, ok := literalTypes[typ]; ok {
					check(lit, typ, rt)
				}
				return true
			})
		}
	}
	for typ := range literalTypes {
		if seen[typ] == 0 {
			t.Errorf("no %s literal in the generated packages", typ)
		}
	}
}
