// Package parser reads a CUDA header directory with modernc.org/cc/v4 and
// returns the IR of package ir. It is the only package of cugen that imports
// cc; nothing of cc's types leaves it.
//
// What it reads comes from the library descriptions of package library
// (library.All, or Options.Libraries): the translation unit includes, in
// order, every description's Include headers that the directory has, then
// the SymbolVersions headers (library.Headers; Headers here for
// library.All), then a variable for each struct initializer macro a
// description names (Desc.Initializers), so that the C front end
// evaluates it:
//
//	#include <cuda.h>
//	#include <cudaProfiler.h>
//	#include <cuda_runtime.h>
//	#include <cuda_profiler_api.h>
//	#include <nvrtc.h>
//	#include <nvJitLink.h>
//	...                         // cuBLAS, cuBLASLt, cuRAND, cuFFT, cuSPARSE, cuSOLVER, NVML, NCCL
//	#include <cudaTypedefs.h>   // when present: PFN_cuX_vNNNN versions
//
// Each extern function, type and macro belongs to the library whose Declare
// headers declare it (cuda.h and cudaProfiler.h: the driver's;
// cuda_runtime_api.h and cuda_profiler_api.h: the runtime's; nvrtc.h:
// NVRTC's, ...). What a header no description declares holds (driver_types.h,
// vector_types.h, ...) belongs to the description marked Owner, the
// runtime's.
package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
	"modernc.org/cc/v4"
)

// Headers returns every header the translation unit of the default
// libraries (library.All) includes, in order. headers.lock pins them and
// everything they include.
func Headers() []string { return library.Headers(library.All) }

// expansionLimit bounds the C preprocessor's macro expansion work per
// Parse (cc.Config.ExpansionLimit). A variable only so that FuzzParse can
// lower it for speed.
var expansionLimit = 5_000_000

// Error is a located parse failure. Its text starts with file:line:col so
// editors and CI logs can jump to it.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Parse translates the CUDA headers in dir and returns their IR.
func Parse(dir string) (*ir.API, error) { return ParseWith(dir, Options{}) }

// Options adjust ParseWith.
type Options struct {
	// Pinned, when not nil, lists every file the parse may read from the
	// header directory: slash-separated path relative to it -> sha256 in
	// lower-case hex (a headers.lock entry). A file the headers include
	// from the directory that is not listed, or whose bytes have another
	// sha256, fails the parse with an *Error naming it. The bytes hashed
	// are the bytes parsed.
	Pinned map[string]string
	// PinnedBy names the list in messages: "set 12.4 of headers.lock".
	PinnedBy string
	// Libraries are the libraries to read; nil means library.All.
	Libraries []*library.Desc
	// Extra are more header directories, searched after dir in order:
	// the other packages of a header set (nccl.h from libnccl-dev beside
	// the toolkit's headers). Their files are named, and pinned, by their
	// path relative to the directory they are in, as dir's are.
	Extra []string
	// Own are the header directories of a library of the user's own (gen
	// -desc -set with -with: its headers), searched after Extra. Pinned
	// never holds their files: the lock pins the set, not the user's
	// headers.
	Own []string
}

// ParseWith is Parse with options.
func ParseWith(dir string, o Options) (*ir.API, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("cugen: header directory: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("cugen: header directory %s is not a directory", dir)
	}
	libs := o.Libraries
	if libs == nil {
		libs = library.All
	}
	if err := library.Check(libs); err != nil {
		return nil, fmt.Errorf("cugen: %w", err)
	}
	required := requiredHeader(libs)
	if _, err := os.Stat(filepath.Join(dir, required)); err != nil {
		return nil, fmt.Errorf("cugen: %s has no %s: not a CUDA include directory", dir, required)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	dirs := []string{abs}
	var own []string
	for i, d := range append(slices.Clip(o.Extra), o.Own...) {
		a, err := filepath.Abs(d)
		if err != nil {
			return nil, err
		}
		if st, err := os.Stat(a); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("cugen: extra header directory %s is not a directory", d)
		}
		dirs = append(dirs, a)
		if i >= len(o.Extra) {
			own = append(own, a)
		}
	}
	p := &parse{
		dir:          abs,
		dirs:         dirs,
		own:          own,
		opened:       map[string]bool{},
		lines:        map[string][]string{},
		served:       map[string]*servedFile{},
		objectMacros: map[string]ir.Pos{},
		pinned:       o.Pinned,
		pinnedBy:     o.PinnedBy,
		libs:         libs,
	}
	if p.pinnedBy == "" {
		p.pinnedBy = "the lock"
	}
	return p.run()
}

