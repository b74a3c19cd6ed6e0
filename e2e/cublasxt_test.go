package e2e

import (
	"errors"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cublasxt"
)

// TestCuBLASXtHandle12: cuBLASXt's functions are in Debian's libcublas12,
// and its handle needs no device until devices are selected: Create
// succeeds on the CPU, the block dimension set is the one read back, and
// DeviceSelect without a device fails with cuBLAS's typed status (on a
// GPU machine it succeeds). After that failure the handle is not
// destroyed: libcublas 12.4.5's cublasXtDestroy then frees memory twice
// (glibc aborts the process: "free(): double free detected").
func TestCuBLASXtHandle12(t *testing.T) {
	cugentest.NeedLibrary(t, cublasxt.SharedLibrary().Load())
	h, err := cublasxt.Create()
	if err != nil {
		t.Fatal(err)
	}
	def, err := cublasxt.GetBlockDim(h)
	if err != nil {
		t.Fatal(err)
	}
	if err := cublasxt.SetBlockDim(h, 512); err != nil {
		t.Fatal(err)
	}
	if got, err := cublasxt.GetBlockDim(h); err != nil || got != 512 {
		t.Errorf("GetBlockDim after SetBlockDim(512) = %d, %v", got, err)
	}
	if err := cublasxt.Destroy(h); err != nil {
		t.Fatal(err)
	}
	if h, err = cublasxt.Create(); err != nil {
		t.Fatal(err)
	}
	dev := int32(0)
	err = cublasxt.DeviceSelect(h, 1, &dev)
	if err == nil {
		if err := cublasxt.Destroy(h); err != nil {
			t.Error(err)
		}
		cugentest.SkipHasGPU(t, "cublasXtDeviceSelect(0) succeeded")
	}
	var ce *ffi.CallError
	var st cublasxt.Status
	if !errors.As(err, &ce) || !errors.As(err, &st) || st == cublasxt.StatusSuccess {
		t.Errorf("DeviceSelect without a device = %v (%T), want a cuBLAS status", err, err)
	}
	t.Logf("default block dimension %d; DeviceSelect: %v", def, err)
}
