package e2e

import (
	"errors"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cudart"
	"github.com/cugen/cugen/generated/cuda12/nvjpeg"
)

// TestNVJPEGWithoutGPU12: Debian's libnvjpeg12 loads on the CPU and
// reports the version of the header it was generated from (nvJPEG 12.3
// with CUDA 12.4); without a device nvjpegCreateSimple fails with
// nvJPEG's typed error (on a GPU machine it succeeds).
func TestNVJPEGWithoutGPU12(t *testing.T) {
	cugentest.NeedLibrary(t, nvjpeg.SharedLibrary().Load())
	major, err := nvjpeg.GetProperty(cudart.MajorVersion)
	if err != nil || major != nvjpeg.VerMajor {
		t.Fatalf("GetProperty(MAJOR_VERSION) = %d, %v; want NVJPEG_VER_MAJOR %d", major, err, nvjpeg.VerMajor)
	}
	minor, err := nvjpeg.GetProperty(cudart.MinorVersion)
	if err != nil || minor != nvjpeg.VerMinor {
		t.Errorf("GetProperty(MINOR_VERSION) = %d, %v; want NVJPEG_VER_MINOR %d", minor, err, nvjpeg.VerMinor)
	}
	h, err := nvjpeg.CreateSimple()
	if err == nil {
		nvjpeg.Destroy(h)
		cugentest.SkipHasGPU(t, "nvjpegCreateSimple succeeded (nvJPEG %d.%d)", major, minor)
	}
	var ce *ffi.CallError
	var st nvjpeg.Status
	if !errors.As(err, &ce) || !errors.As(err, &st) || st == 0 {
		t.Errorf("CreateSimple without a device = %v (%T), want an nvJPEG status", err, err)
	}
	t.Logf("nvJPEG %d.%d; CreateSimple: %v", major, minor, err)
}

// nvjpegGetImageInfo writes NVJPEG_MAX_COMPONENT (4) widths and heights:
// the wrapper returns them as [4]int32 (it returned heights as one int32,
// into which C wrote 16 bytes). This fails to compile on the old binding.
var _ func(nvjpeg.Handle, string, uint64) (int32, nvjpeg.ChromaSubsampling, [4]int32, [4]int32, error) = nvjpeg.GetImageInfo
