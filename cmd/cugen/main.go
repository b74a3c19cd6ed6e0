// Command cugen generates Go packages from NVIDIA's CUDA headers, with no
// cgo: one package per library the headers declare (cu for the driver API,
// cudart for the runtime API, and one for each other description of package
// library: docs/libraries.md lists them), each opening its shared library
// (libcuda.so.1, libcudart.so.N, ...) at run time.
//
// Commands for users:
//
//	cugen gen -headers /usr/local/cuda/include -out ./cuda   one package per library: ./cuda/cu, ./cuda/cudart, ./cuda/nvrtc, ...
//	cugen gen -headers /usr/local/cuda/include -with .../nvidia/nccl/include -out ./cuda   nccl.h from NCCL's wheel
//	cugen gen -check ...             write nothing; fail listing what a gen would change
//	cugen gen -set 12.4 [-lock FILE] [-out generated/cuda12]   from a locked header set (the headers.lock cugen carries), emitted from the IR cugen carries of it: no download (-parse: fetched, verified, cached, parsed)
//	cugen gen -set 12.4 -lib cu,cudart,nvrtc -out cuda   only those libraries (and the packages they import)
//	cugen gen -ir FILE -origin TEXT -out DIR   generate from a saved IR
//	cugen gen -desc mylib.json -headers /usr/local/cuda/include -with ./include -out ./cuda   a library of your own: ./cuda/mylib, with ./cuda/cu and ./cuda/cudart
//	cugen ir -headers DIR [-out F]   the parsed IR as JSON (gzip-compressed if F ends in .gz)
//	cugen diff -old set:12.4 -new set:13.0   what changed in the API between two header sets
//	cugen doctor [-major 12] [-lib cudart]   which library files load from where, their versions, the driver's, the devices, and what is wrong
//	cugen kernels -src k.cu -out kernels   your kernels as typed Go functions: compiled by NVRTC now (no GPU), cubins and PTX embedded
//
// Commands for cugen's maintainers (they keep headers.lock, the cache and
// generated/ of this repository):
//
//	cugen headers -set 12.4          fetch and verify a locked header set, print its directory
//	cugen lock -set 12.4             pin every header the parse reads in headers.lock
//	cugen libs -lib libcudart12      fetch and verify a locked library package, print its directory
//	eval "$(cugen libs -major 12 nvrtc cublas)"   fetch what the libraries need to work, set CUGEN_LIBNVRTC, ..., LD_LIBRARY_PATH
//	eval "$(cugen libs -env -major 12)"   the same for every library Debian packages: make test's environment
//	cugen sys [-check]               write cuda/sys/X (the major-neutral packages) from generated/cudaN/X
//
// The usage (cugen with no command) lists every flag of every command, in
// the same two groups.
//
// Exit status: 0 on success, 1 when the command fails (doctor: when it
// finds something required missing or mismatched; see usage) (its error is the
// last line on stderr), 2 for a usage error (no or an unknown command, an
// unknown flag, one missing its value or with a value it does not take:
// doctor -major 11 or -lib cudnn; the usage is printed).
//
// gen also writes the Go layer, package cuda (cuda/ of this module, as
// the command carries it), as OUT/cuda: for the headers' major, its imports
// rewritten to OUT's import path, without its tests, its NCCL part only
// with package nccl; it needs cu and nvrtc (without them a note says why
// it is not written). -layer=false leaves it out; gen -check checks it.
//
// The command carries headers.lock and cuda/ (package cugen embeds them),
// so it works in any module. From a downstream module (go get -tool
// github.com/cugen/cugen/cmd/cugen; examples/downstream):
//
//	//go:generate go tool cugen gen -set 12.4 -lib cu,cudart,nvrtc -out cuda
//	go tool cugen gen -check -set 12.4 -lib cu,cudart,nvrtc -out cuda   (CI)
//
// Commit OUT (the packages and the layer); ignore OUT/.cugen.lock.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	modfiles "github.com/cugen/cugen"
	"github.com/cugen/cugen/emit"
	"github.com/cugen/cugen/internal/carried"
	"github.com/cugen/cugen/internal/genfiles"
	"github.com/cugen/cugen/internal/layergen"
	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
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
  cugen gen (-headers DIR [-with DIR]... | -set NAME [-lock FILE] | -ir FILE [-origin TEXT]) [-desc FILE] [-out DIR] [-importpath PATH] [-lib NAME[,NAME]...] [-parse] [-layer=false] [-demo=false] [-check]
  cugen ir (-headers DIR [-with DIR]... | -set NAME [-lock FILE] | -carried [-check]) [-lib NAME[,NAME]...] [-out FILE]
  cugen diff -old DIR|set:NAME|ir:FILE -new DIR|set:NAME|ir:FILE [-lock FILE] [-json]
  cugen doctor [-major 12|13]... [-lib NAME[,NAME]]...
  cugen kernels -src FILE.cu [-arch sm_80,sm_90] [-I DIR]... [-headers NAME [-lock FILE] [-pin]]... [-name 'KERNEL<T>']... [-pkg NAME] [-cuda PATH] -out DIR [-check]

