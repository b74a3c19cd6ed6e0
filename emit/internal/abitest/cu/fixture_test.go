package cu

import (
	"fmt"
	"os"
	"testing"

	"github.com/cugen/cugen/emit/internal/abitest"
)

// TestMain points the generated symbols test at the fixture library built
// from emit/testdata/abi: the fixture's symbols are not in a real CUDA
// library (make test sets CUGEN_LIBCUDA and CUGEN_LIBCUDART to those).
// This file is hand-written; cugen leaves it alone.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "abitest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	path, skip, err := abitest.Build("../../../testdata/abi", dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if skip != "" {
		fmt.Fprintln(os.Stderr, "abitest:", skip)
	}
	abitest.Setenv(path, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
