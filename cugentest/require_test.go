package cugentest_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
)

// verdict is a testing.TB that records how a helper ended the test: a
// skip, a fatal failure, or neither.
type verdict struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (v *verdict) Helper()                  {}
func (v *verdict) Skip(a ...any)            { v.end(&v.skipped, fmt.Sprint(a...)) }
func (v *verdict) Skipf(f string, a ...any) { v.end(&v.skipped, fmt.Sprintf(f, a...)) }
func (v *verdict) Fatalf(f string, a ...any) {
	v.end(&v.failed, fmt.Sprintf(f, a...))
}
func (v *verdict) end(flag *bool, msg string) { *flag, v.msg = true, msg; runtime.Goexit() }

// judge runs f with a fresh verdict on a goroutine of its own (Goexit
// ends it, as it ends a test).
func judge(f func(testing.TB)) *verdict {
	v := &verdict{}
	done := make(chan struct{})
	go func() { defer close(done); f(v) }()
	<-done
	return v
}

// loadError is a real *ffi.LoadError for a library called name.
func loadError(t *testing.T, name string) error {
	t.Helper()
	err := ffi.NewLibrary(ffi.LibraryDesc{Name: name, Files: []string{"libcugen_no_such_library.so.1"}}).Load()
	var le *ffi.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("loading a library that does not exist: %v, want an *ffi.LoadError", err)
	}
	return err
}

// TestNeedDevice: "no driver" and "no device" skip, or fail under
// CUGEN_REQUIRE_GPU=1 (a library that is not found follows
// CUGEN_REQUIRE_LIBS, TestNeedLibrary); every other error fails whatever
// the switches say, so a broken cuInit on a GPU machine cannot pass as a
// skip.
func TestNeedDevice(t *testing.T) {
	noDriver := loadError(t, "CUDA driver")
	for _, c := range []struct {
		name string
		err  error
		want string // "skip", "fail", "pass"; under CUGEN_REQUIRE_GPU=1 a skip is a fail
	}{
		{"nil", nil, "pass"},
		{"driver not loaded", noDriver, "skip"},
		{"cuInit: CUDA_ERROR_NO_DEVICE", &ffi.CallError{Func: "cuInit", Code: cu.ErrorNoDevice}, "skip"},
		{"cudaGetDeviceCount: cudaErrorNoDevice", fmt.Errorf("cuda: %w", &ffi.CallError{Func: "cudaGetDeviceCount", Code: cudart.ErrorNoDevice}), "skip"},
		{"runtime needing the driver", fmt.Errorf("x: %w", cudartNeedsDriver()), "skip"},
		{"cuInit: CUDA_ERROR_INVALID_VALUE", &ffi.CallError{Func: "cuInit", Code: cu.ErrorInvalidValue}, "fail"},
		{"cuInit: CUDA_ERROR_UNKNOWN", &ffi.CallError{Func: "cuInit", Code: cu.ErrorUnknown}, "fail"},
		{"insufficient driver", &ffi.CallError{Func: "cudaGetDeviceCount", Code: cudart.ErrorInsufficientDriver}, "fail"},
		{"plain error", errors.New("context: out of memory"), "fail"},
	} {
		for _, require := range []string{"", "1"} {
			t.Run(fmt.Sprintf("%s/require=%q", c.name, require), func(t *testing.T) {
				t.Setenv(cugentest.RequireGPUEnv, require)
				t.Setenv(cugentest.RequireLibsEnv, "")
				want := c.want
				if want == "skip" && require == "1" {
					want = "fail"
				}
				check(t, judge(func(tb testing.TB) { cugentest.NeedDevice(tb, c.err) }), want, c.err)
			})
		}
	}
}

// cudartNeedsDriver is the LoadError of a runtime whose driver did not
// load: loading a library whose Driver is a missing driver library.
func cudartNeedsDriver() error {
	drv := ffi.DriverLibrary(ffi.LibraryDesc{Name: "CUDA driver", Files: []string{"libcugen_no_such_driver.so.1"}})
	return ffi.NewLibrary(ffi.LibraryDesc{Name: "CUDA 12 runtime", Files: []string{"libm.so.6"}, Driver: drv}).Load()
}

// TestNeedLibrary: a library that is not found skips, or fails under
// CUGEN_REQUIRE_LIBS=1; one that needs the missing driver follows
// CUGEN_REQUIRE_GPU; any other error fails.
func TestNeedLibrary(t *testing.T) {
	for _, c := range []struct {
		name         string
		err          error
		gpu, libs    string
		want, reason string
	}{
		{"nil", nil, "1", "1", "pass", ""},
		{"not found", loadError(t, "NVRTC"), "", "", "skip", cugentest.NoLibReason},
		{"not found, required", loadError(t, "NVRTC"), "", "1", "fail", cugentest.NoLibReason},
		{"not found, GPU required", loadError(t, "NVRTC"), "1", "", "skip", cugentest.NoLibReason},
		{"driver not found", cudartNeedsDriver(), "", "", "skip", cugentest.NoGPUReason},
		{"driver not found, GPU required", cudartNeedsDriver(), "1", "", "fail", cugentest.NoGPUReason},
		{"another error", errors.New("nvrtc: version 11 < 12"), "", "", "fail", "not for want of"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(cugentest.RequireGPUEnv, c.gpu)
			t.Setenv(cugentest.RequireLibsEnv, c.libs)
			v := check(t, judge(func(tb testing.TB) { cugentest.NeedLibrary(tb, c.err) }), c.want, c.err)
			if !strings.Contains(v.msg, c.reason) {
				t.Errorf("message %q does not contain %q", v.msg, c.reason)
			}
		})
	}
}

// TestSkipKinds: the skips that never fail keep a reason a runner can
// recognise, whatever the switches say.
func TestSkipKinds(t *testing.T) {
	t.Setenv(cugentest.RequireGPUEnv, "1")
	t.Setenv(cugentest.RequireLibsEnv, "1")
	v := check(t, judge(func(tb testing.TB) { cugentest.SkipFewGPUs(tb, 2, 1) }), "skip", nil)
	if v.msg != "needs 2 GPUs (1 here)" {
		t.Errorf("SkipFewGPUs(2, 1): %q", v.msg)
	}
	check(t, judge(func(tb testing.TB) { cugentest.SkipFewGPUs(tb, 2, 2) }), "pass", nil)
	v = check(t, judge(func(tb testing.TB) { cugentest.SkipHasGPU(tb, "device 0: %s", "H200") }), "skip", nil)
	if v.msg != cugentest.HasGPUReason+"device 0: H200" {
		t.Errorf("SkipHasGPU: %q", v.msg)
	}
	v = check(t, judge(func(tb testing.TB) { cugentest.SkipNoGPU(tb, "no nvidia-smi") }), "fail", nil)
	if !strings.Contains(v.msg, "CUGEN_REQUIRE_GPU=1") {
		t.Errorf("SkipNoGPU under the switch: %q does not name it", v.msg)
	}
}

func check(t *testing.T, v *verdict, want string, err error) *verdict {
	t.Helper()
	got := "pass"
	switch {
	case v.failed:
		got = "fail"
	case v.skipped:
		got = "skip"
	}
	if got != want {
		t.Errorf("%v: %s (%q), want %s", err, got, v.msg, want)
	}
	return v
}
