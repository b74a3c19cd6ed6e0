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
	Imports: []ir.Library{ir.Runtime},
	Include: []string{"cublas_v2.h"},
	Doc: `# Column-major matrices

cuBLAS stores matrices column-major, as Fortran's BLAS does: element (i, j)
of a matrix with leading dimension ld is at index i + j*ld, and ld is at
least the number of rows. A Go program that keeps its matrices row-major
(element (i, j) at i*cols + j) passes them unchanged, read as their
transposes: a row-major r×c matrix is the column-major c×r matrix of its
transpose, with ld = c. Since C = A*B is C^T = B^T*A^T, the row-major
product of an m×k A and a k×n B into an m×n C is

	Sgemm(h, OpN, OpN, n, m, k, &alpha, b, n, a, k, &beta, c, n)

B first, m and n swapped, and each leading dimension the row length (the
number of columns) of its row-major matrix; a, b and c are device
pointers (below). To use an operand transposed, pass OpT as the op of the
place it takes (transb for a, transa for b); its leading dimension stays
its row length. SetMatrix and GetMatrix copy column-major too: for a
row-major matrix give them cols as rows, rows as cols and cols as ld.

# Pointers: device memory, and the pointer mode

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
	Overrides: Overrides{AlignedValues: map[string]string{
		"alpha":  "the scalar alpha (host or device, by the pointer mode)",
		"beta":   "the scalar beta (host or device, by the pointer mode)",
		"result": "a reduction's one result (host or device, by the pointer mode)",
		"s":      "rot's sine, one value",
		"a":      "rotg's a, one value in and out",
		"b":      "rotg's b, one value in and out",
	}},
	LockLibs:  []string{"libcublas12"},
	Needs:     []ir.Library{"cublaslt"},
	Summaries: blasSummaries,
}
