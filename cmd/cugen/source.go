package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cugen/cugen/internal/carried"
	"github.com/cugen/cugen/internal/gen"
	"github.com/cugen/cugen/library"
)

// addSource registers -headers, -with, -set and -lock into s.
func addSource(fs *flag.FlagSet, s *gen.Source) {
	addSet(fs, s)
	fs.StringVar(&s.Headers, "headers", "", "CUDA include directory (e.g. /usr/local/cuda/include)")
	fs.Var((*dirList)(&s.With), "with", "with -headers: one more header directory, searched after it (repeatable; nccl.h from NCCL's wheel, .../nvidia/nccl/include); with -set and -desc: the directory of the library's own headers, not held to the lock")
}

// addSet registers -set and -lock only, for the commands that work on a
// lock entry (headers): -headers is then an unknown flag.
func addSet(fs *flag.FlagSet, s *gen.Source) {
	fs.StringVar(&s.Set, "set", "", "header set of the lock file (e.g. 12.4), fetched and verified")
	fs.StringVar(&s.Lock, "lock", "", "lock file for -set (default: the headers.lock cugen carries, the one of its module)")
}

// dirList is a repeatable directory flag.
type dirList []string

func (d *dirList) String() string     { return strings.Join(*d, ",") }
func (d *dirList) Set(v string) error { *d = append(*d, v); return nil }

// libList is -lib of gen, ir and doctor: Go package names of library
// descriptions (package library), in any case, comma-separated, the flag
// repeatable. Its names are checked once the flags are parsed (check):
// an unknown one is one line naming the known ones.
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

func cmdIR(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ir", flag.ContinueOnError)
	var src gen.Source
	addSource(fs, &src)
	out := fs.String("out", "", "write the IR to this file, gzip-compressed when it ends in .gz (default: indented JSON on stdout)")
	var libs libList
	fs.Var(&libs, "lib", "parse only these libraries' headers (comma-separated Go package names, as gen's -lib), those their packages import and the driver's and the runtime's, which every parse reads; default: all")
	carriedIRs := fs.Bool("carried", false, "maintainers: write every IR cugen carries (internal/carried) from its set's pinned headers, in the module of the working directory; -check: write nothing, fail on drift")
	check := fs.Bool("check", false, "with -carried: compare instead of writing")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *carriedIRs || *check {
		if !*carriedIRs || src.Headers != "" || src.Set != "" || len(libs) > 0 || *out != "" {
			return errors.New("cugen ir: -carried takes no -headers, -set, -lib or -out (and -check goes with -carried)")
		}
		l, err := gen.ReadLock(src.Lock)
		if err != nil {
			return err
		}
		root, _ := gen.ModuleRoot()
		if root == "" {
			return errors.New("cugen ir -carried: run it in cugen's module (the carried IRs are its files)")
		}
		return carried.Regenerate(context.Background(), l, root, *check, stdout)
	}
	if len(libs) > 0 {
		// The IR of one library beside the main one (cuDNN's, whose
		// headers not every machine has).
		var err error
		if src.Libs, err = carried.ParseLibs(libs); err != nil {
			return err
		}
	}
	api, origin, err := src.Parse(stderr)
	if err != nil {
		return err
	}
	api.Origin = origin
	if *out == "" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(api)
	}
	return gen.WriteIR(*out, api)
}

func cmdHeaders(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("headers", flag.ContinueOnError)
	var src gen.Source
	addSet(fs, &src)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if src.Set == "" {
		return src.Required("-set NAME")
	}
	dir, _, _, err := src.Resolve(stderr)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, dir)
	return nil
}

// cmdLock rewrites a set's sha256 lines in the lock file: every header the
// parse of that set reads, hashed where it lies (the files already locked
// are verified first, by -set's fetch or toolkit check).
func cmdLock(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("lock", flag.ContinueOnError)
	var src gen.Source
	fs.StringVar(&src.Set, "set", "", "header set of the lock file (e.g. 12.4), fetched and verified")
	fs.StringVar(&src.Lock, "lock", "headers.lock", "lock file to rewrite")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if src.Set == "" {
		return src.Required("-set NAME")
	}
	return gen.Pin(&src, stdout, stderr)
}
