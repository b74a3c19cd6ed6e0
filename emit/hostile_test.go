package emit

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/parser/ir"
)

// FuzzGenerateIR: an IR read from a file either fails ir.Decode (bounds,
// ir.Validate) or Generate with a one-line error, or generates packages:
// never a panic, an endless recursion or a Go file gofmt rejects (whose
// error printed the whole file). The seeds (testdata/fuzz/FuzzGenerateIR)
// are the tiny real IR of parser/ir's tests and the hostile IRs of issue
// 24, whose nulls and cycles crashed Generate before ir.Validate.
func FuzzGenerateIR(f *testing.F) {
	tiny, err := os.ReadFile("../parser/ir/testdata/tiny.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(tiny)
	f.Fuzz(func(t *testing.T, b []byte) {
		api, err := ir.Decode(b)
		if err != nil {
			return // FuzzDecodeIR's
		}
		pkgs, err := Generate(api, Options{Origin: "CUDA 12.4 headers", Demo: true, ImportPath: "example.com/out"})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %.300q", err)
			}
			return
		}
		if len(pkgs) == 0 {
			t.Fatal("no packages and no error")
		}
	})
}

// FuzzMutateIR: the tiny real IR with one field set to a fuzzed string or
// number (a name, a kind, a size, an offset, a macro value, a doc, a
// position) either fails ir.Validate or Generate with one line, or
// generates packages: never a panic, an endless recursion or a gofmt dump.
// It reaches what FuzzGenerateIR's byte mutations rarely do: IRs that are
// valid JSON, every field in place but one.
func FuzzMutateIR(f *testing.F) {
	tiny, err := os.ReadFile("../parser/ir/testdata/tiny.json")
	if err != nil {
		f.Fatal(err)
	}
	for i := 0; i < 24; i++ {
		f.Add(uint8(i), "cuFoo", int64(8))
	}
	f.Add(uint8(0), "cuDevice/GetCount", int64(0))
	f.Add(uint8(10), "8 ); func init() { panic(1) }; const ( y = 2", int64(0))
	f.Add(uint8(18), "CUpair2", int64(0))
	f.Add(uint8(12), "", int64(1<<40))
	f.Fuzz(func(t *testing.T, which uint8, s string, n int64) {
		api, err := ir.Decode(tiny)
		if err != nil {
			t.Fatal(err)
		}
		fn := api.Functions[1] // cuPairGet(CUpair2 *pair, CUdevice dev)
		r := api.Records[0]    // struct CUpair_st { int a; CUdevice b; }
		switch which % 24 {
		case 0:
			fn.Name = s
		case 1:
			fn.Params[1].Name = s
		case 2:
			fn.Params[1].Type.Kind = ir.Kind(s)
		case 3:
			fn.Params[1].Type.Name = s
		case 4:
			r.Fields[1].Name = s
		case 5:
			r.Size = n
		case 6:
			r.Align = n
		case 7:
			r.Fields[1].Offset = n
		case 8:
			r.Fields[1].Type.Size = n
		case 9:
			api.Enums[0].Values[1].Name = s
		case 10:
			api.Macros[1].Value = s
		case 11:
			api.Typedefs[1].Name = s
		case 12:
			r.Fields[0].Type = &ir.Type{Kind: ir.Array, C: "int []", Len: n, Size: 4 * n, Align: 4,
				Elem: &ir.Type{Kind: ir.Int, C: "int", Size: 4, Align: 4, Signed: true}}
		case 13:
			r.Name = s
		case 14:
			fn.Symbol = s
		case 15:
			fn.Params[0].Type.Size = n
		case 16:
			api.Enums[0].Size = n
		case 17:
			r.Fields[0].BitWidth = int(n)
		case 18:
			api.Typedefs[1].Type = &ir.Type{Kind: ir.Named, C: s, Name: s, Size: 4, Align: 4}
		case 19:
			fn.Doc = &ir.Doc{Brief: s, Body: []ir.Block{{Kind: ir.Code, Text: s}}}
		case 20:
			r.Pos.File = s
		case 21:
			fn.Params[0].Array = &ir.ArraySize{Param: s, Len: n, Source: s}
		case 22:
			r.Ref = s
		case 23:
			api.Enums[0].Values[1].Value = n
		}
		if err := ir.Validate(api); err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %.300q", err)
			}
			return
		}
		pkgs, err := Generate(api, Options{Origin: "CUDA 12.4 headers", Demo: true, ImportPath: "example.com/out"})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %.300q", err)
			}
			return
		}
		if len(pkgs) == 0 {
			t.Fatal("no packages and no error")
		}
	})
}

