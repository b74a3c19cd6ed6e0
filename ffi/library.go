//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffi

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrNotLoaded is matched by errors.Is for every error caused by a library
// that could not be opened: a [*LoadError], also when it is the reason a
// generated function could not be called.
var ErrNotLoaded = errors.New("cugen: library not loaded")

// ErrNoSymbol is matched by errors.Is for every [*SymbolError]: the library
// loaded but does not export the symbol (typically: it is older than the
// headers the bindings were generated from).
var ErrNoSymbol = errors.New("cugen: symbol not found")

// LibraryDesc says where to look for a shared library. The search, in
// order, is described in the package doc ("Where the libraries are
// found"); every place it looked in is named by the [*LoadError] when
// nothing loads.
type LibraryDesc struct {
	Name   string   // human name for messages, e.g. "CUDA driver"
	EnvVar string   // if set in the environment, its value is the only path tried
	Files  []string // file names (sonames) tried in order, e.g. "libcuda.so.1"
	Dirs   []string // directories tried after CUDA_PATH and CUDA_HOME
	// ToolkitDirs are the directories of a CUDA toolkit, relative to its
	// root and slash-separated, where the library is besides lib64:
	// "nvvm/lib64" for libNVVM. Each toolkit root the search looks in
	// ($CUDA_PATH, $CUDA_HOME, /usr/local/cuda, /usr/local/cuda-X.Y) is
	// looked in there too, after its lib64 (Linux).
	ToolkitDirs []string
	// Wheels are the directories, relative to a Python site-packages
	// directory and slash-separated, where NVIDIA's pip wheels install the
	// library: "nvidia/cuda_runtime/lib" (CUDA 12's nvidia-cuda-runtime-cu12)
	// and "nvidia/cu13/lib" (CUDA 13's wheels) for libcudart. They are
	// looked for in every site-packages directory of the search, without
	// running Python.
	Wheels []string
	// WSL marks the driver library: it is looked for last in
	// /usr/lib/wsl/lib, where Windows Subsystem for Linux puts it.
	WSL bool
	// Identify names a symbol every genuine copy of the library exports
	// (cuDriverGetVersion for the driver, cudaRuntimeGetVersion for the
	// runtime). A file that opens but lacks it is refused before anything
	// else is looked up or called in it: "CUGEN_LIBCUDA=.../libc.so.6 is not
	// the CUDA driver library (no cuDriverGetVersion)".
	Identify string
	// Validate, if set, is called for each file that opens, with a lookup of
	// its symbols; an error rejects the file (it is closed and the next
	// candidate tried) and is reported in the LoadError. The runtime
	// packages use it to refuse a libcudart of another CUDA major.
	Validate func(lookup func(symbol string) (uintptr, error)) error
	// Version, if set, returns the loaded library's version as messages
	// give it ("driver CUDA 12.2", "NVRTC 12.4"), or "" if unknown: a
	// [*SymbolError] names it, so that a symbol missing because the
	// library is older than the headers says so.
	Version func(lookup func(symbol string) (uintptr, error)) string
	// Driver, if set, is loaded before this library, and if it cannot be
	// loaded neither is this one. The runtime packages set it to the
	// driver library ([DriverLibrary]): libcudart opens "libcuda.so.1" by
	// its soname, and the dynamic loader hands back an object already
	// loaded under that soname, so the runtime calls the very driver the
	// driver package calls (CUGEN_LIBCUDA included), whichever package is
	// called first, and no second copy is ever mapped.
	Driver *Library
}

var drivers struct {
	sync.Mutex
	libs map[string]*Library
}

