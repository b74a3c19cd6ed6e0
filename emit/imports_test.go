package emit_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	cugen "github.com/cugen/cugen"
	"github.com/cugen/cugen/emit"
	"github.com/cugen/cugen/internal/carried"
	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
)

// carriedAPI decodes the IR cugen carries of the set.
func carriedAPI(t *testing.T, set string) *ir.API {
	t.Helper()
	c := carried.Find(set)
	if c == nil {
		t.Fatalf("cugen carries no IR of set %s", set)
	}
	b, err := cugen.IRs.ReadFile(c.File)
	if err != nil {
		t.Fatal(err)
	}
	api, err := ir.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return api
}

// TestImportsMatchEmit: each library's Imports are exactly the packages
// its package imports when the whole family of set 12.4 and of 13.0 is
// emitted (what -lib selects by, before emitting, holds to what emit
// writes); a package emitted with Options.Only is byte for byte the one
// the whole family has; and one whose Imports Only leaves out is an
// error naming the description, not a package declaring the types
// itself.
func TestImportsMatchEmit(t *testing.T) {
	for _, set := range []string{"12.4", "13.0"} {
		api := carriedAPI(t, set)
		opts := emit.Options{Origin: "test", Command: "cugen gen test", Demo: true, ImportPath: "example.com/out"}
		all, err := emit.Generate(api, opts)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]*emit.Package{}
		for _, p := range all {
			byName[p.Name] = p
			d := library.Named(library.All, p.Name)
			var want []string
			for _, k := range d.Imports {
				i := slices.IndexFunc(library.All, func(d *library.Desc) bool { return d.Key == k })
				want = append(want, library.All[i].Package)
			}
			slices.Sort(want)
			if !slices.Equal(p.Imports, want) {
				t.Errorf("set %s: package %s imports %q; library %s's Imports say %q", set, p.Name, p.Imports, d.Key, want)
			}
		}
		for _, names := range [][]string{{"cu", "cudart", "nvrtc"}, {"cusolvermg"}, {"nppif"}} {
			sel, err := library.Select(library.All, names)
			if err != nil {
				t.Fatal(err)
			}
			o := opts
			for _, d := range sel {
				o.Only = append(o.Only, d.Key)
			}
			some, err := emit.Generate(api, o)
			if err != nil {
				t.Fatalf("set %s, Only %v: %v", set, o.Only, err)
			}
			if len(some) != len(sel) {
				t.Errorf("set %s, Only %v: %d packages, want %d", set, o.Only, len(some), len(sel))
			}
			for _, p := range some {
				full := byName[p.Name]
				for name, b := range full.Files {
					if !bytes.Equal(p.Files[name], b) {
						t.Errorf("set %s, Only %v: %s/%s differs from the whole family's", set, o.Only, p.Name, name)
					}
				}
				if len(p.Files) != len(full.Files) {
					t.Errorf("set %s, Only %v: %s has %d files, the whole family's %d", set, o.Only, p.Name, len(p.Files), len(full.Files))
				}
			}
		}
		o := opts
		o.Only = []ir.Library{"cublas"} // without the runtime, whose cudaStream_t it takes
		if _, err := emit.Generate(api, o); err == nil || !strings.Contains(err.Error(), "package cublas uses types of [driver runtime], which are not generated: library cublas's Imports must name") {
			t.Errorf("set %s, Only cublas: %v; want the error naming cublas's Imports", set, err)
		}
	}
}