type parse struct {
	libs     []*library.Desc
	dir      string
	dirs     []string        // dir, then Options.Extra and Own: the header directories
	own      []string        // Options.Own: those of them Pinned does not hold
	sysDirs  []string        // the C front end's other include directories
	libcDirs []string        // those of them that are not a CUDA installation
	opened   map[string]bool // header-dir-relative files cc opened
	ast      *cc.AST
	api      *ir.API

	// The source file system (source.go).
	served       map[string]*servedFile // by absolute name; nil: refused or missing
	files        []*servedFile          // in the order read
	mu           sync.Mutex             // the source file system's, while both passes run
	pipe         *pipeline              // while both passes run
	total        int                    // bytes read
	tokens       int                    // tokens read, roughly (scan)
	fail         *Error                 // the first bound or rule broken
	objectMacros map[string]ir.Pos      // object-like macros seen, where first defined
	trailer      []string               // sorted objectMacros, once taken
	pinned       map[string]string      // Options.Pinned
	pinnedBy     string
	unpinned     []string // files read that Pinned does not list, or with another hash

	enums    map[string]*ir.Enum   // by tag or typedef name
	records  map[string]*ir.Record // by tag or typedef name
	typedefs map[string]*ir.Typedef
	// recordKeys maps a cc struct or union type to its key in records
	// (its Ref), so a typedef of an anonymous struct and its later uses
	// agree.
	recordKeys map[cc.Type]string
	declOf     map[*cc.Declarator]*cc.Declaration
	lines      map[string][]string // header lines, for trailing /**< */ docs
}

// rel reports name relative to the header directory it lies in, if it lies
// in one.
func (p *parse) rel(name string) (string, bool) {
	if !filepath.IsAbs(name) {
		return "", false
	}
	d := p.dirOf(name)
	if d == "" {
		return "", false
	}
	r, _ := filepath.Rel(d, filepath.Clean(name))
	return filepath.ToSlash(r), true
}

// dirOf returns the header directory name lies in, or "".
func (p *parse) dirOf(name string) string {
	for _, d := range p.dirs {
		r, err := filepath.Rel(d, filepath.Clean(name))
		if err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return d
		}
	}
	return ""
}

// pinnedFile reports whether the file name, in a header directory, is
// held to Options.Pinned: not one of Options.Own's.
func (p *parse) pinnedFile(name string) bool {
	return p.pinned != nil && !slices.Contains(p.own, p.dirOf(name))
}

// find returns the path of the header h (relative to a header directory)
// in the first header directory that has it, as #include <h> finds it.
func (p *parse) find(h string) (string, bool) {
	for _, d := range p.dirs {
		f := filepath.Join(d, h)
		if _, err := os.Stat(f); err == nil {
			return f, true
		}
	}
	return "", false
}

// hostConfig is cc's configuration of the host's C compiler: its predefined
// macros and include directories. cc.NewConfig runs the compiler twice to
// learn them (about 60 ms), so a process asks once.
var hostConfig = sync.OnceValues(func() (*cc.Config, error) {
	return cc.NewConfig("linux", "amd64")
})

// Prepare starts asking the host's C compiler for its configuration in the
// background, so that a Parse soon after waits less for it; a command calls
// it before its other preparations (reading and verifying a lock).
func Prepare() { go hostConfig() }

