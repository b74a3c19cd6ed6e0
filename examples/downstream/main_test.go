package main

import (
	"errors"
	"strings"
	"testing"

	"example.com/downstream/cuda/cu"
	"example.com/downstream/cuda/cuda"
	"example.com/downstream/cuda/cudart"
	"example.com/downstream/cuda/nvrtc"
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

// TestLayerCompile compiles the example's kernel to PTX through the
// module's copy of the layer (NVRTC; no GPU needed).
func TestLayerCompile(t *testing.T) {
	cugentest.NeedLibrary(t, nvrtc.SharedLibrary().Load())
	out, err := cuda.Compile(cuda.Source{Code: src, Arch: "compute_70"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Kind != cuda.ImagePTX || !strings.Contains(string(out.Image), ".entry vecAdd") {
		t.Fatalf("Compile: kind %v, PTX without .entry vecAdd:\n%.300s", out.Kind, out.Image)
	}
}

// TestLayerVecAdd runs the kernel on device 0 where there is one.
func TestLayerVecAdd(t *testing.T) {
	cugentest.NeedDevice(t, cu.Init(0))
	got, err := vecAdd(3)
	if err != nil || got != 9 {
		t.Fatalf("vecAdd(3) = %v, %v; want 9", got, err)
	}
}
