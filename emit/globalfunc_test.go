package emit

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser"
	"github.com/dave/jennifer/jen"
)

// TestGlobalCallbacks: a function of Overrides.GlobalCallbacks (CUPTI's
// cuptiActivityRegisterCallbacks: two callbacks without userData that C
// keeps and calls from its own threads) takes Go funcs. The wrapper
// stores each in its typedef's package-wide atomic slot before the call
// and passes the typedef's trampoline (NULL for nil), and the trampoline
// reads the slot; the audit and the doc say so. A typedef both global and
// passed per call is refused: one trampoline cannot serve both.
func TestGlobalCallbacks(t *testing.T) {
	src := `
typedef void (*CUbufReqFn)(unsigned char **buffer, size_t *size);
typedef void (*CUbufDoneFn)(CUcontext ctx, unsigned int stream, unsigned char *buffer, size_t valid);
CUresult CUDAAPI cuRegisterBuffers(CUbufReqFn requested, CUbufDoneFn completed);
`
	gen := func(src string, global map[string]string) (*model, string, error) {
		t.Helper()
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "cuda.h"), []byte(typesPrelude+src), 0o644); err != nil {
			t.Fatal(err)
		}
		api, err := parser.Parse(dir)
		if err != nil {
			t.Fatal(err)
		}
		desc := *library.Driver
		desc.Overrides.GlobalCallbacks = global
		desc.Overrides.SynchronousCallbacks = map[string]string{"cuPassRequest": "test"}
		m, err := newModel(api, &desc, Options{Origin: "test"})
		if err != nil {
			t.Fatal(err)
		}
		f := jen.NewFile(m.pkg)
		if err := m.genFuncs(f); err != nil {
			return m, "", err
		}
		return m, f.GoString(), nil
	}
	m, out, err := gen(src, map[string]string{"cuRegisterBuffers": "kept by C"})
	if err != nil {
		t.Fatal(err)
	}
	fn := funcNamed(t, m.api, "cuRegisterBuffers")
	ps, err := m.classify(fn)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.role != roleGlobalFunc || p.life != lifeGlobal {
			t.Errorf("%s: role %v, life %v; want the global func role", p.c.Name, p.role, p.life)
		}
	}
	wantAudit := []string{
		"callback cuRegisterBuffers.requested: Go func in globalBufReqFn, read by one static trampoline from any thread (kept by C); nil: NULL; lifetime: process-wide (kept until the next call replaces it)",
		"callback cuRegisterBuffers.completed: Go func in globalBufDoneFn, read by one static trampoline from any thread (kept by C); nil: NULL; lifetime: process-wide (kept until the next call replaces it)",
	}
	if got := m.paramAudit(fn, ps); !slices.Equal(got, wantAudit) {
		t.Errorf("audit\n%q\nwant\n%q", got, wantAudit)
	}
	for _, want := range []string{
		"func RegisterBuffers(requested func(buffer **uint8, size *uint64), completed func(ctx Context, stream uint32, buffer *uint8, valid uint64)) error {",
		"globalBufReqFn.Store(&requested)",
		"requestedAddr = trampolineBufReqFn()",
		"frame.Int(requestedAddr)",
		"frame.Int(completedAddr)",
		"var globalBufDoneFn atomic.Pointer[func(ctx Context, stream uint32, buffer *uint8, valid uint64)]",
		"fnBufDoneFn := globalBufDoneFn.Load()",
		"(*fnBufDoneFn)(Context(a0), uint32(a1), *(**uint8)(unsafe.Pointer(&a2)), uint64(a3))",
		"// The Go funcs requested and completed are kept for the whole process",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the generated code lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("generated:\n%s", out)
	}

	// the same typedef also passed per call (a synchronous callback)
	_, _, err = gen(src+"CUresult CUDAAPI cuPassRequest(CUbufReqFn requested);\n", map[string]string{"cuRegisterBuffers": "kept by C"})
	if err == nil || !strings.Contains(err.Error(), "CUbufReqFn is set process-wide by one function and passed per call") {
		t.Errorf("a typedef both global and synchronous: %v, want the refusal", err)
	}
}
