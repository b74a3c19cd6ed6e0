package library

import "github.com/cugen/cugen/parser/ir"

// cuSOLVER's sparse APIs, in libcusolver.so.N itself (11 with CUDA 12, 12
// with CUDA 13), loaded again through the same override variable as
// package cusolver, as cuBLASXt is libcublas's.
//
// Each is a package of its own, not part of package cusolver:
//   - Go names read as NVIDIA's without their API's prefix, as in every
//     package: cusolverSpDcsrlsvqr is cusolversp.Dcsrlsvqr and
//     cusolverRfCreate is cusolverrf.Create. In one package, cusolverSp
//     and cusolverRf could not drop their prefixes (cusolverDnCreate,
//     cusolverSpCreate and cusolverRfCreate would all be Create).
//   - The three APIs have their own handles and share nothing but
//     cusolver_common.h's types (cusolverStatus_t: each package's Status,
//     as cusolvermg's).
//   - cuSOLVERSp takes cuSPARSE's matrix descriptor (cusparse.MatDescr):
//     package cusolversp imports cusparse, so package cusolver, the dense
//     API most programs use, does not.

// CuSOLVERSp is cuSOLVER's sparse API (cusolverSp.h: QR, Cholesky and LU
// solvers, least squares and eigenvalues on CSR matrices) with its
// low-level preview API (cusolverSp_LOWLEVEL_PREVIEW.h: the csrqr, csrlu
// and csrchol factorizations in steps, on the host or the device):
// package cusolversp.
var CuSOLVERSp = &Desc{
	Key:      "cusolversp",
	API:      "cuSOLVERSp",
	Title:    "cuSOLVERSp",
	Package:  "cusolversp",
	Imports:  []ir.Library{ir.Runtime, "cusparse", "cusolver"},
	Include:  []string{"cusolverSp.h", "cusolverSp_LOWLEVEL_PREVIEW.h"},
	Declare:  []string{"cusolverSp.h", "cusolverSp_LOWLEVEL_PREVIEW.h"},
	Prefixes: []string{"CUSOLVERSP_", "cusolverSp", "CUSOLVER_", "cusolver"},
	Status:   "cusolverStatus_t",
	Doc: "Matrices are in CSR form, described by cuSPARSE's descriptor (cusparse.MatDescr, made with " +
		"cusparse.CreateMatDescr). A function whose name ends in Host works on host memory on the CPU; " +
		"the others take device memory and run on the handle's stream. The ...Info types of the low-level " +
		"API (CsrqrInfo, CsrluInfoHost, ...) hold a factorization between its steps.\n\n" +
		"# Pointers: which memory each parameter is\n\n" +
		"No parameter in device memory is a Go pointer: the arrays of a function that runs on the device " +
		"(the matrix, b, x, mu, the work buffer) are an ffi.DevicePtr[T] (an ffi.DeviceAddr for void *), and a " +
		"Host function's arrays are Go pointers, as are the counts and statuses (singularity, position, the " +
		"buffer sizes). audit.txt lists each pointer parameter with its memory and the reason (its \"memory\" lines).",
	Load: Load{
		Name:     "cuSOLVER (CUDA %d, cuSOLVERSp)",
		EnvVar:   "CUGEN_LIBCUSOLVER",
		Files:    map[int][]string{12: {"libcusolver.so.11"}, 13: {"libcusolver.so.12"}},
		Wheels:   map[int][]string{12: {"nvidia/cusolver/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "cusolverSpCreate",
		// cuSOLVERSp is libcusolver's: its major is checked as cuSOLVER's is.
		Version: Version{Symbol: "cusolverGetProperty", Form: Property},
	},
	Overrides: Overrides{Directions: spOutputs(), Memory: cusolverSpMemory},
	LockLibs:  []string{"libcusolver11"},
	Needs:     []ir.Library{"nvjitlink", "cusparse", "cublas", "cublaslt"},
}

// CuSOLVERRf is cuSOLVER's refactorization API (cusolverRf.h: LU
// refactorization of a sequence of sparse matrices with one sparsity
// pattern, on the device): package cusolverrf.
var CuSOLVERRf = &Desc{
	Key:      "cusolverrf",
	API:      "cuSOLVERRf",
	Title:    "cuSOLVERRf",
	Package:  "cusolverrf",
	Imports:  []ir.Library{"cusolver"},
	Include:  []string{"cusolverRf.h"},
	Declare:  []string{"cusolverRf.h"},
	Prefixes: []string{"CUSOLVERRF_", "cusolverRf", "CUSOLVER_", "cusolver"},
	Status:   "cusolverStatus_t",
	Doc: "# Pointers: which memory each parameter is\n\n" +
		"cuSOLVERRf works on the device: the matrices, factors, permutations and right-hand sides are an " +
		"ffi.DevicePtr[T], and the batched functions' arrays of matrices a host array of device pointers " +
		"(*ffi.DevicePtr[T], &arr[0]). The h_ parameters of the Setup and Extract functions, the counts and " +
		"the settings are host memory, Go pointers. audit.txt lists each pointer parameter with its memory " +
		"and the reason (its \"memory\" lines).",
	Load: Load{
		Name:     "cuSOLVER (CUDA %d, cuSOLVERRf)",
		EnvVar:   "CUGEN_LIBCUSOLVER",
		Files:    map[int][]string{12: {"libcusolver.so.11"}, 13: {"libcusolver.so.12"}},
		Wheels:   map[int][]string{12: {"nvidia/cusolver/lib"}, 13: {"nvidia/cu13/lib"}},
		Identify: "cusolverRfCreate",
		// cuSOLVERRf is libcusolver's: its major is checked as cuSOLVER's is.
		Version: Version{Symbol: "cusolverGetProperty", Form: Property},
	},
	// cusolverRf.h documents nothing; its getters write every pointer
	// they take (cusolverRf.c of NVIDIA's samples reads both values).
	Overrides: Overrides{Memory: cusolverRfMemory, Directions: map[string]DirectionOverride{
		"cusolverRfGetAlgs.factAlg":           {Dir: ir.Out, Why: "a getter: written with solveAlg, the current factorization algorithm"},
		"cusolverRfGetMatrixFormat.format":    {Dir: ir.Out, Why: "a getter: written with diag, the current matrix format"},
		"cusolverRfGetNumericProperties.zero": {Dir: ir.Out, Why: "a getter: written with boost, the current zero-pivot threshold"},
	}},
	LockLibs: []string{"libcusolver11"},
	Needs:    []ir.Library{"nvjitlink", "cusparse", "cublas", "cublaslt"},
}

// spOutputs are the scalar outputs of cuSOLVERSp, which cusolverSp.h
// does not document (cuSOLVER's documentation does: each is host
// output): the sizes each BufferInfo function returns, and the solvers'
// singularity, rank, residual norm, eigenvalue count and symmetry.
// Arrays (x, p) and the device scalar mu stay pointers.
func spOutputs() map[string]DirectionOverride {
	out := map[string]DirectionOverride{}
	for _, f := range []string{
		"cusolverSpCcsrcholBufferInfo", "cusolverSpCcsrcholBufferInfoHost",
		"cusolverSpCcsrluBufferInfoHost", "cusolverSpCcsrqrBufferInfo",
		"cusolverSpCcsrqrBufferInfoBatched", "cusolverSpCcsrqrBufferInfoHost",
		"cusolverSpDcsrcholBufferInfo", "cusolverSpDcsrcholBufferInfoHost",
		"cusolverSpDcsrluBufferInfoHost", "cusolverSpDcsrqrBufferInfo",
		"cusolverSpDcsrqrBufferInfoBatched", "cusolverSpDcsrqrBufferInfoHost",
		"cusolverSpScsrcholBufferInfo", "cusolverSpScsrcholBufferInfoHost",
		"cusolverSpScsrluBufferInfoHost", "cusolverSpScsrqrBufferInfo",
		"cusolverSpScsrqrBufferInfoBatched", "cusolverSpScsrqrBufferInfoHost",
		"cusolverSpZcsrcholBufferInfo", "cusolverSpZcsrcholBufferInfoHost",
		"cusolverSpZcsrluBufferInfoHost", "cusolverSpZcsrqrBufferInfo",
		"cusolverSpZcsrqrBufferInfoBatched", "cusolverSpZcsrqrBufferInfoHost",
	} {
		out[f+".internalDataInBytes"] = DirectionOverride{Dir: ir.Out, Why: "the bytes of internal data the factorization keeps: a host value the function writes"}
		out[f+".workspaceInBytes"] = DirectionOverride{Dir: ir.Out, Why: "the bytes of workspace the factorization needs: a host value the function writes"}
	}
	for param, fs := range map[string][]string{
		"singularity": {
			"cusolverSpCcsrlsvchol", "cusolverSpCcsrlsvcholHost",
			"cusolverSpCcsrlsvluHost", "cusolverSpCcsrlsvqr",
			"cusolverSpCcsrlsvqrHost", "cusolverSpDcsrlsvchol",
			"cusolverSpDcsrlsvcholHost", "cusolverSpDcsrlsvluHost",
			"cusolverSpDcsrlsvqr", "cusolverSpDcsrlsvqrHost",
			"cusolverSpScsrlsvchol", "cusolverSpScsrlsvcholHost",
			"cusolverSpScsrlsvluHost", "cusolverSpScsrlsvqr",
			"cusolverSpScsrlsvqrHost", "cusolverSpZcsrlsvchol",
			"cusolverSpZcsrlsvcholHost", "cusolverSpZcsrlsvluHost",
			"cusolverSpZcsrlsvqr", "cusolverSpZcsrlsvqrHost",
		},
		"issym": {
			"cusolverSpXcsrissymHost",
		},
		"rankA": {
			"cusolverSpCcsrlsqvqrHost", "cusolverSpDcsrlsqvqrHost",
			"cusolverSpScsrlsqvqrHost", "cusolverSpZcsrlsqvqrHost",
		},
		"min_norm": {
			"cusolverSpCcsrlsqvqrHost", "cusolverSpDcsrlsqvqrHost",
			"cusolverSpScsrlsqvqrHost", "cusolverSpZcsrlsqvqrHost",
		},
		"num_eigs": {
			"cusolverSpCcsreigsHost", "cusolverSpDcsreigsHost",
			"cusolverSpScsreigsHost", "cusolverSpZcsreigsHost",
		},
	} {
		for _, f := range fs {
			out[f+"."+param] = DirectionOverride{Dir: ir.Out, Why: spOutputWhy[param]}
		}
	}
	return out
}

var spOutputWhy = map[string]string{
	"singularity": "the index of the first zero pivot, or -1: a host value the solver writes (cuSOLVER documents it as host output)",
	"issym":       "1 if the matrix is symmetric, else 0: a host value the function writes",
	"rankA":       "the numerical rank: a host value the function writes",
	"min_norm":    "the norm of the least-squares residual: a host value the function writes",
	"num_eigs":    "the number of eigenvalues in the box: a host value the function writes",
}
