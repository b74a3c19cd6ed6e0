package cugentest

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cugen/cugen/ffi"
)

// The switches that turn a skip into a failure. A run meant to prove
// something on a GPU machine (make gpu's run.sh) sets both, so that a
// broken cuInit, a context that cannot be made or a library that is not
// found fails the run instead of skipping every GPU test.
const (
	// RequireGPUEnv ("1") makes "no CUDA driver" and "no CUDA device" a
	// failure: SkipNoGPU, NeedDevice, and NeedLibrary for a library that
	// did not load because the driver did not.
	RequireGPUEnv = "CUGEN_REQUIRE_GPU"
	// RequireLibsEnv ("1") makes "library not found" a failure:
	// SkipNoLib, NeedLibrary (and Symbols' skip).
	RequireLibsEnv = "CUGEN_REQUIRE_LIBS"
	// RequireHeadersEnv ("1") makes a locked header set missing from the
	// cache a failure (SkipNoHeaders): make test sets it, having fetched
	// every set first, so that nothing it fetched can skip.
	RequireHeadersEnv = "CUGEN_REQUIRE_HEADERS"
)

// The fixed first words of the skip reasons below, so that a runner can
// tell an expected skip from an unexpected one (make gpu's report does).
const (
	NoGPUReason   = "no CUDA device: "
	NoLibReason   = "library not found: "
	FewGPUsReason = "needs %d GPUs"
	HasGPUReason  = "a GPU runs here: "
)

// NeedDevice decides what a test does with err, the error of the step that
// sets up the GPU (loading the driver, cuInit, cudaGetDeviceCount,
// cuda.NewContext). nil returns. A driver library that did not load, or
// CUDA_ERROR_NO_DEVICE / cudaErrorNoDevice, skips tb ("no CUDA device:
// ...") unless RequireGPUEnv is "1", which fails it; another library that
// did not load (the runtime) is NeedLibrary's case. Any other error fails
// tb: a broken cuInit on a GPU machine must not pass as "no GPU here".
func NeedDevice(tb testing.TB, err error) {
	tb.Helper()
	need(tb, err)
}

// NeedLibrary decides what a test does with err, the error of loading a
// library (lib.Load, SharedLibrary().Load). nil returns. A library that
// could not be found or loaded (an *ffi.LoadError) skips tb ("library not
// found: ...") unless RequireLibsEnv is "1", which fails it; a library that
// did not load because the driver did not is a missing GPU (NeedDevice).
// Any other error fails tb.
func NeedLibrary(tb testing.TB, err error) {
	tb.Helper()
	need(tb, err)
}

// need is the one decision behind NeedDevice and NeedLibrary.
func need(tb testing.TB, err error) {
	tb.Helper()
	if err == nil {
		return
	}
	var le *ffi.LoadError
	switch {
	case noDriver(err) || noDevice(err):
		SkipNoGPU(tb, "%v", err)
	case errors.As(err, &le):
		SkipNoLib(tb, "%v", err)
	}
	tb.Fatalf("setting up CUDA failed, and not for want of a driver, a device or a library: %v", err)
}

// SkipNoGPU skips tb for want of a CUDA driver or device, the reason
// starting with NoGPUReason, or fails tb when RequireGPUEnv is "1".
func SkipNoGPU(tb testing.TB, format string, args ...any) {
	tb.Helper()
	decide(tb, RequireGPUEnv, NoGPUReason+fmt.Sprintf(format, args...))
}

// SkipNoLib skips tb for want of a library, the reason starting with
// NoLibReason, or fails tb when RequireLibsEnv is "1".
func SkipNoLib(tb testing.TB, format string, args ...any) {
	tb.Helper()
	decide(tb, RequireLibsEnv, NoLibReason+fmt.Sprintf(format, args...))
}

// SkipNoHeaders skips tb for want of a locked header set (or the
// repository's headers.lock), or fails tb when RequireHeadersEnv is "1".
// The reason names the make target that fetches it.
func SkipNoHeaders(tb testing.TB, format string, args ...any) {
	tb.Helper()
	decide(tb, RequireHeadersEnv, fmt.Sprintf(format, args...))
}

// SkipFewGPUs skips tb, which needs want devices, when the machine has
// fewer (have). It never fails: one GPU is a machine the tests run on,
// and the reason ("needs 2 GPUs (1 here)") is one a runner expects.
func SkipFewGPUs(tb testing.TB, want, have int) {
	tb.Helper()
	if have < want {
		tb.Skipf(FewGPUsReason+" (%d here)", want, have)
	}
}

// SkipHasGPU skips tb, a test that shows what happens without a GPU
// (or without a driver), on a machine where one runs; reason says what
// was found. It never fails: the GPU tests cover that machine.
func SkipHasGPU(tb testing.TB, format string, args ...any) {
	tb.Helper()
	tb.Skip(HasGPUReason + fmt.Sprintf(format, args...))
}

func decide(tb testing.TB, env, reason string) {
	tb.Helper()
	if os.Getenv(env) == "1" {
		tb.Fatalf("%s (%s=1: a failure, not a skip)", reason, env)
	}
	tb.Skip(reason)
}

// noDriver reports whether err says the CUDA driver library did not load:
// its own LoadError, or that of a library that needs it.
func noDriver(err error) bool {
	var le *ffi.LoadError
	if !errors.As(err, &le) {
		return false
	}
	return le.Driver != nil || le.Library == "CUDA driver"
}

// noDevice reports whether a result code in err's chain is "no device":
// CUDA_ERROR_NO_DEVICE (the driver API) or cudaErrorNoDevice (the
// runtime), named by the generated codes' text so that this package needs
// none of the generated packages.
func noDevice(err error) bool {
	for _, e := range chain(err) {
		s := e.Error()
		if strings.HasPrefix(s, "CUDA_ERROR_NO_DEVICE:") || strings.HasPrefix(s, "cudaErrorNoDevice:") ||
			s == "CUDA_ERROR_NO_DEVICE" || s == "cudaErrorNoDevice" {
			return true
		}
	}
	return false
}

// chain is err and every error it wraps, depth first.
func chain(err error) []error {
	if err == nil {
		return nil
	}
	out := []error{err}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		out = append(out, chain(u.Unwrap())...)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			out = append(out, chain(e)...)
		}
	}
	return out
}
