//go:build linux && (amd64 || arm64)

package ffi_test

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/ffi"
)

func TestLoadMissingLibrary(t *testing.T) {
	t.Setenv("CUGEN_TEST_NOPE", "")
	cuda := t.TempDir()
	t.Setenv("CUDA_PATH", cuda)
	t.Setenv("CUDA_HOME", "")
	lib := ffi.NewLibrary(ffi.LibraryDesc{
		Name:   "CUDA driver",
		EnvVar: "CUGEN_TEST_NOPE",
		Files:  []string{"libcugen-nope.so.1"},
		Dirs:   []string{"/nonexistent/lib64"},
	})
	p := lib.NewProc("cuInit", "")
	if lib.Path() != "" {
		t.Fatalf("NewProc loaded the library")
	}
	_, err := p.Addr()
	var le *ffi.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("Addr() error = %v (%T), want *LoadError", err, err)
	}
	want := []string{"libcugen-nope.so.1", filepath.Join(cuda, "lib64", "libcugen-nope.so.1"), "/nonexistent/lib64/libcugen-nope.so.1"}
	if len(le.Tried) != len(want) {
		t.Fatalf("tried %q, want %q", le.Tried, want)
	}
	for i, w := range want {
		path, msg, _ := strings.Cut(le.Tried[i], ": ")
		if path != w || msg == "" {
			t.Errorf("Tried[%d] = %q, want %q and the dlerror text", i, le.Tried[i], w)
		}
	}
	if !errors.Is(err, ffi.ErrNotLoaded) {
		t.Errorf("errors.Is(err, ErrNotLoaded) is false")
	}
	msg := err.Error()
	for _, s := range []string{"cannot load CUDA driver library", "libcugen-nope.so.1 (", "set CUGEN_TEST_NOPE to its path"} {
		if !strings.Contains(msg, s) {
			t.Errorf("error %q does not contain %q", msg, s)
		}
	}
	t.Log(msg)
	if _, err2 := p.Addr(); err2 != err {
		t.Errorf("second Addr() gave a different error: %v", err2)
	}
	if err2 := lib.Load(); err2 != err {
		t.Errorf("Load() after a failed Addr: %v", err2)
	}
}

func TestLoadEnvOverride(t *testing.T) {
	needABI(t)
	// Set: the only path tried, even if a listed file would load.
	t.Setenv("CUGEN_TEST_ENV", "/nonexistent/libabi.so")
	bad := ffi.NewLibrary(ffi.LibraryDesc{Name: "ABI test", EnvVar: "CUGEN_TEST_ENV", Files: []string{abiPath}})
	err := bad.Load()
	var le *ffi.LoadError
	if !errors.As(err, &le) || len(le.Tried) != 1 || !strings.HasPrefix(le.Tried[0], "/nonexistent/libabi.so: ") {
		t.Fatalf("Load() = %v, want a LoadError for the env path only", err)
	}
	if !strings.Contains(err.Error(), "CUGEN_TEST_ENV") {
		t.Errorf("error %q does not name the variable", err)
	}

	t.Setenv("CUGEN_TEST_ENV", abiPath)
	good := ffi.NewLibrary(ffi.LibraryDesc{Name: "ABI test", EnvVar: "CUGEN_TEST_ENV", Files: []string{"libcugen-nope.so.1"}})
	if err := good.Load(); err != nil {
		t.Fatal(err)
	}
	if good.Path() != abiPath {
		t.Errorf("Path() = %q, want %q", good.Path(), abiPath)
	}
}

func TestLoadBySoname(t *testing.T) {
	// A library on the loader's path, found by its bare name; Path reports
	// where it came from.
	lib := ffi.NewLibrary(ffi.LibraryDesc{Name: "C math", Files: []string{"libcugen-nope.so", "libm.so.6"}})
	if _, err := lib.NewProc("cos", "").Addr(); err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(lib.Path()) || filepath.Base(lib.Path()) != "libm.so.6" {
		t.Errorf("Path() = %q, want the absolute path of libm.so.6", lib.Path())
	}
}

func TestMissingSymbol(t *testing.T) {
	needABI(t)
	p := abiLib.NewProc("cuMemAllocFromTheFuture_v9", "CUDA 12.2")
	a, err := p.Addr()
	var se *ffi.SymbolError
	if a != 0 || !errors.As(err, &se) {
		t.Fatalf("Addr() = %#x, %v; want 0 and a *SymbolError", a, err)
	}
	if se.Symbol != "cuMemAllocFromTheFuture_v9" || se.Path != abiPath || se.Err == nil {
		t.Errorf("SymbolError = %+v", se)
	}
	msg := err.Error()
	for _, s := range []string{"cuMemAllocFromTheFuture_v9", abiPath, "(introduced in CUDA 12.2; this library is older)"} {
		if !strings.Contains(msg, s) {
			t.Errorf("error %q does not contain %q", msg, s)
		}
	}
	t.Log(msg)
	if !errors.Is(err, ffi.ErrNoSymbol) || errors.Is(err, ffi.ErrNotLoaded) {
		t.Errorf("errors.Is: ErrNoSymbol %v, ErrNotLoaded %v", errors.Is(err, ffi.ErrNoSymbol), errors.Is(err, ffi.ErrNotLoaded))
	}
	if _, err2 := p.Addr(); err2 != err {
		t.Errorf("the failure is not cached: %v", err2)
	}
	if p.Name() != "cuMemAllocFromTheFuture_v9" {
		t.Errorf("Name() = %q", p.Name())
	}
	if s := (&ffi.SymbolError{Library: "x", Path: "/p", Symbol: "s"}).Error(); strings.Contains(s, "introduced") {
		t.Errorf("no Since, yet %q", s)
	}
}

func TestProcAddrAllocs(t *testing.T) {
	needABI(t)
	p := abiLib.NewProc("b0", "")
	if _, err := p.Addr(); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { p.Addr() }); n != 0 {
		t.Errorf("Addr() allocates %v times", n)
	}
}

func TestProcConcurrent(t *testing.T) {
	needABI(t)
	p := abiLib.NewProc("b2", "")
	addrs := make(chan uintptr, 16)
	for range 16 {
		go func() {
			a, _ := p.Addr()
			addrs <- a
		}()
	}
	first := <-addrs
	for range 15 {
		if a := <-addrs; a != first || a == 0 {
			t.Fatalf("concurrent Addr() gave %#x and %#x", first, a)
		}
	}
}

// TestAddrInlines guards the inlining of Proc.Addr into every generated
// wrapper: the compiler's budget is 80 and a harmless-looking edit can pass
// it (one did: two returns instead of one cost 86), adding a call to every
// CUDA call.
func TestAddrInlines(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to ask the compiler:", err)
	}
	out, err := exec.Command(goTool, "build", "-gcflags=-m=2", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m=2: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "can inline (*Proc).Addr") {
		t.Errorf("(*Proc).Addr does not inline any more; the compiler said:\n%s", grepLines(string(out), "(*Proc).Addr"))
	}
}

func grepLines(s, sub string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if strings.Contains(line, sub) {
			b.WriteString(line)
		}
	}
	return b.String()
}