// newConfig returns a configuration of the C front end of its own, the
// host's compiler asked once per process.
func newConfig() (*cc.Config, error) {
	host, err := hostConfig()
	if err != nil {
		return nil, fmt.Errorf("cugen: configuring the C front end: %w", err)
	}
	abi, err := cc.NewABI("linux", "amd64")
	if err != nil {
		return nil, fmt.Errorf("cugen: configuring the C front end: %w", err)
	}
	cfg := *host
	cfg.ABI = abi
	cfg.IncludePaths = slices.Clone(host.IncludePaths)
	cfg.SysIncludePaths = slices.Clone(host.SysIncludePaths)
	cfg.HostIncludePaths = slices.Clone(host.HostIncludePaths)
	cfg.HostSysIncludePaths = slices.Clone(host.HostSysIncludePaths)
	return &cfg, nil
}

func (p *parse) run() (*ir.API, error) {
	cfg, err := newConfig()
	if err != nil {
		return nil, err
	}
	cfg.FSOnly = true // every file goes through sourceFS, never plain os.Open
	// Quoted names: beside the including file, then the header directory
	// (gcc's order for -I), then the system's. Angle names: the header
	// directory, so <cuda.h> is its own, then the system's; a file that
	// would shadow a system header is refused (sourceFS).
	cfg.IncludePaths = append(append([]string{""}, p.dirs...), slices.DeleteFunc(cfg.IncludePaths, func(d string) bool { return d == "" || d == "@" })...)
	cfg.SysIncludePaths = append(slices.Clone(p.dirs), cfg.SysIncludePaths...)
	// Last: the headers cugen supplies where a set lacks them (stubHeaders).
	cfg.SysIncludePaths = append(cfg.SysIncludePaths, stubDir)
	for _, d := range append(cfg.IncludePaths, cfg.SysIncludePaths...) {
		if !slices.Contains(p.dirs, d) && filepath.IsAbs(d) && !slices.Contains(p.sysDirs, filepath.Clean(d)) {
			d = filepath.Clean(d)
			p.sysDirs = append(p.sysDirs, d)
			// The compiler's and the C library's directories; not
			// /usr/local/include, where local installs go and no C
			// library header lives.
			if _, err := os.Stat(filepath.Join(d, requiredHeader(p.libs))); err != nil && d != "/usr/local/include" {
				p.libcDirs = append(p.libcDirs, d)
			}
		}
	}

	// C23's alignas, which C11 spells _Alignas (<stdalign.h> defines it):
	// cuSPARSELt's cusparseLt.h uses it without including that.
	head := "#ifndef alignas\n#define alignas _Alignas\n#endif\n"
	var includes []string
	for _, h := range library.Headers(p.libs) {
		if _, ok := p.find(h); ok {
			includes = append(includes, fmt.Sprintf("#include <%s>\n", h))
		}
	}
	// Each struct initializer macro initializes a variable of its type,
	// so that the C front end evaluates it (initializer, in collect).
	var tail strings.Builder
	for _, in := range p.initializerMacros() {
		fmt.Fprintf(&tail, "#ifdef %s\nstatic const %s %s%s = %s;\n#endif\n", in.macro, in.ctype, initPrefix, in.macro, in.macro)
	}
	sources := []cc.Source{
		{Name: "<predefined>", Value: cfg.Predefined},
		{Name: "<builtin>", Value: cc.Builtin},
	}

	// Macro expansion can grow exponentially: a few hundred bytes can take
	// hours and all memory. CUDA 11.8-13.0 need about 170,000 units of
	// work (tokens processed, see cc.Config), so the limit leaves a 30x
	// margin and stops a pathological header within a second.
	//
	// First pass: preprocess only, every object-like macro expanded once
	// more at the end (macroTrailer), the output bounded (outputBound). It
	// reads every header (sourceFS checks and keeps them) and does all the
	// expansion work the second pass will do, EvalAllMacros included, so
	// every bound trips here, deterministically, with an error. cc's
	// EvalAllMacros stops silently at the limit, leaving the remaining
	// macros (in map order) without a value: the second pass gets twice
	// the limit and so never reaches it.
	//
	// A pinned parse (Options.Pinned: a headers.lock entry) runs the first
	// pass too: a digest says which bytes were read, not that they are
	// harmless (a cached header that includes itself after 60,000
	// declarations, pinned by its own digest, took the second pass alone
	// 8-18 s and 2.5 GB). One path, whatever the source.
	//
	// The second pass runs beside the first, behind it (pipeline.go):
	// it translates only what the first pass has finished within the
	// bounds, and stops as soon as the first fails.
	cfg2, err := newConfig()
	if err != nil {
		return nil, err
	}
	cfg2.IncludePaths, cfg2.SysIncludePaths = slices.Clone(cfg.IncludePaths), slices.Clone(cfg.SysIncludePaths)
	cfg.FS = sourceFS{p: p, first: true}
	cfg.ExpansionLimit = expansionLimit
	p.pipe = newPipeline()
	out := &outputBound{p: p, unitDone: p.pipe.unitDone}
	pre := append(slices.Clone(sources),
		cc.Source{Name: "<cugen>", Value: head + strings.Join(includes, "") + tail.String()},
		cc.Source{Name: trailerSource, FS: macroTrailer{p}})

	cfg2.FS = sourceFS{p: p}
	cfg2.FSOnly = true
	cfg2.Header = true
	cfg2.EvalAllMacros = true
	// gcc's layout, bit-fields included; without it cc/v4 keeps groups of
	// bit-fields apart from other members (struct { char c; int x:3; } is
	// 8 bytes instead of 4).
	cfg2.ABILayout = true
	cfg2.ExpansionLimit = 2 * expansionLimit
	var ast *cc.AST
	var terr error
	second := make(chan struct{})
	go func() {
		defer close(second)
		ast, terr = translate(cfg2, append(slices.Clone(sources), cugenUnits(p.pipe, head, includes, tail.String())...))
	}()
	ccErr := preprocess(cfg, pre, out)
	p.mu.Lock()
	perr := p.prepassError(ccErr, out.err)
	p.mu.Unlock()
	p.pipe.finish(perr != nil)
	<-second
	p.pipe = nil
	if perr != nil {
		return nil, perr
	}
	err = terr
	switch {
	case p.fail != nil:
		return nil, p.failError(err, false)
	case len(p.unpinned) > 0:
		return nil, p.unpinnedError()
	case err != nil:
		return nil, p.locate(err)
	}
	p.ast = ast
	p.api = &ir.API{}
	p.enums = map[string]*ir.Enum{}
	p.records = map[string]*ir.Record{}
	p.typedefs = map[string]*ir.Typedef{}
	p.recordKeys = map[cc.Type]string{}

	if err := p.collect(); err != nil {
		return nil, err
	}
	for f := range p.opened {
		p.api.Sources = append(p.api.Sources, f)
	}
	sort.Strings(p.api.Sources)
	return p.api, nil
}

