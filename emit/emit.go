// Package emit turns the IR of package ir into Go source: one package per
// library description (package library: cu for the driver API, cudart for
// the runtime API, nvrtc, ...), always the same small set of files. It is the only package of cugen that imports
// jennifer; it never sees cc's types.
//
// Generated code is thin: library loading, the call path, error text and
// callback trampolines live in the hand-written packages ffi and ffi/ffiimpl.
//
// A generated file's generator is in the file of the same name here
// (doc.go, types.go, enums.go, consts.go, structs.go, errors.go, funcs.go
// with funcs_graph.go, load.go, helpers.go; audit.go writes audit.txt,
// api.go api.txt, symbols.go symbols_test.go, context_demo.go
// context_demo_test.go); emit.go holds Generate. comments.go renders the
// parser's documentation (ir.Doc) as Go doc comments, wrap.go wraps them,
// gotype.go maps C types to Go types, check.go compares a package set with
// the one on disk (gen -check). Package genfiles writes the set to disk.
package emit

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"go/format"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cugen/cugen/ffi/ffiimpl"
	"github.com/cugen/cugen/internal/genfiles"
	"github.com/cugen/cugen/internal/panics"
	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// FFIPath is the import path of the support package whose types users of
// the generated code meet (the library, its errors, Check, RunLocked).
const FFIPath = "github.com/cugen/cugen/ffi"

// FFIImplPath is the import path of the support package only generated
// code calls (frames, trampolines, procs, callback tables, the version
// guard).
const FFIImplPath = "github.com/cugen/cugen/ffi/ffiimpl"

// TestPath is the hand-written package holding the logic of the generated
// tests (symbols_test.go, context_demo_test.go); only tests import it.
const TestPath = "github.com/cugen/cugen/cugentest"

// Options say what is generated and how it is labelled.
type Options struct {
	// Origin names the header set in every file header, e.g.
	// "CUDA 12.4 headers (headers.lock set 12.4)". No paths, no dates.
	Origin string
	// Command is the cugen command line that regenerates the output, run
	// from the root of the module that holds it ("cugen gen -set 12.4 -out
	// generated/cuda12"): every file header's second line, as x/sys's
	// generated files start with theirs. No machine paths: cmd/cugen
	// writes a directory outside the module as DIR. Empty leaves it out.
	Command string
	// Demo adds the context-demo test (package cudart, using cu too).
	Demo bool
	// ImportPath is the Go import path of the output directory (the parent
	// of cu and cudart); the demo test needs it. Empty leaves the demo out.
	ImportPath string
	// Libraries are the libraries to generate; nil means library.All. A
	// library without functions in the header set (nvJitLink before CUDA
	// 12) gets no package.
	Libraries []*library.Desc
	// Only, if not nil, are the libraries (of Libraries) whose packages
	// are generated (gen -lib: library.Select's, a library and those its
	// package imports); the rest of Libraries still decides what every
	// package shares (the driver's description, overrides). Each package
	// is what a run without Only writes: one that would import a library
	// Only leaves out is an error naming the description to fix
	// (library.Desc.Imports).
	Only []ir.Library
}

// Package is one generated package: file name -> contents.
type Package struct {
	Name  string            // the Go package name: cu, cudart, nvrtc, ...
	Files map[string][]byte // sorted by name when written
	// Stats for cugen's summary line.
	Declared, Bound int
	Skipped         []string
	// Imports are the packages of the same output this one imports,
	// tests included, sorted (library.Desc.Imports declares them).
	Imports []string
}

// Dir is p for the writer (package genfiles), its files sorted by name.
func (p *Package) Dir() genfiles.Dir {
	d := genfiles.Dir{Name: p.Name}
	for _, n := range sortedKeys(p.Files) {
		d.Files = append(d.Files, genfiles.File{Name: n, Bytes: p.Files[n]})
	}
	return d
}

