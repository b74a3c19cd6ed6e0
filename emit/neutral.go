package emit

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Neutral describes one file of a major-neutral package (cuda/sys/cu):
// the exported API of one major's generated package (generated/cuda13/cu)
// under that major's build constraint, as aliases and forwarders.
type Neutral struct {
	// Files are the generated package's Go files, name -> content (its
	// _test.go files are left out).
	Files map[string][]byte
	// ImportPath is the generated package's import path.
	ImportPath string
	// Constraint is the file's build constraint: "cuda12", "!cuda12".
	Constraint string
	// Header are the lines of the file's header comment (the marker line
	// first), without "// ".
	Header []string
	// Doc is the package's doc comment, without "// " (empty: none).
	Doc string
}

// RenderNeutral returns the file n describes: every exported type of the
// generated package as an alias (type Context = cu.Context), every
// exported constant as a constant of it (const X = cu.X), every exported
// function as a forwarder (func F(a A) (R, error) { return cu.F(a) }),
// which the compiler inlines: calling through it costs nothing at run
// time, where a var F = cu.F would be an indirect call. Methods come with
// the aliased types. The API so forwarded is the package's exported Go
// API, read from its generated source, so it is what the IR made it,
// declaration for declaration. An exported variable is refused (a copy
// would not follow the original), and so is an exported function or
// type that names an unexported type of the package: neither can be
// forwarded, and generated code has none.
func RenderNeutral(n Neutral) ([]byte, error) {
	pkgName := path.Base(n.ImportPath)
	fset := token.NewFileSet()
	var files []*ast.File
	var fileNames []string
	for _, name := range sortedKeys(n.Files) {
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, n.Files[name], parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("emit: neutral %s: %w", n.ImportPath, err)
		}
		if f.Name.Name != pkgName {
			return nil, fmt.Errorf("emit: neutral %s: %s is package %s, want %s", n.ImportPath, name, f.Name.Name, pkgName)
		}
		files = append(files, f)
		fileNames = append(fileNames, name)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("emit: neutral %s: no Go files", n.ImportPath)
	}
	// Every top-level name of the package: an identifier of a signature
	// that is one of them is the package's and gets its qualifier.
	local := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					local[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						local[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, id := range s.Names {
							local[id.Name] = true
						}
					}
				}
			}
		}
	}
	w := &neutralWriter{pkg: pkgName, fset: fset, local: local, imports: map[string]string{pkgName: n.ImportPath}}
	var types, consts, funcs bytes.Buffer
	for i, f := range files {
		w.file, w.fileImports = fileNames[i], map[string]string{}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			name := path.Base(p)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			w.fileImports[name] = p
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil || !d.Name.IsExported() {
					continue
				}
				if err := w.function(&funcs, d); err != nil {
					return nil, err
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						if err := w.typeSpec(&types, s); err != nil {
							return nil, err
						}
					case *ast.ValueSpec:
						for _, id := range s.Names {
							if !id.IsExported() {
								continue
							}
							if d.Tok == token.VAR {
								return nil, fmt.Errorf("emit: neutral %s: %s: var %s: an exported variable cannot be forwarded", n.ImportPath, w.pos(id), id.Name)
							}
							fmt.Fprintf(&consts, "\t%s = %s.%s\n", id.Name, pkgName, id.Name)
						}
					}
				}
			}
		}
	}

	var b bytes.Buffer
	for _, l := range n.Header {
		fmt.Fprintf(&b, "// %s\n", l)
	}
	fmt.Fprintf(&b, "\n//go:build %s\n\n", n.Constraint)
	if n.Doc != "" {
		for _, l := range strings.Split(strings.TrimRight(n.Doc, "\n"), "\n") {
			b.WriteString(strings.TrimRight("// "+l, " ") + "\n")
		}
	}
	fmt.Fprintf(&b, "package %s\n\nimport (\n", pkgName)
	// The standard library's packages first, then the others, as
	// goimports groups them.
	names := sortedKeys(w.imports)
	std := func(p string) bool { return !strings.Contains(strings.Split(p, "/")[0], ".") }
	slices.SortFunc(names, func(a, b string) int {
		pa, pb := w.imports[a], w.imports[b]
		if std(pa) != std(pb) {
			if std(pa) {
				return -1
			}
			return 1
		}
		return strings.Compare(pa, pb)
	})
	for i, name := range names {
		p := w.imports[name]
		if i > 0 && std(w.imports[names[i-1]]) && !std(p) {
			b.WriteString("\n")
		}
		if name == path.Base(p) {
			fmt.Fprintf(&b, "\t%q\n", p)
		} else {
			fmt.Fprintf(&b, "\t%s %q\n", name, p)
		}
	}
	b.WriteString(")\n\n")
	b.Write(types.Bytes())
	if consts.Len() > 0 {
		b.WriteString("const (\n")
		b.Write(consts.Bytes())
		b.WriteString(")\n\n")
	}
	b.Write(funcs.Bytes())
	if len(w.imports) == 1 && types.Len()+consts.Len()+funcs.Len() == 0 {
		return nil, fmt.Errorf("emit: neutral %s: no exported declarations", n.ImportPath)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("emit: neutral %s: formatting: %w", n.ImportPath, err)
	}
	return src, nil
}

