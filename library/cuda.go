package library

import "github.com/cugen/cugen/parser/ir"

// Driver is the CUDA driver API: package cu, libcuda.so.1.
var Driver = &Desc{
	Key:            ir.Driver,
	Title:          "CUDA driver",
	API:            "driver",
	Package:        "cu",
	Include:        []string{"cuda.h", "cudaProfiler.h"},
	Declare:        []string{"cuda.h", "cudaProfiler.h"},
	Required:       true,
	SymbolVersions: "cudaTypedefs.h",
	Prefixes:       cudaPrefixes,
	Status:         "CUresult",
	ErrorString:    "cuGetErrorString",
	Load: Load{
		Name:     "CUDA driver",
		EnvVar:   "CUGEN_LIBCUDA",
		Files:    map[int][]string{0: {"libcuda.so.1", "libcuda.so"}},
		Identify: "cuDriverGetVersion",
		WSL:      true,
		Driver:   true,
	},
	LockLibs: []string{"libcuda1"},
}

// Runtime is the CUDA runtime API: package cudart, libcudart.so.N. It owns
// the types of the headers it includes (driver_types.h, vector_types.h, ...).
var Runtime = &Desc{
	Key:          ir.Runtime,
	Title:        "CUDA runtime",
	API:          "runtime",
	Package:      "cudart",
	Include:      []string{"cuda_runtime.h", "cuda_profiler_api.h"},
	Declare:      []string{"cuda_runtime_api.h", "cuda_profiler_api.h"},
	Owner:        true,
	Required:     true,
	Prefixes:     cudaPrefixes,
	Status:       "cudaError_t",
	ErrorString:  "cudaGetErrorString",
	VersionMacro: "CUDART_VERSION",
	Load: Load{
		Name:        "CUDA %d runtime",
		EnvVar:      "CUGEN_LIBCUDART",
		Files:       map[int][]string{11: {"libcudart.so.11.0"}, 12: {"libcudart.so.12"}, 13: {"libcudart.so.13"}},
		Wheels:      map[int][]string{12: {"nvidia/cuda_runtime/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify:    "cudaRuntimeGetVersion",
		Version:     Version{Symbol: "cudaRuntimeGetVersion", Form: Encoded},
		NeedsDriver: true,
	},
	LockLibs: []string{"libcudart12"},
}

// cudaPrefixes are dropped from the names of both CUDA APIs, whose headers
// share types (the runtime's cudaUUID_t is struct CUuuid_st).
var cudaPrefixes = []string{"CUDART_", "CUDA_", "CU_", "cuda", "CU", "cu"}
