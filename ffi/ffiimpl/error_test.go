package ffiimpl_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/ffi/ffiimpl"
)

// cudaError mimics a generated cudart.Error.
type cudaError int32

const (
	errInvalidValue  cudaError = 1
	errInvalidDevice cudaError = 101
	errUnknown       cudaError = 999
)

func (e cudaError) Error() string {
	switch e {
	case errInvalidValue:
		return "cudaErrorInvalidValue: invalid argument"
	case errInvalidDevice:
		return "cudaErrorInvalidDevice: invalid device ordinal"
	}
	return "cudaError(" + strconv.Itoa(int(e)) + ")"
}

func TestCallError(t *testing.T) {
	lib := ffi.NewLibrary(ffi.LibraryDesc{Name: "test"})
	c := ffiimpl.Bind(lib).NewProc("cudaSetDevice_v2", "").API("cudaSetDevice")
	if err := ffiimpl.Error(c, cudaError(0)); err != nil {
		t.Errorf("Error(0) = %v, want nil", err)
	}
	err := ffiimpl.Error(c, errInvalidDevice)
	if got, want := err.Error(), "cudaSetDevice: cudaErrorInvalidDevice: invalid device ordinal"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, errInvalidDevice) || errors.Is(err, errInvalidValue) {
		t.Errorf("errors.Is does not see the code")
	}
	var code cudaError
	if !errors.As(err, &code) || code != errInvalidDevice {
		t.Errorf("errors.As gave %v", code)
	}
	var ce *ffi.CallError
	if !errors.As(err, &ce) || ce.Func != "cudaSetDevice" {
		t.Errorf("errors.As(*CallError) gave %+v", ce)
	}

	// The success path and the error path of a repeated code does not allocate, for any code.
	if n := testing.AllocsPerRun(100, func() { _ = ffiimpl.Error(c, cudaError(0)) }); n != 0 {
		t.Errorf("Error(0) allocates %v times", n)
	}
	for _, code := range []cudaError{errInvalidValue, errUnknown} {
		_ = ffiimpl.Error(c, code)
		if n := testing.AllocsPerRun(100, func() { _ = ffiimpl.Error(c, code) }); n != 0 {
			t.Errorf("Error(%d) allocates %v times once cached", code, n)
		}
	}
	// More distinct codes than slots: still correct.
	for i := range cudaError(20) {
		if e := ffiimpl.Error(c, i+1); !errors.Is(e, i+1) {
			t.Errorf("Error(%d) = %v", i+1, e)
		}
	}
}
