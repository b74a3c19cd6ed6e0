//go:build linux && (amd64 || arm64)

package main

import (
	"os"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
)

// TestDoctor: cugen doctor's flags and exit status. A bad -lib or -major
// is a usage error naming it, exit 2 (before: 1 for -lib cudnn and -major
// 11, 2 only for a major that is no number), a bad -lib in one line
// (before: and the usage); with
// Debian's runtime (make test's variables) -lib cudart -major 12 prints
// where the runtime loads from and its version, and exits 1 without a GPU
// (the driver has no device), saying so on stderr.
func TestDoctor(t *testing.T) {
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"doctor", "-lib", "tensorrt"}, 2, "cugen doctor: -lib tensorrt: no such library"},
		{[]string{"doctor", "-major", "11"}, 2, "cugen doctor: -major 11: the module generates CUDA 12 and 13"},
		{[]string{"doctor", "-major", "twelve"}, 2, `not a CUDA major: "twelve"`},
	} {
		code, stdout, stderr := cugen(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.stderr) || stdout != "" || c.args[1] == "-lib" && strings.Count(stderr, "\n") != 1 {
			t.Errorf("cugen %q: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, stdout, stderr, c.code, c.stderr)
		}
	}

	cudart := os.Getenv("CUGEN_LIBCUDART")
	if os.Getenv("CUGEN_LIBCUDA") == "" || cudart == "" {
		cugentest.SkipNoLib(t, "CUGEN_LIBCUDA and CUGEN_LIBCUDART are not set (make test sets them to Debian's libraries)")
	}
	code, stdout, stderr := cugen(t, "doctor", "-major", "12", "-lib", "runtime")
	t.Logf("cugen doctor -major 12 -lib runtime: exit %d\n%s%s", code, stdout, stderr)
	for _, want := range []string{
		"\ncuda12/cudart: CUDA 12 runtime: " + cudart + " (from CUGEN_LIBCUDART)\n",
		"\ncuda12/cudart: version: CUDA runtime 12.",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	if strings.Contains(stdout, "cuda13/") || strings.Contains(stdout, "cuda12/nvrtc") {
		t.Errorf("-major 12 -lib runtime printed another major or library")
	}
	noDevice := strings.Contains(stdout, "\nerror: driver: no CUDA device: cuInit failed: CUDA_ERROR_NO_DEVICE")
	switch {
	case noDevice && (code != 1 || stderr != "cugen doctor: 1 error (listed above)\n"):
		t.Errorf("no device: exit %d, stderr %q; want 1 and the count", code, stderr)
	case !noDevice && code != 0:
		t.Errorf("with a device: exit %d, want 0", code)
	}
}
