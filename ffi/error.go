package ffi

import "sync/atomic"

// CallError is the error a generated wrapper returns when its C function
// fails: the C function name and the library's result code. Code is the
// generated cu.Result or cudart.Error value, so
// errors.Is(err, cudart.ErrorInvalidDevice) works through Unwrap.
type CallError struct {
	Func string // C API name, e.g. "cudaSetDevice"
	Code error  // e.g. cudart.ErrorInvalidDevice
}

// Error returns e.g.
// "cudaSetDevice: cudaErrorInvalidDevice: invalid device ordinal".
func (e *CallError) Error() string { return e.Func + ": " + e.Code.Error() }

// Unwrap returns Code.
func (e *CallError) Unwrap() error { return e.Code }

// ResultCode is implemented by the generated result types (cu.Result,
// cudart.Error): int32 codes that are errors.
type ResultCode interface {
	~int32
	error
}

// ErrCache keeps the last few [CallError] values of one C function, so the
// error path of a wrapper that fails repeatedly with the same code (polling
// cuStreamQuery for ErrorNotReady, say) does not allocate. Generated code
// declares one per function:
//
//	var errStreamQuery = ffi.ErrCache{Func: "cuStreamQuery"}
//	...
//	if r != 0 {
//		return ffi.Fail(&errStreamQuery, Result(r))
//	}
//
// The cached errors are shared and must not be modified.
type ErrCache struct {
	Func  string
	slots [errCacheSlots]atomic.Pointer[cachedError]
	next  atomic.Uint32
}

const errCacheSlots = 4

type cachedError struct {
	code int32
	err  CallError
}

// Fail returns the *CallError for code from c, making and caching it on a
// miss. It is safe for concurrent use.
func Fail[C ResultCode](c *ErrCache, code C) error {
	for i := range c.slots {
		if e := c.slots[i].Load(); e != nil && e.code == int32(code) {
			return &e.err
		}
	}
	e := &cachedError{code: int32(code), err: CallError{Func: c.Func, Code: code}}
	c.slots[c.next.Add(1)%errCacheSlots].Store(e)
	return &e.err
}
