package library

import "github.com/cugen/cugen/parser/ir"

// CuBLASXt is cuBLAS's multi-GPU host API (matrices in host memory, tiled
// across the devices chosen with DeviceSelect): package cublasxt. Its
// functions are in libcublas.so.N itself, loaded again through the same
// override variable as package cublas. Both majors have a package
// (libcublas.so.12, libcublas.so.13).
var CuBLASXt = &Desc{
	Key:     "cublasxt",
	API:     "cuBLASXt",
	Title:   "cuBLASXt",
	Package: "cublasxt",
	Doc: `# Pointers: which memory each parameter is

cuBLASXt is a host API by design: it tiles matrices in host memory across
the devices DeviceSelect chose, copying each tile in and out, and returns
when the result is in place. Since CUDA 8 a matrix may also be on any
device, which cuBLASXt finds by its address. So the matrices (a, ap, b, c)
are an ffi.HostOrDevice[T]: ffi.Host(&a[0]) for a Go slice, or
ffi.Device(p) for a device address. alpha and beta are host values, Go
pointers. audit.txt lists each pointer parameter with its memory and the
reason (its "memory" lines).`,
	Imports:     []ir.Library{ir.Runtime, "cublas"},
	Include:     []string{"cublasXt.h"},
	Declare:     []string{"cublasXt.h"},
	Prefixes:    []string{"CUBLASXT_", "cublasXt", "CUBLAS_", "cublas"},
	Status:      "cublasStatus_t",
	ErrorString: "cublasGetStatusString",
	Load: Load{
		Name:     "cuBLAS %d (cuBLASXt)",
		EnvVar:   "CUGEN_LIBCUBLAS",
		Files:    map[int][]string{12: {"libcublas.so.12"}, 13: {"libcublas.so.13"}},
		Wheels:   map[int][]string{12: {"nvidia/cublas/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "cublasXtCreate",
		// cuBLASXt is libcublas's: its major is checked as cuBLAS's is.
		Version: Version{Symbol: "cublasGetProperty", Form: Property},
	},
	Overrides: Overrides{Memory: cublasXtMemory, AlignedValues: map[string]string{
		"alpha": "the scalar alpha, a host value",
		"beta":  "the scalar beta, a host value",
	}},
	LockLibs: []string{"libcublas12"},
	Needs:    []ir.Library{"cublaslt"},
}
