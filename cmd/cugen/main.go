package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cugen/cugen/internal/gen"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// commands are cugen's commands by name; usage lists each with every flag.
var commands = map[string]func([]string, io.Writer, io.Writer) error{
	"gen": cmdGen, "ir": cmdIR, "headers": cmdHeaders, "libs": cmdLibs, "diff": cmdDiff,
	"lock": cmdLock, "sys": cmdSys, "doctor": cmdDoctor, "kernels": cmdKernels,
}

// run is main without the exit, for tests.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) < 1 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprint(stderr, usage)
		return 2
	}
	if err := cmd(args[1:], stdout, stderr); err != nil {
		var printed errFlagPrinted
		if errors.Is(err, flag.ErrHelp) || errors.As(err, &printed) {
			return 2
		}
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// usage names every flag of every command (TestUsageListsEveryFlag).
const usage = `usage: cugen COMMAND [flags]   (cugen COMMAND -h explains each flag)

Commands for users:
  cugen gen (-headers DIR [-with DIR]... | -set NAME [-lock FILE] [-with DIR]... | -ir FILE [-origin TEXT]) [-desc FILE] [-out DIR] [-importpath PATH] [-lib NAME[,NAME]...] [-parse] [-layer=false] [-demo=false] [-check]
  cugen ir (-headers DIR [-with DIR]... | -set NAME [-lock FILE] | -carried [-check]) [-lib NAME[,NAME]...] [-out FILE]
  cugen diff -old DIR|set:NAME|ir:FILE -new DIR|set:NAME|ir:FILE [-lock FILE] [-json]
  cugen doctor [-major 12|13]... [-lib NAME[,NAME]]... [-v]
  cugen kernels -src FILE.cu [-arch sm_80,sm_90] [-I DIR]... [-headers NAME [-lock FILE] [-pin]]... [-name 'KERNEL<T>']... [-pkg NAME] [-cuda PATH] -out DIR [-check]

Commands for cugen's maintainers (headers.lock, the cache, generated/):
  cugen headers -set NAME [-lock FILE]
  cugen lock -set NAME [-lock FILE]
  cugen libs (-lib NAME[,NAME]... | -major 12 NAME... | -env -major 12) [-lock FILE]
  cugen sys [-root DIR] [-check]

gen writes one package per library the headers declare (OUT/cu, OUT/cudart,
OUT/nvrtc, ...); -lib cu,cudart,nvrtc only those (and the packages they
import: cublas brings cudart); an unknown name lists them all (the table
of docs/libraries.md too). Default: every library whose headers are present. gen also writes the Go layer,
package cuda, as OUT/cuda (it needs cu and nvrtc; -layer=false: not).
-set NAME and -lib NAME read the headers.lock cugen carries (-lock FILE:
another); a missing or unknown name lists the known ones. gen -set emits
from the IR cugen carries of the set, with no download (-parse: fetch and
parse the headers); -lib takes any case. ir -carried (maintainers) writes
the IRs cugen carries from the pinned headers; -check fails on drift.
gen -desc FILE binds a library of your own, its headers found with -with
(beside -headers, or beside -set: its only use there); it writes its
package to OUT, and cu and cudart only where no other gen line wrote them.
libs -major 12 nvrtc cublas fetches what the libraries named (gen's library
names; -lib nvrtc,cublas the same) need to work, Debian's packages, verified against the lock, and
prints for a shell's eval their variables (CUGEN_LIBNVRTC=...) and an
LD_LIBRARY_PATH for what they open by soname (NVRTC's builtins, cuBLASLt).
libs -env -major 12 does so for every library Debian packages, and the
driver's (Debian's copies load without a GPU): the tests' environment.
CUDA 13 has no Debian packages (the toolkit or NVIDIA's wheels have them);
the driver and NVML come with the NVIDIA driver.
exit status: 0 ok, 1 failure, 2 usage error
doctor fails (1) when the driver does not load, has no device or, for a
-major given, supports an older CUDA; or a library given with -lib does not
load for a major checked. Libraries not named are optional: one absent or
refused is a note. With only -lib nvrtc, nvjitlink or nvml, the driver is
optional too.
`

// errFlagPrinted is a flag error the flag package already reported.
type errFlagPrinted struct{ error }

func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errFlagPrinted{err} // the flag package has printed it and the usage
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("cugen %s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	// A value checked once all are parsed (-lib's names): its error is
	// one line, without the usage.
	var err error
	fs.Visit(func(f *flag.Flag) {
		if c, ok := f.Value.(interface{ check() error }); ok && err == nil {
			if cerr := c.check(); cerr != nil {
				fmt.Fprintf(stderr, "cugen %s: -%s: %v\n", fs.Name(), f.Name, cerr)
				err = errFlagPrinted{cerr}
			}
		}
	})
	return err
}

func cmdGen(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	cfg := gen.Config{Stdout: stdout, Stderr: stderr}
	addSource(fs, &cfg.Source)
	fs.StringVar(&cfg.Out, "out", "", "output directory: one package per library the headers declare, OUT/cu, OUT/cudart, OUT/nvrtc, ... (default generated/cudaMAJOR)")
	fs.BoolVar(&cfg.Demo, "demo", true, "add the context-demo test to the cudart package")
	fs.StringVar(&cfg.ImportPath, "importpath", "", "Go import path of -out (default: from the go.mod above it)")
	fs.StringVar(&cfg.IR, "ir", "", "read the IR from this JSON file (cugen ir output) instead of parsing headers")
	fs.StringVar(&cfg.Origin, "origin", "", "with -ir: the header set named in generated file headers (default: the one the IR records)")
	fs.BoolVar(&cfg.Check, "check", false, "write nothing: compare -out with what gen would write there and fail listing stale, missing and extra files and the API changes")
	fs.StringVar(&cfg.Desc, "desc", "", "a library description (JSON, docs/generating.md's \"Bind your own library\"): generate its package instead of cugen's libraries, its headers found with -with, and cu and cudart unless another gen line wrote them to -out (then imported as they are, never rewritten)")
	fs.BoolVar(&cfg.Parse, "parse", false, "with -set: parse the set's pinned headers (fetched) even where cugen carries the set's IR, which it emits from otherwise with no download")
	fs.BoolVar(&cfg.Layer, "layer", true, "write the Go layer, package cuda (cuda/ of cugen, for the headers' major), as OUT/cuda; it needs the packages cu and nvrtc (and writes its NCCL part with nccl)")
	fs.Var((*libList)(&cfg.Libs), "lib", "generate only these libraries (comma-separated Go package names, in any case: "+strings.Join(libraryNames(), ",")+"), and those their packages import; only their headers are parsed; default: every library whose headers are present")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	res, err := gen.Run(cfg)
	switch {
	case err != nil:
		return err
	case cfg.Check && res.Stale > 0:
		return fmt.Errorf("cugen: gen -check: %s is stale: %d file(s) differ from what gen writes (listed above); run the same cugen gen without -check to update it", res.Out, res.Stale)
	case cfg.Check:
		fmt.Fprintf(stdout, "cugen: %s is up to date (%s)\n", res.Out, res.Version)
	default:
		fmt.Fprintf(stdout, "cugen: %s: %s -> %s\n", res.Version, strings.Join(res.Summary, "; "), res.Out)
	}
	return nil
}
