package npp

import (
	"bufio"
	"debug/elf"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cusolvermg"
	"github.com/cugen/cugen/generated/cuda12/nppc"
	"github.com/cugen/cugen/generated/cuda12/nppial"
	"github.com/cugen/cugen/generated/cuda12/nppicc"
	"github.com/cugen/cugen/generated/cuda12/nppidei"
	"github.com/cugen/cugen/generated/cuda12/nppif"
	"github.com/cugen/cugen/generated/cuda12/nppig"
	"github.com/cugen/cugen/generated/cuda12/nppim"
	"github.com/cugen/cugen/generated/cuda12/nppist"
	"github.com/cugen/cugen/generated/cuda12/nppisu"
	"github.com/cugen/cugen/generated/cuda12/nppitc"
	"github.com/cugen/cugen/generated/cuda12/npps"
	"github.com/cugen/cugen/library"
)

// TestNPPSymbolsExported12: every function the packages nppc ... npps and
// cusolvermg declare (their api.txt, one C declaration a line) is in the
// dynamic symbol table of the library the package loads (Debian's, with
// make test), but those the description lists as Unexported, which must
// be absent. The generated symbol tests only log a missing symbol for a
// library without a version function of a form cugen reads (NPP's
// nppGetLibVersion returns a struct; the other ten NPP libraries have
// none): this test fails on one.
func TestNPPSymbolsExported12(t *testing.T) {
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
			declared := apiFuncs(t, filepath.Join("..", "..", "generated", "cuda12", c.desc.Package, "api.txt"))
			f, err := elf.Open(c.lib.Path())
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
			missing := 0
			for _, fn := range declared {
				_, known := c.desc.Unexported[fn]
				switch {
				case known && exported[fn]:
					t.Errorf("%s is listed as Unexported but %s exports it", fn, c.lib.Path())
				case !known && !exported[fn]:
					if missing++; missing <= 10 {
						t.Errorf("%s is declared but %s does not export it", fn, c.lib.Path())
					}
				}
			}
			if missing > 0 {
				t.Errorf("%d of %d declared functions not exported", missing, len(declared))
			}
			t.Logf("%d declared functions, %d of them known not exported, checked against %s", len(declared), len(c.desc.Unexported), c.lib.Path())
		})
	}
}

// apiFuncs returns the C names of the functions an api.txt declares.
func apiFuncs(t *testing.T, path string) []string {
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
		if rest, ok := strings.CutPrefix(sc.Text(), "func "); ok {
			name, _, _ := strings.Cut(rest, "(")
			names = append(names, name)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatalf("%s declares no functions", path)
	}
	return names
}
