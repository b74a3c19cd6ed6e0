// Package gen is cugen gen's pipeline: a Config in (where the headers
// are, which libraries, where the packages go), the generated packages
// and the Go layer out, written through genfiles' locked writer or
// compared with what is there (Config.Check). cmd/cugen parses the flags
// into a Config and prints the Result.
//
// The libraries -lib names, with those their packages import
// (library.Select, from the descriptions' Imports), are chosen before
// anything is read: the parse reads only their headers (and the driver's
// and the runtime's, which every parse reads), and emit writes only their
// packages.
package gen

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cugen/cugen/emit"
	"github.com/cugen/cugen/internal/carried"
	"github.com/cugen/cugen/internal/genfiles"
	"github.com/cugen/cugen/internal/layergen"
	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/internal/panics"
	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
)

// Config is one cugen gen run: its flags.
type Config struct {
	Source            // -headers, -with, -set, -lock
	IR, Origin string // -ir, -origin
	Desc       string // -desc
	Out        string // -out; "": generated/cudaMAJOR
	ImportPath string // -importpath; "": from the go.mod above Out
	// Libs are -lib's Go package names (any case); nil: every library
	// whose headers are present.
	Libs  []string
	Parse bool // -parse
	Layer bool // -layer
	Demo  bool // -demo
	Check bool // -check
	// Stdout gets the notes, the API changes and -check's lines; Stderr
	// a download's progress and warnings.
	Stdout, Stderr io.Writer
}

// Result is what a run wrote or compared.
type Result struct {
	Version string   // "CUDA 12.4 headers"
	Out     string   // the output directory
	Summary []string // a part per package written: "cu 432/432 bound, 0 skipped"
	Stale   int      // with Check: the files that differ
	// Parsed are the Go packages of the libraries whose headers were
	// parsed; nil when none were (an IR read) or every library was.
	Parsed []string
}

