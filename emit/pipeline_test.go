package emit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/internal/genfiles"
	"github.com/cugen/cugen/internal/testset"
	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
)

// The 12.4 header set, parsed once per test binary.
var set124 struct {
	once   sync.Once
	api    *ir.API
	origin string // as cmd/cugen labels a -set 12.4 run
	skip   string
	err    error
}

// load124 returns the IR of the locked 12.4 headers and the Origin cmd/cugen
// gives them. It skips (testset.Set) when the headers are not in the cache;
// it never fetches them.
func load124(tb testing.TB) (*ir.API, string) {
	tb.Helper()
	if r := testset.LeftOut("12.4"); r != "" {
		tb.Skip(r)
	}
	s := &set124
	s.once.Do(func() {
		fs, skip, err := testset.Find("12.4") // never fetched here
		if s.skip, s.err = skip, err; skip != "" || err != nil {
			return
		}
		e := fs.Set
		if s.api, s.err = parser.ParseWith(fs.Dir, parser.Options{Extra: fs.WithDirs, Pinned: fs.Pinned}); s.err != nil {
			return
		}
		digest := fs.Digest
		if len(digest) > 12 {
			digest = digest[:12]
		}
		// cmd/cugen: "CUDA 12.4 headers (headers.lock set 12.4 (sha256 …))".
		s.origin = fmt.Sprintf("CUDA %d.%d headers (headers.lock set %s (sha256 %s))",
			s.api.CUDAVersion/1000, s.api.CUDAVersion%1000/10, e.Name, digest)
	})
	switch {
	case s.skip != "":
		cugentest.SkipNoHeaders(tb, "%s", s.skip)
	case s.err != nil:
		tb.Fatal(s.err)
	}
	return s.api, s.origin
}

// opts124 are the Options cmd/cugen uses for generated/cuda12.
func opts124(origin string) Options {
	return Options{Origin: origin, Command: "cugen gen -set 12.4 -out generated/cuda12", Demo: true, ImportPath: "github.com/cugen/cugen/generated/cuda12"}
}

// staleFiles compares generated packages with the directories they were
// committed to (dir/<package name>) and describes every difference: a file
// that differs, one that is missing, and a generated file (one with cugen's
// marker) that is no longer produced. Hand-written files are ignored.
func staleFiles(dir string, pkgs []*Package) ([]string, error) {
	var out []string
	for _, p := range pkgs {
		pdir := filepath.Join(dir, p.Name)
		for _, name := range sortedKeys(p.Files) {
			path := filepath.Join(pdir, name)
			b, err := os.ReadFile(path)
			switch {
			case os.IsNotExist(err):
				out = append(out, path+": missing")
			case err != nil:
				return nil, err
			case !bytes.Equal(b, p.Files[name]):
				out = append(out, path+": differs"+firstDiff(b, p.Files[name]))
			}
		}
		entries, err := os.ReadDir(pdir)
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		for _, e := range entries {
			if _, ours := p.Files[e.Name()]; ours || e.IsDir() {
				continue
			}
			b, err := os.ReadFile(filepath.Join(pdir, e.Name()))
			if err != nil {
				return nil, err
			}
			if genfiles.IsGenerated(b) {
				out = append(out, filepath.Join(pdir, e.Name())+": generated file no longer produced")
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// firstDiff describes the first differing line of two files.
func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y || i >= len(al) || i >= len(bl) {
			return fmt.Sprintf(" (line %d: committed %q, generated %q)", i+1, x, y)
		}
	}
	return ""
}
