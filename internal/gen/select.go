package gen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
)

// libraryNamed is the library whose Go package is pkg, in any case.
func libraryNamed(pkg string) *library.Desc { return library.Named(library.All, pkg) }

// selectLibs is -lib resolved before anything is parsed or emitted: the
// libraries named and those their packages import (library.Desc.Imports,
// transitively: library.Select), in the order of library.All; notes says
// of each one pulled in so which selected package imports it.
func selectLibs(names []string) (sel []*library.Desc, notes []string, err error) {
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
func checkDeclared(api *ir.API, names []string) error {
	for _, n := range names {
		d := libraryNamed(n)
		if d.Required || slices.ContainsFunc(api.Functions, func(f *ir.Function) bool { return f.Library == d.Key }) {
			continue
		}
		return fmt.Errorf("cugen: -lib %s: the headers declare no function of %s (%s): it is not generated from them", d.Package, d.Title, strings.Join(d.Include, ", "))
	}
	return nil
}
