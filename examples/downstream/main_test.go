package main

import (
	"errors"
	"testing"

	"example.com/downstream/cuda/cu"
	"example.com/downstream/cuda/cudart"
	"github.com/cugen/cugen/cugentest"
)

// TestGeneratedBindings checks the user's freshly generated packages
// against whatever CUDA libraries this machine has (a GPU is not needed).
func TestGeneratedBindings(t *testing.T) {
	cugentest.NeedDevice(t, cu.SharedLibrary().Load()) // the driver library; no device needed
	v, err := cu.DriverGetVersion()
	if err != nil || v < 11000 {
		t.Fatalf("cuDriverGetVersion = %d, %v", v, err)
	}
	if got := cudart.GetErrorName(cudart.ErrorInvalidDevice); got != "cudaErrorInvalidDevice" && cudart.SharedLibrary().Load() == nil {
		t.Fatalf("cudaGetErrorName = %q", got)
	}
	if _, err := cu.CtxGetCurrent(); err != nil && !errors.Is(err, cu.ErrorNotInitialized) {
		t.Fatalf("cuCtxGetCurrent: unexpected %v", err)
	}
}
