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

	Sgemm(h, OpN, OpN, n, m, k, ffi.Host(&alpha), b, n, a, k, ffi.Host(&beta), c, n)

B first, m and n swapped, and each leading dimension the row length (the
number of columns) of its row-major matrix; a, b and c are device
pointers (below). To use an operand transposed, pass OpT as the op of the
place it takes (transb for a, transa for b); its leading dimension stays
its row length. SetMatrix and GetMatrix copy column-major too: for a
row-major matrix give them cols as rows, rows as cols and cols as ld.

# Pointers: which memory each parameter is

No parameter in device memory is a Go pointer. audit.txt lists each
pointer parameter with its memory and the reason (its "memory" lines):

  - Device memory: matrices and vectors (A, B, C, AP, x, y), the batched
    functions' arrays of device pointers (Aarray, ..., themselves in device
    memory), pivots and device status arrays (P, devIpiv, infoArray) and
    SetWorkspace's workspace are an ffi.DevicePtr[T] (an ffi.DeviceAddr for
    C's void *, as in GemmEx). A cu.Deviceptr d converts with no unsafe:
    ffi.DevicePtr[float32](d), or ffi.DeviceAddr(d); a cudart.Malloc
    result p as ffi.DevicePtr[float32](uintptr(p)). An array of device
    pointers is an ffi.DevicePtr[ffi.DevicePtr[float32]].
  - Host or device, by the handle's pointer mode (SetPointerMode): the
    scalars alpha and beta, the results of the reductions (Snrm2, Sdot,
    Isamax, ...) and the rotations' scalars (rot's c and s, rotg's a, b, c,
    s, rotm's and rotmg's param, d1, d2, x1, y1) are an
    ffi.HostOrDevice[T] (ffi.HostOrDeviceAddr for void *). In
    PointerModeHost, the default, pass ffi.Host(&alpha) for a Go variable,
    which the call reads, or writes before it returns; in
    PointerModeDevice pass ffi.Device(p) for a device address p, and a
    result is written when the stream reaches the call. For a void *
    parameter add .Untyped(): ffi.Host(&alpha).Untyped().
  - Host memory: the host side of SetMatrix, GetMatrix, SetVector and
    GetVector (and their Async forms), the per-group arrays of
    GemmGroupedBatched, and the info of getrsBatched, geqrfBatched and
    gelsBatched stay Go pointers.

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
	Overrides: Overrides{Memory: cublasMemory, AlignedValues: map[string]string{
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