Commands for cugen's maintainers (headers.lock, the cache, generated/):
  cugen headers -set NAME [-lock FILE]
  cugen lock -set NAME [-lock FILE]
  cugen libs (-lib NAME | -major 12 NAME... | -env -major 12) [-lock FILE]
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
libs -major 12 nvrtc cublas fetches what the libraries named (gen's library
names) need to work, Debian's packages, verified against the lock, and
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

// source is how a command finds its headers: a directory, or a lock entry.
type source struct {
	headers, set, lockPath *string
	extra                  dirList
	lock                   *lock.Lock       // with -set, after resolve
	entry                  *lock.Entry      // with -set, after resolve
	fetched                *lock.FetchedSet // with -set, after resolve
	libs                   []*library.Desc  // nil: library.All (gen -desc sets it)
}

// addSource registers -headers, -with, -set and -lock.
func addSource(fs *flag.FlagSet) *source {
	s := addSet(fs)
	s.headers = fs.String("headers", "", "CUDA include directory (e.g. /usr/local/cuda/include)")
	fs.Var(&s.extra, "with", "with -headers: one more header directory, searched after it (repeatable; nccl.h from NCCL's wheel, .../nvidia/nccl/include)")
	return s
}

// dirList is a repeatable directory flag.
type dirList []string

func (d *dirList) String() string     { return strings.Join(*d, ",") }
func (d *dirList) Set(v string) error { *d = append(*d, v); return nil }

// addSet registers -set and -lock only, for the commands that work on a
// lock entry (headers, lock): -headers is then an unknown flag.
func addSet(fs *flag.FlagSet) *source {
	return &source{
		headers:  new(string),
		set:      fs.String("set", "", "header set of the lock file (e.g. 12.4), fetched and verified"),
		lockPath: fs.String("lock", "", "lock file for -set (default: the headers.lock cugen carries, the one of its module)"),
	}
}

// addLockFile registers -set and -lock for cugen lock, which rewrites the
// lock file: it has to be a file, headers.lock in the current directory
// unless given.
func addLockFile(fs *flag.FlagSet) *source {
	return &source{
		headers:  new(string),
		set:      fs.String("set", "", "header set of the lock file (e.g. 12.4), fetched and verified"),
		lockPath: fs.String("lock", "headers.lock", "lock file to rewrite"),
	}
}

// embeddedLock names the lock cugen carries (package cugen) in messages.
const embeddedLock = "cugen's headers.lock"

// readLock reads the lock file at path or, for "", the headers.lock cugen
// was built with: -set works in any directory, with no lock of its own.
func readLock(path string) (*lock.Lock, error) {
	if path == "" {
		return lock.Parse(bytes.NewReader(modfiles.HeadersLock), embeddedLock)
	}
	return lock.ReadFile(path)
}

// knownSets lists the sets of the lock at path ("" as readLock), for the
// error that asks for one.
func knownSets(path string) string {
	l, err := readLock(path)
	if err != nil {
		return ""
	}
	var names []string
	for _, e := range l.Entries {
		if e.Kind == lock.KindSet {
			names = append(names, e.Name)
		}
	}
	return strings.Join(names, ", ")
}