// Generate emits one package per library of opts.Libraries that declares
// functions in api; the driver's is always emitted (the others' load it
// or share its types).
func Generate(api *ir.API, opts Options) ([]*Package, error) {
	if opts.Libraries == nil {
		opts.Libraries = library.All
	}
	libs := opts.Libraries
	if err := library.Check(libs); err != nil {
		return nil, fmt.Errorf("emit: %w", err)
	}
	// A hostile or broken IR is an error here, never a panic, an endless
	// recursion or a package that does not build.
	if err := ir.Validate(api); err != nil {
		return nil, fmt.Errorf("emit: IR: %w", err)
	}
	if err := CheckLibraries(api, libs); err != nil {
		return nil, fmt.Errorf("emit: IR: %w", err)
	}
	// Models in order (a later package imports an earlier one's types),
	// then the packages' files, rendered and formatted concurrently: each
	// model writes only its own state from here on.
	var models []*model
	left := map[ir.Library]bool{} // the packages before this one that Only leaves out
	for _, d := range libs {
		if !d.Required && !hasFunctions(api, d.Key) {
			continue
		}
		if opts.Only != nil && !slices.Contains(opts.Only, d.Key) {
			left[d.Key] = true
			continue
		}
		m, err := newModel(api, d, opts, models...)
		if err != nil {
			return nil, err
		}
		if err := m.checkFileOverrides(); err != nil {
			return nil, err
		}
		if ks := m.importsFrom(left); len(ks) > 0 {
			return nil, fmt.Errorf("emit: package %s uses types of %v, which are not generated: library %s's Imports must name the library whose package it imports (library.Desc.Imports)", m.pkg, ks, m.lib)
		}
		models = append(models, m)
	}
	out := make([]*Package, len(models))
	// The largest packages start first (NPP's image packages are a fifth
	// of the output each), so that no core is left with one at the end.
	weight := make([]int, len(models))
	for i, m := range models {
		weight[i] = functionsOf(api, m.lib)
	}
	errs := inParallelBy(weight, func(i int) (err error) {
		out[i], err = models[i].generate()
		return err
	})
	if err := errors.Join(errs...); err != nil {
		for _, e := range errs {
			if e != nil {
				return nil, e // the first library's, as a sequential run reports
			}
		}
	}
	if opts.Demo {
		addDemo(models, out, opts.ImportPath)
	}
	for i, m := range models {
		out[i].Files["audit.txt"] = m.auditText()
		out[i].Imports = m.importedPackages(out[i])
	}
	return out, nil
}

// inParallel runs f(0), ..., f(n-1) on at most GOMAXPROCS goroutines and
// returns their errors by index. A panic in f would end the process, out
// of reach of the caller's recover (FuzzParse's): it is raised again in
// the caller's goroutine once all have finished, with the stack where it
// happened, as a sequential loop would raise it.
func inParallel(n int, f func(i int) error) []error {
	return inParallelBy(make([]int, n), f)
}

// inParallelBy is inParallel starting f(i) in the order of decreasing
// weight[i] (by index among equal weights): the longest work first, the
// shortest left to fill the cores at the end. Errors and panics are by
// index, whatever the order.
func inParallelBy(weight []int, f func(i int) error) []error {
	n := len(weight)
	errs := make([]error, n)
	raised := make([]*panics.Panic, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(weight[b], weight[a]) })
	for _, i := range order {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			raised[i] = panics.Catch(fmt.Sprintf("a goroutine of emit.inParallel (f(%d))", i), func() { errs[i] = f(i) })
		}()
	}
	wg.Wait()
	for _, p := range raised {
		if p != nil {
			panic(p)
		}
	}
	return errs
}

