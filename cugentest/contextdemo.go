package cugentest

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// ContextAPI is what the context demo needs from a generated cu/cudart
// pair. Handles are passed as uintptr so one demo serves every CUDA major.
type ContextAPI struct {
	LoadDriver  func() error // cu.SharedLibrary().Load
	LoadRuntime func() error // cudart.SharedLibrary().Load

	CtxGetCurrent            func() (uintptr, error)
	CtxSetCurrent            func(ctx uintptr) error
	DevicePrimaryCtxRetain   func(dev int32) (uintptr, error)
	DevicePrimaryCtxRelease  func(dev int32) error
	DevicePrimaryCtxGetState func(dev int32) (flags uint32, active bool, err error)

	GetDeviceCount func() (int32, error)
	SetDevice      func(dev int32) error
	GetDevice      func() (int32, error)

	ErrNotInitialized error // cu.ErrorNotInitialized
	ErrInvalidDevice  error // cudart.ErrorInvalidDevice
}

// childEnv names the test a re-executed test binary runs (RunChild).
const childEnv = "CUGEN_TEST_CHILD"

// ContextDemo shows how the CUDA runtime rides on the driver's primary
// context, step by step, asserting what the equivalent C++ program shows on
// a GPU machine. "Nothing initialised yet" is only true in a fresh process,
// so ContextDemo re-executes the test binary for the test named t.Name()
// and checks the child's verdict; test order cannot break it.
func ContextDemo(t *testing.T, api ContextAPI) {
	if !IsChild(t) {
		RunChild(t)
		return
	}
	runtime.LockOSThread() // the context belongs to this OS thread
	defer runtime.UnlockOSThread()

	NeedDevice(t, api.LoadDriver())
	// Step 1: before any runtime call the driver is not initialised.
	ctx, err := api.CtxGetCurrent()
	t.Logf("cuCtxGetCurrent before any runtime call: ctx=%#x err=%v", ctx, err)
	if !errors.Is(err, api.ErrNotInitialized) || ctx != 0 {
		t.Fatalf("cuCtxGetCurrent before any runtime call = (%#x, %v), want (0, CUDA_ERROR_NOT_INITIALIZED)", ctx, err)
	}
	NeedLibrary(t, api.LoadRuntime())
	// Step 2: the first runtime call initialises the driver (cuInit).
	n, err := api.GetDeviceCount()
	t.Logf("cudaGetDeviceCount: n=%d err=%v", n, err)
	if err != nil {
		var coded interface{ Unwrap() error }
		if !errors.As(err, &coded) || !strings.HasPrefix(coded.Unwrap().Error(), "cuda") {
			t.Fatalf("cudaGetDeviceCount error %v is not a typed cudart error", err)
		}
		NeedDevice(t, err)
	}
	if n < 1 {
		t.Fatalf("cudaGetDeviceCount = %d with no error", n)
	}
	ctx, err = api.CtxGetCurrent()
	t.Logf("cuCtxGetCurrent after cudaGetDeviceCount: ctx=%#x err=%v", ctx, err)
	if err != nil || ctx != 0 {
		t.Fatalf("cuCtxGetCurrent after cudaGetDeviceCount = (%#x, %v), want (0, nil): cuInit ran, no context yet", ctx, err)
	}
	// Step 3: cudaSetDevice is the first call that needs a context: the
	// runtime retains the device's primary context and makes it current.
	if err := api.SetDevice(0); err != nil {
		t.Fatalf("cudaSetDevice(0): %v", err)
	}
	ctx, err = api.CtxGetCurrent()
	t.Logf("cuCtxGetCurrent after cudaSetDevice(0): ctx=%#x err=%v", ctx, err)
	if err != nil || ctx == 0 {
		t.Fatalf("cuCtxGetCurrent after cudaSetDevice(0) = (%#x, %v), want a context", ctx, err)
	}
	primary, err := api.DevicePrimaryCtxRetain(0)
	if err != nil {
		t.Fatalf("cuDevicePrimaryCtxRetain(0): %v", err)
	}
	defer api.DevicePrimaryCtxRelease(0)
	t.Logf("cuDevicePrimaryCtxRetain(0): %#x", primary)
	if primary != ctx {
		t.Fatalf("current context %#x is not device 0's primary context %#x", ctx, primary)
	}
	flags, active, err := api.DevicePrimaryCtxGetState(0)
	t.Logf("cuDevicePrimaryCtxGetState(0): flags=%#x active=%v err=%v", flags, active, err)
	if err != nil || !active {
		t.Fatalf("primary context of device 0 is not active (active=%v, err=%v)", active, err)
	}
	// Step 4: cudaGetDevice reports it; a bad ordinal is a typed error.
	dev, err := api.GetDevice()
	t.Logf("cudaGetDevice: %d err=%v", dev, err)
	if err != nil || dev != 0 {
		t.Fatalf("cudaGetDevice = (%d, %v), want (0, nil)", dev, err)
	}
	err = api.SetDevice(99)
	t.Logf("cudaSetDevice(99): %v", err)
	if !errors.Is(err, api.ErrInvalidDevice) {
		t.Fatalf("cudaSetDevice(99) = %v, want cudaErrorInvalidDevice", err)
	}
	if want := "cudaSetDevice: cudaErrorInvalidDevice: invalid device ordinal"; err.Error() != want {
		t.Fatalf("cudaSetDevice(99) error text %q, want %q", err.Error(), want)
	}
}

