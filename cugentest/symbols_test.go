package cugentest_test

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/ffi/ffiimpl"
)

// recorder is a testing.TB that records what Symbols reports.
type recorder struct {
	testing.TB
	logs, errs []string
	skipped    bool
}

func (r *recorder) Helper()                   {}
func (r *recorder) Logf(f string, a ...any)   { r.logs = append(r.logs, fmt.Sprintf(f, a...)) }
func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }
func (r *recorder) Skipf(f string, a ...any)  { r.skipped = true; runtime.Goexit() }
func (r *recorder) Skip(a ...any)             { r.skipped = true; runtime.Goexit() }
func (r *recorder) Fatalf(f string, a ...any) { r.Errorf(f, a...); runtime.Goexit() }
func (r *recorder) text() string              { return strings.Join(append(r.logs, r.errs...), "\n") }
func (r *recorder) run(f func(testing.TB)) *recorder {
	done := make(chan struct{})
	go func() { defer close(done); f(r) }()
	<-done
	return r
}

// libm with one function it has and one it lacks.
func libm() *ffiimpl.Library {
	lib := ffiimpl.Bind(ffi.NewLibrary(ffi.LibraryDesc{Name: "C math", Files: []string{"libm.so.6"}}))
	lib.NewProc("cos", "")
	lib.NewProc("cugen_no_such_function", "CUDA 99.0")
	return lib
}

func version(v int32) func() (int32, error) { return func() (int32, error) { return v, nil } }

func TestSymbols(t *testing.T) {
	for _, c := range []struct {
		name    string
		require string
		version func() (int32, error)
		fail    bool
	}{
		{"no version function", "1", nil, false},
		{"library older than the headers", "1", version(12000), false},
		{"library as new, not required", "", version(12040), false},
		{"library as new, required", "1", version(12040), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(cugentest.RequireAllEnv, c.require)
			lib := libm()
			r := (&recorder{TB: t}).run(func(tb testing.TB) { cugentest.Symbols(tb, lib, c.version, 12040) })
			if r.skipped {
				t.Skip("libm.so.6 does not load here")
			}
			if !strings.Contains(r.text(), "1 of 2 symbols resolve") || !strings.Contains(r.text(), "cugen_no_such_function") {
				t.Errorf("the report does not count and name the missing symbol:\n%s", r.text())
			}
			if failed := len(r.errs) > 0; failed != c.fail {
				t.Errorf("failed = %v, want %v (errors %q)", failed, c.fail, r.errs)
			}
		})
	}
}

// TestSymbolsSkipsWithoutLibrary: a library that is not found skips the
// test, or fails it under CUGEN_REQUIRE_LIBS=1 (cugentest.NeedLibrary).
func TestSymbolsSkipsWithoutLibrary(t *testing.T) {
	for _, require := range []string{"", "1"} {
		t.Setenv(cugentest.RequireLibsEnv, require)
		lib := ffiimpl.Bind(ffi.NewLibrary(ffi.LibraryDesc{Name: "nothing", Files: []string{"libcugen-nope.so"}}))
		r := (&recorder{TB: t}).run(func(tb testing.TB) { cugentest.Symbols(tb, lib, nil, 0) })
		if want := require == ""; r.skipped != want || (len(r.errs) > 0) == want {
			t.Errorf("%s=%q: skipped = %v, errors %q; want a skip: %v", cugentest.RequireLibsEnv, require, r.skipped, r.errs, want)
		}
	}
}

// TestSymbolsUnloadable: a library that its environment variable names but
// that the dynamic loader cannot open (Debian trixie's libnccl2 needs a
// newer glibc than the test machine's; here a copy of libm marked as an
// arm64 object) is checked through its ELF dynamic symbol table: exported
// functions pass, a missing one fails. A file that opens but is refused
// (not the library) still skips.
func TestSymbolsUnloadable(t *testing.T) {
	m := ffi.NewLibrary(ffi.LibraryDesc{Name: "C math", Files: []string{"libm.so.6"}})
	if err := m.Load(); err != nil || runtime.GOARCH != "amd64" {
		t.Skipf("needs libm.so.6 of amd64: %v", err)
	}
	data, err := os.ReadFile(m.Path())
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint16(data[18:], uint16(elf.EM_AARCH64)) // e_machine
	// The file that opens but is refused skips, unless libraries are required.
	t.Setenv(cugentest.RequireLibsEnv, "")
	arm := filepath.Join(t.TempDir(), "libm-arm64.so.6")
	if err := os.WriteFile(arm, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file  string
		procs []string
		fail  bool
		skip  bool
	}{
		{arm, []string{"cos", "sin"}, false, false},
		{arm, []string{"cos", "cugen_no_such_function"}, true, false},
		{m.Path(), []string{"cos"}, false, true}, // opens, but has no Identify symbol
	} {
		t.Setenv("CUGEN_TEST_UNLOADABLE", c.file)
		lib := ffiimpl.Bind(ffi.NewLibrary(ffi.LibraryDesc{Name: "C math", EnvVar: "CUGEN_TEST_UNLOADABLE", Identify: "cugen_no_such_identify"}))
		for _, p := range c.procs {
			lib.NewProc(p, "")
		}
		r := (&recorder{TB: t}).run(func(tb testing.TB) { cugentest.Symbols(tb, lib, nil, 12040) })
		if r.skipped != c.skip || (len(r.errs) > 0) != c.fail || !c.skip && !strings.Contains(r.text(), "dynamic symbol table") {
			t.Errorf("%s %v: skipped %v, errors %q, want skipped %v, failure %v; report:\n%s", filepath.Base(c.file), c.procs, r.skipped, r.errs, c.skip, c.fail, r.text())
		}
		if c.fail && !strings.Contains(strings.Join(r.errs, "\n"), "cugen_no_such_function") {
			t.Errorf("the failure does not name the missing function: %q", r.errs)
		}
	}
}
