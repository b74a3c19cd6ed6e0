package library_test

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cugen/cugen/internal/carried"
	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/internal/testset"
	"github.com/cugen/cugen/library"
)

// TestEveryHeaderAccounted: every header of each Debian set of
// headers.lock (all of nvidia-cuda-dev's include directory, not only the
// files the parse reads) and of the headers entries the set reads
// (libnccl-dev's, libcupti-dev's, ...) is bound or left out with a reason
// (library.LeftOutHeaders): a header left out silently fails here. So
// does an entry of the list that names a header a description binds or
// the parse reads. The table of one set, header by header, is in the
// test's log (go test -v). A set not in the cache skips, or fails under
// CUGEN_REQUIRE_HEADERS=1 (make test, which fetches set 12.4).
func TestEveryHeaderAccounted(t *testing.T) {
	l := testset.Lock(t)
	for _, e := range l.Entries {
		if e.Kind != lock.KindSet || e.Deb == nil {
			continue // a toolkit's set is verified in place, on its machine
		}
		t.Run(e.Name, func(t *testing.T) {
			fs := testset.Set(t, e.Name)
			// The functions each header declares, by the set's carried IR
			// (what the parse of its pinned headers gives: TestCarriedMatchesHeaders).
			c := carried.Find(e.Name)
			if c == nil {
				t.Fatalf("set %s: cugen carries no IR of it", e.Name)
			}
			api, err := c.Read(l, e)
			if err != nil {
				t.Fatal(err)
			}
			funcs := map[string]int{}
			for _, f := range api.Functions {
				funcs[f.Pos.File]++
			}
			var table strings.Builder
			fmt.Fprintf(&table, "headers of set %s:\n", e.Name)
			n := 0
			for i, dir := range append([]string{fs.Dir}, fs.WithDirs...) {
				entry := fs.Set
				if i > 0 {
					entry = fs.With[i-1]
				}
				headers := listHeaders(t, dir)
				// The cache holds the package's whole include directory:
				// a set that held only its pinned files would leave
				// nothing to account for.
				for _, f := range entry.Files {
					if !slices.Contains(headers, f.Path) {
						t.Fatalf("%s: pinned %s is not in %s", entry, f.Path, dir)
					}
				}
				for _, h := range headers {
					n++
					status, err := account(h, fs.Pinned, funcs[h])
					if err != nil {
						t.Errorf("%s, %s: %v", entry, h, err)
					}
					fmt.Fprintf(&table, "  %-50s %s\n", h, status)
				}
			}
			if n < 100 {
				t.Errorf("set %s: %d headers in all; want nvidia-cuda-dev's include directory (over 100)", e.Name, n)
			}
			t.Log(table.String())
		})
	}
}

// account says what happens to header h, declaring funcs functions, of a
// set whose parse reads the files pinned: bound by a package, read for the
// runtime's types (declaring no function), or left
// out and why (a pattern of the list covers only headers neither bound nor
// read); an error when none holds or when the list names a header that is
// bound or read.
func account(h string, pinned map[string]string, funcs int) (string, error) {
	d := library.DeclaredBy(library.All, h)
	_, read := pinned[h]
	lo := library.LeftOut(h)
	switch {
	case lo != nil && lo.Header == h && (d != nil || read):
		return "", fmt.Errorf("left out by name, but bound or read by the parse: drop it from library.LeftOutHeaders")
	case d != nil:
		return "bound: package " + d.Package, nil
	case read && funcs > 0:
		return "", fmt.Errorf("read by the parse and declares %d functions, but no library description declares it: they are bound nowhere", funcs)
	case read:
		return "read: its types are the runtime's (package cudart) where an API uses them", nil
	case lo != nil:
		return "left out: " + lo.Why, nil
	}
	return "", fmt.Errorf("neither bound by a library description nor left out with a reason in library.LeftOutHeaders")
}

// listHeaders lists every file under dir, slash-separated and relative.
func listHeaders(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLeftOutHeaders: every entry has a product and a reason, a valid
// pattern, and leaves out no header a description binds.
func TestLeftOutHeaders(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range library.LeftOutHeaders {
		if l.Header == "" || l.Product == "" || l.Why == "" {
			t.Errorf("left-out header %+v: Header, Product and Why are required", l)
		}
		if seen[l.Header] {
			t.Errorf("left-out header %s listed twice", l.Header)
		}
		seen[l.Header] = true
		if _, err := filepath.Match(l.Header, ""); err != nil {
			t.Errorf("left-out header %s: %v", l.Header, err)
		}
		for _, d := range library.All {
			for _, h := range slices.Concat(d.Include, d.Declare, d.Shared) {
				if l.Matches(h) {
					t.Errorf("left-out header %s covers %s, which %s binds", l.Header, h, d.Key)
				}
			}
		}
	}
	for _, c := range []struct {
		pattern, header string
		want            bool
	}{
		{"crt/", "crt/host_defines.h", true},
		{"crt/", "crtx.h", false},
		{"sm_*_intrinsics.h", "sm_30_intrinsics.h", true},
		{"sm_*_intrinsics.h", "sm_30_intrinsics.hpp", false},
		{"cusolverRf.h", "cusolverRf.h", true},
	} {
		if got := (library.LeftOutHeader{Header: c.pattern}).Matches(c.header); got != c.want {
			t.Errorf("%s matches %s: %v, want %v", c.pattern, c.header, got, c.want)
		}
	}
}
