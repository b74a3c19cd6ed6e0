package ffi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
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
		out, _ := cmd.CombinedOutput()
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
