package ffi

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// testCode is a stand-in for a generated result type.
type testCode int32

func (c testCode) Error() string   { return c.String() + ": " + c.Message() }
func (c testCode) String() string  { return "cudaErrorInvalidDevice" }
func (c testCode) Message() string { return "invalid device ordinal" }

func TestCheckPrintsLikeCheckRuntime(t *testing.T) {
	var out bytes.Buffer
	defer func(w io.Writer) { CheckOutput = w }(CheckOutput)
	CheckOutput = &out
	if !Check(nil, 0) {
		t.Fatal("Check(nil) = false")
	}
	if out.Len() != 0 {
		t.Fatalf("Check(nil) printed %q", out.String())
	}
	if Check(&CallError{Func: "cudaSetDevice", Code: testCode(101)}, 0) {
		t.Fatal("Check(error) = true")
	}
	got := out.String()
	for _, want := range []string{"runtime error check_test.go:", "cudaSetDevice failed.", "code = cudaErrorInvalidDevice, message = invalid device ordinal"} {
		if !strings.Contains(got, want) {
			t.Errorf("Check printed %q, missing %q", got, want)
		}
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