// DriverLibrary returns the process's one Library for the driver that d
// describes: every call with an equal description (Name, EnvVar, Files,
// Dirs, Wheels, WSL, Identify) returns the same *Library, loaded at most once. The
// generated driver packages use it as their library and the runtime
// packages as their LibraryDesc.Driver, so that one process has one CUDA
// driver whatever the call order. It shares the per-thread default stream
// choice too. d.Validate and d.Driver must be nil (it panics otherwise, at
// the package initialization that calls it); d.Version is not compared:
// the first description's is kept.
func DriverLibrary(d LibraryDesc) *Library {
	if d.Validate != nil || d.Driver != nil {
		panic("ffi.DriverLibrary: " + d.Name + ": a driver description has no Validate and no Driver")
	}
	key := strings.Join([]string{d.Name, d.EnvVar, strings.Join(d.Files, "\x00"), strings.Join(d.Dirs, "\x00"),
		strings.Join(d.Wheels, "\x00"), strconv.FormatBool(d.WSL), d.Identify}, "\x01")
	drivers.Lock()
	defer drivers.Unlock()
	if l, ok := drivers.libs[key]; ok {
		return l
	}
	if drivers.libs == nil {
		drivers.libs = make(map[string]*Library)
	}
	l := NewLibrary(d)
	drivers.libs[key] = l
	return l
}

// Library is a shared library opened lazily, at most once, on first use.
// Its methods are safe for concurrent use.
type Library struct {
	desc LibraryDesc
	once sync.Once
	res  atomic.Pointer[loadResult] // nil until the one load attempt finished

	mu        sync.Mutex // orders UsePerThreadDefaultStream against the start of the load
	started   bool       // the load has begun: the default stream is chosen
	perThread bool       // requested by UsePerThreadDefaultStream
}

type loadResult struct {
	handle    uintptr
	path      string
	err       error
	perThread bool // bound functions resolve their per-thread-default-stream symbols
}

// DefaultStreamEnv selects the per-thread default stream for every library
// when set to "per-thread" at load time; see [Library.UsePerThreadDefaultStream].
const DefaultStreamEnv = "CUGEN_DEFAULT_STREAM"

// UsePerThreadDefaultStream makes the library's stream-ordered functions use
// the per-thread default stream, as C code compiled with
// CUDA_API_PER_THREAD_DEFAULT_STREAM (nvcc --default-stream per-thread) does:
// their _ptds/_ptsz symbols are bound instead. Setting DefaultStreamEnv to
// "per-thread" does the same for every library. It must be called before the
// library loads (before the first call into it); once the load has begun
// it returns an error and changes nothing. A nil error means it took
// effect, also when it races the first call.
func (l *Library) UsePerThreadDefaultStream() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started {
		return errors.New("cugen: " + l.desc.Name + " library already loaded: choose the default stream before the first call")
	}
	l.perThread = true
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
		se := &SymbolError{Library: l.desc.Name, Path: r.path, Symbol: symbol, Err: err}
		if l.desc.Version != nil {
			se.Version = l.desc.Version(func(s string) (uintptr, error) { return dlsym(r.handle, s) })
		}
		return 0, se
	}
	return a, nil
}

// NewLibrary returns a Library that is opened on its first Load (or the
// first call of a function bound in it). It does no I/O.
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
		l.mu.Lock()
		l.started = true
		perThread := l.perThread
		l.mu.Unlock()
		var r *loadResult
		if d := l.desc.Driver; d != nil {
			if err := d.Load(); err != nil {
				r = &loadResult{err: &LoadError{Library: l.desc.Name, Driver: err}}
			}
		}
		if r == nil {
			r = l.load()
		}
		r.perThread = perThread || os.Getenv(DefaultStreamEnv) == "per-thread"
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
	return l.desc.load(hostSearch())
}

