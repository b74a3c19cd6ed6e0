package cugentest

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/cugen/cugen/ffi"
)

// RunExamplesOnGPU is the TestMain of a package whose runnable Examples
// print what a GPU computes (the Go API's and its math packages'): it runs
// m, leaving the Examples out (-test.skip ^Example) when devices
// (cuda.DeviceCount) or the Load of one of libs fails for want of a
// driver, a device or a library, as NeedDevice and NeedLibrary would skip
// a test, unless RequireGPUEnv or RequireLibsEnv says to fail instead (a
// -test.skip given keeps what it leaves out too). So go test compiles the
// Examples everywhere, and runs them, checking their Output, where a GPU is
// (make gpu's run sets both switches). It returns m.Run's code, for os.Exit. Held by
// TestRunExamplesOnGPU.
func RunExamplesOnGPU(m *testing.M, devices func() (int, error), libs ...*ffi.Library) int {
	if !flag.Parsed() {
		flag.Parse()
	}
	setup := func() error {
		if _, err := devices(); err != nil {
			return err
		}
		for _, l := range libs {
			if err := l.Load(); err != nil {
				return err
			}
		}
		return nil
	}
	if skip := flag.Lookup("test.skip"); skip != nil {
		if why := examplesSkip(setup()); why != "" {
			// beside what -test.skip already leaves out (the wine run's
			// list of tests that cannot run there)
			pattern := "^Example"
			if given := skip.Value.String(); given != "" {
				pattern = given + "|" + pattern
			}
			skip.Value.Set(pattern)
			fmt.Fprintf(os.Stderr, "cugentest: the Examples are left out: %s\n", why)
		}
	}
	return m.Run()
}

// examplesSkip returns why the Examples are left out after setup returned
// err, or "" to run them: a missing driver or device (unless RequireGPUEnv
// is "1"), a missing library (unless RequireLibsEnv is "1"). Any other
// error runs them, to fail where the Output differs.
func examplesSkip(err error) string {
	var le *ffi.LoadError
	switch {
	case err == nil:
	case noDriver(err) || noDevice(err):
		if os.Getenv(RequireGPUEnv) != "1" {
			return NoGPUReason + err.Error()
		}
	case errors.As(err, &le):
		if os.Getenv(RequireLibsEnv) != "1" {
			return NoLibReason + err.Error()
		}
	}
	return ""
}
