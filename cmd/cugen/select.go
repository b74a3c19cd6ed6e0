package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
)

// libList is -lib of gen and ir: Go package names of library descriptions
// (package library), in any case, comma-separated, the flag repeatable.
// Its names are checked once the flags are parsed (check): an unknown one
// is one line naming the known ones.
type libList []string

func (l *libList) String() string { return strings.Join(*l, ",") }

func (l *libList) Set(v string) error {
	for _, name := range strings.Split(v, ",") {
		name = strings.TrimSpace(name)
		if d := libraryNamed(name); d != nil {
			name = d.Package // as the generated files record it, whatever the case given
		}
		if name != "" && !slices.Contains(*l, name) {
			*l = append(*l, name)
		}
	}
	return nil
}

// check refuses a name no description has (parseFlags calls it).
func (l libList) check() error {
	_, err := library.Select(library.All, l)
	return err
}

// libraryNames are the Go package names of the libraries cugen binds.
func libraryNames() []string { return library.Packages(library.All) }

// libraryNamed is the library whose Go package is pkg, in any case.
func libraryNamed(pkg string) *library.Desc { return library.Named(library.All, pkg) }

// selectLibs is -lib resolved before anything is parsed or emitted: the
// libraries named and those their packages import (library.Desc.Imports,
// transitively: library.Select), in the order of library.All; notes says
// of each one pulled in so which selected package imports it.
func selectLibs(names libList) (sel []*library.Desc, notes []string, err error) {
	if sel, err = library.Select(library.All, names); err != nil {
		return nil, nil, fmt.Errorf("cugen: -lib: %w", err)
	}
	keep := map[*library.Desc]bool{}
	var queue []*library.Desc
	for _, n := range names {
		d := libraryNamed(n)
		keep[d] = true
		queue = append(queue, d)
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		var deps []*library.Desc
		for _, k := range d.Imports {
			deps = append(deps, sel[slices.IndexFunc(sel, func(s *library.Desc) bool { return s.Key == k })])
		}
		slices.SortFunc(deps, func(a, b *library.Desc) int { return strings.Compare(a.Package, b.Package) })
		for _, dep := range deps {
			if !keep[dep] {
				keep[dep] = true
				queue = append(queue, dep)
				notes = append(notes, fmt.Sprintf("cugen: -lib: %s too (%s imports it)", dep.Package, d.Package))
			}
		}
	}
	return sel, notes, nil
}

// keys are the libraries' keys (emit.Options.Only).
func keys(descs []*library.Desc) []ir.Library {
	var out []ir.Library
	for _, d := range descs {
		out = append(out, d.Key)
	}
	return out
}

// checkDeclared refuses a library named by -lib that api declares no
// function of: it would get no package.
func checkDeclared(api *ir.API, names libList) error {
	for _, n := range names {
		d := libraryNamed(n)
		if d.Required || slices.ContainsFunc(api.Functions, func(f *ir.Function) bool { return f.Library == d.Key }) {
			continue
		}
		return fmt.Errorf("cugen: -lib %s: the headers declare no function of %s (%s): it is not generated from them", d.Package, d.Title, strings.Join(d.Include, ", "))
	}
	return nil
}