func (d *LibraryDesc) load(se searchEnv) *loadResult {
	s := se.find(d)
	env := s.env
	e := &LoadError{Library: d.Name, Absent: s.absent, driver: d.WSL}
	if env != "" {
		e.envVar, e.envSet = env, true
	} else {
		e.envVar = d.EnvVar
	}
	if s.none != "" && len(d.Files) > 0 {
		e.Tried = append(e.Tried, d.Files[0]+": "+s.none)
	}
	for _, p := range s.paths {
		// Only regular files (after links) reach the loader: it opens a
		// FIFO or a terminal and blocks in read forever, holding its lock,
		// so every later dlopen of the process would hang too. A path with
		// a slash is stat'ed once for that and, when the search made it
		// up, for a file missing from a directory that exists, which is
		// said so, not handed to dlopen.
		reason := ""
		if hasDir(p) {
			st, err := os.Stat(p)
			if env == "" && errors.Is(err, os.ErrNotExist) {
				e.Tried = append(e.Tried, p+": no such file")
				continue
			}
			if err == nil && !st.Mode().IsRegular() {
				reason = notRegular(st.Mode())
			}
		} else {
			reason = se.irregularName(p)
		}
		if reason != "" {
			e.Tried = append(e.Tried, p+": "+reason)
			if env != "" && hasDir(p) {
				e.notLib = reason
			}
			continue
		}
		// dlopenNow resolves every dependency now (RTLD_NOW on Linux):
		// one that is missing fails here, not at some later first call.
		h, err := dlopenNow(p)
		if err == nil && d.Identify != "" {
			if _, serr := dlsym(h, d.Identify); serr != nil {
				dlclose(h)
				reason := "not the " + d.Name + " library (no " + d.Identify + ")"
				e.Tried = append(e.Tried, p+": "+reason)
				if env != "" {
					e.notLib = reason
				}
				continue
			}
		}
		if err == nil && d.Validate != nil {
			if verr := d.Validate(func(s string) (uintptr, error) { return dlsym(h, s) }); verr != nil {
				dlclose(h)
				e.Tried = append(e.Tried, p+": "+verr.Error())
				continue
			}
		}
		if err == nil {
			return &loadResult{handle: h, path: resolvedPath(p, h, d.Identify)}
		}
		// dlerror usually starts with the path again; keep only the reason.
		msg := strings.TrimPrefix(err.Error(), p+": ")
		e.Tried = append(e.Tried, p+": "+msg)
		if st, serr := os.Stat(p); env != "" && serr == nil && st.Mode().IsRegular() {
			e.unopenable = p
		}
	}
	return &loadResult{err: e}
}

// LoadError reports that no candidate path of a library could be opened.
// Together, Tried and Absent name every place the search looked in.
type LoadError struct {
	Library string // human name, e.g. "CUDA driver"
	// Tried has one "path: reason" per file the search looked for, in
	// order: a bare file name the dynamic loader searched for, a file in a
	// directory that exists ("no such file" when it is not there), or the
	// path the override variable gave; the reason is the loader's error
	// text or why the file was refused.
	Tried []string
	// Absent lists the directories the search looked in that do not
	// exist, in order; a pattern such as /usr/local/cuda-* or
	// /usr/local/lib/python3*/dist-packages stands for the directories
	// it would have matched when it matched none.
	Absent []string
	// Driver is the driver library's error when this library (the
	// runtime) was not tried because the driver it needs did not load
	// (LibraryDesc.Driver); Tried is then empty.
	Driver error

	envVar string // the environment variable that selects the library, if any
	envSet bool   // whether envVar was set (and so the only path tried)
	notLib string // the file envVar names opened but is not this library: why
	driver bool   // the library is the driver (LibraryDesc.WSL): the advice is to install it
	// unopenable is the file envVar names when it exists but the dynamic
	// loader could not open it.
	unopenable string
}

// Unopenable reports the file the library's environment variable names
// when that file exists but the dynamic loader could not open it: a
// library built for a newer C library than this machine's (Debian
// trixie's libnccl2 needs glibc 2.38), or for another architecture. It is
// false for a file that is missing, or that opened and was refused.
func (e *LoadError) Unopenable() (path string, ok bool) {
	return e.unopenable, e.unopenable != ""
}

