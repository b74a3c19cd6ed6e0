//go:build linux && (amd64 || arm64)

package ffi

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ebitengine/purego"
)

// ErrNotLoaded is matched by errors.Is for every error caused by a library
// that could not be opened (a [*LoadError], also when it is the reason a
// [Proc] cannot be resolved).
var ErrNotLoaded = errors.New("cugen: library not loaded")

// ErrNoSymbol is matched by errors.Is for every [*SymbolError]: the library
// loaded but does not export the symbol (typically: it is older than the
// headers the bindings were generated from).
var ErrNoSymbol = errors.New("cugen: symbol not found")

// LibraryDesc says where to look for a shared library.
type LibraryDesc struct {
	Name   string   // human name for messages, e.g. "CUDA driver"
	EnvVar string   // if set in the environment, its value is the only path tried
	Files  []string // file names (sonames) tried in order, e.g. "libcuda.so.1"
	Dirs   []string // directories tried after the dynamic loader's own search
	// Validate, if set, is called for each file that opens, with a lookup of
	// its symbols; an error rejects the file (it is closed and the next
	// candidate tried) and is reported in the LoadError. The runtime
	// packages use it to refuse a libcudart of another CUDA major.
	Validate func(lookup func(symbol string) (uintptr, error)) error
}

// Library is a shared library opened lazily, at most once, on first use.
// Its methods are safe for concurrent use.
type Library struct {
	desc      LibraryDesc
	once      sync.Once
	res       atomic.Pointer[loadResult] // nil until the one load attempt finished
	perThread atomic.Bool                // requested by UsePerThreadDefaultStream
}

type loadResult struct {
	handle    uintptr
	path      string
	err       error
	perThread bool // procs resolve their per-thread-default-stream symbols
}

// DefaultStreamEnv selects the per-thread default stream for every library
// when set to "per-thread" at load time; see [Library.UsePerThreadDefaultStream].
const DefaultStreamEnv = "CUGEN_DEFAULT_STREAM"

// UsePerThreadDefaultStream makes the library's stream-ordered functions use
// the per-thread default stream, as C code compiled with
// CUDA_API_PER_THREAD_DEFAULT_STREAM (nvcc --default-stream per-thread) does:
// their _ptds/_ptsz symbols are bound instead. Setting DefaultStreamEnv to
// "per-thread" does the same for every library. It must be called before the
// library loads (before the first call into it); afterwards it returns an
// error and changes nothing.
func (l *Library) UsePerThreadDefaultStream() error {
	if l.res.Load() != nil {
		return errors.New("cugen: " + l.desc.Name + " library already loaded: choose the default stream before the first call")
	}
	l.perThread.Store(true)
	return nil
}

// PerThreadDefaultStream reports whether the loaded library binds the
// per-thread-default-stream symbols.
func (l *Library) PerThreadDefaultStream() bool {
	r := l.res.Load()
	return r != nil && r.perThread
}

// Lookup resolves any symbol of the library (loading it first), without
// caching; for tests and tools.
func (l *Library) Lookup(symbol string) (uintptr, error) {
	if err := l.Load(); err != nil {
		return 0, err
	}
	r := l.res.Load()
	a, err := dlsym(r.handle, symbol)
	if err != nil {
		return 0, &SymbolError{Library: l.desc.Name, Path: r.path, Symbol: symbol, Err: err}
	}
	return a, nil
}

// NewLibrary returns a Library that is opened on its first Load (or first
// Proc.Addr). It does no I/O.
func NewLibrary(d LibraryDesc) *Library {
	return &Library{desc: d}
}

// Load opens the library if it is not open yet. It tries each candidate
// path once per process; later calls return the first call's result.
// The error is a [*LoadError].
func (l *Library) Load() error {
	if r := l.res.Load(); r != nil {
		return r.err
	}
	l.once.Do(func() {
		r := l.load()
		r.perThread = l.perThread.Load() || os.Getenv(DefaultStreamEnv) == "per-thread"
		l.res.Store(r)
	})
	return l.res.Load().err
}

