package gen

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/cugen/cugen/emit"
	"github.com/cugen/cugen/internal/layergen"
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

// checkSet prints each package's API changes against its api.txt, then
// emit.CheckSet's lines for the packages and the layer (if not nil), and
// returns how many files differ.
func checkSet(out string, pkgs []*emit.Package, layer []*emit.Package, stdout, stderr io.Writer) (int, error) {
	for _, p := range pkgs {
		if err := printAPIChanges(filepath.Join(out, p.Name), p, stdout, stderr); err != nil {
			return 0, err
		}
	}
	pkgs = append(slices.Clip(pkgs), layer...)
	diffs, err := emit.CheckSet(out, pkgs)
	if err != nil {
		return 0, err
	}
	if len(layer) > 0 { // a subpackage of the layer gen would remove
		left, err := layergen.LeftoverSubpackages(filepath.Join(out, layer[0].Name), func(sub string) bool {
			return slices.ContainsFunc(layer[1:], func(p *emit.Package) bool { return p.Name == layer[0].Name+"/"+sub })
		})
		if err != nil {
			return 0, err
		}
		for _, f := range left {
			diffs = append(diffs, "extra "+layer[0].Name+"/"+f)
		}
	}
	for _, d := range diffs {
		fmt.Fprintln(stdout, "cugen: "+d)
	}
	return len(diffs), nil
}
