package e2e

import (
	"errors"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cufftxt"
)

// TestCuFFTXtInvalidPlan12: cuFFTXt's functions are in Debian's
// libcufft11; a plan handle cuFFT never made is refused with its typed
// status, CUFFT_INVALID_PLAN, before any device is touched.
func TestCuFFTXtInvalidPlan12(t *testing.T) {
	cugentest.NeedLibrary(t, cufftxt.SharedLibrary().Load())
	gpus := []int32{0, 1}
	err := cufftxt.SetGPUs(12345, int32(len(gpus)), &gpus[0])
	var ce *ffi.CallError
	if !errors.As(err, &ce) || !errors.Is(err, cufftxt.InvalidPlan) {
		t.Fatalf("SetGPUs(a plan never made) = %v (%T), want CUFFT_INVALID_PLAN", err, err)
	}
	t.Logf("%v", err)
}
