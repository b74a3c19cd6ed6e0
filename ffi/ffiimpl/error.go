//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffiimpl

import (
	"sync/atomic"

	"github.com/cugen/cugen/ffi"
)

// ResultCode is implemented by the generated result types (cu.Result,
// cudart.Error): int32 codes that are errors.
type ResultCode interface {
	~int32
	error
}

// Error returns nil for a zero (success) code, and otherwise the
// *ffi.CallError of p's C function for code. A generated wrapper ends with it:
//
//	r := ffiimpl.CallInts(sym, uintptr(hStream), 0, 0, 0, 0, 0)
//	return ffiimpl.Error(procStreamQuery, Result(r))
//
// The Proc keeps the last few errors it made, so the error path of a
// wrapper that fails repeatedly with the same code (polling cuStreamQuery
// for ErrorNotReady, say) does not allocate. The errors are shared and must
// not be modified. Error is safe for concurrent use.
func Error[C ResultCode](p *Proc, code C) error {
	if code == 0 {
		return nil
	}
	c := &p.errs
	for i := range c.slots {
		if e := c.slots[i].Load(); e != nil && e.code == int32(code) {
			return &e.err
		}
	}
	e := &cachedError{code: int32(code), err: ffi.CallError{Func: p.Func(), Code: code}}
	c.slots[c.next.Add(1)%errCacheSlots].Store(e)
	return &e.err
}

// errCache holds the last few [ffi.CallError] values of one Proc.
type errCache struct {
	slots [errCacheSlots]atomic.Pointer[cachedError]
	next  atomic.Uint32
}

const errCacheSlots = 4

type cachedError struct {
	code int32
	err  ffi.CallError
}

// WithLog returns err with log attached: for an *ffi.CallError (which
// Error shares between calls) a copy whose Log is log; any other error,
// or an empty log, unchanged. A wrapper of a call the library explains in
// a log (NVRTC's compile, nvJitLink's link) returns its error so.
func WithLog(err error, log string) error {
	ce, ok := err.(*ffi.CallError)
	if !ok || log == "" {
		return err
	}
	c := *ce
	c.Log = log
	return &c
}
