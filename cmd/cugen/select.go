package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/cugen/cugen/emit"
	"github.com/cugen/cugen/library"
)

// libList is gen's -lib: Go package names of library descriptions
// (package library), comma-separated, the flag repeatable. An unknown name
// is a usage error listing the known ones.
type libList []string

func (l *libList) String() string { return strings.Join(*l, ",") }

func (l *libList) Set(v string) error {
	for _, name := range strings.Split(v, ",") {
		name = strings.TrimSpace(name)
		if libraryNamed(name) == nil {
			return fmt.Errorf("unknown library %q (cugen's libraries: %s)", name, strings.Join(libraryNames(), ", "))
		}
		if !slices.Contains(*l, name) {
			*l = append(*l, name)
		}
	}
	return nil
}

// libraryNames are the Go package names of the libraries cugen binds.
func libraryNames() []string {
	var names []string
	for _, d := range library.All {
		names = append(names, d.Package)
	}
	return names
}

func libraryNamed(pkg string) *library.Desc {
	for _, d := range library.All {
		if d.Package == pkg {
			return d
		}
	}
	return nil
}

// selectLibs keeps the packages named by -lib, and every package one of
// them imports (a type of cudart in cublas's API, cu in cudart's context
// demo test), so that what is written builds; notes lists each one pulled
// in so. A named library the headers declare no function of is an error.
// With no -lib every package is kept.
func selectLibs(pkgs []*emit.Package, want libList, importPath string) (kept []*emit.Package, notes []string, err error) {
	if len(want) == 0 {
		return pkgs, nil, nil
	}
	byName := map[string]*emit.Package{}
	for _, p := range pkgs {
		byName[p.Name] = p
	}
	for _, name := range want {
		if byName[name] == nil {
			d := libraryNamed(name)
			return nil, nil, fmt.Errorf("cugen: -lib %s: the headers declare no function of %s (%s): it is not generated from them", name, d.Title, strings.Join(d.Include, ", "))
		}
	}
	keep := map[string]bool{}
	queue := slices.Clone([]string(want))
	for _, name := range want {
		keep[name] = true
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		deps, err := siblingImports(byName[name], importPath)
		if err != nil {
			return nil, nil, err
		}
		for _, dep := range deps {
			if keep[dep] {
				continue
			}
			if byName[dep] == nil {
				return nil, nil, fmt.Errorf("cugen: -lib: package %s imports %s, which is not generated", name, dep)
			}
			keep[dep] = true
			queue = append(queue, dep)
			notes = append(notes, fmt.Sprintf("cugen: -lib: %s too (%s imports it)", dep, name))
		}
	}
	for _, p := range pkgs {
		if keep[p.Name] {
			kept = append(kept, p)
		}
	}
	return kept, notes, nil
}

// siblingImports lists the packages of the same output (importPath/NAME)
// that p's Go files import, tests included, sorted.
func siblingImports(p *emit.Package, importPath string) ([]string, error) {
	if importPath == "" {
		return nil, nil // no import path: the packages declare their own types
	}
	var deps []string
	fset := token.NewFileSet()
	for name, src := range p.Files {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, p.Name+"/"+name, src, parser.ImportsOnly)
		if err != nil {
			return nil, fmt.Errorf("cugen: generated %s/%s: %w", p.Name, name, err)
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return nil, err
			}
			if dep, ok := strings.CutPrefix(path, importPath+"/"); ok && dep != p.Name && !strings.Contains(dep, "/") && !slices.Contains(deps, dep) {
				deps = append(deps, dep)
			}
		}
	}
	slices.Sort(deps)
	return deps, nil
}
