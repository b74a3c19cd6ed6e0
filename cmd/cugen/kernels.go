package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/cugen/cugen/emit"
	"github.com/cugen/cugen/internal/gen"
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
	fs.Var(&includes, "I", "an include directory (repeatable): cugen reads every #include itself, quoted ones first from the including file's directory, and hands NVRTC the headers")
	fs.Var(&names, "name", "a template kernel instantiation to bind, such as 'saxpy<float>' (repeatable); extern \"C\" kernels are always bound")
	out := fs.String("out", "", "the package directory to write (required)")
	pkg := fs.String("pkg", "", "the Go package name (default: the directory's name)")
	cudaPath := fs.String("cuda", "", "the import path of the Go layer, package cuda (default: cugen's github.com/cugen/cugen/cuda, its major the build's tag; a module's own copy from cugen gen is OUT/cuda)")
	check := fs.Bool("check", false, "write nothing; fail listing what would change")
	var pinned dirList
	fs.Var(&pinned, "headers", "a headers entry of the lock file (repeatable), fetched into the cache and searched after the -I directories; every header read from it must be pinned there (CCCL's: -headers libcub-dev)")
	lockPath := fs.String("lock", "", "lock file for -headers (default: the headers.lock cugen carries, the one of its module; with -pin, headers.lock)")
	pin := fs.Bool("pin", false, "rewrite the -headers entries of the lock file to pin exactly the headers the source reads from them, then generate")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *src == "" || *out == "" {
		fs.Usage()
		return errFlagPrinted{errors.New("cugen kernels: -src and -out are required")}
	}
	// -cuda goes into kernels.go's import declaration and its recorded
	// command line: a Go import path, or an error before anything runs.
	if *cudaPath != "" {
		if err := gen.CheckImportPath("-cuda", *cudaPath); err != nil {
			return err
		}
	}
	archs, err := kernels.ParseArchs(*arch)
	if err != nil {
		return fmt.Errorf("cugen kernels: %w", err)
	}
	o := kernels.Options{
		Src: *src, Archs: archs, Includes: includes, Instances: names,
		Package: *pkg, CudaPath: *cudaPath, Out: *out, Log: stderr,
		Command: kernels.Command(*src, *arch, includes, pinned, names, *out, *pkg, *cudaPath),
	}
	if err := kernels.UsePinned(&o, *lockPath, pinned, *pin, stdout, stderr); err != nil {
		return err
	}
	files, err := kernels.Generate(o)
	if err != nil {
		return err
	}
	// the package as emit describes one, so gen's check and writer serve it
	dir := filepath.Clean(*out)
	pkgFiles := &emit.Package{Name: filepath.Base(dir), Files: files}
	if *check {
		diffs, err := emit.CheckSet(filepath.Dir(dir), []*emit.Package{pkgFiles})
		if err != nil {
			return err
		}
		if len(diffs) > 0 {
			return fmt.Errorf("cugen kernels -check: %s differs from what %s generates: %s", dir, *src, strings.Join(diffs, ", "))
		}
		fmt.Fprintf(stdout, "cugen kernels: %s is up to date\n", dir)
		return nil
	}
	d := pkgFiles.Dir()
	if err := genfiles.WriteSet(filepath.Dir(dir), []genfiles.Dir{d}, stderr); err != nil {
		return err
	}
	var written []string
	for _, f := range d.Files {
		written = append(written, f.Name)
	}
	fmt.Fprintf(stdout, "cugen kernels: %s -> %s (%s)\n", *src, dir, strings.Join(written, ", "))
	return nil
}
