package library

import "github.com/cugen/cugen/parser/ir"

// CuBLAS is the CUDA BLAS: package cublas, libcublas.so.N. cublas_v2.h
// #defines the API names to their _v2 symbols (cublasCreate ->
// cublasCreate_v2); the package binds the symbols a C program including it
// links.
var CuBLAS = &Desc{
	Key:     "cublas",
	API:     "cuBLAS",
	Title:   "cuBLAS",
	Package: "cublas",
	Include: []string{"cublas_v2.h"},
	Doc: `# Pointers: device memory, and the pointer mode

Matrices and vectors (A, B, C, x, y) are device memory: pass
(*float32)(d.Pointer()) for a cu.Deviceptr d, or a cudart.Malloc result
converted the same way.

The scalars alpha and beta, and the results of the reductions (Snrm2, Sdot,
Isamax, ...), follow the handle's pointer mode (SetPointerMode): in
PointerModeHost, the default, they are host memory (&alpha of a Go
float32, which the call reads, or writes before it returns); in
PointerModeDevice they are device memory, passed as above, and a result is
written when the stream reaches the call.

Streams are the runtime's: SetStream takes a cudart.Stream (a cu.Stream
converts to it).`,
	Declare:     []string{"cublas_api.h", "cublas_v2.h"},
	Prefixes:    []string{"CUBLAS_", "cublas"},
	Status:      "cublasStatus_t",
	ErrorString: "cublasGetStatusString",
	Load: Load{
		Name:     "cuBLAS %d",
		EnvVar:   "CUGEN_LIBCUBLAS",
		Files:    map[int][]string{12: {"libcublas.so.12"}, 13: {"libcublas.so.13"}},
		Wheels:   map[int][]string{12: {"nvidia/cublas/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "cublasGetProperty",
		Version:  Version{Symbol: "cublasGetProperty", Form: Property, Macros: [2]string{"CUBLAS_VER_MAJOR", "CUBLAS_VER_MINOR"}},
	},
	LockLibs: []string{"libcublas12"},
	Needs:    []ir.Library{"cublaslt"},
}
