package library

// CuSPARSELt is NVIDIA's structured-sparsity matrix multiplication
// library: package cusparselt, libcusparseLt.so.0, versioned apart from
// CUDA (0.8.0), its header from its wheel (nvidia-cusparselt-cu13). Its
// status is cuSPARSE's cusparseStatus_t (cusparseLt.h includes
// cusparse.h): the package's errors are cusparse.Status values.
var CuSPARSELt = &Desc{
	Key:      "cusparselt",
	API:      "cuSPARSELt",
	Title:    "cuSPARSELt",
	Package:  "cusparselt",
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
