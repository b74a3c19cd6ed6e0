package emit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/cugen/cugen/internal/genfiles"
)

// CheckSet compares the packages a generation would write into out with
// what is there, reading only, and returns one line per file that differs:
// "stale cu/funcs.go" (different bytes), "missing cu/load.go" (not written
// yet), "extra cu/old.go" (a generated file this generation no longer has,
// which WriteSet would delete). Files cugen did not generate are not its
// business. It is cugen gen -check.
func CheckSet(out string, pkgs []*Package) ([]string, error) {
	var diffs []string
	for _, p := range pkgs {
		dir := filepath.Join(out, p.Name)
		names := make([]string, 0, len(p.Files))
		for n := range p.Files {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			rel := p.Name + "/" + n
			path := filepath.Join(dir, n)
			st, err := os.Lstat(path)
			switch {
			case os.IsNotExist(err):
				diffs = append(diffs, "missing "+rel)
				continue
			case err != nil:
				return nil, err
			case !st.Mode().IsRegular():
				// Never opened (a FIFO would block); WriteSet refuses it too.
				diffs = append(diffs, fmt.Sprintf("stale %s (a %v, not a file)", rel, st.Mode().Type()))
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			if !bytes.Equal(b, p.Files[n]) {
				diffs = append(diffs, "stale "+rel)
			}
		}
		entries, err := os.ReadDir(dir)
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		for _, e := range entries {
			if _, ours := p.Files[e.Name()]; ours {
				continue
			}
			gen, err := genfiles.IsGeneratedFile(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, err
			}
			if gen {
				diffs = append(diffs, "extra "+p.Name+"/"+e.Name())
			}
		}
	}
	return diffs, nil
}