// CheckLibraries refuses a declaration of a library that libs (nil:
// library.All; with gen -desc, the user's library beside cu and cudart)
// has no description of (Generate would drop its function without a
// word); a type or macro may belong to no library.
func CheckLibraries(api *ir.API, libs []*library.Desc) error {
	if libs == nil {
		libs = library.All
	}
	known := map[ir.Library]bool{}
	var keys []string
	for _, d := range libs {
		known[d.Key] = true
		keys = append(keys, string(d.Key))
	}
	// The first few known keys, so that the error stays one short line
	// however many libraries cugen describes.
	const shown = 8
	list := strings.Join(keys, ", ")
	if len(keys) > shown {
		list = fmt.Sprintf("%s and %d more", strings.Join(keys[:shown], ", "), len(keys)-shown)
	}
	bad := func(what, name string, l ir.Library) error {
		return fmt.Errorf("%s %s: library %.40q is not one cugen describes (%s)", what, name, l, list)
	}
	for _, f := range api.Functions {
		if !known[f.Library] {
			return bad("function", f.Name, f.Library)
		}
	}
	// Types and macros may belong to no library (a system header's).
	for _, r := range api.Records {
		if r.Library != "" && !known[r.Library] {
			return bad("record", r.Name, r.Library)
		}
	}
	for _, e := range api.Enums {
		if e.Library != "" && !known[e.Library] {
			return bad("enum", e.Name, e.Library)
		}
	}
	for _, t := range api.Typedefs {
		if t.Library != "" && !known[t.Library] {
			return bad("typedef", t.Name, t.Library)
		}
	}
	for _, mc := range api.Macros {
		if mc.Library != "" && !known[mc.Library] {
			return bad("macro", mc.Name, mc.Library)
		}
	}
	for _, in := range api.Initializers {
		if in.Library != "" && !known[in.Library] {
			return bad("initializer", in.Name, in.Library)
		}
	}
	return nil
}

// functionsOf counts lib's functions in api: a package's share of the
// emit's work, roughly.
func functionsOf(api *ir.API, lib ir.Library) int {
	n := 0
	for _, f := range api.Functions {
		if f.Library == lib {
			n++
		}
	}
	return n
}

func hasFunctions(api *ir.API, lib ir.Library) bool {
	for _, f := range api.Functions {
		if f.Library == lib {
			return true
		}
	}
	return false
}

// addDemo adds the context-demo test to the runtime package: it calls
// both CUDA APIs.
func addDemo(models []*model, pkgs []*Package, importPath string) {
	var drv, rt *model
	var rtPkg *Package
	for i, m := range models {
		switch m.lib {
		case ir.Driver:
			drv = m
		case ir.Runtime:
			rt, rtPkg = m, pkgs[i]
		}
	}
	switch {
	case drv == nil || rt == nil:
	case importPath == "":
		rt.audit = append(rt.audit, "skip context demo test: the output directory is not inside a Go module")
	default:
		src, err := demoTest(drv, rt, importPath)
		if err != nil {
			rt.audit = append(rt.audit, "skip context demo test: "+err.Error())
		} else {
			rtPkg.Files["context_demo_test.go"] = src
		}
	}
}

func (m *model) generate() (*Package, error) {
	pkg := &Package{Name: m.pkg, Files: map[string][]byte{}}
	files := []struct {
		name string
		gen  func(*jen.File) error
	}{
		{"doc.go", m.genDoc},
		{"types.go", m.genTypedefs},
		{"enums.go", m.genEnums},
		{"structs.go", m.genRecords},
		{"consts.go", m.genMacros},
		{"errors.go", m.genErrors},
		{"funcs.go", m.genFuncs},
		{"load.go", m.genLoad},
		{"helpers.go", m.genHelpers},
	}
	for _, f := range files {
		jf := m.newFile()
		if err := f.gen(jf); err != nil {
			return nil, fmt.Errorf("emit %s/%s: %w", m.pkg, f.name, err)
		}
		src, err := renderFile(f.name, jf)
		if err != nil {
			return nil, fmt.Errorf("emit %s/%s: rendering: %w", m.pkg, f.name, err)
		}
		pkg.Files[f.name] = src
	}
	pkg.Files[manifestFile] = m.manifest(m.manifestAPI())
	src, err := m.symbolsTest()
	if err != nil {
		return nil, fmt.Errorf("emit %s/symbols_test.go: %w", m.pkg, err)
	}
	pkg.Files["symbols_test.go"] = src
	pkg.Declared = len(m.funcs) + len(m.unbound)
	// Every function is bound but those the description leaves out
	// (library.Desc.Unbound): one classify cannot pass is an error, not
	// a skip.
	pkg.Bound = len(m.funcs)
	for _, u := range m.unbound {
		pkg.Skipped = append(pkg.Skipped, u.fn.Symbol)
	}
	return pkg, nil
}

