package cuda

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestMathScalarsAligned reads the math packages (blas, sparse, solver,
// fft, rand) and fails on any unsafe.Pointer(&v) of a value whose type is
// a type parameter or complex128: a complex128 there is only 8-byte
// aligned, and cuBLAS and cuSPARSE read a cuDoubleComplex alpha or beta
// with aligned vector loads (cublasZaxpy and cusparseSpMV faulted on the
// H200, SIGSEGV). Such values go through AlignScalar or AlignedIn. The
// check is syntactic: the names declared with those types in a function
// (parameters, var declarations) and the fields of that type in the
// package's structs.
func TestMathScalarsAligned(t *testing.T) {
	found := 0
	for _, dir := range []string{"blas", "sparse", "solver", "fft", "rand"} {
		fset := token.NewFileSet()
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		var parsed []*ast.File
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, af)
		}
		// Struct fields typed by a type parameter or complex128.
		fields := map[string]bool{}
		for _, af := range parsed {
			ast.Inspect(af, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSpec)
				if !ok {
					return true
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					return true
				}
				tps := typeParams(ts.TypeParams)
				for _, f := range st.Fields.List {
					if wide(f.Type, tps) {
						for _, nm := range f.Names {
							fields[nm.Name] = true
						}
					}
				}
				return true
			})
		}
		for _, af := range parsed {
			for _, d := range af.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				tps := typeParams(fd.Type.TypeParams)
				names := map[string]bool{}
				addFields(names, fd.Type.Params, tps)
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if vs, ok := n.(*ast.ValueSpec); ok && vs.Type != nil && wide(vs.Type, tps) {
						for _, nm := range vs.Names {
							names[nm.Name] = true
						}
					}
					if fl, ok := n.(*ast.FuncLit); ok {
						addFields(names, fl.Type.Params, tps)
					}
					call, ok := n.(*ast.CallExpr)
					if !ok || len(call.Args) != 1 || !isUnsafePointer(call.Fun) {
						return true
					}
					u, ok := call.Args[0].(*ast.UnaryExpr)
					if !ok || u.Op != token.AND {
						return true
					}
					found++
					bad := false
					switch x := u.X.(type) {
					case *ast.Ident:
						bad = names[x.Name]
					case *ast.SelectorExpr:
						bad = fields[x.Sel.Name]
					}
					if bad {
						t.Errorf("%s: %s passes the address of a possibly 8-byte-aligned scalar: use cuda.AlignScalar",
							fset.Position(call.Pos()), fd.Name.Name)
					}
					return true
				})
			}
		}
	}
	if found == 0 {
		t.Fatal("no unsafe.Pointer(&...) found at all: the scan is broken")
	}
}

func typeParams(fl *ast.FieldList) map[string]bool {
	m := map[string]bool{}
	if fl != nil {
		for _, f := range fl.List {
			for _, nm := range f.Names {
				m[nm.Name] = true
			}
		}
	}
	return m
}

// wide reports whether a type expression is a type parameter or complex128.
func wide(e ast.Expr, tps map[string]bool) bool {
	id, ok := e.(*ast.Ident)
	return ok && (tps[id.Name] || id.Name == "complex128")
}

func addFields(names map[string]bool, fl *ast.FieldList, tps map[string]bool) {
	if fl == nil {
		return
	}
	for _, f := range fl.List {
		if wide(f.Type, tps) {
			for _, nm := range f.Names {
				names[nm.Name] = true
			}
		}
	}
}

func isUnsafePointer(e ast.Expr) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == "unsafe" && s.Sel.Name == "Pointer"
}
