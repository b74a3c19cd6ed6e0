package library

import "github.com/cugen/cugen/parser/ir"

// CuSOLVERMg is cuSOLVER's single-process multi-GPU dense API (syevd,
// getrf/getrs, potrf/potrs on matrices distributed over the devices of a
// grid): package cusolvermg, libcusolverMg.so.N (11 with CUDA 12, 12 with
// CUDA 13, as libcusolver). Its status type is cuSOLVER's, in package
// cusolver.
var CuSOLVERMg = &Desc{
	Key:     "cusolvermg",
	API:     "cuSOLVERMg",
	Title:   "cuSOLVERMg",
	Package: "cusolvermg",
	Doc: `# Pointers: which memory each parameter is

A distributed matrix, its pivots and the workspace are one device array a
device of the grid, passed as a host array of their device pointers: a
*ffi.DeviceAddr (*ffi.DevicePtr[int32] for the pivots), &arr[0] for arr a
[]ffi.DeviceAddr with one address a device. The eigenvalues W, info and
lwork are host memory, Go pointers. audit.txt lists each pointer
parameter with its memory and the reason (its "memory" lines).`,
	Imports:  []ir.Library{ir.Runtime, "cublas", "cusolver"},
	Include:  []string{"cusolverMg.h"},
	Declare:  []string{"cusolverMg.h"},
	Prefixes: []string{"CUSOLVERMG_", "CUDALIBMG_", "CUSOLVER_", "cusolverMg", "cudaLibMg", "cusolver"},
	Status:   "cusolverStatus_t",
	Load: Load{
		Name:     "cuSOLVERMg (CUDA %d)",
		EnvVar:   "CUGEN_LIBCUSOLVERMG",
		Files:    map[int][]string{12: {"libcusolverMg.so.11"}, 13: {"libcusolverMg.so.12"}},
		Wheels:   map[int][]string{12: {"nvidia/cusolver/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "cusolverMgCreate",
		// libcusolverMg has no version function; it needs the libcublas
		// of its CUDA major (libcublas.so.12 with CUDA 12), whose
		// cublasGetProperty tells the major.
		Version: Version{Symbol: "cublasGetProperty", Form: Property, Dependency: CuBLAS},
	},
	LockLibs:  []string{"libcusolvermg11"},
	Overrides: Overrides{Memory: cusolverMgMemory},
	Needs:     []ir.Library{"nvjitlink", "cublas", "cublaslt"},
}