// TestGenerateRefusesPointerResult: a function returning a pointer that is
// neither a C string nor a handle (found by building the packages of
// mutated IRs) is an error naming it; before, Generate wrote
// `ret = *Pair2(r)`, which gofmt accepts and the compiler does not.
func TestGenerateRefusesPointerResult(t *testing.T) {
	api := tinyAPI(t)
	fn := api.Functions[1]
	fn.Result = fn.Params[0].Type // CUpair2 *
	_, err := Generate(api, Options{Origin: "CUDA 12.4 headers", ImportPath: "example.com/out"})
	want := "cuda.h:11: cuPairGet: result has C type CUpair2 * that cugen cannot return"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Generate: %v, want %q", err, want)
	}
}

// tinyAPI is the tiny real IR of parser/ir's tests, decoded.
func tinyAPI(t *testing.T) *ir.API {
	t.Helper()
	tiny, err := os.ReadFile("../parser/ir/testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	api, err := ir.Decode(tiny)
	if err != nil {
		t.Fatal(err)
	}
	return api
}

// constElem is the pointer type p with a const element: CUpair2 * becomes
// const CUpair2 *.
func constElem(p *ir.Type) *ir.Type {
	e := *p.Elem
	e.Const, e.C = true, "const "+e.C
	q := *p
	q.Elem, q.C = &e, "const "+p.C
	return &q
}

// TestGenerateConstStructPointerResult: a function returning a pointer to
// a const struct (nppGetLibVersion's const NppLibraryVersion *) returns a
// Go copy of the struct, nil for NULL, through ffiimpl.CopyOut; before,
// Generate refused it as a pointer it cannot return (and a non-const one
// still is, TestGenerateRefusesPointerResult).
func TestGenerateConstStructPointerResult(t *testing.T) {
	api := tinyAPI(t)
	fn := api.Functions[1]
	fn.Result = constElem(fn.Params[0].Type)
	pkgs, err := Generate(api, Options{Origin: "CUDA 12.4 headers", ImportPath: "example.com/out"})
	if err != nil {
		t.Fatal(err)
	}
	var src string
	for _, p := range pkgs {
		for name, b := range p.Files {
			if name == "funcs.go" && strings.Contains(string(b), "cuPairGet") {
				src = string(b)
			}
		}
	}
	for _, want := range []string{"func PairGet(", "(ret *Pair2)", "ret = ffiimpl.CopyOut[Pair2](r)"} {
		if !strings.Contains(src, want) {
			t.Errorf("funcs.go of cuPairGet lacks %q:\n%s", want, src)
		}
	}
}

// TestMutatedIRsBuild: IRs that ir.Validate accepts, each the tiny real IR
// with one name or layout changed, generate packages that build and vet
// clean (in a module of their own that uses this one). Before: a parameter
// named "_" or ffiimpl (the import it shadowed) built to a package the
// compiler refused. Skipped with -short and without a go command.
func TestMutatedIRsBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated packages")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip(err)
	}
	tiny, err := os.ReadFile("../parser/ir/testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("..")
	dir := t.TempDir()
	sum, _ := os.ReadFile(filepath.Join(root, "go.sum"))
	os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/probe\n\ngo 1.26\n\nrequire github.com/cugen/cugen v0.0.0\n\nreplace github.com/cugen/cugen => "+root+"\n"), 0o644)
	type edit struct {
		name string
		f    func(api *ir.API)
	}
	var edits []edit
	for _, n := range []string{"_", "__", "cu", "cudart", "ffi", "ffiimpl", "unsafe", "runtime", "sync", "init", "main", "lib", "func", "type", "err", "r", "x0"} {
		n := n
		edits = append(edits,
			edit{"func " + n, func(api *ir.API) { api.Functions[1].Name = n }},
			edit{"param " + n, func(api *ir.API) { api.Functions[1].Params[1].Name = n }},
			edit{"pointer param " + n, func(api *ir.API) { api.Functions[1].Params[0].Name = n }},
			edit{"field " + n, func(api *ir.API) { api.Records[0].Fields[1].Name = n }},
			edit{"enum value " + n, func(api *ir.API) { api.Enums[0].Values[1].Name = n }},
			edit{"macro " + n, func(api *ir.API) { api.Macros[1].Name = n }},
		)
	}
	edits = append(edits,
		edit{"int result", func(api *ir.API) { api.Functions[1].Result = &ir.Type{Kind: ir.Int, C: "int", Size: 4, Align: 4} }},
		edit{"struct result", func(api *ir.API) { api.Functions[1].Result = api.Functions[1].Params[0].Type.Elem }},
		edit{"const struct pointer result", func(api *ir.API) { api.Functions[1].Result = constElem(api.Functions[1].Params[0].Type) }},
		edit{"macro 2^64-1", func(api *ir.API) { api.Macros[1].Value = "18446744073709551615" }},
		edit{"enum value -2^31", func(api *ir.API) { api.Enums[0].Values[1].Value = -1 << 31 }},
	)
	built := 0
	for i, e := range edits {
		api, err := ir.Decode(tiny)
		if err != nil {
			t.Fatal(err)
		}
		e.f(api)
		if ir.Validate(api) != nil {
			continue
		}
		sub := fmt.Sprintf("c%02d", i)
		pkgs, err := Generate(api, Options{Origin: "CUDA 12.4 headers", ImportPath: "example.com/probe/" + sub})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: error of several lines: %.300q", e.name, err)
			}
			continue
		}
		built++
		os.WriteFile(filepath.Join(dir, sub+".txt"), []byte(e.name), 0o644)
		for _, p := range pkgs {
			pd := filepath.Join(dir, sub, p.Name)
			os.MkdirAll(pd, 0o755)
			for n, b := range p.Files {
				if strings.HasSuffix(n, "_test.go") {
					continue
				}
				os.WriteFile(filepath.Join(pd, n), b, 0o644)
			}
		}
	}
	if built < len(edits)/2 {
		t.Fatalf("only %d of %d IRs generated", built, len(edits))
	}
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command(gobin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s of %d generated IRs: %v\n%s", args[0], built, err, out)
		}
	}
}