// DriverAdvice is what to do about a CUDA driver library that is not
// found: install the driver, or set envVar ("" for none) to its file. It
// is the one text of that advice: a LoadError for the driver and cugen
// doctor both give it.
func DriverAdvice(envVar string) string {
	s := "install the NVIDIA driver (in a container, run it with the GPU runtime, e.g. docker run --gpus all)"
	if envVar != "" {
		s += ", or set " + envVar + " to the path of the driver's library file"
	}
	return s
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString("cugen: cannot load ")
	b.WriteString(e.Library)
	b.WriteString(" library: ")
	if e.Driver != nil {
		msg := strings.TrimPrefix(e.Driver.Error(), "cugen: ")
		name := "driver"
		var de *LoadError
		if errors.As(e.Driver, &de) {
			name = de.Library
			msg = strings.TrimPrefix(msg, "cannot load "+name+" library: ")
		}
		b.WriteString("it needs the " + name + " library, which did not load: " + msg)
		return b.String()
	}
	if e.envSet && e.notLib != "" && len(e.Tried) == 1 {
		path, _, _ := strings.Cut(e.Tried[0], ": ")
		b.WriteString(e.envVar + "=" + path + " is " + e.notLib + ": fix or unset " + e.envVar)
		return b.String()
	}
	b.WriteString("tried ")
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
	if len(e.Absent) > 0 {
		b.WriteString("; no such directories: ")
		b.WriteString(strings.Join(e.Absent, ", "))
	}
	switch {
	case e.envSet:
		b.WriteString("; the path came from " + e.envVar + ": fix or unset it")
	case e.driver:
		// The driver is not a file to point at but an installation that
		// matches the kernel module: doctor gives the same advice.
		b.WriteString("; " + DriverAdvice(e.envVar))
	case e.envVar != "":
		b.WriteString("; set " + e.envVar + " to its path")
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrNotLoaded) true, and exposes the driver's
// error if that is the reason.
func (e *LoadError) Unwrap() []error {
	if e.Driver != nil {
		return []error{ErrNotLoaded, e.Driver}
	}
	return []error{ErrNotLoaded}
}

// SymbolError reports that a loaded library does not export a symbol.
type SymbolError struct {
	Library string // human name, e.g. "CUDA driver"
	Path    string // the file the library was loaded from
	Symbol  string // e.g. "cuMemAlloc_v2"
	Since   string // release that introduced Symbol, e.g. "CUDA 12.2"; may be ""
	Version string // the loaded library's version, e.g. "driver CUDA 12.2"; may be ""
	Err     error  // the dlerror text
}

// Error names the symbol and the file, and when the symbol's release is
// known, that the library is older and what to do:
//
//	cugen: symbol cuCtxCreate_v4 not found in CUDA driver library /usr/lib/libcuda.so.1
//	(driver CUDA 12.2): it needs a driver of CUDA 12.5 or newer; upgrade the driver,
//	or use bindings generated from headers no newer than CUDA 12.2
func (e *SymbolError) Error() string {
	s := "cugen: symbol " + e.Symbol + " not found in " + e.Library + " library " + e.Path
	if e.Version != "" {
		s += " (" + e.Version + ")"
	}
	if e.Since == "" {
		return s
	}
	if strings.HasPrefix(e.Version, "driver ") || e.Library == "CUDA driver" {
		s += ": it needs a driver of " + e.Since + " or newer; upgrade the driver"
	} else {
		s += ": it needs " + e.Since + " or newer; upgrade the " + e.Library + " library"
	}
	if v := strings.TrimPrefix(e.Version, "driver "); v != "" {
		return s + ", or use bindings generated from headers no newer than " + v
	}
	return s + ", or use bindings generated from older headers"
}

// Unwrap makes errors.Is(err, ErrNoSymbol) true and exposes the dlerror.
func (e *SymbolError) Unwrap() []error { return []error{ErrNoSymbol, e.Err} }