// Path returns the path the library was loaded from, or "" if it is not
// loaded (yet).
func (l *Library) Path() string {
	if r := l.res.Load(); r != nil {
		return r.path
	}
	return ""
}

// Name returns the human name given in the LibraryDesc.
func (l *Library) Name() string { return l.desc.Name }

func (l *Library) load() *loadResult {
	paths, env := l.desc.candidates()
	e := &LoadError{Library: l.desc.Name}
	if env != "" {
		e.envVar, e.envSet = env, true
	} else {
		e.envVar = l.desc.EnvVar
	}
	for _, p := range paths {
		// RTLD_NOW: an unresolvable dependency fails here, with dlerror text,
		// rather than killing the process at some later first call.
		// RTLD_LOCAL: libcudart finds an already loaded libcuda.so.1 by its
		// soname anyway, so nothing needs to be global.
		h, err := dlopen(p, purego.RTLD_NOW|purego.RTLD_LOCAL)
		if err == nil && l.desc.Validate != nil {
			if verr := l.desc.Validate(func(s string) (uintptr, error) { return dlsym(h, s) }); verr != nil {
				purego.Dlclose(h)
				e.Tried = append(e.Tried, p+": "+verr.Error())
				continue
			}
		}
		if err == nil {
			return &loadResult{handle: h, path: resolvedPath(p)}
		}
		// dlerror usually starts with the path again; keep only the reason.
		msg := strings.TrimPrefix(err.Error(), p+": ")
		e.Tried = append(e.Tried, p+": "+msg)
	}
	return &loadResult{err: e}
}

// dlopen and dlsym are purego's on a locked OS thread. dlerror's text is
// per thread, and purego reads it in a second C call after the failing one:
// unlocked, the goroutine can move to another thread in between and report
// that thread's error state, usually none (seen as an empty reason in a
// LoadError under qemu, where the scheduler moves goroutines more).
func dlopen(path string, mode int) (uintptr, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return purego.Dlopen(path, mode)
}

func dlsym(handle uintptr, name string) (uintptr, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return purego.Dlsym(handle, name)
}

// candidates lists the paths to try, in order. If the environment variable
// is set it is the only candidate and env is its name.
func (d *LibraryDesc) candidates() (paths []string, env string) {
	if d.EnvVar != "" {
		if v := os.Getenv(d.EnvVar); v != "" {
			return []string{v}, d.EnvVar
		}
	}
	var dirs []string
	// A toolkit chosen through the environment wins over the fixed list.
	for _, v := range []string{"CUDA_PATH", "CUDA_HOME"} {
		if root := os.Getenv(v); root != "" {
			dirs = append(dirs, filepath.Join(root, "lib64"))
		}
	}
	dirs = append(dirs, d.Dirs...)

	seen := make(map[string]bool)
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	// The plain file name first: the dynamic loader's search (LD_LIBRARY_PATH,
	// ld.so.cache) is what the system administrator configured.
	for _, f := range d.Files {
		add(f)
	}
	for _, dir := range dirs {
		for _, f := range d.Files {
			if !strings.Contains(f, "/") {
				add(filepath.Join(dir, f))
			}
		}
	}
	return paths, ""
}

// resolvedPath reports where a loaded file name was found. The loader does
// not tell, so for a bare soname we look at /proc/self/maps; on failure the
// name itself is a fine answer.
func resolvedPath(p string) string {
	if strings.Contains(p, "/") {
		return p
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return p
	}
	for line := range strings.Lines(string(maps)) {
		i := strings.IndexByte(line, '/')
		if i < 0 {
			continue
		}
		path := strings.TrimSpace(line[i:])
		if filepath.Base(path) == p {
			return path
		}
	}
	return p
}