// resolve returns the header directory, a label for generated headers and
// the parser options that hold the parse to the lock entry, if any.
func (s *source) resolve(stderr io.Writer) (dir, origin string, opts parser.Options, err error) {
	switch {
	case *s.headers != "" && *s.set != "":
		return "", "", opts, errors.New("cugen: give -headers or -set, not both")
	case len(s.extra) > 0 && *s.headers == "":
		return "", "", opts, errors.New("cugen: -with goes with -headers (a -set names the header packages it reads in the lock file)")
	case *s.headers != "":
		opts.Extra = s.extra
		return *s.headers, "", opts, nil
	case *s.set != "":
		l, err := readLock(*s.lockPath)
		if err != nil {
			return "", "", opts, err
		}
		e, err := l.Entry(*s.set)
		if err != nil {
			return "", "", opts, err
		}
		// Verified here are the files the entries list; the parser
		// holds every file it reads from their directories to the same
		// list and hashes, so a file no entry lists (cut short, or
		// dropped into a directory) fails the run.
		fs, err := l.FetchSetEntry(context.Background(), e, "", stderr) // "": the default cache
		if err != nil {
			return "", "", opts, err
		}
		s.lock, s.entry, s.fetched = l, e, fs
		opts.Pinned = fs.Pinned
		opts.Extra = fs.WithDirs
		opts.PinnedBy = fmt.Sprintf("%s of %s (cugen lock -set %s pins a header added to the parser's list)", e, l.Path, e.Name)
		return fs.Dir, carried.Origin(e.Name, fs.Digest), opts, nil
	}
	return "", "", opts, s.required("-headers DIR or -set NAME")
}

// carriedIR is the IR cugen carries of -set's entry, when it holds the
// libraries want (carried.Lookup); nil when there is none: the headers
// are then fetched and parsed.
func (s *source) carriedIR(want []*library.Desc) (*ir.API, error) {
	if *s.set == "" || *s.headers != "" || len(s.extra) > 0 {
		return nil, nil // resolve says what is wrong
	}
	l, err := readLock(*s.lockPath)
	if err != nil {
		return nil, err
	}
	return carried.Lookup(l, *s.set, want, *s.lockPath != "")
}

// required is the error for a command given no headers: what it takes,
// and the sets the lock has.
func (s *source) required(what string) error {
	lockName := embeddedLock
	if *s.lockPath != "" {
		lockName = *s.lockPath
	}
	if sets := knownSets(*s.lockPath); sets != "" {
		return fmt.Errorf("cugen: %s is required (the sets of %s: %s)", what, lockName, sets)
	}
	return fmt.Errorf("cugen: %s is required", what)
}

// parse resolves the source and parses its headers.
func (s *source) parse(stderr io.Writer) (api *ir.API, origin string, err error) {
	parser.Prepare() // the C compiler answers while the lock is read and verified
	dir, origin, opts, err := s.resolve(stderr)
	if err != nil {
		return nil, "", err
	}
	opts.Libraries = s.libs
	api, err = parser.ParseWith(dir, opts)
	return api, origin, err
}

func shortDigest(d string) string {
	d = strings.TrimPrefix(d, "sha256:")
	if len(d) > 12 {
		return d[:12]
	}
	return d
}

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

func cmdIR(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ir", flag.ContinueOnError)
	src := addSource(fs)
	out := fs.String("out", "", "write the IR to this file, gzip-compressed when it ends in .gz (default: indented JSON on stdout)")
	var libs libList
	fs.Var(&libs, "lib", "parse only these libraries' headers (comma-separated Go package names, as gen's -lib), those their packages import and the driver's and the runtime's, which every parse reads; default: all")
	carriedIRs := fs.Bool("carried", false, "maintainers: write every IR cugen carries (internal/carried) from its set's pinned headers, in the module of the working directory; -check: write nothing, fail on drift")
	check := fs.Bool("check", false, "with -carried: compare instead of writing")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *carriedIRs || *check {
		if !*carriedIRs || *src.headers != "" || *src.set != "" || len(libs) > 0 || *out != "" {
			return errors.New("cugen ir: -carried takes no -headers, -set, -lib or -out (and -check goes with -carried)")
		}
		l, err := readLock(*src.lockPath)
		if err != nil {
			return err
		}
		root, _ := moduleRoot()
		if root == "" {
			return errors.New("cugen ir -carried: run it in cugen's module (the carried IRs are its files)")
		}
		return carried.Regenerate(context.Background(), l, root, *check, stdout)
	}
	if len(libs) > 0 {
		// The IR of one library beside the main one (cuDNN's, whose
		// headers not every machine has).
		var err error
		if src.libs, err = carried.ParseLibs(libs); err != nil {
			return err
		}
	}
	api, origin, err := src.parse(stderr)
	if err != nil {
		return err
	}
	api.Origin = origin
	if *out == "" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(api)
	}
	return writeIR(*out, api)
}

// writeIR writes api to file (ir.Encode; gzip-compressed when file ends
// in .gz), atomically.
func writeIR(file string, api *ir.API) error {
	var b bytes.Buffer
	if err := ir.Encode(&b, api, strings.HasSuffix(file, ".gz")); err != nil {
		return err
	}
	if err := lock.WriteFileAtomic(file, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("cugen: %w", err)
	}
	return nil
}

