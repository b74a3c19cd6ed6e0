package library

import "github.com/cugen/cugen/parser/ir"

// CuFFTXt is cuFFT's multi-GPU and callback API: package cufftxt. Its
// functions are in libcufft.so.N itself (11 with CUDA 12, 12 with CUDA
// 13), loaded again through the same override variable as package cufft;
// its descriptor types (cudaLibXtDesc) are cudalibxt.h's. Both majors
// have a package.
var CuFFTXt = &Desc{
	Key:     "cufftxt",
	API:     "cuFFTXt",
	Title:   "cuFFTXt",
	Package: "cufftxt",
	Doc: `# Pointers: which memory each parameter is

A cudaLibXtDesc is a host structure holding each GPU's device pointers, so
the descriptor functions and Memcpy take Go pointers; Exec's input and
output are one GPU's data, an ffi.DeviceAddr; SetWorkArea's work areas and
SetCallback's routines and callers' info are host arrays of one device
address a GPU, a *ffi.DeviceAddr. audit.txt lists each pointer parameter
with its memory and the reason (its "memory" lines).`,
	Imports:  []ir.Library{ir.Runtime, "cufft"},
	Include:  []string{"cufftXt.h"},
	Declare:  []string{"cufftXt.h", "cudalibxt.h"},
	Prefixes: []string{"CUFFTXT_", "cufftXt", "CUFFT_", "cufft"},
	Status:   "cufftResult",
	Load: Load{
		Name:     "cuFFT (CUDA %d, cuFFTXt)",
		EnvVar:   "CUGEN_LIBCUFFT",
		Files:    map[int][]string{12: {"libcufft.so.11"}, 13: {"libcufft.so.12"}},
		Wheels:   map[int][]string{12: {"nvidia/cufft/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "cufftXtSetGPUs",
		// cuFFTXt is libcufft's: its major is checked as cuFFT's is.
		Version: Version{Symbol: "cufftGetProperty", Form: Property},
	},
	LockLibs:  []string{"libcufft11"},
	Overrides: Overrides{Memory: cufftXtMemory},
}