// preprocess is cc.Preprocess that turns a panic of the C front end into
// an error, as translate does.
func preprocess(cfg *cc.Config, srcs []cc.Source, w io.Writer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &frontEndPanic{r}
		}
	}()
	return cc.Preprocess(cfg, srcs, w)
}

type frontEndPanic struct{ v any }

func (e *frontEndPanic) Error() string {
	return fmt.Sprintf("the C front end (modernc.org/cc/v4) failed on these headers: %v (an #include nested without end?)", e.v)
}

// prepassError returns the error of the first pass: a bound of sourceFS or
// of outputBound, or cc's macro expansion limit. Other errors of cc are
// left to the second pass, which reports them the same way with or without
// the first.
func (p *parse) prepassError(ccErr error, outErr *Error) error {
	if p.fail != nil {
		return p.failError(ccErr, true)
	}
	if len(p.unpinned) > 0 {
		return p.unpinnedError()
	}
	if outErr != nil {
		return outErr
	}
	var fp *frontEndPanic
	if errors.As(ccErr, &fp) {
		return &Error{File: p.dir, Msg: fp.Error()}
	}
	if ccErr == nil {
		return nil
	}
	for _, l := range strings.Split(ccErr.Error(), "\n") {
		if !strings.Contains(l, "macro expansion limit exceeded") {
			continue
		}
		if rest, ok := strings.CutPrefix(l, trailerSource+":"); ok {
			// Line 1 and 2 are the marker; line k+2 expands macro k.
			var line int
			fmt.Sscan(strings.SplitN(rest, ":", 2)[0], &line)
			if i := line - 3; i >= 0 && i < len(p.trailer) {
				return p.macroError(p.trailer[i], fmt.Sprintf("macro expansion limit exceeded (%d units of work) when expanding it", expansionLimit))
			}
			return &Error{File: p.dir, Msg: fmt.Sprintf("macro expansion limit exceeded (%d units of work) when expanding the headers' macros", expansionLimit)}
		}
		// The first pass reads each file after a marker line.
		err := p.locate(errors.New(l))
		if e, ok := err.(*Error); ok && e.Line > 1 && !strings.HasPrefix(e.File, "<") {
			e.Line--
		}
		return err
	}
	return nil
}

