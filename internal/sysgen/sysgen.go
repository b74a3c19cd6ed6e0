// Package sysgen writes the major-neutral packages under cuda/sys: for
// every generated package the Go API uses (cuda/sys/cu for
// generated/cudaN/cu, ...), one file per CUDA major, zcudaN.go, under
// that major's build constraint, aliasing and forwarding the exported API
// of generated/cudaN/X (emit.RenderNeutral); and package sys's own
// zcudaN.go, which names the major a build selects. With no tag the
// newest major's files build; with -tags cudaN, major N's.
//
// The files are read from the committed generated packages, which cugen
// gen writes from the IR: the neutral API is the generated one, name for
// name. [Stale] compares the committed files with what [Write] would
// write (cugen sys -check, TestCommittedUpToDate).
package sysgen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cugen/cugen/emit"
	"github.com/cugen/cugen/internal/genfiles"
)

// Module is the Go module of the generated packages and the API.
const Module = "github.com/cugen/cugen"

// Dir is the directory of the neutral packages, relative to the module root.
const Dir = "cuda/sys"

// Majors are the CUDA majors the neutral packages select between, oldest
// first; the last is the one a build without a tag selects.
var Majors = []int{12, 13}

// Newest is the major a build without a cudaN tag selects.
func Newest() int { return Majors[len(Majors)-1] }

// Packages are the generated packages that get a neutral package: those
// the Go API (package cuda and its subpackages) imports, and those its
// users reach for beside it (cuBLASLt, CUPTI, NVML: examples/).
var Packages = []string{"cu", "cudart", "cublas", "cublaslt", "cudnn", "cufft", "cupti", "curand", "cusolver", "cusparse", "nccl", "nvml", "nvrtc"}

// Command regenerates the neutral packages, run from the module root: the
// second line of their files' header.
const Command = "cugen sys"

// Tag is the build tag that selects major: "cuda12"; "" for the newest.
func Tag(major int) string {
	if major == Newest() {
		return ""
	}
	return fmt.Sprintf("cuda%d", major)
}

// Constraint is the build constraint of major's files: its tag, or for
// the newest major the absence of every other major's tag.
func Constraint(major int) string {
	if t := Tag(major); t != "" {
		return t
	}
	var not []string
	for _, m := range Majors {
		if m != major {
			not = append(not, "!"+Tag(m))
		}
	}
	return strings.Join(not, " && ")
}

// FileName is the name of major's file in a neutral package.
func FileName(major int) string { return fmt.Sprintf("zcuda%d.go", major) }

// generatedDir is the directory of major's generated package pkg.
func generatedDir(major int, pkg string) string {
	return filepath.Join("generated", fmt.Sprintf("cuda%d", major), pkg)
}

// buildFlag is how a user selects major: "-tags cuda12" or "no cuda tag".
func buildFlag(major int) string {
	if t := Tag(major); t != "" {
		return "-tags " + t
	}
	return "no cuda tag"
}

// Render returns every file Write writes under root: path relative to
// root (cuda/sys/cu/zcuda13.go) -> content.
func Render(root string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, major := range Majors {
		header := []string{fmt.Sprintf("%s %s from %s/ (CUDA %d). DO NOT EDIT.", genfiles.Marker, emit.Version, filepath.ToSlash(filepath.Join("generated", fmt.Sprintf("cuda%d", major))), major), Command}
		for _, pkg := range Packages {
			dir := generatedDir(major, pkg)
			files := map[string][]byte{}
			ents, err := os.ReadDir(filepath.Join(root, dir))
			if err != nil {
				return nil, fmt.Errorf("sysgen: %w", err)
			}
			for _, e := range ents {
				if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
					continue
				}
				b, err := os.ReadFile(filepath.Join(root, dir, e.Name()))
				if err != nil {
					return nil, fmt.Errorf("sysgen: %w", err)
				}
				files[e.Name()] = b
			}
			src, err := emit.RenderNeutral(emit.Neutral{
				Files:      files,
				ImportPath: Module + "/" + filepath.ToSlash(dir),
				Constraint: Constraint(major),
				Header:     header,
				Doc:        packageDoc(pkg, major),
			})
			if err != nil {
				return nil, fmt.Errorf("sysgen: %w", err)
			}
			out[filepath.Join(Dir, pkg, FileName(major))] = src
		}
		out[filepath.Join(Dir, FileName(major))] = sysFile(header, major)
	}
	return out, nil
}

