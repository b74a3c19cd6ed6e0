package emit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser"
)

// ctxHeader declares functions in two forms, as NPP's headers do: with
// and without a final stream context. fxGone_Ctx is Unexported, so its
// plain form is the one a CtxOnly library keeps.
const ctxHeader = `#include "cuda.h"
typedef enum fxStatus { FX_SUCCESS = 0, FX_ERROR = -1 } fxStatus;
typedef struct { int dev; } fxCtx;
fxStatus fxAdd(int a);
fxStatus fxAdd_Ctx(int a, fxCtx c);
fxStatus fxGone(int a);
fxStatus fxGone_Ctx(int a, fxCtx c);
fxStatus fxOnly(int a);
`

// generateCtxOnly generates package fx from ctxHeader with a cuda.h of
// CUDA version cudaVersion, for a description exporting only the _Ctx
// forms in CUDA 13.
func generateCtxOnly(t *testing.T, cudaVersion string) *Package {
	t.Helper()
	dir := t.TempDir()
	cuda := strings.Replace(typesPrelude, "#define CUDA_VERSION 12040", "#define CUDA_VERSION "+cudaVersion, 1) + "CUresult CUDAAPI cuInit(unsigned int Flags);\n"
	for name, text := range map[string]string{"cuda.h": cuda, "fx.h": ctxHeader} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fx := &library.Desc{Key: "fx", API: "fx", Title: "FX", Package: "fx", Include: []string{"fx.h"}, Declare: []string{"fx.h"},
		Prefixes: []string{"FX_", "fx"}, Status: "fxStatus",
		Unexported: map[string]string{"fxGone_Ctx": "not exported by libfx"},
		CtxOnly:    map[int]string{13: "libfx 13 exports only the _Ctx forms"},
		Load:       library.Load{Name: "FX %d", Files: map[int][]string{12: {"libfx.so.12"}, 13: {"libfx.so.13"}}, Identify: "fxAdd_Ctx"}}
	libs := []*library.Desc{library.Driver, fx}
	api, err := parser.ParseWith(dir, parser.Options{Libraries: libs})
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := Generate(api, Options{Origin: "test", Libraries: libs})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		if p.Name == "fx" {
			return p
		}
	}
	t.Fatal("no package fx")
	return nil
}

// TestCtxOnly: a description whose CUDA 13 library exports only the _Ctx
// form of a function declared in two (library.Desc.CtxOnly, NPP 13.0's
// about 3,900) leaves the plain form out of its CUDA 13 package, says so
// in audit.txt (skip) and the package doc, and counts it declared, not
// bound; the plain form whose _Ctx twin is itself Unexported stays, as
// does a function without a twin. The CUDA 12 package binds all five.
// Before the rule (Unexported, one list for both majors) the CUDA 13
// package bound fxAdd, which the library does not export.
func TestCtxOnly(t *testing.T) {
	p12 := generateCtxOnly(t, "12040")
	if p12.Bound != 5 || p12.Declared != 5 || len(p12.Skipped) != 0 {
		t.Errorf("CUDA 12: bound %d of %d, skipped %v; want 5 of 5, none", p12.Bound, p12.Declared, p12.Skipped)
	}
	if f := string(p12.Files["funcs.go"]); !strings.Contains(f, "func Add(a int32) error {") {
		t.Error("CUDA 12: funcs.go lacks Add")
	}
	p13 := generateCtxOnly(t, "13000")
	if p13.Bound != 4 || p13.Declared != 5 || strings.Join(p13.Skipped, ",") != "fxAdd" {
		t.Errorf("CUDA 13: bound %d of %d, skipped %v; want 4 of 5, [fxAdd]", p13.Bound, p13.Declared, p13.Skipped)
	}
	funcs, audit, doc := string(p13.Files["funcs.go"]), string(p13.Files["audit.txt"]), string(p13.Files["doc.go"])
	if strings.Contains(funcs, "func Add(") {
		t.Error("CUDA 13: funcs.go binds fxAdd, which only has its _Ctx form exported")
	}
	for _, want := range []string{"func AddCtx(", "func Gone(", "func GoneCtx(", "func Only("} {
		if !strings.Contains(funcs, want) {
			t.Errorf("CUDA 13: funcs.go lacks %q", want)
		}
	}
	for _, want := range []string{"skip fxAdd: libfx 13 exports only the _Ctx forms\n", "# bound 4 of 5 functions\n", "unexported fxGone_Ctx: not exported by libfx\n"} {
		if !strings.Contains(audit, want) {
			t.Errorf("CUDA 13: audit.txt lacks %q:\n%s", want, audit)
		}
	}
	if !strings.Contains(doc, "The headers declare one more function, fxAdd, which") {
		t.Errorf("CUDA 13: doc.go does not say what it leaves out:\n%s", doc)
	}
}