func cmdGen(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	src := addSource(fs)
	out := fs.String("out", "", "output directory: one package per library the headers declare, OUT/cu, OUT/cudart, OUT/nvrtc, ... (default generated/cudaMAJOR)")
	demo := fs.Bool("demo", true, "add the context-demo test to the cudart package")
	importPath := fs.String("importpath", "", "Go import path of -out (default: from the go.mod above it)")
	irFile := fs.String("ir", "", "read the IR from this JSON file (cugen ir output) instead of parsing headers")
	originFlag := fs.String("origin", "", "with -ir: the header set named in generated file headers (default: the one the IR records)")
	check := fs.Bool("check", false, "write nothing: compare -out with what gen would write there and fail listing stale, missing and extra files and the API changes")
	descPath := fs.String("desc", "", "a library description (JSON, docs/generating.md's \"Bind your own library\"): generate its package, with cu and cudart, instead of cugen's libraries")
	parse := fs.Bool("parse", false, "with -set: parse the set's pinned headers (fetched) even where cugen carries the set's IR, which it emits from otherwise with no download")
	withLayer := fs.Bool("layer", true, "write the Go layer, package cuda (cuda/ of cugen, for the headers' major), as OUT/cuda; it needs the packages cu and nvrtc (and writes its NCCL part with nccl)")
	var libs libList
	fs.Var(&libs, "lib", "generate only these libraries (comma-separated Go package names, in any case: "+strings.Join(libraryNames(), ",")+"), and those their packages import; default: every library whose headers are present")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	var sel []*library.Desc // nil: every library
	var notes []string
	if len(libs) > 0 {
		var err error
		if sel, notes, err = selectLibs(libs); err != nil {
			return err
		}
	}
	desc, err := readDesc(*descPath, *irFile)
	if err != nil {
		return err
	}
	src.libs = desc.libraries()
	// Wrong outputs fail before the headers are parsed.
	if *out != "" {
		if err := checkOut(*out); err != nil {
			return err
		}
	}
	if *importPath != "" {
		if err := checkImportPath(*importPath); err != nil {
			return err
		}
	}
	var api *ir.API
	var origin string
	if *irFile != "" {
		// Emitting from a saved IR lets a machine without a toolkit's
		// headers (13.0 lives only on the GPU machine) regenerate its
		// packages after an emit change: generated/cuda13/ir.json.gz.
		var err error
		if api, err = readIR(*irFile); err != nil {
			return err
		}
		origin = *originFlag
		if origin == "" {
			origin = api.Origin // the lock entry the IR was parsed under
		}
	} else {
		if *src.headers == "" && *src.set == "" {
			return src.required("-headers DIR, -set NAME or -ir FILE")
		}
		var err error
		if !*parse && src.libs == nil { // -desc reads headers of its own
			api, err = src.carriedIR(sel)
			if err != nil {
				return err
			}
			if api != nil {
				origin = api.Origin
			}
		}
		if api == nil {
			if api, origin, err = src.parse(stderr); err != nil {
				return err
			}
		}
		if err := desc.checkAPI(api); err != nil {
			return err
		}
	}
	if err := checkDeclared(api, libs); err != nil {
		return err
	}
	ver := fmt.Sprintf("CUDA %d.%d headers", api.CUDAVersion/1000, api.CUDAVersion%1000/10)
	if origin != "" {
		origin = ver + " (" + origin + ")"
	} else {
		origin = ver
	}
	if *out == "" {
		*out = filepath.Join("generated", fmt.Sprintf("cuda%d", api.CUDAVersion/1000))
	}
	if err := checkOut(*out); err != nil {
		return err
	}
	if *importPath == "" { // from the go.mod above -out; checked too
		p, err := importPathOf(*out)
		if err != nil {
			return err
		}
		*importPath = p
	}
	if *importPath != "" {
		if err := checkImportPath(*importPath); err != nil {
			return err
		}
	}
	command := genCommand(src, *irFile, *descPath, *originFlag, *demo, *out, *importPath, libs...)
	opts := emit.Options{Origin: origin, Command: command, Demo: *demo, ImportPath: *importPath, Libraries: src.libs}
	if sel != nil {
		opts.Only = keys(sel)
	}
	pkgs, err := emit.Generate(api, opts)
	if err != nil {
		return err
	}
	var layer []*emit.Package // the layer's package, then its subpackages
	if *withLayer {
		var note string
		if layer, note, err = layerPackage(*out, int(api.CUDAVersion/1000), *importPath, command, pkgs, len(libs) > 0); err != nil {
			return err
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	for _, n := range notes {
		fmt.Fprintln(stdout, n)
	}
	if *check {
		n, err := checkSet(*out, pkgs, layer, stdout, stderr)
		if err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("cugen: gen -check: %s is stale: %d file(s) differ from what gen writes (listed above); run the same cugen gen without -check to update it", *out, n)
		}
		fmt.Fprintf(stdout, "cugen: %s is up to date (%s)\n", *out, ver)
		return nil
	}
	var summary []string
	var dirs []genfiles.Dir
	for _, p := range pkgs {
		// What the new headers change, against the API the package was
		// last generated from (its api.txt), before it is replaced.
		if err := printAPIChanges(filepath.Join(*out, p.Name), p, stdout, stderr); err != nil {
			return err
		}
		summary = append(summary, fmt.Sprintf("%s %d/%d bound, %d skipped", p.Name, p.Bound, p.Declared, len(p.Skipped)))
		dirs = append(dirs, p.Dir())
	}
	if layer != nil {
		summary = append(summary, layerName+" (the Go layer)")
		dirs = append(dirs, layer[0].Dir())
	}
	// All packages of one run are one unit: after a crash, the next run
	// has the whole old set or the whole new one. The layer's
	// subpackages (blas, ...) are a set of their own inside it, written
	// under the same lock (genfiles.Locked); one this run leaves out (its
	// library not generated) is removed.
	l, err := genfiles.Lock(*out, stderr)
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
			summary[len(summary)-1] += ", " + p.Name
		}
		if err := layergen.WriteSubpackages(l, layerName, subs); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "cugen: %s: %s -> %s\n", ver, strings.Join(summary, "; "), *out)
	return nil
}