// unpinnedError names the files the parse read that Options.Pinned does not
// list, or lists with another hash.
func (p *parse) unpinnedError() error {
	return &Error{File: strings.Fields(p.unpinned[0])[0], Msg: fmt.Sprintf("the parse read %d file(s) of the header directory that %s does not pin: %s",
		len(p.unpinned), p.pinnedBy, strings.Join(p.unpinned, ", "))}
}

// macroError is an error at the #define of an object-like macro.
func (p *parse) macroError(name, msg string) *Error {
	pos := p.objectMacros[name]
	if pos.Line == 0 {
		return &Error{File: p.dir, Msg: fmt.Sprintf("macro %s: %s", name, msg)}
	}
	return &Error{File: pos.File, Line: pos.Line, Col: 1, Msg: fmt.Sprintf("macro %s: %s", name, msg)}
}

// failError returns p.fail, located at the #include that opened the
// refused file when p.fail has no line of its own and cc reported one.
func (p *parse) failError(ccErr error, firstPass bool) error {
	if p.fail.Line > 0 || ccErr == nil {
		return p.fail
	}
	for _, l := range strings.Split(ccErr.Error(), "\n") {
		if !strings.Contains(l, "include file not found") {
			continue
		}
		var site *Error
		if errors.As(p.locate(errors.New(l)), &site) && site.Line > 0 && !strings.HasPrefix(site.File, "<") {
			if firstPass && site.Line > 1 {
				site.Line-- // the first pass reads each file after a marker line
			}
			return &Error{File: site.File, Line: site.Line, Col: site.Col, Msg: fmt.Sprintf("#include of %s: %s", p.fail.File, p.fail.Msg)}
		}
	}
	return p.fail
}

// translate is cc.Translate with two guards for faults of the C front end
// (modernc.org/cc/v4 v4.34.0 and v4.35.0), each found by FuzzParse:
//
//   - A panic becomes an error: cc indexes an empty slice on an #include
//     whose argument macro-expands to nothing, which is what an unguarded
//     self-include becomes once the expansion limit stops it. cc keeps no
//     lock across the failing code, so the next Parse is unaffected.
//   - The translation unit ends in endOfInput. cc's type-qualifier list
//     (what follows a '*' or '^', or a '[' of an array declarator) loops
//     on end of input without consuming it, appending an error each turn:
//     "int *" as the last text of a header hung with memory growing
//     without bound. The loop stops at a storage class or an identifier,
//     so the sentinel's "static" ends it whatever came before, and
//     anything that reaches the sentinel is reported as a declaration
//     left open at the end (endOfInputError). Every other loop of cc's
//     parser stops at end of input itself.
func translate(cfg *cc.Config, srcs []cc.Source) (ast *cc.AST, err error) {
	defer func() {
		if r := recover(); r != nil {
			ast, err = nil, fmt.Errorf("the C front end (modernc.org/cc/v4) failed on these headers: %v (an #include nested without end?)", r)
		}
	}()
	srcs = append(slices.Clone(srcs), cc.Source{Name: endOfInputSource, Value: endOfInput})
	ast, err = cc.Translate(cfg, srcs)
	if err != nil && strings.HasPrefix(err.Error(), endOfInputSource+":") {
		// The input's own text had no error before the sentinel: it ends
		// inside a declaration. "-:" is cc's prefix for an error without
		// a position (locate).
		err = errors.New("-: the headers end inside a declaration (an unclosed '{' or '(', or a declarator cut short)")
	}
	return ast, err
}

