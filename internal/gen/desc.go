package gen

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cugen/cugen/emit"
	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
)

// genDesc is gen -desc: a library description of the user's, generated
// with the driver and runtime descriptions (its package imports their
// types, cudart.Stream for a cudaStream_t). It writes its own package to
// OUT, and cu and cudart only where no other gen line wrote them (own):
// a module's line for cugen's libraries and its -desc line share OUT,
// each passing its gen -check. Its zero value is a gen without -desc.
type genDesc struct{ file *library.DescFile }

// readDesc reads -desc; "" is none.
func readDesc(file, irFile string) (genDesc, error) {
	if file == "" {
		return genDesc{}, nil
	}
	if irFile != "" {
		return genDesc{}, errors.New("cugen: -desc goes with -headers or -set (an -ir file was parsed without the description)")
	}
	f, err := library.ReadDescFile(file)
	if err != nil {
		return genDesc{}, err
	}
	return genDesc{f}, nil
}

// libraries are the descriptions parsed and generated: nil (library.All)
// without -desc.
func (g genDesc) libraries() []*library.Desc {
	if g.file == nil {
		return nil
	}
	return []*library.Desc{library.Driver, library.Runtime, g.file.Desc}
}

// checkAPI holds the description to the parsed headers
// (library.DescFile.CheckAPI).
func (g genDesc) checkAPI(api *ir.API) error {
	if g.file == nil {
		return nil
	}
	return g.file.CheckAPI(api)
}

// own returns, of pkgs (what emit made of the driver's, the runtime's and
// the description's headers), the packages this -desc line writes to out,
// or compares with -check: the description's, and cu and cudart where out
// has none yet or holds the ones this same line wrote (their api.txt
// records the same command, or a -desc of the same file: the line before
// an edit, -headers DIR become -set 12.4). The cu and cudart of another
// gen line (the module's line for cugen's libraries) are left as they
// are, never rewritten: the description's package imports them, and note
// says so. Theirs must be of the CUDA major of the headers parsed here.
func (g genDesc) own(out string, api *ir.API, pkgs []*emit.Package) (mine []*emit.Package, note string, err error) {
	var kept []string
	var by string
	for _, p := range pkgs {
		if p.Name == g.file.Desc.Package {
			mine = append(mine, p)
			continue
		}
		dir := filepath.Join(out, p.Name)
		old, err := emit.ReadManifest(dir)
		if err != nil {
			return nil, "", err
		}
		cur, err := p.Manifest()
		if err != nil {
			return nil, "", err
		}
		if old == nil || sameDesc(old.Command(), cur.Command()) {
			mine = append(mine, p) // none yet, or this line's own
			continue
		}
		if v := old.CUDAVersion(); v/1000 != int(api.CUDAVersion)/1000 {
			return nil, "", fmt.Errorf("cugen: %s is of CUDA %d.%d (its api.txt; written by %s), %s imports it, and the headers -desc parses are of CUDA %d.%d: give both gen lines the same -set (or -headers)",
				dir, v/1000, v%1000/10, old.Command(), g.file.Desc.Package, api.CUDAVersion/1000, api.CUDAVersion%1000/10)
		}
		kept = append(kept, filepath.Join(out, p.Name))
		by = old.Command()
	}
	if len(kept) > 0 {
		note = fmt.Sprintf("cugen: %s imports %s as another gen line wrote them (%s); -desc leaves them as they are", g.file.Desc.Package, strings.Join(kept, " and "), by)
	}
	return mine, note, nil
}

// sameDesc reports whether two recorded gen command lines are the same
// line: equal, or both -desc of the same file.
func sameDesc(a, b string) bool {
	if a == b {
		return true
	}
	descOf := func(cmd string) string {
		f := strings.Fields(cmd)
		for i := 0; i+1 < len(f); i++ {
			if f[i] == "-desc" {
				return f[i+1]
			}
		}
		return ""
	}
	d := descOf(a)
	return d != "" && d == descOf(b)
}
