package ffi

import "strings"

// CallError is the error a generated wrapper returns when its C function
// fails: the C function name and the library's result code. Code is the
// generated cu.Result or cudart.Error value, so
// errors.Is(err, cudart.ErrorInvalidDevice) works through Unwrap.
type CallError struct {
	Func string // C API name, e.g. "cudaSetDevice"
	Code error  // e.g. cudart.ErrorInvalidDevice
	// Log is what the library logged about the failure, for the calls
	// that have a log: NVRTC's program log of a failed compile, nvJitLink's
	// error log of a failed link. Empty otherwise.
	Log string
}

// Error returns e.g.
// "cudaSetDevice: cudaErrorInvalidDevice: invalid device ordinal", and
// the log, if any, on the lines after it.
func (e *CallError) Error() string {
	s := e.Func + ": " + e.Code.Error()
	if e.Log != "" {
		s += ":\n" + strings.TrimRight(e.Log, "\n\x00")
	}
	return s
}

// Unwrap returns Code.
func (e *CallError) Unwrap() error { return e.Code }
