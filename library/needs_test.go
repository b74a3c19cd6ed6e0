package library_test

import (
	"bytes"
	"debug/elf"
	"path/filepath"
	"slices"
	"testing"

	cugen "github.com/cugen/cugen"
	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
)

// TestNeedsMatchesELF: each library's Needs are exactly the libraries
// whose CUDA 12 sonames its shared object lists as NEEDED, read from the
// Debian libraries of headers.lock in the cache (LockLibs[0]), so that
// `cugen libs -major 12 NAME` fetches what the loader will look for.
// It skips a library not in the cache (make test fetches them all).
func TestNeedsMatchesELF(t *testing.T) {
	l, err := lock.Parse(bytes.NewReader(cugen.HeadersLock), "headers.lock")
	if err != nil {
		t.Fatal(err)
	}
	// A file two descriptions load (libcublas.so.12: cuBLAS and cuBLASXt)
	// is the first's, as the order of All has it.
	owner := map[string]ir.Library{}
	for _, d := range library.All {
		for _, f := range d.Load.FilesFor(12) {
			if _, ok := owner[f]; !ok {
				owner[f] = d.Key
			}
		}
	}
	checked := 0
	for _, d := range library.All {
		files := d.Load.FilesFor(12)
		if len(d.LockLibs) == 0 || len(files) == 0 {
			continue
		}
		e, err := l.Lib(d.LockLibs[0])
		if err != nil {
			t.Errorf("%s: %v", d.Key, err)
			continue
		}
		dir, err := lock.Cached(e, "")
		if err != nil {
			t.Logf("%s: not checked: %v", d.Key, err)
			continue
		}
		f, err := elf.Open(filepath.Join(dir, files[0]))
		if err != nil {
			t.Errorf("%s: %v", d.Key, err)
			continue
		}
		needed, err := f.ImportedLibraries()
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", d.Key, err)
			continue
		}
		var got []ir.Library
		for _, n := range needed {
			if k, ok := owner[n]; ok && k != d.Key && !slices.Contains(got, k) {
				got = append(got, k)
			}
		}
		want := slices.Clone(d.Needs)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %s NEEDs the libraries %v, Needs says %v", d.Key, files[0], got, want)
		}
		checked++
	}
	if checked == 0 {
		t.Skip("no library of headers.lock is in the cache: run make test (or cugen libs -major 12 NAME)")
	}
}

// TestRunTime: a library's run-time libraries are itself and its Needs,
// transitively, in All's order.
func TestRunTime(t *testing.T) {
	for _, c := range []struct {
		d    *library.Desc
		want []string
	}{
		{library.NVRTC, []string{"nvrtc"}},
		{library.CuBLAS, []string{"cublas", "cublaslt"}},
		{library.CuSOLVER, []string{"nvjitlink", "cublas", "cublaslt", "cusparse", "cusolver"}},
	} {
		ds, err := c.d.RunTime(library.All)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range ds {
			got = append(got, d.Package)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: RunTime = %v, want %v", c.d.Key, got, c.want)
		}
	}
	bad := &library.Desc{Key: "x", Needs: []ir.Library{"nothing"}}
	if _, err := bad.RunTime(library.All); err == nil || err.Error() != "library x needs nothing, which no description is" {
		t.Errorf("unknown need: %v", err)
	}
}
