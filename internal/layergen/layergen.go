// Package layergen writes the hand-written Go layer (the package in layer/,
// which imports generated/cuda12) once for every CUDA major, as
// generated/cudaN/cuda: the same files with the import paths of the
// generated packages rewritten to that major, a "Code generated" header
// naming the source file, gofmt'd. So the layer is written, reviewed and
// tested once, and every major's copy is checked to be current
// ([Stale], run by make check and TestCommittedUpToDate). [Write] writes
// the copies through the writer of cugen gen (package genfiles).
//
// cugen gen writes one more copy into every module's output, beside its
// generated packages ([RenderFS] with a [Copy] of the module's import
// path): from the layer the command carries (package cugen), without the
// tests, and without the files of [Optional] whose package the module
// does not generate.
//
// The layer may use only the API whose Go signature is the same in every
// major's generated packages: each copy is built against its own major, so
// a difference fails the build of that copy (make check builds ./...).
// A file of the layer whose name ends in _cudaN.go would be the place for a
// difference; none is needed today, and Render refuses such names until the
// rule exists.
package layergen

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cugen/cugen/internal/genfiles"
)

// Module is the Go module the layer and the generated packages are in.
const Module = "github.com/cugen/cugen"

// SourceDir is the layer's directory, relative to the module root.
const SourceDir = "layer"

// SourceMajor is the CUDA major whose generated packages the source imports.
const SourceMajor = 12

// Majors are the CUDA majors the layer is written for.
var Majors = []int{12, 13}

// OutDir is the directory of major's copy, relative to the module root.
func OutDir(major int) string {
	return filepath.Join("generated", fmt.Sprintf("cuda%d", major), "cuda")
}

// headerPrefix starts the first line of every file Render writes: the
// marker of genfiles, which writes the files.
const headerPrefix = "// " + genfiles.Marker + " from " + SourceDir + "/"

var (
	generatedPrefix = Module + "/generated/"
	majorDir        = regexp.MustCompile(`^cuda[0-9]+(/|$)`)
	perMajorName    = regexp.MustCompile(`_cuda[0-9]+(_test)?\.go$`)
)

// Render returns major's copy of the layer in the module rooted at root:
// file name -> content, for OutDir(major).
func Render(root string, major int) (map[string][]byte, error) {
	return RenderFS(os.DirFS(root), Copy{Major: major, ImportPath: committedPath(major), Tests: true})
}

// committedPath is the import path of major's generated packages in this
// module: generated/cudaN.
func committedPath(major int) string {
	return fmt.Sprintf("%scuda%d", generatedPrefix, major)
}

// Copy says which copy of the layer RenderFS renders.
type Copy struct {
	// Major is the CUDA major of the generated packages the copy imports.
	Major int
	// ImportPath is the Go import path of the directory that holds them,
	// and the copy as ImportPath/cuda: github.com/cugen/cugen/generated/cuda12
	// for the committed copy, a module's cugen gen -out for its own.
	ImportPath string
	// Tests keeps the layer's _test.go files (the committed copies: they
	// run against the GPU here); a module's copy is the package alone.
	Tests bool
	// Have, if not nil, says which generated packages the output has: a
	// file of Optional whose package it lacks is left out.
	Have func(pkg string) bool
}

// Optional are the files of the layer that a copy may leave out, with the
// generated package each needs: the rest of the layer never names what
// they declare (nccl.go sets a hook). A module whose headers have no
// nccl.h (a CUDA toolkit's) gets the layer without NCCL.
var Optional = map[string]string{"nccl.go": "nccl"}

// RenderFS returns copy c of the layer whose source is src's SourceDir
// (os.DirFS of the module root, or the layer the cugen command carries):
// file name -> content.
func RenderFS(src fs.FS, c Copy) (map[string][]byte, error) {
	names, err := fsGoFiles(src)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("layergen: no Go files in %s", SourceDir)
	}
	out := make(map[string][]byte, len(names))
	for _, name := range names {
		if perMajorName.MatchString(name) {
			return nil, fmt.Errorf("layergen: %s/%s: per-major files (_cudaN.go) are not supported yet", SourceDir, name)
		}
		if !c.Tests && strings.HasSuffix(name, "_test.go") {
			continue
		}
		if pkg, ok := Optional[name]; ok && c.Have != nil && !c.Have(pkg) {
			continue
		}
		text, err := fs.ReadFile(src, SourceDir+"/"+name)
		if err != nil {
			return nil, fmt.Errorf("layergen: %w", err)
		}
		b, err := renderFile(SourceDir+"/"+name, text, c.ImportPath)
		if err != nil {
			return nil, err
		}
		out[name] = b
	}
	return out, nil
}

// Imports lists the generated packages (importPath/NAME) that files import,
// sorted: what an output must have for the copy to build.
func Imports(files map[string][]byte, importPath string) ([]string, error) {
	var pkgs []string
	fset := token.NewFileSet()
	for name, text := range files {
		f, err := parser.ParseFile(fset, name, text, parser.ImportsOnly)
		if err != nil {
			return nil, fmt.Errorf("layergen: %w", err)
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return nil, fmt.Errorf("layergen: %s: import %s: %w", name, imp.Path.Value, err)
			}
			if pkg, ok := strings.CutPrefix(path, importPath+"/"); ok && pkg != "cuda" && !slices.Contains(pkgs, pkg) {
				pkgs = append(pkgs, pkg)
			}
		}
	}
	slices.Sort(pkgs)
	return pkgs, nil
}

