package emit

import (
	"bytes"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
)

// hostileLines tries every way a text of lines has from a comment into
// code: a line that is a directive after "//" or "// ", a block comment
// jennifer would write for several lines, and a "*/" to end it early. It
// is what an IR's documentation may hold (ir.Validate refuses control
// characters but the newline and the tab there).
const hostileLines = "Gets x. */ func Evil() {} /*\n" +
	"//go:generate touch PWNED\n" +
	"/*\n" +
	"*/ func Evil2() {}\n" +
	"//line evil.go:1\n" +
	"+build ignore\n" +
	" //go:build ignore\n" +
	"//export Evil\n" +
	"bom\ufeff bidi\u202e end"

// hostileText adds the line breaks Go does not know but readers do, and
// the characters Go rejects in a file (NUL), for the texts no IR
// validation sees (flags, a description, a kernel source). Invalid UTF-8
// is TestCommentLines'.
const hostileText = hostileLines + "\n" +
	"//line evil.go:1\r//export Evil\r\n" +
	"//extern evil\v//sys evil()\f//go:linkname a b\u2028//go:embed x\u2029//cgo LDFLAGS: -lx\u0085//go:noinline\n" +
	"nul\x00 end"

// directivePrefixes are the starts of a comment line Go's tools act on
// (the compiler, go generate, cgo, gccgo, the build).
var directivePrefixes = []string{"//go:", "//line ", "//export ", "//extern ", "//sys ", "//cgo ", "/*line "}

// assertNoInjection fails unless src, a generated Go file, parses, has
// only // comments, none of them a directive or build constraint but
// allowed (exactly), no physical line go generate would run, none of the
// characters hostileText smuggles, and declares nothing of it (Evil).
// It is the test's own reading of the file, independent of
// checkComments.
func assertNoInjection(t *testing.T, name string, src []byte, allowed ...string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Errorf("%s does not parse: %v", name, err)
		return
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && strings.HasPrefix(fd.Name.Name, "Evil") {
			t.Errorf("%s: hostile text became code: func %s", name, fd.Name.Name)
		}
	}
	var directives []string
	for _, g := range f.Comments {
		for _, c := range g.List {
			p := fset.Position(c.Pos())
			rest, ok := strings.CutPrefix(c.Text, "//")
			switch {
			case !ok:
				t.Errorf("%s: a block comment: %.80q", p, c.Text)
			case rest != "" && rest[0] != ' ' && rest[0] != '\t', constraint.IsPlusBuild(c.Text), constraint.IsGoBuild(c.Text):
				directives = append(directives, c.Text)
				if !slices.Contains(allowed, c.Text) {
					t.Errorf("%s: a directive: %.80q", p, c.Text)
				}
			}
		}
	}
	if !slices.Equal(directives, allowed) {
		t.Errorf("%s: directives %q; want exactly %q", name, directives, allowed)
	}
	for i, l := range strings.Split(string(src), "\n") {
		tl := strings.TrimLeft(l, " \t")
		for _, d := range append(directivePrefixes, "/*") {
			if strings.HasPrefix(tl, d) && !slices.Contains(allowed, tl) {
				t.Errorf("%s:%d: a line starting %q: %.80q", name, i+1, d, l)
			}
		}
	}
	if !utf8.Valid(src) {
		t.Errorf("%s is not UTF-8", name)
	}
	for _, r := range []rune{'\r', '\v', '\f', 0, 0xFEFF, 0x85, 0x2028, 0x2029, 0x202E} {
		if bytes.ContainsRune(src, r) {
			t.Errorf("%s holds %U", name, r)
		}
	}
}

// TestHostileTextInGeneratedComments: the text of every place that
// reaches a generated comment from outside cugen (a header's doc of a
// function, a parameter, a type, a record, a constant; a description's
// doc; the origin and command line of the file headers; the header file
// a declaration comes from) is hostileText, and every generated Go file
// holds it as comment text only (issue 37 row 1). It fails on the
// generator before commentLines (a //go:generate line in funcs.go).
func TestHostileTextInGeneratedComments(t *testing.T) {
	// the issue's doc (which the generator wrote as it was, exit 0), then
	// every way at once
	hostileGenerate(t, "Gets x.\n//go:generate touch PWNED", "")
	hostileGenerate(t, hostileLines, hostileText)
}

