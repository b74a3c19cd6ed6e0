package ffi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
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

func TestRunLockedReturns(t *testing.T) {
	want := errors.New("boom")
	if err := RunLocked(func() error { return want }); err != want {
		t.Fatalf("RunLocked = %v, want %v", err, want)
	}
	if err := RunLocked(func() error { return nil }); err != nil {
		t.Fatalf("RunLocked = %v, want nil", err)
	}
}

//go:noinline
func panicsOnLockedThread(v any) error { panic(v) }

// TestRunLockedPanic: a panic in fn is raised again in the caller, with the
// original value and the locked goroutine's stack (which names the function
// that panicked) in the message. The first version turned it into an error
// and lost the stack.
func TestRunLockedPanic(t *testing.T) {
	orig := errors.New("original panic value")
	var got any
	func() {
		defer func() { got = recover() }()
		RunLocked(func() error { return panicsOnLockedThread(orig) })
		t.Error("RunLocked returned after fn panicked")
	}()
	lp, ok := got.(*LockedPanic)
	if !ok {
		t.Fatalf("recovered %T %v, want a *LockedPanic", got, got)
	}
	if lp.Value != orig || !errors.Is(lp, orig) {
		t.Errorf("LockedPanic.Value = %v, want the original %v", lp.Value, orig)
	}
	msg := lp.Error()
	for _, want := range []string{"original panic value", "ffi.panicsOnLockedThread", "check_test.go:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("panic message lacks %q:\n%s", want, msg)
		}
	}
}

// TestRunLockedGoexit: runtime.Goexit in fn ends the caller's goroutine too
// (its deferred calls run, the code after RunLocked does not). The first
// version hung forever.
func TestRunLockedGoexit(t *testing.T) {
	var after atomic.Bool
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		RunLocked(func() error { runtime.Goexit(); return nil })
		after.Store(true)
	}()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("RunLocked with runtime.Goexit in fn: no return after 10 s (hangs)")
	}
	if after.Load() {
		t.Error("the caller went on after fn called runtime.Goexit")
	}
}

const fatalChildEnv = "CUGEN_FFI_RUNLOCKED_FATAL"

// TestRunLockedTestFatal runs TestRunLockedFatalChild in a fresh process:
// t.Fatal (and t.Skip) inside RunLocked end that test as they would outside
// it: FAIL (SKIP) with the message, nothing after the call runs, the
// process exits promptly.
func TestRunLockedTestFatal(t *testing.T) {
	if e := os.Getenv("CUGEN_EMULATED"); e != "" {
		t.Skipf("under %s (CUGEN_EMULATED) a child process can deadlock in its clone; the test runs natively", e)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ mode, want string }{
		{"fatal", "--- FAIL: TestRunLockedFatalChild"},
		{"skip", "--- SKIP: TestRunLockedFatalChild"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, exe, "-test.run=^TestRunLockedFatalChild$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), fatalChildEnv+"="+c.mode)
		out, err := cmd.CombinedOutput()
		if errors.Is(err, syscall.ENOEXEC) {
			// Under qemu-user (make test-arm64) the binary is not native:
			// the child would need the emulator.
			cancel()
			t.Skipf("cannot run the test binary as a child here: %v", err)
		}
		hung := ctx.Err() == context.DeadlineExceeded
		cancel()
		text := string(out)
		if hung {
			t.Fatalf("%s: the child hung (killed after 60 s):\n%s", c.mode, text)
		}
		if !strings.Contains(text, c.want) || !strings.Contains(text, "said on the locked thread") || strings.Contains(text, "not reached") || strings.Contains(text, "panic:") {
			t.Errorf("%s: child output, want %q and the message:\n%s", c.mode, c.want, text)
		}
	}
}

// TestRunLockedFatalChild is the child of TestRunLockedTestFatal.
func TestRunLockedFatalChild(t *testing.T) {
	mode := os.Getenv(fatalChildEnv)
	if mode == "" {
		t.Skip("run by TestRunLockedTestFatal")
	}
	RunLocked(func() error {
		if mode == "skip" {
			t.Skip("said on the locked thread")
		}
		t.Fatal("said on the locked thread")
		return nil
	})
	t.Error("not reached: the test went on after t.Fatal in RunLocked")
}
