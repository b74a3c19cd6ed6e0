package library

import "github.com/cugen/cugen/parser/ir"

// The CUDA math libraries besides cuBLAS. Each is versioned apart from
// CUDA (cuFFT 11 ships with CUDA 12, cuRAND 10 with both): its soname
// carries its own major, which its GetProperty must report.

// CuBLASLt is cuBLAS's lightweight matmul API: package cublaslt,
// libcublasLt.so.N.
var CuBLASLt = &Desc{
	Key:     "cublaslt",
	API:     "cuBLASLt",
	Title:   "cuBLASLt",
	Package: "cublaslt",
	Doc: `# Pointers: which memory each parameter is

No parameter in device memory is a Go pointer. Matmul's and
MatrixTransform's matrices (a, b, c, d) and Matmul's workspace are an
ffi.DeviceAddr (ffi.DeviceAddr(d) for a cu.Deviceptr d); alpha and beta
are an ffi.HostOrDeviceAddr, host or device memory by the descriptor's
pointer mode attribute (host by default: ffi.Host(&alpha).Untyped()). The
descriptors, attribute buffers and the heuristic's results stay Go
pointers. audit.txt lists each pointer parameter with its memory and the
reason (its "memory" lines).`,
	Imports:     []ir.Library{ir.Runtime, "cublas"},
	Include:     []string{"cublasLt.h"},
	Declare:     []string{"cublasLt.h"},
	Prefixes:    []string{"CUBLASLT_", "cublasLt"},
	Status:      "cublasStatus_t",
	ErrorString: "cublasLtGetStatusString",
	Load: Load{
		Name:     "cuBLASLt %d",
		EnvVar:   "CUGEN_LIBCUBLASLT",
		Files:    map[int][]string{12: {"libcublasLt.so.12"}, 13: {"libcublasLt.so.13"}},
		Wheels:   map[int][]string{12: {"nvidia/cublas/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "cublasLtGetProperty",
		Version:  Version{Symbol: "cublasLtGetProperty", Form: Property, Macros: [2]string{"CUBLAS_VER_MAJOR", "CUBLAS_VER_MINOR"}},
	},
	Unexported: map[string]string{
		"cublasLtDisableCpuInstructionsSetMask": "declared in cublasLt.h 12.4, not exported by libcublasLt.so.12.4.5",
	},
	LockLibs:  []string{"libcublaslt12"},
	Overrides: Overrides{Memory: cublasLtMemory},
}

// CuRAND generates random numbers on the GPU: package curand,
// libcurand.so.10 with CUDA 12 and 13.
var CuRAND = &Desc{
	Key:     "curand",
	API:     "cuRAND",
	Title:   "cuRAND",
	Package: "curand",
	Imports: []ir.Library{ir.Runtime},
	Doc: `# Pointers: which memory each parameter is

The generate functions write to the memory their generator's kind says:
device memory for a generator of CreateGenerator, host memory for one of
CreateGeneratorHost. Their outputPtr is therefore an ffi.HostOrDevice[T]:
ffi.Device(ffi.DevicePtr[float32](d)) for a cu.Deviceptr d, ffi.Host(&dst[0])
for a Go slice dst, with no unsafe either way. audit.txt lists each pointer
parameter with its memory and the reason (its "memory" lines).`,
	Include:  []string{"curand.h"},
	Declare:  []string{"curand.h"},
	Prefixes: []string{"CURAND_", "curand"},
	Status:   "curandStatus_t",
	Load: Load{
		Name:     "cuRAND (CUDA %d)",
		EnvVar:   "CUGEN_LIBCURAND",
		Files:    map[int][]string{12: {"libcurand.so.10"}, 13: {"libcurand.so.10"}},
		Wheels:   map[int][]string{12: {"nvidia/curand/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "curandGetProperty",
		Version:  Version{Symbol: "curandGetProperty", Form: Property, Macros: [2]string{"CURAND_VER_MAJOR", "CURAND_VER_MINOR"}},
	},
	Overrides: Overrides{Memory: curandMemory},
	Unexported: map[string]string{
		"curandGenerateBinomial":       "declared in curand.h 10.3.5, not exported by libcurand.so.10.3.5",
		"curandGenerateBinomialMethod": "declared in curand.h 10.3.5, not exported by libcurand.so.10.3.5",
	},
	LockLibs: []string{"libcurand10"},
}

// CuFFT computes fast Fourier transforms: package cufft, libcufft.so.11
// with CUDA 12, libcufft.so.12 with CUDA 13.
var CuFFT = &Desc{
	Key:     "cufft",
	API:     "cuFFT",
	Title:   "cuFFT",
	Package: "cufft",
	Imports: []ir.Library{ir.Runtime},
	Doc: `# Pointers: which memory each parameter is

The data of a transform (the idata and odata of the Exec functions) and
SetWorkArea's work area are device memory, never a Go pointer: an
ffi.DevicePtr[T] (ffi.DeviceAddr for void *). A cu.Deviceptr d converts
with no unsafe: ffi.DevicePtr[Complex](d). The plan functions' size
arrays (n, inembed, onembed) are host memory the call reads: Go pointers.
audit.txt lists each pointer parameter with its memory and the reason
(its "memory" lines).`,
	Include:  []string{"cufft.h"},
	Declare:  []string{"cufft.h"},
	Prefixes: []string{"CUFFT_", "cufft"},
	Status:   "cufftResult",
	Load: Load{
		Name:     "cuFFT (CUDA %d)",
		EnvVar:   "CUGEN_LIBCUFFT",
		Files:    map[int][]string{12: {"libcufft.so.11"}, 13: {"libcufft.so.12"}},
		Wheels:   map[int][]string{12: {"nvidia/cufft/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "cufftGetProperty",
		Version:  Version{Symbol: "cufftGetProperty", Form: Property, Macros: [2]string{"CUFFT_VER_MAJOR", "CUFFT_VER_MINOR"}},
	},
	Overrides: Overrides{Memory: cufftMemory},
	LockLibs:  []string{"libcufft11"},
}

// CuSPARSE is sparse linear algebra: package cusparse, libcusparse.so.12.
var CuSPARSE = &Desc{
	Key:     "cusparse",
	API:     "cuSPARSE",
	Title:   "cuSPARSE",
	Package: "cusparse",
	Imports: []ir.Library{ir.Runtime},
	Doc: `# Pointers: which memory each parameter is

No parameter in device memory is a Go pointer. audit.txt lists each
pointer parameter with its memory and the reason (its "memory" lines):

  - Device memory: the arrays a generic descriptor refers to (CreateCsr's
    csrRowOffsets, csrColInd and csrValues, CreateDnVec's values, the
    Set*Pointers and Set*Values functions), the legacy routines' sparse
    and dense arrays (csrSortedValA, bsrSortedRowPtr, x, y, A, B, dl, d,
    du, ...) and every work buffer (externalBuffer, pBuffer, buffer) are
    an ffi.DevicePtr[T] (ffi.DeviceAddr for void *). A cu.Deviceptr d
    converts with no unsafe: ffi.DevicePtr[float32](d), or
    ffi.DeviceAddr(d).
  - Host or device, by the handle's pointer mode (SetPointerMode): the
    scalars alpha and beta, SpVV's result, the zero-pivot position, the
    Nnz functions' nnzTotalDevHostPtr and nnzC, the numeric boost's tol
    and boost_val and the prune thresholds are an ffi.HostOrDevice[T]
    (ffi.HostOrDeviceAddr for void *). In PointerModeHost, the default,
    pass ffi.Host(&alpha) (ffi.Host(&alpha).Untyped() for void *); in
    PointerModeDevice, ffi.Device(p).
  - Host memory: sizes, the getters' outputs (CsrGet writes the device
    addresses the descriptor holds into host variables), csrcolor's
    fractionToColor and ncolors, the attributes' values and SpMMOp's
    LTO-IR buffers stay Go pointers.`,
	Include:     []string{"cusparse.h"},
	Declare:     []string{"cusparse.h"},
	Prefixes:    []string{"CUSPARSE_", "cusparse"},
	Status:      "cusparseStatus_t",
	ErrorString: "cusparseGetErrorString",
	Load: Load{
		Name:     "cuSPARSE (CUDA %d)",
		EnvVar:   "CUGEN_LIBCUSPARSE",
		Files:    map[int][]string{12: {"libcusparse.so.12"}, 13: {"libcusparse.so.12"}},
		Wheels:   map[int][]string{12: {"nvidia/cusparse/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "cusparseGetProperty",
		Version:  Version{Symbol: "cusparseGetProperty", Form: Property, Macros: [2]string{"CUSPARSE_VER_MAJOR", "CUSPARSE_VER_MINOR"}},
	},
	Unexported: map[string]string{
		"cusparseCbsric02_bufferSizeExt":     "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseCbsrilu02_bufferSizeExt":    "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseCbsrsm2_bufferSizeExt":      "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseCbsrsv2_bufferSizeExt":      "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseCcsr2gebsr_bufferSizeExt":   "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseCcsric02_bufferSizeExt":     "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseCcsrilu02_bufferSizeExt":    "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseCgebsr2gebsc_bufferSizeExt": "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseCgebsr2gebsr_bufferSizeExt": "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseDbsric02_bufferSizeExt":     "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseDbsrilu02_bufferSizeExt":    "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseDbsrsm2_bufferSizeExt":      "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseDbsrsv2_bufferSizeExt":      "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseDcsr2gebsr_bufferSizeExt":   "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseDcsric02_bufferSizeExt":     "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseDcsrilu02_bufferSizeExt":    "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseDgebsr2gebsc_bufferSizeExt": "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseDgebsr2gebsr_bufferSizeExt": "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseSbsric02_bufferSizeExt":     "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseSbsrilu02_bufferSizeExt":    "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseSbsrsm2_bufferSizeExt":      "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseSbsrsv2_bufferSizeExt":      "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseScsr2gebsr_bufferSizeExt":   "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseScsric02_bufferSizeExt":     "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseScsrilu02_bufferSizeExt":    "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseSgebsr2gebsc_bufferSizeExt": "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseSgebsr2gebsr_bufferSizeExt": "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseZbsric02_bufferSizeExt":     "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseZbsrilu02_bufferSizeExt":    "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseZbsrsm2_bufferSizeExt":      "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseZbsrsv2_bufferSizeExt":      "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseZcsr2gebsr_bufferSizeExt":   "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseZcsric02_bufferSizeExt":     "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseZcsrilu02_bufferSizeExt":    "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseZgebsr2gebsc_bufferSizeExt": "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseZgebsr2gebsr_bufferSizeExt": "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
		"cusparseXgebsr2csr":                 "declared in cusparse.h 12.3, not exported by libcusparse.so.12.3.1",
	},
	Overrides: Overrides{Memory: cusparseMemory, AlignedValues: map[string]string{
		"alpha":     "the scalar alpha (host or device, by the pointer mode)",
		"beta":      "the scalar beta (host or device, by the pointer mode)",
		"boost_val": "the one value a numeric boost replaces a small pivot with",
	}},
	LockLibs: []string{"libcusparse12"},
	Needs:    []ir.Library{"nvjitlink"},
}

// CuSOLVER's dense solvers: package cusolver (cusolverDn.h and the common
// header), libcusolver.so.11 with CUDA 12, libcusolver.so.12 with CUDA 13.
var CuSOLVER = &Desc{
	Key:       "cusolver",
	API:       "cuSOLVER",
	Title:     "cuSOLVER",
	Package:   "cusolver",
	Imports:   []ir.Library{ir.Runtime, "cublas"},
	Include:   []string{"cusolverDn.h"},
	Declare:   []string{"cusolverDn.h", "cusolver_common.h"},
	Prefixes:  []string{"CUSOLVER_", "cusolverDn", "cusolver"},
	Status:    "cusolverStatus_t",
	Overrides: Overrides{Memory: cusolverMemory},
	Load: Load{
		Name:     "cuSOLVER (CUDA %d)",
		EnvVar:   "CUGEN_LIBCUSOLVER",
		Files:    map[int][]string{12: {"libcusolver.so.11"}, 13: {"libcusolver.so.12"}},
		Wheels:   map[int][]string{12: {"nvidia/cusolver/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "cusolverGetProperty",
		Version:  Version{Symbol: "cusolverGetProperty", Form: Property, Macros: [2]string{"CUSOLVER_VER_MAJOR", "CUSOLVER_VER_MINOR"}},
	},
	Unexported: map[string]string{
		"cusolverDnLoggerSetCallback":  "declared in cusolverDn.h 11.6, not exported by libcusolver.so.11.6.1",
		"cusolverDnLoggerSetFile":      "declared in cusolverDn.h 11.6, not exported by libcusolver.so.11.6.1",
		"cusolverDnLoggerOpenFile":     "declared in cusolverDn.h 11.6, not exported by libcusolver.so.11.6.1",
		"cusolverDnLoggerSetLevel":     "declared in cusolverDn.h 11.6, not exported by libcusolver.so.11.6.1",
		"cusolverDnLoggerSetMask":      "declared in cusolverDn.h 11.6, not exported by libcusolver.so.11.6.1",
		"cusolverDnLoggerForceDisable": "declared in cusolverDn.h 11.6, not exported by libcusolver.so.11.6.1",
	},
	LockLibs: []string{"libcusolver11"},
	Needs:    []ir.Library{"nvjitlink", "cusparse", "cublas", "cublaslt"},
}
