package cugentest

import (
	"errors"
	"strings"
	"testing"

	"github.com/cugen/cugen/ffi"
)

// TestRunExamplesOnGPU: the Examples are left out for want of a driver, a
// device or a library, unless the switch for it asks to fail; any other
// setup error, or none, runs them.
func TestRunExamplesOnGPU(t *testing.T) {
	driver := &ffi.LoadError{Library: "CUDA driver"}
	lib := &ffi.LoadError{Library: "cuBLAS"}
	noDev := errors.New("CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected")
	for _, tc := range []struct {
		err       error
		gpu, libs string
		want      string // the reason's start, "" to run them
	}{
		{nil, "", "", ""},
		{driver, "", "", NoGPUReason},
		{driver, "1", "", ""},
		{noDev, "", "1", NoGPUReason},
		{noDev, "1", "", ""},
		{lib, "", "", NoLibReason},
		{lib, "1", "1", ""},
		{errors.New("CUDA_ERROR_UNKNOWN"), "", "", ""},
	} {
		t.Setenv(RequireGPUEnv, tc.gpu)
		t.Setenv(RequireLibsEnv, tc.libs)
		got := examplesSkip(tc.err)
		if tc.want == "" && got != "" || tc.want != "" && !strings.HasPrefix(got, tc.want) {
			t.Errorf("%v with %s=%q %s=%q: %q, want %q...", tc.err, RequireGPUEnv, tc.gpu, RequireLibsEnv, tc.libs, got, tc.want)
		}
	}
}