// TestDocCannotOpenBlockComment: documentation is text in // comments,
// whatever it holds. jennifer writes a comment line that starts with "/*"
// as it is, so paragraphs "/*", "*/ func init() {...}; var _ = 0 /*" and
// "*/ //" made the header's text code: the package gained an init
// function of the IR's (found by FuzzMutateIR, corpus c924a932153dbcdc).
func TestDocCannotOpenBlockComment(t *testing.T) {
	api := tinyAPI(t)
	api.Functions[1].Doc = &ir.Doc{Body: []ir.Block{
		{Kind: ir.Paragraph, Text: "/*"},
		{Kind: ir.Paragraph, Text: `*/ func init() { panic("code from the IR") }; var _ = 0 /*`},
		{Kind: ir.Paragraph, Text: "*/ //"},
	}}
	pkgs, err := Generate(api, Options{Origin: "CUDA 12.4 headers", ImportPath: "example.com/out"})
	if err != nil {
		t.Fatal(err)
	}
	src := pkgs[0].Files["funcs.go"]
	file, err := parser.ParseFile(token.NewFileSet(), "funcs.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "init" {
			t.Fatalf("the doc's text became code: func init in\n%s", src)
		}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			t.Fatalf("the doc's text became code: a var declaration in\n%s", src)
		}
	}
	if !bytes.Contains(src, []byte(`// */ func init() { panic("code from the IR") }`)) {
		t.Errorf("the doc's text is not in a // comment:\n%s", src)
	}
}