// NewProc returns a Proc for symbol in l. since names the release that
// introduced the symbol, e.g. "CUDA 12.2" (may be empty); it only improves
// the error text. NewProc does no I/O: it is called at package
// initialization for hundreds of symbols.
func (l *Library) NewProc(symbol, since string) *Proc {
	return &Proc{lib: l, name: symbol, since: since}
}

// PerThread names the symbol's per-thread-default-stream variant (e.g.
// cuMemcpyHtoD_v2_ptds), bound instead when the library uses the per-thread
// default stream. It returns p, for use in a var block at initialization.
func (p *Proc) PerThread(symbol string) *Proc {
	p.ptName = symbol
	return p
}

// PerThreadName returns the per-thread-default-stream variant, or "".
func (p *Proc) PerThreadName() string { return p.ptName }

// Proc is a symbol of a Library, resolved on its first Addr call.
type Proc struct {
	addr   atomic.Uintptr // non-zero once resolved
	lib    *Library
	name   string
	ptName string // per-thread-default-stream variant, if any
	since  string
	once   sync.Once
	err    error // set by the one resolution attempt if it failed
}

// Addr returns the symbol's address, loading the library and resolving the
// symbol on first use. A failure (a [*LoadError] or a [*SymbolError]) is
// cached like a success; it never panics.
func (p *Proc) Addr() (a uintptr, err error) {
	if a = p.addr.Load(); a == 0 {
		a, err = p.resolve()
	}
	return
}

// resolve is the slow path of Addr, kept out of line so that Addr inlines
// (TestAddrInlines).
func (p *Proc) resolve() (uintptr, error) {
	p.once.Do(func() {
		if err := p.lib.Load(); err != nil {
			p.err = err
			return
		}
		r := p.lib.res.Load()
		name := p.name
		if r.perThread && p.ptName != "" {
			name = p.ptName
		}
		a, err := dlsym(r.handle, name)
		if err != nil {
			p.err = &SymbolError{Library: p.lib.desc.Name, Path: r.path, Symbol: name, Since: p.since, Err: err}
			return
		}
		p.addr.Store(a)
	})
	return p.addr.Load(), p.err
}

// Name returns the symbol name.
func (p *Proc) Name() string { return p.name }

// LoadError reports that no candidate path of a library could be opened.
type LoadError struct {
	Library string   // human name, e.g. "CUDA driver"
	Tried   []string // one "path: dlerror text" per attempt, in order

	envVar string // the environment variable that selects the library, if any
	envSet bool   // whether envVar was set (and so the only path tried)
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString("cugen: cannot load ")
	b.WriteString(e.Library)
	b.WriteString(" library: tried ")
	for i, t := range e.Tried {
		if i > 0 {
			b.WriteString(", ")
		}
		path, msg, _ := strings.Cut(t, ": ")
		b.WriteString(path)
		if msg != "" {
			b.WriteString(" (")
			b.WriteString(msg)
			b.WriteString(")")
		}
	}
	switch {
	case e.envSet:
		b.WriteString("; the path came from " + e.envVar + ": fix or unset it")
	case e.envVar != "":
		b.WriteString("; set " + e.envVar + " to its path")
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrNotLoaded) true.
func (e *LoadError) Unwrap() error { return ErrNotLoaded }

// SymbolError reports that a loaded library does not export a symbol.
type SymbolError struct {
	Library string // human name, e.g. "CUDA driver"
	Path    string // the file the library was loaded from
	Symbol  string // e.g. "cuMemAlloc_v2"
	Since   string // release that introduced Symbol, e.g. "CUDA 12.2"; may be ""
	Err     error  // the dlerror text
}

func (e *SymbolError) Error() string {
	s := "cugen: symbol " + e.Symbol + " not found in " + e.Library + " library " + e.Path
	if e.Since != "" {
		s += " (introduced in " + e.Since + "; this library is older)"
	}
	return s
}

// Unwrap makes errors.Is(err, ErrNoSymbol) true and exposes the dlerror.
func (e *SymbolError) Unwrap() []error { return []error{ErrNoSymbol, e.Err} }