func cmdHeaders(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("headers", flag.ContinueOnError)
	src := addSet(fs)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *src.set == "" {
		return src.required("-set NAME")
	}
	dir, _, _, err := src.resolve(stderr)
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
	src := addLockFile(fs)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *src.set == "" {
		return src.required("-set NAME")
	}
	// The parse is not held to the entry: adding what it reads is the point.
	dir, _, _, err := src.resolve(stderr)
	if err != nil {
		return err
	}
	set := src.fetched
	api, err := parser.ParseWith(dir, parser.Options{Extra: set.WithDirs})
	if err != nil {
		return err
	}
	// Each file the parse read goes to the entry whose directory holds it.
	// One that two directories hold is refused: both would pin the same
	// path, which FetchSetEntry refuses (the parse could not tell which
	// it read).
	entries := append([]*lock.Entry{set.Set}, set.With...)
	dirs := append([]string{set.Dir}, set.WithDirs...)
	files := make([][]string, len(entries))
	for _, f := range api.Sources {
		in := -1
		for i, d := range dirs {
			if _, err := os.Stat(filepath.Join(d, filepath.FromSlash(f))); err != nil {
				continue
			}
			if in >= 0 {
				return fmt.Errorf("cugen lock: %s is in the directories of both %s and %s", f, entries[in], entries[i])
			}
			in = i
			files[i] = append(files[i], f)
		}
	}
	for i, e := range entries {
		before := len(e.Files)
		if err := lock.Update(e, dirs[i], files[i]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "cugen: %s: %d files pinned (%d before) in %s\n", e, len(e.Files), before, *src.lockPath)
		e.Base().Files = e.Files // a derived set (12.4+cudnn9) pins its base's files
	}
	return src.lock.WriteFile(*src.lockPath)
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

// checkImportPath checks p as the go command checks an import path
// (golang.org/x/mod/module.CheckImportPath, which this module does not
// depend on): slash-separated elements, each non-empty, of ASCII letters,
// digits and "-._~+", not starting or ending with a dot; no leading slash
// or dash. It goes into a generated import declaration.
func checkImportPath(p string) error { return checkImportPathFlag("-importpath", p) }

// checkImportPathFlag is checkImportPath for the flag named flag.
func checkImportPathFlag(flag, p string) error {
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

// readIR reads an IR saved by cugen ir (ir.ReadFile: a regular file,
// bounded, checked by ir.Validate, every library key one package library
// describes); its error names the file and the entry.
func readIR(file string) (*ir.API, error) {
	api, err := ir.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if err := emit.CheckLibraries(api, nil); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return api, nil
}
