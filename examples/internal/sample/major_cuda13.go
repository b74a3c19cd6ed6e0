//go:build !cuda12

package sample

import (
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/cuda/sys/nvml"
)

// The calls whose Go signature differs between the CUDA majors, one file
// per major (this one: no tag, CUDA 13; major_cuda12.go: -tags cuda12),
// so that every example builds for either major by its tag alone.

// Library is a library of kernels loaded from a NUL-terminated PTX image
// with the runtime's cudaLibraryLoadData.
type Library struct{ lib cudart.Library }

// LoadLibrary loads image (PTX text ending in a NUL).
func LoadLibrary(image []byte) (*Library, error) {
	lib, err := cudart.LibraryLoadData(unsafe.Pointer(&image[0]), nil, nil, 0, nil, nil, 0)
	return &Library{lib}, err
}

// Kernel returns the kernel of this name (cudaLibraryGetKernel).
func (l *Library) Kernel(name string) (cudart.Kernel, error) {
	return cudart.LibraryGetKernel(l.lib, name)
}

// Unload unloads the library (cudaLibraryUnload).
func (l *Library) Unload() error { return cudart.LibraryUnload(l.lib) }

// CtxCreate creates a context of one's own on dev with default
// parameters (cuCtxCreate, CUDA 13's with its CUctxCreateParams).
func CtxCreate(dev cu.Device) (cu.Context, error) {
	return cu.CtxCreate(&cu.CtxCreateParams{}, 0, dev)
}

// Temperature returns the GPU's core temperature in °C
// (nvmlDeviceGetTemperature).
func Temperature(d nvml.Device) (uint32, error) {
	var t uint32
	err := nvml.DeviceGetTemperature(d, nvml.TemperatureGpu, &t)
	return t, err
}
