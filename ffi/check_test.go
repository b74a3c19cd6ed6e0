package ffi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// testCode is a stand-in for a generated result type.
type testCode int32

func (c testCode) Error() string   { return c.String() + ": " + c.Message() }
func (c testCode) String() string  { return "cudaErrorInvalidDevice" }
func (c testCode) Message() string { return "invalid device ordinal" }
func (c testCode) API() string     { return "runtime" }

// driverCode is a stand-in for cu.Result.
type driverCode int32

func (c driverCode) Error() string   { return c.String() + ": " + c.Message() }
func (c driverCode) String() string  { return "CUDA_ERROR_INVALID_VALUE" }
func (c driverCode) Message() string { return "invalid argument" }
func (c driverCode) API() string     { return "driver" }

func captureCheck(t *testing.T) *bytes.Buffer {
	t.Helper()
	var out bytes.Buffer
	t.Cleanup(func(w io.Writer) func() { return func() { CheckOutput = w } }(CheckOutput))
	CheckOutput = &out
	return &out
}

// line returns the line of its caller.
func line() int {
	_, _, l, _ := runtime.Caller(1)
	return l
}

func TestCheckPrintsLikeCheckRuntime(t *testing.T) {
	out := captureCheck(t)
	if !Check(nil, 0) {
		t.Fatal("Check(nil) = false")
	}
	if out.Len() != 0 {
		t.Fatalf("Check(nil) printed %q", out.String())
	}
	if Check(&CallError{Func: "cudaSetDevice", Code: testCode(101)}, 0) {
		t.Fatal("Check(error) = true")
	}
	want := fmt.Sprintf("runtime error check_test.go:%d  cudaSetDevice failed.\n  code = cudaErrorInvalidDevice, message = invalid device ordinal\n", line()-3)
	if got := out.String(); got != want {
		t.Errorf("Check printed %q, want %q", got, want)
	}
}

// TestCheckNamesTheDriverAPI: a driver error said "runtime error" before
// Check asked the code for its API.
func TestCheckNamesTheDriverAPI(t *testing.T) {
	out := captureCheck(t)
	Check(&CallError{Func: "cuMemAlloc", Code: driverCode(1)}, 0)
	if got := out.String(); !strings.HasPrefix(got, "driver error check_test.go:") {
		t.Errorf("Check of a driver error printed %q, want it to start with %q", got, "driver error check_test.go:")
	}
	out.Reset()
	Check(errors.New("not CUDA's"), 0)
	if got := out.String(); !strings.HasPrefix(got, "CUDA error check_test.go:") || !strings.Contains(got, "call failed.\n  not CUDA's") {
		t.Errorf("Check of a plain error printed %q", got)
	}
}

// checkCudaErrors is a user's wrapper, as in NVIDIA's samples: generated
// code's Check is ffi.Check(err, 1) and CheckHelper is ffi.Helper(1), so
// these two layers stand for them.
func checkCudaErrors(err error) bool {
	userHelper()
	return userCheck(err)
}

func userHelper()                          { Helper(1) }
func userCheck(err error) bool             { return Check(err, 1) }
func userCheckDepth(err error, d int) bool { return Check(err, d+1) }

// outerHelper wraps checkCudaErrors and is a helper itself.
func outerHelper(err error) bool {
	userHelper()
	return checkCudaErrors(err)
}

// depthWrapper reports its caller through the explicit depth, unmarked.
func depthWrapper(err error) bool { return userCheckDepth(err, 1) }

// unmarked wraps Check without marking itself.
func unmarked(err error) bool { return userCheck(err) }

// TestCheckPassesOverHelpers: before Helper, a wrapped Check reported the
// wrapper's own line (the fixed skip), never the line that called it.
func TestCheckPassesOverHelpers(t *testing.T) {
	out := captureCheck(t)
	err := &CallError{Func: "cudaSetDevice", Code: testCode(101)}
	cases := []struct {
		name string
		call func() (bool, int)
	}{
		{"helper", func() (bool, int) { return checkCudaErrors(err), line() }},
		{"nested helpers", func() (bool, int) { return outerHelper(err), line() }},
		{"depth 1", func() (bool, int) { return depthWrapper(err), line() }},
	}
	for _, c := range cases {
		out.Reset()
		ok, l := c.call()
		if ok {
			t.Fatalf("%s: Check(error) = true", c.name)
		}
		want := fmt.Sprintf("runtime error check_test.go:%d ", l)
		if got := out.String(); !strings.HasPrefix(got, want) {
			t.Errorf("%s: printed %q, want it to start with %q", c.name, got, want)
		}
	}
	// A wrapper that is not marked is reported itself.
	out.Reset()
	unmarked(err)
	if got, want := out.String(), "runtime error check_test.go:"; !strings.HasPrefix(got, want) || strings.HasPrefix(got, fmt.Sprintf("%s%d ", want, line()-1)) {
		t.Errorf("unmarked wrapper: printed %q, want its own line, not the caller's", got)
	}
}

func TestRunLockedReturnsAndRecovers(t *testing.T) {
	want := errors.New("boom")
	if err := RunLocked(func() error { return want }); err != want {
		t.Fatalf("RunLocked = %v, want %v", err, want)
	}
	if err := RunLocked(func() error { panic("bad") }); err == nil || !strings.Contains(err.Error(), "panic") {
		t.Fatalf("RunLocked of a panicking func = %v", err)
	}
}
