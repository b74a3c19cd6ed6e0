//go:build cuda12

package sample

import (
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/cuda/sys/nvml"
)

// The calls whose Go signature differs between the CUDA majors: this file
// is CUDA 12's (-tags cuda12); major_cuda13.go is the newest's.

// Library is a library of kernels loaded from a NUL-terminated PTX image.
// The runtime of CUDA 12.4 has no cudaLibraryLoadData: the driver's
// cuLibraryLoadData loads it, and its CUkernel handles are the runtime's
// cudaKernel_t (a plain conversion, as package cu's doc says).
type Library struct{ lib cu.Library }

// LoadLibrary loads image (PTX text ending in a NUL).
func LoadLibrary(image []byte) (*Library, error) {
	if err := cu.Init(0); err != nil {
		return nil, err
	}
	lib, err := cu.LibraryLoadData(unsafe.Pointer(&image[0]), nil, nil, 0, nil, nil, 0)
	return &Library{lib}, err
}

// Kernel returns the kernel of this name (cuLibraryGetKernel).
func (l *Library) Kernel(name string) (cudart.Kernel, error) {
	k, err := cu.LibraryGetKernel(l.lib, name)
	return cudart.Kernel(k), err
}

// Unload unloads the library (cuLibraryUnload).
func (l *Library) Unload() error { return cu.LibraryUnload(l.lib) }

// CtxCreate creates a context of one's own on dev (cuCtxCreate_v2).
func CtxCreate(dev cu.Device) (cu.Context, error) {
	return cu.CtxCreate(0, dev)
}

// Temperature returns the GPU's core temperature in °C
// (nvmlDeviceGetTemperature).
func Temperature(d nvml.Device) (uint32, error) {
	return nvml.DeviceGetTemperature(d, nvml.TemperatureGpu)
}
