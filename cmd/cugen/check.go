package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/cugen/cugen/emit"
)

// printAPIChanges prints what pkg changes in the API against the api.txt in
// dir, the package as last generated (nothing when there is none, or no
// change); an unreadable api.txt is a warning on stderr.
func printAPIChanges(dir string, pkg *emit.Package, stdout, stderr io.Writer) error {
	old, err := emit.ReadManifest(dir)
	if err != nil {
		fmt.Fprintf(stderr, "cugen: %v (no API diff)\n", err)
		return nil
	}
	if old == nil {
		return nil
	}
	cur, err := pkg.Manifest()
	if err != nil {
		return err
	}
	if c := emit.DiffManifests(old, cur); !c.Empty() {
		fmt.Fprintf(stdout, "cugen: package %s: API changes (api.txt): ", pkg.Name)
		return c.WriteText(stdout)
	}
	return nil
}

// checkSet compares the packages a generation would write into out with
// what is there, reading only: one line per file that differs ("stale
// cu/funcs.go": different bytes; "missing cu/load.go": not written yet;
// "extra cu/old.go": a generated file this generation no longer has, which
// a regeneration deletes), after each package's API changes against its
// api.txt. Files cugen did not generate are not its business. It returns
// how many files differ.
func checkSet(out string, pkgs []*emit.Package, stdout, stderr io.Writer) (int, error) {
	var diffs []string
	for _, p := range pkgs {
		dir := filepath.Join(out, p.Name)
		if err := printAPIChanges(dir, p, stdout, stderr); err != nil {
			return 0, err
		}
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
				return 0, err
			case !st.Mode().IsRegular():
				// Never opened (a FIFO would block); gen refuses it too.
				diffs = append(diffs, fmt.Sprintf("stale %s (a %v, not a file)", rel, st.Mode().Type()))
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return 0, err
			}
			if !bytes.Equal(b, p.Files[n]) {
				diffs = append(diffs, "stale "+rel)
			}
		}
		entries, err := os.ReadDir(dir)
		if err != nil && !os.IsNotExist(err) {
			return 0, err
		}
		for _, e := range entries {
			if _, ours := p.Files[e.Name()]; ours || !e.Type().IsRegular() {
				continue
			}
			gen, err := generatedFile(filepath.Join(dir, e.Name()))
			if err != nil {
				return 0, err
			}
			if gen {
				diffs = append(diffs, "extra "+p.Name+"/"+e.Name())
			}
		}
	}
	for _, d := range diffs {
		fmt.Fprintln(stdout, "cugen: "+d)
	}
	return len(diffs), nil
}

// generatedFile reports whether the regular file p starts with cugen's
// marker line (emit.IsGenerated), reading that line only.
func generatedFile(p string) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadSlice('\n')
	if err != nil && len(line) == 0 {
		return false, nil
	}
	return emit.IsGenerated(line), nil
}
