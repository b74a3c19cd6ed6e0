//go:build linux && (amd64 || arm64)

// Package reliability holds the tests of the issue "nothing lost, nothing
// crashes" that need the generated packages and real CUDA libraries: what a
// program sees when a library is absent, the wrong one or too old, which
// argument checks happen in Go and which in CUDA, heavy concurrent use, and
// (on a GPU machine) sticky device faults. docs/reliability.md lists every
// case with its test.
//
// The libraries are Debian's libcuda1 and libcudart12, which load without a
// GPU; `make test` points CUGEN_LIBCUDA and CUGEN_LIBCUDART at them. A
// generated package loads its library once per process, so every case that
// needs a different library, or a process in which CUDA was never
// initialized, runs in a child process: the test binary re-executed for
// that one test with another environment.
package reliability

import (
	"os"
	"testing"

	"github.com/cugen/cugen/cugentest"
)

// isChild and runChild are cugentest's fresh-process helpers.
func isChild(t *testing.T) bool                   { return cugentest.IsChild(t) }
func runChild(t *testing.T, env ...string) string { t.Helper(); return cugentest.RunChild(t, env...) }

// needLibs skips t (cugentest.SkipNoLib) unless CUGEN_LIBCUDA and CUGEN_LIBCUDART name existing
// files, and returns them.
func needLibs(t *testing.T) (libcuda, libcudart string) {
	t.Helper()
	libcuda, libcudart = os.Getenv("CUGEN_LIBCUDA"), os.Getenv("CUGEN_LIBCUDART")
	for name, p := range map[string]string{"CUGEN_LIBCUDA": libcuda, "CUGEN_LIBCUDART": libcudart} {
		if p == "" {
			cugentest.SkipNoLib(t, "%s is not set (make test sets it to Debian's library, which loads without a GPU)", name)
		}
		if _, err := os.Stat(p); err != nil {
			cugentest.SkipNoLib(t, "%s: %v", name, err)
		}
	}
	return libcuda, libcudart
}