// neutralWriter writes the declarations of one neutral file.
type neutralWriter struct {
	pkg         string          // the generated package's name, its qualifier
	fset        *token.FileSet  // of the generated files
	local       map[string]bool // the package's top-level names
	imports     map[string]string
	file        string            // the generated file being read
	fileImports map[string]string // its imports: name -> path
}

func (w *neutralWriter) pos(n ast.Node) string {
	return w.fset.Position(n.Pos()).String()
}

// deprecated is the note a forwarder or alias of a deprecated declaration
// carries, so that tools flag its uses as they flag the original's.
func (w *neutralWriter) deprecated(doc *ast.CommentGroup, name string) string {
	if doc == nil || !strings.Contains(doc.Text(), "\nDeprecated: ") && !strings.HasPrefix(doc.Text(), "Deprecated: ") {
		return ""
	}
	return fmt.Sprintf("//\n// Deprecated: as [%s.%s] is.\n", w.pkg, name)
}

func (w *neutralWriter) typeSpec(b *bytes.Buffer, s *ast.TypeSpec) error {
	tparams := map[string]bool{}
	var params, args []string
	if s.TypeParams != nil {
		for _, f := range s.TypeParams.List {
			for _, id := range f.Names {
				tparams[id.Name] = true
			}
		}
		for _, f := range s.TypeParams.List {
			c, err := w.expr(f.Type, tparams)
			if err != nil {
				return err
			}
			var ns []string
			for _, id := range f.Names {
				ns = append(ns, id.Name)
				args = append(args, id.Name)
			}
			params = append(params, strings.Join(ns, ", ")+" "+c)
		}
	}
	doc := s.Doc
	fmt.Fprintf(b, "// %s is [%s.%s].\n%s", s.Name.Name, w.pkg, s.Name.Name, w.deprecated(doc, s.Name.Name))
	if len(params) == 0 {
		fmt.Fprintf(b, "type %s = %s.%s\n\n", s.Name.Name, w.pkg, s.Name.Name)
		return nil
	}
	fmt.Fprintf(b, "type %s[%s] = %s.%s[%s]\n\n", s.Name.Name, strings.Join(params, ", "), w.pkg, s.Name.Name, strings.Join(args, ", "))
	return nil
}

