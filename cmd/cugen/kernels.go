package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cugen/cugen/internal/genfiles"
	"github.com/cugen/cugen/internal/kernels"
)

// cmdKernels compiles a CUDA C++ source's kernels with NVRTC (on the CPU)
// into a Go package with a typed function per kernel: cugen kernels.
func cmdKernels(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("kernels", flag.ContinueOnError)
	src := fs.String("src", "", "the CUDA C++ source file (required)")
	arch := fs.String("arch", "sm_80,sm_90", "the real architectures to compile cubins for (comma-separated); PTX is added for the newest, for GPUs after it")
	var includes, names dirList
	fs.Var(&includes, "I", "an include directory for NVRTC (repeatable)")
	fs.Var(&names, "name", "a template kernel instantiation to bind, such as 'saxpy<float>' (repeatable); extern \"C\" kernels are always bound")
	out := fs.String("out", "", "the package directory to write (required)")
	pkg := fs.String("pkg", "", "the Go package name (default: the directory's name)")
	cudaPath := fs.String("cuda", "", "the import path of the Go layer, package cuda (default: cugen's generated/cudaN/cuda of NVRTC's major; a module's own copy from cugen gen is OUT/cuda)")
	check := fs.Bool("check", false, "write nothing; fail listing what would change")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *src == "" || *out == "" {
		fs.Usage()
		return errFlagPrinted{errors.New("cugen kernels: -src and -out are required")}
	}
	archs, err := kernels.ParseArchs(*arch)
	if err != nil {
		return fmt.Errorf("cugen kernels: %w", err)
	}
	o := kernels.Options{
		Src: *src, Archs: archs, Includes: includes, Instances: names,
		Package: *pkg, CudaPath: *cudaPath, Out: *out,
		Command: kernelsCommand(*src, *arch, includes, names, *out, *pkg, *cudaPath),
	}
	files, err := kernels.Generate(o)
	if err != nil {
		return err
	}
	if *check {
		diffs, err := kernelsDiff(*out, files)
		if err != nil {
			return err
		}
		if len(diffs) > 0 {
			return fmt.Errorf("cugen kernels -check: %s differs from what %s generates: %s", *out, *src, strings.Join(diffs, ", "))
		}
		fmt.Fprintf(stdout, "cugen kernels: %s is up to date\n", *out)
		return nil
	}
	var gf []genfiles.File
	for _, name := range sortedKeys(files) {
		gf = append(gf, genfiles.File{Name: name, Bytes: files[name]})
	}
	if err := genfiles.Write(*out, gf); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "cugen kernels: %s -> %s (%s)\n", *src, *out, strings.Join(sortedKeys(files), ", "))
	return nil
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// kernelsDiff lists the files of dir that differ from files, are missing,
// or are generated files the new package does not have.
func kernelsDiff(dir string, files map[string][]byte) ([]string, error) {
	var diffs []string
	for _, name := range sortedKeys(files) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case errors.Is(err, os.ErrNotExist):
			diffs = append(diffs, name+" (missing)")
		case err != nil:
			return nil, err
		case !bytes.Equal(b, files[name]):
			diffs = append(diffs, name)
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, e := range ents {
		if _, ok := files[e.Name()]; ok || !e.Type().IsRegular() {
			continue
		}
		if gen, err := genfiles.IsGeneratedFile(filepath.Join(dir, e.Name())); err == nil && gen {
			diffs = append(diffs, e.Name()+" (stale)")
		}
	}
	return diffs, nil
}

// kernelsCommand is the command line the generated files record: paths
// relative to the module root cugen runs in.
func kernelsCommand(src, arch string, includes, names []string, out, pkg, cudaPath string) string {
	root, _ := moduleRoot()
	rel := relTo(root)
	args := []string{"cugen", "kernels", "-src", rel(src), "-arch", arch}
	for _, d := range includes {
		args = append(args, "-I", rel(d))
	}
	for _, n := range names {
		args = append(args, "-name", shellQuote(n))
	}
	if pkg != "" {
		args = append(args, "-pkg", pkg)
	}
	if cudaPath != "" {
		args = append(args, "-cuda", cudaPath)
	}
	args = append(args, "-out", rel(out))
	return strings.Join(args, " ")
}
