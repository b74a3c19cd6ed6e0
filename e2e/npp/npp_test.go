// Package npp tests the NPP packages (nppc ... npps) and cusolvermg of
// CUDA 12: on the CPU against Debian's libraries (make test), and on a GPU.
// A package of its own, so that e2e's test binary does not carry twelve
// thousand wrappers.
package npp

import (
	"errors"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cusolvermg"
	"github.com/cugen/cugen/generated/cuda12/nppc"
)

// TestNPPVersion12: Debian's libnppc12 loads on the CPU and
// nppGetLibVersion, whose const struct result the wrapper copies into Go
// memory, reports the version of the header the package was generated
// from (NPP 12.2.5 with CUDA 12.4: its build field is NPP_VER_PATCH).
func TestNPPVersion12(t *testing.T) {
	cugentest.NeedLibrary(t, nppc.SharedLibrary().Load())
	v := nppc.GetLibVersion()
	if v == nil {
		t.Fatal("GetLibVersion = nil")
	}
	if v.Major != nppc.VerMajor || v.Minor != nppc.VerMinor || v.Build != nppc.VerPatch {
		t.Errorf("GetLibVersion = %+v, want %d.%d.%d (NPP_VER_MAJOR, _MINOR, _PATCH)", *v, nppc.VerMajor, nppc.VerMinor, nppc.VerPatch)
	}
	if p := nppc.GetLibVersion(); p == v || *p != *v {
		t.Errorf("a second GetLibVersion = %p %+v, want a new copy of %+v", p, *p, *v)
	}
	t.Logf("NPP %d.%d.%d (nppGetLibVersion)", v.Major, v.Minor, v.Build)
}

// TestNPPStreamContextWithoutGPU12: nppGetStreamContext, the call that
// fills the NppStreamContext every _Ctx function takes by value, needs a
// device: without one it fails with NPP's typed status (on a GPU machine
// it succeeds, and TestNPPImageOps12 uses it).
func TestNPPStreamContextWithoutGPU12(t *testing.T) {
	cugentest.NeedLibrary(t, nppc.SharedLibrary().Load())
	var sc nppc.StreamContext
	err := nppc.GetStreamContext(&sc)
	if err == nil {
		cugentest.SkipHasGPU(t, "nppGetStreamContext succeeded: device %d, %d SMs", sc.NCudaDeviceId, sc.NMultiProcessorCount)
	}
	var ce *ffi.CallError
	var st nppc.Status
	if !errors.As(err, &ce) || !errors.As(err, &st) || st == nppc.NoError {
		t.Errorf("GetStreamContext without a device = %v (%T), want an NPP status", err, err)
	}
	t.Logf("GetStreamContext: %v", err)
}

// TestCuSOLVERMgWithoutGPU12: Debian's libcusolvermg11 loads on the CPU
// (with the cuBLAS and nvJitLink it needs) and cusolverMgCreate needs no
// device; selecting device 0 without one fails with cuSOLVER's typed
// status (on a GPU machine it succeeds).
func TestCuSOLVERMgWithoutGPU12(t *testing.T) {
	cugentest.NeedLibrary(t, cusolvermg.SharedLibrary().Load())
	h, err := cusolvermg.Create()
	if err != nil {
		t.Fatalf("Create without a device: %v", err)
	}
	defer func() {
		if err := cusolvermg.Destroy(h); err != nil {
			t.Error(err)
		}
	}()
	dev := int32(0)
	err = cusolvermg.DeviceSelect(h, 1, &dev)
	if err == nil {
		cugentest.SkipHasGPU(t, "cusolverMgDeviceSelect(0) succeeded")
	}
	var st cusolvermg.Status
	if !errors.As(err, &st) || st == cusolvermg.StatusSuccess {
		t.Errorf("DeviceSelect without a device = %v (%T), want a cuSOLVER status", err, err)
	}
	t.Logf("Create: ok; DeviceSelect: %v", err)
}