func (w *neutralWriter) function(b *bytes.Buffer, d *ast.FuncDecl) error {
	name := d.Name.Name
	tparams := map[string]bool{}
	var tps, targs []string
	if d.Type.TypeParams != nil {
		for _, f := range d.Type.TypeParams.List {
			for _, id := range f.Names {
				tparams[id.Name] = true
			}
		}
		for _, f := range d.Type.TypeParams.List {
			c, err := w.expr(f.Type, tparams)
			if err != nil {
				return err
			}
			var ns []string
			for _, id := range f.Names {
				ns = append(ns, id.Name)
				targs = append(targs, id.Name)
			}
			tps = append(tps, strings.Join(ns, ", ")+" "+c)
		}
	}
	// Parameter names: the original's, but where one is missing, blank or
	// would hide a package the file names (a parameter cu), p0, p1, ...
	var params, args []string
	taken := map[string]bool{}
	i := 0
	variadic := false
	if d.Type.Params != nil {
		for _, f := range d.Type.Params.List {
			typ := f.Type
			var ell *ast.Ellipsis
			if ell, variadic = typ.(*ast.Ellipsis); variadic {
				typ = ell.Elt
			}
			t, err := w.expr(typ, tparams)
			if err != nil {
				return err
			}
			if variadic {
				t = "..." + t
			}
			n := len(f.Names)
			if n == 0 {
				n = 1
			}
			for j := 0; j < n; j++ {
				pn := ""
				if j < len(f.Names) {
					pn = f.Names[j].Name
				}
				if pn == "" || pn == "_" || w.imports[pn] != "" || w.fileImports[pn] != "" || pn == w.pkg || taken[pn] {
					pn = fmt.Sprintf("p%d", i)
				}
				taken[pn] = true
				params = append(params, pn+" "+t)
				args = append(args, pn)
				i++
			}
		}
	}
	if variadic {
		args[len(args)-1] += "..."
	}
	var results []string
	if d.Type.Results != nil {
		for _, f := range d.Type.Results.List {
			t, err := w.expr(f.Type, tparams)
			if err != nil {
				return err
			}
			n := max(len(f.Names), 1)
			for range n {
				results = append(results, t)
			}
		}
	}
	res := ""
	switch {
	case len(results) == 1:
		res = " " + results[0]
	case len(results) > 1:
		res = " (" + strings.Join(results, ", ") + ")"
	}
	tp, ta := "", ""
	if len(tps) > 0 {
		tp = "[" + strings.Join(tps, ", ") + "]"
		ta = "[" + strings.Join(targs, ", ") + "]"
	}
	ret := ""
	if len(results) > 0 {
		ret = "return "
	}
	fmt.Fprintf(b, "// %s calls [%s.%s].\n%s", name, w.pkg, name, w.deprecated(d.Doc, name))
	fmt.Fprintf(b, "func %s%s(%s)%s {\n\t%s%s.%s%s(%s)\n}\n\n", name, tp, strings.Join(params, ", "), res, ret, w.pkg, name, ta, strings.Join(args, ", "))
	return nil
}

// expr prints type expression e of the generated file with the package's
// own names qualified (Context -> cu.Context) and the packages it names
// added to the neutral file's imports; tparams are the type parameters
// in scope, which stay as they are.
func (w *neutralWriter) expr(e ast.Expr, tparams map[string]bool) (string, error) {
	// The rewrite works on a copy, made by printing and parsing the
	// expression again: the generated file's tree stays as it was.
	var src bytes.Buffer
	if err := printer.Fprint(&src, w.fset, e); err != nil {
		return "", err
	}
	cp, err := parser.ParseExpr(src.String())
	if err != nil {
		return "", fmt.Errorf("emit: neutral %s: %s: %w", w.pkg, w.pos(e), err)
	}
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr: // pkg.Name: another package's name
			id, ok := n.X.(*ast.Ident)
			if !ok {
				err = fmt.Errorf("emit: neutral %s: %s: a selector of no package in a type", w.pkg, w.pos(e))
				return false
			}
			p := w.fileImports[id.Name]
			if p == "" {
				err = fmt.Errorf("emit: neutral %s: %s: %s.%s: %s does not import %s", w.pkg, w.pos(e), id.Name, n.Sel.Name, w.file, id.Name)
				return false
			}
			if have, ok := w.imports[id.Name]; ok && have != p {
				err = fmt.Errorf("emit: neutral %s: %s: %s names both %s and %s", w.pkg, w.pos(e), id.Name, have, p)
				return false
			}
			w.imports[id.Name] = p
			return false
		case *ast.Field: // a field's or method's name is no type: read its type only
			if n.Type != nil {
				ast.Inspect(n.Type, walk)
			}
			return false
		case *ast.Ident:
			if tparams[n.Name] || !w.local[n.Name] {
				return true
			}
			if !n.IsExported() {
				err = fmt.Errorf("emit: neutral %s: %s: %s is unexported: it cannot be named outside the package", w.pkg, w.pos(e), n.Name)
				return false
			}
			n.Name = w.pkg + "." + n.Name
		}
		return true
	}
	ast.Inspect(cp, walk)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	if err := printer.Fprint(&out, token.NewFileSet(), cp); err != nil {
		return "", err
	}
	return out.String(), nil
}