// endOfInputSource is the last source of every translation unit
// (translate); collect skips it as it skips every variable that is not an
// initializer macro's.
const (
	endOfInputSource = "<end of input>"
	endOfInput       = "static int __cugen_end_of_input;\n"
)

// locate turns cc's error list into an *Error whose file is relative to the
// header directory; cc already formats "file:line:col: msg".
func (p *parse) locate(err error) error {
	msg := err.Error()
	// The second pass's pieces of <cugen> are <cugen>, at the same lines.
	first := unitName.ReplaceAllLiteralString(strings.SplitN(msg, "\n", 2)[0], "<cugen>")
	// cc: "/abs/path/x.h:12:3: message"
	parts := strings.SplitN(first, ":", 4)
	if len(parts) == 4 {
		var line, col int
		if _, e1 := fmt.Sscan(parts[1], &line); e1 == nil {
			if _, e2 := fmt.Sscan(parts[2], &col); e2 == nil {
				file := parts[0]
				if r, ok := p.rel(file); ok {
					file = r
				}
				msg := strings.TrimSpace(parts[3])
				if msg == "" { // `#error` alone (found by FuzzParse)
					msg = "error without a message (an empty #error?)"
				}
				return &Error{File: file, Line: line, Col: col, Msg: msg}
			}
		}
	}
	// No position: a declaration left open at the end of the translation
	// unit (translate's sentinel) or a front-end failure. The whole header
	// directory is the culprit.
	return &Error{File: p.dir, Msg: strings.TrimPrefix(first, "-: ")}
}

// pos converts a cc position to a header-relative ir.Pos. A file outside
// the header directory (the libc header that declares size_t or uint32_t) is
// named the way C includes it, "<stddef.h>", so the IR holds no machine path.
func (p *parse) pos(file string, line int) ir.Pos {
	if r, ok := p.rel(file); ok {
		return ir.Pos{File: r, Line: line}
	}
	return ir.Pos{File: p.sysName(file), Line: line}
}

// sysName names a file outside the header directory relative to the system
// include directory that gives it the shortest name: <bits/types.h>.
func (p *parse) sysName(file string) string {
	if !filepath.IsAbs(file) {
		return file // <builtin>, <predefined>
	}
	best := ""
	for _, dir := range p.sysDirs {
		r, err := filepath.Rel(dir, file)
		if err == nil && !strings.HasPrefix(r, "..") && (best == "" || len(r) < len(best)) {
			best = r
		}
	}
	if best == "" {
		best = filepath.Base(file)
	}
	return "<" + filepath.ToSlash(best) + ">"
}

// requiredHeader is the header a directory must have to be read at all:
// the main header of the first library marked Required (cuda.h).
func requiredHeader(libs []*library.Desc) string {
	for _, d := range libs {
		if d.Required {
			return d.Include[0]
		}
	}
	return ""
}

// libraryOf attributes a declaration to a library by the header that
// declares it (Desc.Declare, or SymbolVersions); ok is false for the other
// headers, whose declarations belong to the library marked Owner
// (driver_types.h, vector_types.h, ... are the runtime's).
func (p *parse) libraryOf(file string) (lib ir.Library, ok bool) {
	if !p.isCUDAFile(file) {
		return "", false // the C library's (FILE, size_t): no package owns it
	}
	base := filepath.Base(file)
	var owner ir.Library
	for _, d := range p.libs {
		if slices.Contains(d.Declare, base) || d.SymbolVersions == base {
			return d.Key, true
		}
		if d.Owner {
			owner = d.Key
		}
	}
	return owner, false
}

// isSymbolVersions reports a header that declares only PFN_ typedefs
// (Desc.SymbolVersions), never functions to bind.
func (p *parse) isSymbolVersions(file string) bool {
	base := filepath.Base(file)
	for _, d := range p.libs {
		if d.SymbolVersions == base {
			return true
		}
	}
	return false
}

