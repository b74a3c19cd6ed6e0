package library

import "github.com/cugen/cugen/parser/ir"

// CuSPARSELt is NVIDIA's structured-sparsity matrix multiplication
// library: package cusparselt, libcusparseLt.so.0, versioned apart from
// CUDA (0.8.0), its header from its wheel (nvidia-cusparselt-cu13). Its
// status is cuSPARSE's cusparseStatus_t (cusparseLt.h includes
// cusparse.h): the package's errors are cusparse.Status values.
//
// The one header serves both majors (generated/cudaN/ir-cusparselt.json.gz,
// sets 12.4+cusparselt0 and 13.0+cusparselt0): besides cudaStream_t it
// reads cusparseStatus_t, cusparseOperation_t, cusparseOrder_t,
// cusparseComputeType (cusparse.h) and cudaDataType (library_types.h),
// which CUDA 12.4 and 13.0 declare alike but for the data types 13.0 adds
// (CUDA_R_8F_UE4M3, _UE8M0, CUDA_R_6F_E2M3, _E3M2, CUDA_R_4F_E2M1): with
// CUDA 12 a program names those as cudart.DataType(33) and so on. The two
// packages differ only in their origin lines and the cusparse and cudart
// packages they use.
var CuSPARSELt = &Desc{
	Key:      "cusparselt",
	API:      "cuSPARSELt",
	Title:    "cuSPARSELt",
	Package:  "cusparselt",
	Imports:  []ir.Library{ir.Runtime, "cusparse"},
	Include:  []string{"cusparseLt.h"},
	Declare:  []string{"cusparseLt.h"},
	Prefixes: []string{"CUSPARSELT_", "cusparseLt"},
	Status:   "cusparseStatus_t",
	Load: Load{
		Name:     "cuSPARSELt (CUDA %d)",
		EnvVar:   "CUGEN_LIBCUSPARSELT",
		Files:    map[int][]string{12: {"libcusparseLt.so.0"}, 13: {"libcusparseLt.so.0"}},
		Wheels:   map[int][]string{12: {"nvidia/cusparselt/lib"}, 13: {"nvidia/cusparselt/lib"}},
		Pip:      map[int]string{12: "nvidia-cusparselt-cu12", 13: "nvidia-cusparselt-cu13"},
		Apart:    "cuSPARSELt (NVIDIA's libcusparselt0-cuda-12 or -13 package)",
		Identify: "cusparseLtInit",
		Version:  Version{Symbol: "cusparseLtGetProperty", Form: Property, Macros: [2]string{"CUSPARSELT_VER_MAJOR", "CUSPARSELT_VER_MINOR"}},
	},
	Unlocked: "Debian packages no cuSPARSELt: the tests load the machine's, from the wheel or CUGEN_LIBCUSPARSELT, or skip",
}
