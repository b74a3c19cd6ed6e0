package gen

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	modfiles "github.com/cugen/cugen"
	"github.com/cugen/cugen/emit"
	"github.com/cugen/cugen/internal/layergen"
)

// layerName is the directory of the Go layer in gen's output, beside the
// generated packages: OUT/cuda, package cuda (cugen's cuda/).
const layerName = "cuda"

// layerPackage is the Go layer for gen's output out: cuda/ as cugen
// carries it (package cugen), without its tests, rewritten for the CUDA
// major and the import path of the generated packages pkgs, with nccl.go
// only when pkgs has nccl, and with its subpackages whose generated
// packages pkgs has (blas only with cublas): the layer's package first
// (Name "cuda"), then each subpackage (Name "cuda/SUB", written by
// layergen.WriteSubpackages). When the layer cannot be written there (a major
// it is not written for, no import path, a package it imports not
// generated: selected says whether -lib chose the packages) it returns nil
// and a note saying why. Its files record command, the gen command line
// that regenerates them, as the generated packages' files do.
//
// pkgs returns the packages; layerPackage calls it only once the layer is
// rendered, so that the rendering can run while emit generates them.
func layerPackage(out string, major int, importPath, command string, pkgs func() []*emit.Package, selected bool) ([]*emit.Package, string, error) {
	where := filepath.Join(out, layerName)
	if !slices.Contains(layergen.Majors, major) {
		return nil, fmt.Sprintf("cugen: no %s (the Go layer): it is written for CUDA %s, not %d", where, majorList(), major), nil
	}
	if importPath == "" {
		return nil, fmt.Sprintf("cugen: no %s (the Go layer): %s is not inside a Go module (give -importpath)", where, out), nil
	}
	var have map[string]bool
	has := func(pkg string) bool {
		if have == nil {
			have = map[string]bool{}
			for _, p := range pkgs() {
				have[p.Name] = true
			}
		}
		return have[pkg]
	}
	files, err := layergen.RenderFS(modfiles.Layer, layergen.Copy{
		Major: major, ImportPath: importPath, Command: command, Have: has,
	})
	if err != nil {
		return nil, "", err
	}
	needs, err := layergen.Imports(files, importPath)
	if err != nil {
		return nil, "", err
	}
	var missing []string
	for _, n := range needs {
		if !has(n) {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		why := "the headers declare no " + libraryNamed(missing[0]).Title + " (-layer=false leaves the layer out)"
		if selected {
			why = "-lib leaves it out (add it to -lib, or give -layer=false)"
		}
		return nil, fmt.Sprintf("cugen: no %s (the Go layer): it imports %s; %s", where, strings.Join(missing, " and "), why), nil
	}
	own, subs := layergen.Split(files)
	layer := []*emit.Package{{Name: layerName, Files: own}}
	for _, sub := range slices.Sorted(maps.Keys(subs)) {
		layer = append(layer, &emit.Package{Name: layerName + "/" + sub, Files: subs[sub]})
	}
	return layer, "", nil
}

func majorList() string {
	var m []string
	for _, n := range layergen.Majors {
		m = append(m, fmt.Sprint(n))
	}
	return strings.Join(m, " and ")
}