func (p *parse) collect() error {
	if err := p.collectMacrosVersions(); err != nil {
		return err
	}
	aliases, otherAliases := p.apiAliases()
	forwards := p.inlineForwards()
	perThread, err := p.perThreadSymbols()
	if err != nil {
		return err
	}
	since := p.pfnVersions()

	seenFn := map[string]bool{}
	stop := make(chan struct{})
	defer close(stop)
	docs := p.prefetchDocs(stop)
	for l := p.ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		dd := <-docs // l's
		if dd.panic != nil {
			panic(dd.panic)
		}
		ed := l.ExternalDeclaration
		if ed == nil || ed.Case != cc.ExternalDeclarationDecl || ed.Declaration == nil {
			continue
		}
		decl := ed.Declaration
		if in, ok := initializerDecl(decl); ok {
			if err := p.initializer(in); err != nil {
				return err
			}
			continue
		}
		doc := dd.doc // docBefore(decl)
		// Tagged types declared here (struct/enum definitions with or without
		// a typedef) are picked up through the declaration specifiers.
		p.declSpecTypes(decl, doc)
		for il := decl.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
			if il.InitDeclarator == nil || il.InitDeclarator.Declarator == nil {
				continue
			}
			d := il.InitDeclarator.Declarator
			pos := d.Position()
			switch {
			case d.IsTypename():
				if !p.isCUDAFile(pos.Filename) {
					continue // libc typedefs are recorded only when CUDA uses them
				}
				if err := p.typedef(d, doc); err != nil {
					return err
				}
			case d.Type().Kind() == cc.Function:
				lib, ok := p.libraryOf(pos.Filename)
				if !ok || p.isSymbolVersions(pos.Filename) || d.IsStatic() || d.IsInline() {
					continue
				}
				sym := d.Name()
				desc := library.ByKey(p.libs, lib)
				if seenFn[sym] || desc.Interposer(sym) {
					continue
				}
				seenFn[sym] = true
				name := sym
				if a, ok := aliases[sym]; ok {
					name = a
				}
				fw, forwarded := forwards[sym]
				fdoc := doc
				switch {
				case forwarded:
					name, fdoc = fw.name, fw.doc
				case fdoc == "" && desc.PlainDocs:
					fdoc = plainDocBefore(decl)
				}
				var parsed *parsedDoc
				if dd.fn && fdoc == doc {
					parsed = &dd.parsed
					dd.fn = false // each function its own parse, as before
				}
				fn, err := p.function(d, name, lib, fdoc, parsed)
				if err != nil {
					return err
				}
				fn.Aliases = otherAliases[sym]
				if pt, ok := perThread[fn.Symbol]; ok {
					fn.PerThreadSymbol = pt
				}
				if desc.SymbolVersions != "" {
					fn.SinceVersion = since[fn.Symbol]
				}
				if forwarded {
					fn.SinceVersion = symbolVersion(sym)
				}
				p.api.Functions = append(p.api.Functions, fn)
			}
		}
	}
	p.api.Functions = dropRenamed(p.api.Functions)
	// Records reached only through pointers (never declared at file scope
	// in the translation unit's own declarations) were registered while
	// converting types; keep header order everywhere.
	sort.SliceStable(p.api.Enums, func(i, j int) bool { return posLess(p.api.Enums[i].Pos, p.api.Enums[j].Pos) })
	sort.SliceStable(p.api.Records, func(i, j int) bool { return posLess(p.api.Records[i].Pos, p.api.Records[j].Pos) })
	return p.collectMacros()
}

// dropRenamed drops the declaration of a name that a macro renames to a
// versioned symbol declared too: cufile.h declares cuFileDriverClose,
// then #defines cuFileDriverClose to cuFileDriverClose_v2 and declares it
// again. Both are the API name cuFileDriverClose; C code compiled with the
// header calls cuFileDriverClose_v2, which is the one kept.
func dropRenamed(fns []*ir.Function) []*ir.Function {
	renamed := map[string]bool{}
	for _, f := range fns {
		if f.Symbol != f.Name {
			renamed[f.Name] = true
		}
	}
	return slices.DeleteFunc(fns, func(f *ir.Function) bool { return f.Symbol == f.Name && renamed[f.Name] })
}

func posLess(a, b ir.Pos) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	return a.Line < b.Line
}