// packageDoc is the doc comment of neutral package pkg in major's file.
func packageDoc(pkg string, major int) string {
	return fmt.Sprintf(`Package %s is package %s/generated/cuda%d/%s, the
CUDA %d one, in a build with %s: each exported type is an alias of
that package's, each constant the same constant, each function a
forwarder the compiler inlines. A value of this package is one of that
package, at no cost; read that package's documentation. Package
%s/%s says how a build selects its CUDA major.`,
		pkg, Module, major, pkg, major, buildFlag(major), Module, Dir)
}

// sysFile is package sys's file for major: the major the build selects.
func sysFile(header []string, major int) []byte {
	var b bytes.Buffer
	for _, l := range header {
		fmt.Fprintf(&b, "// %s\n", l)
	}
	fmt.Fprintf(&b, "\n//go:build %s\n\npackage sys\n\n", Constraint(major))
	fmt.Fprintf(&b, "// Major is the CUDA major this build selects (%s).\nconst Major = %d\n\n", buildFlag(major), major)
	b.WriteString("// BuildFlag says how to build for a CUDA major: \"-tags cuda12\", or\n// \"no cuda tag\" for the newest; \"\" for a major no build selects.\n")
	b.WriteString("func BuildFlag(major int) string {\n\tswitch major {\n")
	for _, m := range Majors {
		fmt.Fprintf(&b, "\tcase %d:\n\t\treturn %q\n", m, buildFlag(m))
	}
	b.WriteString("\t}\n\treturn \"\"\n}\n")
	return b.Bytes()
}

// Write writes every file of Render under root, each package's files as
// one set (genfiles.WriteSet: the user's files there, doc.go of package
// sys among them, are kept), and removes a neutral package whose
// generated files the list no longer has (every .go file in it cugen's).
func Write(root string, logw io.Writer) error {
	files, err := Render(root)
	if err != nil {
		return err
	}
	byDir := map[string][]genfiles.File{}
	for p, b := range files {
		byDir[filepath.Dir(p)] = append(byDir[filepath.Dir(p)], genfiles.File{Name: filepath.Base(p), Bytes: b})
	}
	var subs []genfiles.Dir
	for _, d := range sortedKeys(byDir) {
		fs := byDir[d]
		slices.SortFunc(fs, func(a, b genfiles.File) int { return strings.Compare(a.Name, b.Name) })
		if d == Dir {
			if err := genfiles.WriteSet(filepath.Join(root, filepath.Dir(Dir)), []genfiles.Dir{{Name: filepath.Base(Dir), Files: fs}}, logw); err != nil {
				return err
			}
			continue
		}
		subs = append(subs, genfiles.Dir{Name: filepath.Base(d), Files: fs})
	}
	if err := genfiles.WriteSet(filepath.Join(root, Dir), subs, logw); err != nil {
		return err
	}
	left, err := leftover(root, files)
	if err != nil {
		return err
	}
	for _, p := range left {
		if err := os.Remove(filepath.Join(root, p)); err != nil {
			return fmt.Errorf("sysgen: %w", err)
		}
	}
	return nil
}

// leftover lists the files under root's Dir, one directory deep, that
// cugen generated and files does not have.
func leftover(root string, files map[string][]byte) ([]string, error) {
	var out []string
	dirs := []string{Dir}
	ents, err := os.ReadDir(filepath.Join(root, Dir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("sysgen: %w", err)
	}
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			dirs = append(dirs, filepath.Join(Dir, e.Name()))
		}
	}
	for _, d := range dirs {
		ents, err := os.ReadDir(filepath.Join(root, d))
		if err != nil {
			return nil, fmt.Errorf("sysgen: %w", err)
		}
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			if _, ok := files[p]; ok || !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			if ok, err := genfiles.IsGeneratedFile(filepath.Join(root, p)); err == nil && ok {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// Stale lists the files under root that differ from what Write would
// write: changed, missing, or generated and left over.
func Stale(root string) ([]string, error) {
	files, err := Render(root)
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, p := range sortedKeys(files) {
		b, err := os.ReadFile(filepath.Join(root, p))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			stale = append(stale, p+" (missing)")
		case err != nil:
			return nil, fmt.Errorf("sysgen: %w", err)
		case !bytes.Equal(b, files[p]):
			stale = append(stale, p)
		}
	}
	left, err := leftover(root, files)
	if err != nil {
		return nil, err
	}
	for _, p := range left {
		stale = append(stale, p+" (not generated now)")
	}
	return stale, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