// hostileGenerate generates the tiny IR with every doc it has docText,
// and every other text from outside (the library's doc, the origin, the
// command line) text, and holds the output to assertNoInjection.
func hostileGenerate(t *testing.T, docText, text string) {
	t.Helper()
	tiny, err := os.ReadFile("../parser/ir/testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	api, err := ir.Decode(tiny)
	if err != nil {
		t.Fatal(err)
	}
	doc := func() *ir.Doc {
		return &ir.Doc{
			Brief:          docText,
			Body:           []ir.Block{{Kind: ir.Paragraph, Text: docText}, {Kind: ir.Code, Text: docText}, {Kind: ir.List, Items: []string{docText}}},
			Returns:        docText,
			Notes:          []string{docText},
			Deprecated:     true,
			DeprecatedText: docText,
		}
	}
	for _, f := range api.Functions {
		f.Doc = doc()
		for i := range f.Params {
			f.Params[i].Doc = docText
			f.Doc.Params = append(f.Doc.Params, ir.ParamDoc{Name: f.Params[i].Name, Text: docText})
		}
	}
	for _, e := range api.Enums {
		e.Doc = doc()
		for i := range e.Values {
			e.Values[i].Doc = doc()
		}
	}
	for _, r := range api.Records {
		r.Doc = doc()
	}
	for _, td := range api.Typedefs {
		td.Doc = doc()
	}
	for _, mc := range api.Macros {
		mc.Doc = doc()
	}
	var libs []*library.Desc
	for _, d := range library.All {
		c := *d
		c.Doc = text
		libs = append(libs, &c)
	}
	pkgs, err := Generate(api, Options{Origin: "CUDA 12.4 headers" + text, Command: "cugen gen " + text, Demo: true, ImportPath: "example.com/out", Libraries: libs})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	delivered := false
	for _, p := range pkgs {
		for name, src := range p.Files {
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			delivered = delivered || bytes.Contains(src, []byte("touch PWNED"))
			assertNoInjection(t, p.Name+"/"+name, src)
		}
	}
	if !delivered {
		t.Error("no generated file holds the hostile text: the test reached no comment")
	}
}

// TestHostileTextInKernels: the text cugen kernels puts into kernels.go's
// comments (the source file's name, the compiler, the command line, each
// kernel's expression, file and parameters' C types, a struct's C name)
// is hostileText, and kernels.go holds it as comment text only, its one
// directives the //go:embed lines of its images (issue 37 row 1: a -name
// of several lines put three //go:generate lines into kernels.go).
func TestHostileTextInKernels(t *testing.T) {
	// the -name of issue 37 (exit 0 and three //go:generate lines), then
	// with every other way
	issue := "axpy<float /*\n//go:generate touch PWNED\n// */>"
	hostileKernels(t, issue, "")
	hostileKernels(t, issue+hostileText, hostileText)
}

func hostileKernels(t *testing.T, expr, hostileText string) {
	t.Helper()
	st := &ir.KernelType{Kind: ir.KStruct, Name: "pair_t" + hostileText, C: "pair_t", Size: 8, Align: 4,
		Fields: []ir.KernelField{{Name: "a", Offset: 0, Type: &ir.KernelType{Kind: ir.KScalar, Scalar: "float", C: "float", Size: 4, Align: 4}}}}
	p := &KernelsPackage{
		Package:  "kern",
		Source:   "axpy.cu" + hostileText,
		Compiler: "NVRTC 12.4" + hostileText,
		Command:  "cugen kernels -name " + expr,
		CudaPath: "example.com/cuda",
		Kernels: []*ir.Kernel{{
			Name: "axpy", Expr: expr, File: "axpy.cu" + hostileText, Line: 3,
			Params: []ir.KernelParam{
				{Name: "x", Type: &ir.KernelType{Kind: ir.KPointer, C: "float *" + hostileText, Size: 8, Align: 8,
					Elem: &ir.KernelType{Kind: ir.KScalar, Scalar: "float", C: "float", Size: 4, Align: 4}}},
				{Name: "p", Type: st},
			},
		}},
		Images: []KernelImage{
			{Arch: 90, Lowered: map[string]string{expr: "_Z4axpyIfEvPT_"}, Bytes: []byte("cubin")},
			{Arch: 90, PTX: true, Lowered: map[string]string{expr: "_Z4axpyIfEvPT_"}, Bytes: []byte("ptx")},
		},
	}
	files, err := Kernels(p)
	if err != nil {
		t.Fatalf("Kernels: %v", err)
	}
	src := files["kernels.go"]
	if !bytes.Contains(src, []byte("touch PWNED")) {
		t.Error("kernels.go does not hold the hostile text: the test reached no comment")
	}
	assertNoInjection(t, "kernels.go", src, "//go:embed sm_90.cubin", "//go:embed compute_90.ptx")
	// The images' marker lines are one line each: the loader skips one.
	for n, image := range map[string]string{"sm_90.cubin": "cubin", "compute_90.ptx": "ptx"} {
		first, rest, _ := bytes.Cut(files[n], []byte("\n"))
		if !bytes.HasSuffix(first, []byte("DO NOT EDIT.")) || string(rest) != image {
			t.Errorf("%s: marker %q, then %q; want one marker line, then the image", n, first, rest)
		}
	}
}