// docBefore returns the last /** ... */ comment before a declaration, with
// the comment markers removed. A trailing /**< ... */ documents the previous
// item and is ignored.
func docBefore(n cc.Node) string { return lastDocComment(leadingSep(n)) }

// leadingSep returns the white space and comments before n's first token.
func leadingSep(n cc.Node) []byte {
	// The first token of a declaration is that of its first specifier;
	// NodeTokens of the whole declaration (parameter lists) cost a fifth of
	// the parse.
	if d, ok := n.(*cc.Declaration); ok && d.DeclarationSpecifiers != nil {
		if toks := cc.NodeTokens(headSpecifier(d.DeclarationSpecifiers)); len(toks) > 0 {
			return toks[0].Sep()
		}
	}
	toks := cc.NodeTokens(n)
	if len(toks) == 0 {
		return nil
	}
	return toks[0].Sep()
}

// plainDocBefore returns the plain /* ... */ comment that ends right before
// a declaration (nothing but white space between), for headers that
// document so (library.Desc.PlainDocs). A first paragraph of one short
// line without a full stop is the comment's title ("Reduce",
// "ncclRedOpCreatePreMulSum") and is dropped.
func plainDocBefore(n cc.Node) string {
	sep := bytes.TrimRight(leadingSep(n), " \t\r\n")
	if !bytes.HasSuffix(sep, []byte("*/")) {
		return ""
	}
	i := bytes.LastIndex(sep, []byte("/*"))
	if i < 0 || bytes.HasPrefix(sep[i:], []byte("/**")) {
		return ""
	}
	doc := cleanComment(string(sep[i+2 : len(sep)-2]))
	if title, rest, ok := strings.Cut(doc, "\n\n"); ok && !strings.Contains(title, "\n") &&
		len(strings.Fields(title)) <= 4 && !strings.HasSuffix(title, ".") {
		doc = strings.TrimSpace(rest)
	}
	if strings.Trim(doc, "* \t\r\n") == "" {
		return ""
	}
	return doc
}

// headSpecifier returns the first declaration specifier of a list, or nil.
func headSpecifier(ds *cc.DeclarationSpecifiers) cc.Node {
	switch {
	case ds.StorageClassSpecifier != nil:
		return ds.StorageClassSpecifier
	case ds.TypeSpecifier != nil:
		return ds.TypeSpecifier
	case ds.TypeQualifier != nil:
		return ds.TypeQualifier
	case ds.FunctionSpecifier != nil:
		return ds.FunctionSpecifier
	case ds.AlignmentSpecifier != nil:
		return ds.AlignmentSpecifier
	case ds.AttributeSpecifierList != nil:
		return ds.AttributeSpecifierList
	}
	return nil
}

func lastDocComment(sep []byte) string {
	for {
		i := bytes.LastIndex(sep, []byte("/**"))
		if i < 0 {
			return ""
		}
		c := sep[i:]
		end := bytes.Index(c, []byte("*/"))
		if end < 0 {
			return ""
		}
		body := c[3:end]
		if bytes.HasPrefix(body, []byte("<")) {
			sep = sep[:i]
			continue
		}
		// A doc comment separated from the declaration by a blank
		// line plus other text is still the declaration's in CUDA's
		// headers, so only the comment itself is cleaned. A banner of
		// asterisks (/****...*/ before dim3) is a separator, not a doc.
		doc := cleanComment(string(body))
		if strings.Trim(doc, "* \t\r\n") == "" {
			return ""
		}
		return doc
	}
}

// cleanComment strips the leading " * " of each line and trims. Any
// Unicode space counts as indentation: some CUDA 13 comments indent their
// '*' with a no-break space (U+00A0), which left the '*' in the text. A
// line without the '*' keeps its indentation: cuda.h writes the lines of
// its \code blocks so.
func cleanComment(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		t := strings.TrimLeftFunc(l, unicode.IsSpace)
		if strings.HasPrefix(t, "*") && !strings.HasPrefix(t, "*/") {
			t = strings.TrimPrefix(t, "*")
			if strings.HasPrefix(t, " ") {
				t = t[1:]
			}
		} else if i > 0 {
			t = l
		}
		lines[i] = strings.TrimRightFunc(t, unicode.IsSpace)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