// renderFile rewrites one source file for the generated packages at
// importPath.
func renderFile(name string, text []byte, importPath string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, text, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("layergen: %w", err)
	}
	if bytes.HasPrefix(text, []byte("// Code generated ")) {
		return nil, fmt.Errorf("layergen: %s: a source file of the layer starts with a Code generated header", name)
	}
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return nil, fmt.Errorf("layergen: %s: import %s: %w", fset.Position(imp.Pos()), imp.Path.Value, err)
		}
		np, err := rewriteImport(path, importPath)
		if err != nil {
			return nil, fmt.Errorf("layergen: %s: %w", fset.Position(imp.Pos()), err)
		}
		imp.Path = &ast.BasicLit{ValuePos: imp.Path.Pos(), Kind: token.STRING, Value: strconv.Quote(np)}
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%s%s. DO NOT EDIT.\n\n", headerPrefix, strings.TrimPrefix(name, SourceDir+"/"))
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, fmt.Errorf("layergen: %s: %w", name, err)
	}
	b, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("layergen: %s: %w", name, err)
	}
	return b, nil
}

// rewriteImport maps an import of the source to a copy whose generated
// packages are at importPath: the generated packages of SourceMajor to
// importPath's, the layer itself (in its external tests and examples) to
// importPath/cuda.
func rewriteImport(path, importPath string) (string, error) {
	if path == Module+"/"+SourceDir || strings.HasPrefix(path, Module+"/"+SourceDir+"/") {
		return importPath + "/cuda" + strings.TrimPrefix(path, Module+"/"+SourceDir), nil
	}
	rest, ok := strings.CutPrefix(path, generatedPrefix)
	if !ok {
		return path, nil
	}
	want := fmt.Sprintf("cuda%d", SourceMajor)
	if !majorDir.MatchString(rest) || !(rest == want || strings.HasPrefix(rest, want+"/")) {
		return "", fmt.Errorf("import %q: the layer imports only %s%s/...", path, generatedPrefix, want)
	}
	return importPath + strings.TrimPrefix(rest, want), nil
}

// fsGoFiles lists the .go files of src's SourceDir, sorted.
func fsGoFiles(src fs.FS) ([]string, error) {
	ents, err := fs.ReadDir(src, SourceDir)
	if err != nil {
		return nil, fmt.Errorf("layergen: %w", err)
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".go") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// goFiles lists the .go files of dir, sorted.
func goFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("layergen: %w", err)
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".go") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// Write renders every major's copy and writes it under root through the
// writer of cugen gen (genfiles.WriteSet): OutDir(major) is replaced as a
// whole, staged beside it and swapped in under the lock of its parent
// (generated/cudaN/.cugen.lock, the one cugen gen takes), so that an
// interrupted run leaves the old copy or the new one, and no link there is
// ever followed. Files of an earlier copy that the source no longer has go
// with it. A file at a name Render writes that cugen did not generate (no
// marker line) is an error before anything is written, and so is a .go
// file Render did not write that was not written from layer/: the
// directory belongs to the generator. logw (nil: discarded) is told when
// the run waits for another cugen writing the same directory.
func Write(root string, logw io.Writer) error {
	for _, major := range Majors {
		files, err := Render(root, major)
		if err != nil {
			return err
		}
		dir := filepath.Join(root, OutDir(major))
		if err := checkForeign(dir, files); err != nil {
			return err
		}
		d := genfiles.Dir{Name: filepath.Base(dir)}
		for _, name := range sortedKeys(files) {
			d.Files = append(d.Files, genfiles.File{Name: name, Bytes: files[name]})
		}
		if err := genfiles.WriteSet(filepath.Dir(dir), []genfiles.Dir{d}, logw); err != nil {
			return err
		}
	}
	return nil
}

// checkForeign refuses a .go file in dir that files does not have and that
// was not written from the layer: it would stay in the package (the writer
// keeps what it did not generate) and be built with the copy.
func checkForeign(dir string, files map[string][]byte) error {
	old, err := goFiles(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, name := range old {
		if _, ok := files[name]; ok {
			continue
		}
		if p := filepath.Join(dir, name); !isGenerated(p) {
			return fmt.Errorf("layergen: %s was not written by cugen from %s/: move it away", p, SourceDir)
		}
	}
	return nil
}

// Stale lists the files of the committed copies under root that differ
// from what Write would write: changed, missing or left over.
func Stale(root string) ([]string, error) {
	var stale []string
	for _, major := range Majors {
		files, err := Render(root, major)
		if err != nil {
			return nil, err
		}
		dir := filepath.Join(root, OutDir(major))
		have, err := goFiles(dir)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		for _, name := range have {
			if _, ok := files[name]; !ok {
				stale = append(stale, filepath.Join(OutDir(major), name)+" (not in "+SourceDir+"/)")
			}
		}
		for _, name := range sortedKeys(files) {
			p := filepath.Join(dir, name)
			st, err := os.Lstat(p)
			switch {
			case errors.Is(err, os.ErrNotExist):
				stale = append(stale, filepath.Join(OutDir(major), name)+" (missing)")
				continue
			case err != nil:
				return nil, fmt.Errorf("layergen: %w", err)
			case !st.Mode().IsRegular(): // never followed, never opened
				stale = append(stale, filepath.Join(OutDir(major), name)+fmt.Sprintf(" (a %v, not a file)", st.Mode().Type()))
				continue
			}
			cur, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("layergen: %w", err)
			}
			if !bytes.Equal(cur, files[name]) {
				stale = append(stale, filepath.Join(OutDir(major), name))
			}
		}
	}
	return stale, nil
}

func isGenerated(path string) bool {
	b, err := os.ReadFile(path)
	return err == nil && bytes.HasPrefix(b, []byte(headerPrefix))
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
