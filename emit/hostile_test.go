package emit

import (
	"os"
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
	tiny, err := os.ReadFile("../parser/ir/testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	api, err := ir.Decode(tiny)
	if err != nil {
		t.Fatal(err)
	}
	fn := api.Functions[1]
	fn.Result = fn.Params[0].Type // CUpair2 *
	_, err = Generate(api, Options{Origin: "CUDA 12.4 headers", ImportPath: "example.com/out"})
	want := "cuda.h:11: cuPairGet: result has C type CUpair2 * that cugen cannot return"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Generate: %v, want %q", err, want)
	}
}
