package e2e

import (
	"errors"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/nvml"
)

// TestNVMLInitWithoutDriver12: the CUDA 12 nvml package (nvml.h of
// Debian's libnvidia-ml-dev 12.4) without an NVIDIA kernel driver (CI,
// with Debian's libnvidia-ml1): nvmlInit fails with NVML's typed error and
// text; on a GPU machine it succeeds and reads the first device's name.
func TestNVMLInitWithoutDriver12(t *testing.T) {
	cugentest.NeedLibrary(t, nvml.SharedLibrary().Load())
	err := nvml.Init()
	if err == nil {
		defer nvml.Shutdown()
		d, err := nvml.DeviceGetHandleByIndex(0)
		if err != nil {
			t.Fatal(err)
		}
		name, err := nvml.DeviceGetName(d)
		if err != nil || name == "" {
			t.Fatalf("DeviceGetName = %q, %v", name, err)
		}
		cugentest.SkipHasGPU(t, "nvmlInit succeeded (device 0: %s)", name)
	}
	var ce *ffi.CallError
	var code nvml.Return
	if !errors.As(err, &ce) || !errors.As(err, &code) || ce.Func != "nvmlInit" {
		t.Fatalf("nvml.Init() = %v (%T), want an *ffi.CallError of nvmlInit unwrapping to an nvml.Return", err, err)
	}
	if !errors.Is(err, nvml.ErrorDriverNotLoaded) && !errors.Is(err, nvml.ErrorLibraryNotFound) && !errors.Is(err, nvml.ErrorNoPermission) {
		t.Errorf("nvml.Init() = %v, want NVML_ERROR_DRIVER_NOT_LOADED (or LIBRARY_NOT_FOUND, NO_PERMISSION) without a driver", err)
	}
	if msg := code.Message(); msg == "" || msg == "unknown error" {
		t.Errorf("NVML's text for %v is %q", code, msg)
	}
	t.Logf("%v", err)
}