// Run generates the packages cfg asks for, and writes them (or, with
// Check, compares them with Out).
func Run(cfg Config) (*Result, error) {
	if cfg.Stdout == nil {
		cfg.Stdout = io.Discard
	}
	if cfg.Stderr == nil {
		cfg.Stderr = io.Discard
	}
	src := &cfg.Source
	var sel []*library.Desc // nil: every library
	var notes []string
	if len(cfg.Libs) > 0 {
		var err error
		if sel, notes, err = selectLibs(cfg.Libs); err != nil {
			return nil, err
		}
		// A -lib's names as the generated files record them.
		cfg.Libs = slices.Clone(cfg.Libs)
		for i, n := range cfg.Libs {
			cfg.Libs[i] = libraryNamed(n).Package
		}
	}
	desc, err := readDesc(cfg.Desc, cfg.IR)
	if err != nil {
		return nil, err
	}
	src.Libs = desc.libraries()
	src.Own = desc.file != nil // -with: the library's own headers, with -set too
	if src.Libs == nil && sel != nil {
		// Only the selected libraries' headers are parsed (with the
		// driver's and the runtime's): ir -lib's libraries.
		if src.Libs, err = carried.ParseLibs(cfg.Libs); err != nil {
			return nil, err
		}
	}
	// Wrong outputs fail before the headers are parsed.
	if cfg.Out != "" {
		if err := checkOut(cfg.Out); err != nil {
			return nil, err
		}
	}
	if cfg.ImportPath != "" {
		if err := CheckImportPath("-importpath", cfg.ImportPath); err != nil {
			return nil, err
		}
	}
	api, origin, parsed, err := cfg.api(sel, desc)
	if err != nil {
		return nil, err
	}
	if err := checkDeclared(api, cfg.Libs); err != nil {
		return nil, err
	}
	ver := fmt.Sprintf("CUDA %d.%d headers", api.CUDAVersion/1000, api.CUDAVersion%1000/10)
	if origin != "" {
		origin = ver + " (" + origin + ")"
	} else {
		origin = ver
	}
	out := cfg.Out
	if out == "" {
		out = filepath.Join("generated", fmt.Sprintf("cuda%d", api.CUDAVersion/1000))
	}
	if err := checkOut(out); err != nil {
		return nil, err
	}
	importPath := cfg.ImportPath
	if importPath == "" { // from the go.mod above -out; checked too
		if importPath, err = importPathOf(out); err != nil {
			return nil, err
		}
		if importPath != "" {
			if err := CheckImportPath("-importpath", importPath); err != nil {
				return nil, err
			}
		}
	}
	command := Command(src, cfg.IR, cfg.Desc, cfg.Origin, cfg.Demo, out, importPath, cfg.Libs...)
	opts := emit.Options{Origin: origin, Command: command, Demo: cfg.Demo, ImportPath: importPath, Libraries: desc.libraries()}
	if sel != nil {
		opts.Only = keys(sel)
	}
	// The layer belongs to the line for cugen's libraries, not -desc's.
	// It is rendered while emit generates the packages, which it waits
	// for only to choose its subpackages.
	var layer []*emit.Package // the layer's package, then its subpackages
	var layerNote string
	var layerErr error
	var renderLayer func(pkgs func() []*emit.Package)
	if cfg.Layer && desc.file == nil {
		renderLayer = func(pkgs func() []*emit.Package) {
			layer, layerNote, layerErr = layerPackage(out, int(api.CUDAVersion/1000), importPath, command, pkgs, len(cfg.Libs) > 0)
		}
	}
	pkgs, err := beside(func() ([]*emit.Package, error) { return emit.Generate(api, opts) }, renderLayer)
	if err != nil {
		return nil, err
	}
	if desc.file != nil {
		// Only the description's package, and cu and cudart where no
		// other gen line wrote them.
		var note string
		if pkgs, note, err = desc.own(out, api, pkgs); err != nil {
			return nil, err
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	if layerErr != nil {
		return nil, layerErr
	}
	if layerNote != "" {
		notes = append(notes, layerNote)
	}
	for _, n := range notes {
		fmt.Fprintln(cfg.Stdout, n)
	}
	res := &Result{Version: ver, Out: out}
	if cfg.IR == "" && src.Libs != nil && parsed {
		res.Parsed = library.Packages(src.Libs)
	}
	if cfg.Check {
		res.Stale, err = checkSet(out, pkgs, layer, cfg.Stdout, cfg.Stderr)
		return res, err
	}
	return res, write(out, pkgs, layer, res, cfg.Stdout, cfg.Stderr)
}

// api is the IR to emit and the origin its files name: read from -ir,
// the one cugen carries of -set, or parsed.
func (cfg *Config) api(sel []*library.Desc, desc genDesc) (api *ir.API, origin string, parsed bool, err error) {
	src := &cfg.Source
	if cfg.IR != "" {
		// Emitting from a saved IR lets a machine without a toolkit's
		// headers (13.0 lives only on the GPU machine) regenerate its
		// packages after an emit change: generated/cuda13/ir.json.gz.
		if api, err = ReadIR(cfg.IR); err != nil {
			return nil, "", false, err
		}
		if cfg.Origin != "" {
			return api, cfg.Origin, false, nil
		}
		return api, api.Origin, false, nil // the lock entry the IR was parsed under
	}
	if src.Headers == "" && src.Set == "" {
		return nil, "", false, src.Required("-headers DIR, -set NAME or -ir FILE")
	}
	if !cfg.Parse && desc.file == nil { // -desc reads headers of its own
		if api, err = src.carriedIR(sel); err != nil {
			return nil, "", false, err
		}
		if api != nil {
			return api, api.Origin, false, nil
		}
	}
	if api, origin, err = src.Parse(cfg.Stderr); err != nil {
		return nil, "", false, err
	}
	return api, origin, true, desc.checkAPI(api)
}

// write writes the packages and the layer to out, as one unit under
// out's lock, printing each package's API changes first.
func write(out string, pkgs, layer []*emit.Package, res *Result, stdout, stderr io.Writer) error {
	var dirs []genfiles.Dir
	for _, p := range pkgs {
		// What the new headers change, against the API the package was
		// last generated from (its api.txt), before it is replaced.
		if err := printAPIChanges(filepath.Join(out, p.Name), p, stdout, stderr); err != nil {
			return err
		}
		res.Summary = append(res.Summary, fmt.Sprintf("%s %d/%d bound, %d skipped", p.Name, p.Bound, p.Declared, len(p.Skipped)))
		dirs = append(dirs, p.Dir())
	}
	if layer != nil {
		res.Summary = append(res.Summary, layerName+" (the Go layer)")
		dirs = append(dirs, layer[0].Dir())
	}
	// All packages of one run are one unit: after a crash, the next run
	// has the whole old set or the whole new one. The layer's
	// subpackages (blas, ...) are a set of their own inside it, written
	// under the same lock (genfiles.Locked); one this run leaves out (its
	// library not generated) is removed.
	l, err := genfiles.Lock(out, stderr)
	if err != nil {
		return err
	}
	defer l.Unlock()
	if err := l.WriteSet("", dirs); err != nil {
		return err
	}
	if layer != nil {
		subs := map[string]map[string][]byte{}
		for _, p := range layer[1:] {
			subs[strings.TrimPrefix(p.Name, layerName+"/")] = p.Files
			res.Summary[len(res.Summary)-1] += ", " + p.Name
		}
		return layergen.WriteSubpackages(l, layerName, subs)
	}
	return nil
}

// WriteIR writes api to file (ir.Encode; gzip-compressed when file ends
// in .gz), atomically.
func WriteIR(file string, api *ir.API) error {
	var b bytes.Buffer
	if err := ir.Encode(&b, api, strings.HasSuffix(file, ".gz")); err != nil {
		return err
	}
	if err := lock.WriteFileAtomic(file, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("cugen: %w", err)
	}
	return nil
}

// checkOut refuses output directories that cannot be meant: the file
// system's root (cugen would create /cu), an existing file.
func checkOut(out string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return fmt.Errorf("cugen: -out %s: %w", out, err)
	}
	if filepath.Dir(abs) == abs {
		return fmt.Errorf("cugen: -out %s is the file system's root: give a directory of your module (packages go to OUT/cu, OUT/cudart, ...)", out)
	}
	if st, err := os.Stat(abs); err == nil && !st.IsDir() {
		return fmt.Errorf("cugen: -out %s is not a directory", out)
	}
	return nil
}

// CheckImportPath checks p, the value of flag, as the go command checks
// an import path (golang.org/x/mod/module.CheckImportPath, which this
// module does not depend on): slash-separated elements, each non-empty,
// of ASCII letters, digits and "-._~+", not starting or ending with a
// dot; no leading slash or dash. It goes into a generated import
// declaration.
func CheckImportPath(flag, p string) error {
	bad := func(why string) error {
		return fmt.Errorf("cugen: %s %q is not a valid Go import path: %s", flag, p, why)
	}
	if p == "" {
		return bad("empty")
	}
	if p[0] == '-' {
		return bad("leading dash")
	}
	for _, elem := range strings.Split(p, "/") {
		switch {
		case elem == "":
			return bad("empty path element (leading, trailing or double slash)")
		case elem[0] == '.' || elem[len(elem)-1] == '.':
			return bad(fmt.Sprintf("element %q starts or ends with a dot", elem))
		}
		for _, c := range elem {
			ok := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune("-._~+", c)
			if !ok {
				return bad(fmt.Sprintf("character %q not allowed", c))
			}
		}
	}
	return nil
}

// importPathOf returns the Go import path of dir from the go.mod above it,
// or "" when dir is not inside a module.
func importPathOf(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	root, mod := goModAbove(abs)
	switch {
	case root == "":
		return "", nil
	case mod == "":
		return "", fmt.Errorf("cugen: %s has no module line", filepath.Join(root, "go.mod"))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return "", err
	}
	if rel == "." {
		return mod, nil
	}
	return mod + "/" + filepath.ToSlash(rel), nil
}

// goModAbove returns the directory of the nearest go.mod at or above the
// absolute directory dir and the module path it declares ("" when it has
// no module line); root is "" when there is no go.mod.
func goModAbove(dir string) (root, mod string) {
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			return d, modulePath(b)
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// modulePath reads the module line of a go.mod file.
func modulePath(gomod []byte) string {
	for _, l := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// beside runs generate and, when layer is not nil, layer in a goroutine
// beside it. layer's pkgs blocks until generate has ended and returns its
// packages (nil after a panic). Whatever happens, the goroutine has ended
// when beside returns, and a panic of either is raised here, generate's
// first, with the stack where it was raised.
func beside(generate func() ([]*emit.Package, error), layer func(pkgs func() []*emit.Package)) ([]*emit.Package, error) {
	if layer == nil {
		return generate()
	}
	var pkgs []*emit.Package
	var err error
	generated := make(chan struct{})
	layerDone := make(chan *panics.Panic, 1)
	go func() {
		layerDone <- panics.Catch("the Go layer, rendered beside emit.Generate", func() {
			layer(func() []*emit.Package { <-generated; return pkgs })
		})
	}()
	generatePanic := panics.Catch("emit.Generate", func() { pkgs, err = generate() })
	if generatePanic != nil {
		pkgs = nil
	}
	close(generated)
	layerPanic := <-layerDone
	if generatePanic != nil {
		panic(generatePanic)
	}
	if layerPanic != nil {
		panic(layerPanic)
	}
	return pkgs, err
}
