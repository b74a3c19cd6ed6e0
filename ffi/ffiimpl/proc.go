//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffiimpl

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/cugen/cugen/ffi"
)

// Library is a generated package's view of its [ffi.Library]: the library
// users see (embedded, so Load, Path and Lookup work on it directly) and
// the procedures the package binds in it, in the order NewProc made them.
// Two packages binding the same library (the driver packages of two CUDA
// majors share one [ffi.DriverLibrary]) each have their own Library and so
// their own list.
type Library struct {
	*ffi.Library

	mu    sync.Mutex
	procs []*Proc // every Proc made by NewProc, in order (guarded by mu)
}

// Bind returns a Library that binds procedures in l. It does no I/O.
func Bind(l *ffi.Library) *Library {
	return &Library{Library: l}
}

// NewProc returns a Proc for symbol in l and records it in l (see
// [Library.Procs]). since names the release that introduced the symbol,
// e.g. "CUDA 12.2" (may be empty); it only improves the error text. NewProc
// does no I/O: it is called at package initialization for hundreds of
// symbols.
func (l *Library) NewProc(symbol, since string) *Proc {
	p := &Proc{lib: l.Library, name: symbol, since: since}
	l.mu.Lock()
	l.procs = append(l.procs, p)
	l.mu.Unlock()
	return p
}

// Procs returns every Proc made by l's NewProc, in the order they were made:
// for a generated package, one per bound function (a test resolves them
// all). The slice is a copy.
func (l *Library) Procs() []*Proc {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*Proc(nil), l.procs...)
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

// API names the C function the symbol implements, when the header's name
// differs from the linked symbol (cuCtxCreate for cuCtxCreate_v2): errors
// from [Error] carry it. It returns p, for use in a var block at
// initialization.
func (p *Proc) API(name string) *Proc {
	p.api = name
	return p
}

// Func returns the C function's name that errors carry: the API name if
// one was set, else the symbol.
func (p *Proc) Func() string {
	if p.api != "" {
		return p.api
	}
	return p.name
}

// Proc is a symbol of a Library, resolved on its first Addr call. It also
// holds the errors its function's result codes make (see [Error]).
type Proc struct {
	addr   atomic.Uintptr // non-zero once resolved
	lib    *ffi.Library
	name   string
	ptName string // per-thread-default-stream variant, if any
	api    string // C API name, if not name
	since  string
	once   sync.Once
	err    error // set by the one resolution attempt if it failed
	errs   errCache
}

// Addr returns the symbol's address, loading the library and resolving the
// symbol on first use. A failure (an [*ffi.LoadError] or an
// [*ffi.SymbolError]) is cached like a success; it never panics.
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
		name := p.name
		if p.ptName != "" && p.lib.PerThreadDefaultStream() {
			name = p.ptName
		}
		a, err := p.lib.Lookup(name)
		if err != nil {
			var se *ffi.SymbolError
			if errors.As(err, &se) && p.since != "" {
				withSince := *se
				withSince.Since = p.since
				err = &withSince
			}
			p.err = err
			return
		}
		p.addr.Store(a)
	})
	return p.addr.Load(), p.err
}

// Name returns the symbol name.
func (p *Proc) Name() string { return p.name }
