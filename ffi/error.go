package ffi

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
