// Package npp13 tests the NPP packages (nppc ... npps) and cusolvermg of
// CUDA 13 against the toolkit's libraries (libnpp*.so.13,
// libcusolverMg.so.12), the twins of e2e/npp's CUDA 12 tests. A package of
// its own, so that e2e13's test binary does not carry eight thousand
// wrappers. Its tests skip without the libraries or a GPU.
package npp13

import (
	"bufio"
	"debug/elf"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda13/cusolvermg"
	"github.com/cugen/cugen/generated/cuda13/nppc"
	"github.com/cugen/cugen/generated/cuda13/nppial"
	"github.com/cugen/cugen/generated/cuda13/nppicc"
	"github.com/cugen/cugen/generated/cuda13/nppidei"
	"github.com/cugen/cugen/generated/cuda13/nppif"
	"github.com/cugen/cugen/generated/cuda13/nppig"
	"github.com/cugen/cugen/generated/cuda13/nppim"
	"github.com/cugen/cugen/generated/cuda13/nppist"
	"github.com/cugen/cugen/generated/cuda13/nppisu"
	"github.com/cugen/cugen/generated/cuda13/nppitc"
	"github.com/cugen/cugen/generated/cuda13/npps"
	"github.com/cugen/cugen/library"
)

// TestNPPVersion13: the toolkit's libnppc.so.13 loads and
// nppGetLibVersion reports the version of the header the package was
// generated from (NPP 13.0.1 with CUDA 13.0).
func TestNPPVersion13(t *testing.T) {
	cugentest.NeedLibrary(t, nppc.SharedLibrary().Load())
	v := nppc.GetLibVersion()
	if v == nil {
		t.Fatal("GetLibVersion = nil")
	}
	if v.Major != nppc.VerMajor || v.Minor != nppc.VerMinor || v.Build != nppc.VerPatch {
		t.Errorf("GetLibVersion = %+v, want %d.%d.%d (NPP_VER_MAJOR, _MINOR, _PATCH)", *v, nppc.VerMajor, nppc.VerMinor, nppc.VerPatch)
	}
	t.Logf("NPP %d.%d.%d (nppGetLibVersion) from %s", v.Major, v.Minor, v.Build, nppc.SharedLibrary().Path())
}

// TestNPPSymbolsExported13: the rule that decides what the CUDA 13 NPP
// packages bind (library.Desc.Unbound: NPP 13.0 exports only the _Ctx
// form of a function its headers declare in two) and the Unexported
// lists give exactly the dynamic symbol table of the library each package
// loads: every function the headers declare (the package's api.txt, and
// the ones audit.txt says it leaves out) is exported if and only if it is
// bound and not listed Unexported. cusolvermg has no such rule: every
// declared function is exported. The generated symbol tests only log a
// missing symbol for these libraries (no version function of a form
// cugen reads): this test fails on one.
func TestNPPSymbolsExported13(t *testing.T) {
	for _, c := range []struct {
		lib  *ffi.Library
		desc *library.Desc
	}{
		{nppc.SharedLibrary(), library.NPPC}, {nppial.SharedLibrary(), library.NPPIAL}, {nppicc.SharedLibrary(), library.NPPICC},
		{nppidei.SharedLibrary(), library.NPPIDEI}, {nppif.SharedLibrary(), library.NPPIF}, {nppig.SharedLibrary(), library.NPPIG},
		{nppim.SharedLibrary(), library.NPPIM}, {nppist.SharedLibrary(), library.NPPIST}, {nppisu.SharedLibrary(), library.NPPISU},
		{nppitc.SharedLibrary(), library.NPPITC}, {npps.SharedLibrary(), library.NPPS}, {cusolvermg.SharedLibrary(), library.CuSOLVERMg},
	} {
		t.Run(c.desc.Package, func(t *testing.T) {
			cugentest.NeedLibrary(t, c.lib.Load())
			dir := filepath.Join("..", "..", "generated", "cuda13", c.desc.Package)
			bound := lines(t, filepath.Join(dir, "api.txt"), "func ", "(")
			left := lines(t, filepath.Join(dir, "audit.txt"), "skip ", ":")
			declared := map[string]bool{}
			for _, fn := range append(append([]string(nil), bound...), left...) {
				declared[fn] = true
			}
			exported := dynamicFuncs(t, c.lib.Path())
			wrong := 0
			check := func(fn string, want bool, why string) {
				if exported[fn] != want {
					if wrong++; wrong <= 10 {
						t.Errorf("%s: %s, but %s exports it: %v", fn, why, c.lib.Path(), exported[fn])
					}
				}
			}
			unexported := 0
			for _, fn := range bound {
				if _, ok := c.desc.Unexported[fn]; ok {
					unexported++
					check(fn, false, "listed Unexported")
				} else {
					check(fn, true, "bound")
				}
			}
			for _, fn := range left {
				if _, ok := c.desc.Unbound(13, fn, func(s string) bool { return declared[s] }); !ok {
					t.Errorf("audit.txt leaves out %s, which Desc.Unbound keeps: regenerate", fn)
				}
				check(fn, false, "left out (CtxOnly)")
			}
			if wrong > 0 {
				t.Errorf("%d of %d declared functions disagree with %s", wrong, len(declared), c.lib.Path())
			}
			t.Logf("%s: %d declared, %d bound (%d of them listed Unexported), %d left out; %d exported, checked against %s",
				c.desc.Package, len(declared), len(bound), unexported, len(left), len(bound)-unexported, c.lib.Path())
		})
	}
}

// lines returns, of the lines of path that start with prefix, the text
// between prefix and sep: the C names of an api.txt's functions ("func ",
// "(") or of an audit.txt's skipped ones ("skip ", ":").
func lines(t *testing.T, path, prefix, sep string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), prefix); ok {
			name, _, _ := strings.Cut(rest, sep)
			names = append(names, name)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

// dynamicFuncs is the set of functions the shared object at path defines
// in its dynamic symbol table.
func dynamicFuncs(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	exported := map[string]bool{}
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			exported[s.Name] = true
		}
	}
	return exported
}