// ContextPerThread shows CUDA's "one context stack per thread" in Go: after
// cudaSetDevice on one locked OS thread, a goroutine locked to another OS
// thread sees no current context until it makes one current itself.
func ContextPerThread(t *testing.T, api ContextAPI) {
	NeedDevice(t, api.LoadDriver())
	NeedLibrary(t, api.LoadRuntime())
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	n, err := api.GetDeviceCount()
	NeedDevice(t, err)
	if n < 1 {
		t.Fatalf("cudaGetDeviceCount = %d with no error", n)
	}
	if err := api.SetDevice(0); err != nil {
		t.Fatalf("cudaSetDevice(0): %v", err)
	}
	mine, err := api.CtxGetCurrent()
	if err != nil || mine == 0 {
		t.Fatalf("cuCtxGetCurrent on the first thread = (%#x, %v)", mine, err)
	}
	type result struct {
		before, after uintptr
		err           error
	}
	done := make(chan result)
	go func() {
		runtime.LockOSThread() // a thread of its own, with its own context stack
		defer runtime.UnlockOSThread()
		var r result
		if r.before, r.err = api.CtxGetCurrent(); r.err != nil {
			done <- r
			return
		}
		if r.err = api.CtxSetCurrent(mine); r.err != nil {
			done <- r
			return
		}
		r.after, r.err = api.CtxGetCurrent()
		done <- r
	}()
	r := <-done
	t.Logf("other thread: before=%#x after CtxSetCurrent=%#x err=%v (first thread's context %#x)", r.before, r.after, r.err, mine)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.before != 0 {
		t.Fatalf("a new OS thread already has context %#x: contexts should be per thread", r.before)
	}
	if r.after != mine {
		t.Fatalf("after cuCtxSetCurrent the other thread has %#x, want %#x", r.after, mine)
	}
}

// IsChild reports whether this process is the fresh child that [RunChild]
// started for the running test t.
func IsChild(t *testing.T) bool {
	return os.Getenv(childEnv) == t.Name()
}

// RunChild re-executes the test binary for t alone, with the environment
// changed by env ("NAME=value" sets, "NAME=" unsets), relays the child's
// output to t's log and fails t unless the child passes (it skips t if the
// child skipped). Tests that need a process in which CUDA was never
// initialised, or another library, run their body when IsChild(t) and call
// RunChild otherwise. It returns the child's output.
func RunChild(t *testing.T, env ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("cannot re-execute the test binary: %v", err)
	}
	cmd := exec.Command(exe, "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = childEnviron(append([]string{childEnv + "=" + t.Name()}, env...))
	out, err := cmd.CombinedOutput()
	text := string(out)
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		t.Log("child: " + l)
	}
	switch {
	case err != nil && strings.Contains(text, "--- FAIL: "+t.Name()):
		t.Fatalf("the test failed in the fresh process (its log above)")
	case err != nil:
		t.Fatalf("the fresh process failed (%v): a panic or a crash is a failure of this test", err)
	case strings.Contains(text, "--- SKIP"):
		t.Skip(skipReason(text))
	case !strings.Contains(text, "--- PASS: "+t.Name()):
		t.Fatalf("the fresh process did not run %s", t.Name())
	}
	return text
}

// childEnviron applies env to this process's environment; "NAME=" unsets.
func childEnviron(env []string) []string {
	set := map[string]string{}
	var order []string
	for _, kv := range append(os.Environ(), env...) {
		k, v, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; !ok {
			order = append(order, k)
		}
		set[k] = v
	}
	var out []string
	for _, k := range order {
		if v := set[k]; v != "" {
			out = append(out, k+"="+v)
		}
	}
	return out
}

// skipReason is the child's last log line before its "--- SKIP" line
// (go test -v prints a test's log before its verdict).
func skipReason(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.Contains(l, "--- SKIP") && i > 0 {
			r := strings.TrimSpace(lines[i-1])
			if _, after, ok := strings.Cut(r, ": "); ok && strings.Contains(r, ".go:") {
				r = after
			}
			return r
		}
	}
	return "skipped in the fresh process"
}