// header is a generated file's first lines, without the comment marker:
// cugen's marker line with its version and the headers' origin (see
// [genfiles.IsGenerated]), then the command that regenerates the file, if known.
func (m *model) header() []string {
	h := []string{fmt.Sprintf("%s %s from %s. DO NOT EDIT.", genfiles.Marker, Version, m.opts.Origin)}
	if m.opts.Command != "" {
		h = append(h, m.opts.Command)
	}
	return h
}

// headerComment starts f with the header's lines, each one line
// (commentOneLine: -origin and the command line come from the user).
func (m *model) headerComment(f *jen.File) {
	for _, l := range m.header() {
		f.HeaderComment(commentOneLine(l))
	}
}

// renderFile renders f (jennifer formats it) with every comment held to the
// width (wrapComments), formatted again where that rewrapped one, and to
// the comment rules (checkComments: no directive, no block comment); name
// is the file's, for errors.
func renderFile(name string, f *jen.File) ([]byte, error) {
	var b bytes.Buffer
	if err := f.Render(&b); err != nil {
		// jennifer's format error carries the whole file after its first
		// line: the error is that line.
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return nil, fmt.Errorf("%s: %s", name, msg)
	}
	src := b.Bytes()
	if w := wrapComments(src); !bytes.Equal(w, src) {
		var err error
		if src, err = format.Source(w); err != nil {
			return nil, err
		}
	}
	if err := checkComments(name, src); err != nil {
		return nil, err
	}
	return src, nil
}

// ffiVersion is the version of package ffiimpl's API the generated code
// needs: the generator and ffiimpl change together, so it is
// ffiimpl.Version itself (as protoc-gen-go writes protoimpl.GenVersion into
// its output).
const ffiVersion = ffiimpl.Version

func (m *model) newFile() *jen.File {
	f := jen.NewFile(m.pkg)
	m.headerComment(f)
	f.ImportName(FFIPath, "ffi")
	f.ImportName(FFIImplPath, "ffiimpl")
	return f
}

// cudaAPI reports the two CUDA APIs, whose packages follow CUDA's thread
// rules (the current context belongs to the OS thread).
func (m *model) cudaAPI() bool { return m.lib == ir.Driver || m.lib == ir.Runtime }

// versionMacro is the macro holding the version the package declares as
// HeaderVersion: the library's own (CUDART_VERSION) when the headers define
// it, else the set's CUDA_VERSION.
func (m *model) versionMacro() string {
	if _, ok := m.ownVersion(); ok {
		return m.desc.VersionMacro
	}
	return "CUDA_VERSION"
}

func (m *model) headerVersion() int64 {
	if v, ok := m.ownVersion(); ok {
		return v
	}
	return m.api.CUDAVersion
}

// ownVersion is the value of the library's VersionMacro, if it has one.
func (m *model) ownVersion() (int64, bool) {
	if m.desc.VersionMacro == "" {
		return 0, false
	}
	for _, mc := range m.api.Macros {
		if mc.Name == m.desc.VersionMacro {
			v, err := strconv.ParseInt(mc.Value, 0, 64)
			return v, err == nil && v != 0
		}
	}
	return 0, false
}

func versionString(v int64) string {
	return fmt.Sprintf("%d.%d", v/1000, v%1000/10)
}
