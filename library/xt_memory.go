package library

// cublasLtMemory is where each pointer parameter of cuBLASLt points, from
// the cuBLASLt API section of the cuBLAS guide (docs.nvidia.com/cuda/cublas),
// whose tables give each parameter's memory: "device" for the matrices
// and the workspace of cublasLtMatmul and cublasLtMatrixTransform, "host"
// for the descriptors' attribute buffers and the heuristic's results.
// alpha and beta are host or device memory by the descriptor's pointer
// mode attribute, as cuBLAS's are by the handle's.
var cublasLtMemory = func() map[string]MemoryRule {
	rows := map[string]MemoryRule{}
	memoryNames(rows, MemoryRule{Memory: DeviceMemory, Why: "a matrix of cublasLtMatmul or cublasLtMatrixTransform: the guide's tables say device memory"}, "A B C D")
	memoryNames(rows, MemoryRule{Memory: DeviceMemory, Why: "cublasLtMatmul's workspace: device memory the caller allocated (the guide's table: device)"}, "workspace")
	memoryNames(rows, MemoryRule{Memory: HostOrDeviceMemory, Why: "a scalar in host or device memory by the descriptor's pointer mode (CUBLASLT_MATMUL_DESC_POINTER_MODE, CUBLASLT_MATRIX_TRANSFORM_DESC_POINTER_MODE: host by default)"}, "alpha beta")
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "a descriptor's or preference's attribute value, or the size written: host memory the call reads or writes (the guide's Get/SetAttribute tables)"}, "buf sizeWritten value")
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "the heuristic's and the algorithm queries' outputs and the algorithm descriptor: host memory (the guide's tables: host)"},
		"algo heuristicResultsArray result returnAlgoCount algoIdsArray capacity")
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "a descriptor (matrix layout, matmul, preference, transform, emulation): a host structure, the caller's (cublasLt*Init) or the library's (cublasLt*Create)"},
		"Adesc Bdesc Cdesc Ddesc computeDesc operationDesc preference matmulDesc pref matLayout transformDesc emulationDesc")
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "cublasLtLoggerSetFile: a host FILE"}, "file")
	return rows
}()

// cublasXtMemory is where each pointer parameter of cuBLASXt points. By
// design cuBLASXt is a host API: the guide (docs.nvidia.com/cuda/cublas,
// "Using the cuBLASXt API") has the application keep its matrices in host
// memory, and cuBLASXt tiles them across the devices DeviceSelect chose,
// copying each tile in and out; since CUDA 8 a matrix may instead be on
// any device, which cuBLASXt finds by its address (unified addressing),
// not by a setting. Its scalars are host values. So the matrices take
// host or device memory, wherever the caller allocated them, and the
// rest stays Go pointers.
var cublasXtMemory = func() map[string]MemoryRule {
	rows := map[string]MemoryRule{}
	memoryNames(rows, MemoryRule{Memory: HostOrDeviceMemory, Why: "a matrix in host memory (cuBLASXt's design: it tiles host matrices across the devices) or, since CUDA 8, on any device: cuBLASXt finds which by its address"}, "A AP B C")
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "a scalar: cuBLASXt reads it from host memory (the guide's tables: host)"}, "alpha beta")
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "the devices chosen or counted: a host array or int (the guide's cublasXtDeviceSelect and cublasXtMaxBoards)"}, "deviceId nbGpuBoards")
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "cublasXtSetCpuRoutine: the host BLAS routine that computes the CPU's share"}, "blasFunctor")
	return rows
}()

// cusolverMgMemory is where each pointer parameter of cuSOLVERMg points,
// from the cuSOLVER guide's multi-GPU section (docs.nvidia.com/cuda/cusolver):
// a distributed matrix, its pivots and the workspace are one device array
// a device, given as a host array of their device pointers (array_d_A[i]
// on deviceId[i]); the eigenvalues W, info and lwork are host memory.
var cusolverMgMemory = func() map[string]MemoryRule {
	rows := map[string]MemoryRule{}
	memoryNames(rows, MemoryRule{Memory: DeviceMemory, Why: "a distributed matrix, pivots or workspace: a host array of one device pointer a device (the guide's tables: host array of device pointers)", Arrays: HostMemory},
		"array_d_A array_d_B array_d_IPIV array_d_work")
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "the eigenvalues, status and workspace size: host memory (the guide's tables: host)"}, "W info h_info lwork")
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "the devices of the grid: a host array of device ids (the guide's cusolverMgDeviceSelect and cusolverMgCreateDeviceGrid)"}, "deviceId")
	return rows
}()

// cufftXtMemory is where each pointer parameter of cufftXt points, from the
// cuFFT guide's multi-GPU and extensible sections (docs.nvidia.com/cuda/cufft):
// a cudaLibXtDesc is a host structure that holds the device pointers of
// each GPU's part, so the descriptor functions and cufftXtMemcpy take host
// memory; cufftXtExec takes one GPU's data in device memory; the work
// areas and the callers' info of cufftXtSetWorkArea and cufftXtSetCallback
// are host arrays of one device pointer a GPU.
var cufftXtMemory = func() map[string]MemoryRule {
	rows := map[string]MemoryRule{}
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "a cudaLibXtDesc, or the host side of cufftXtMemcpy: a host structure holding each GPU's device pointers (the guide's cufftXtMalloc and cufftXtMemcpy)"}, "descriptor input output dstPointer srcPointer")
	for _, fn := range []string{"cufftXtExec"} {
		memoryRows(rows, MemoryRule{Memory: DeviceMemory, Why: "cufftXtExec's input and output: GPU memory, as cufftExec's (the guide's cufftXtExec)"}, "input", fn)
		memoryRows(rows, MemoryRule{Memory: DeviceMemory, Why: "cufftXtExec's input and output: GPU memory, as cufftExec's (the guide's cufftXtExec)"}, "output", fn)
	}
	memoryNames(rows, MemoryRule{Memory: DeviceMemory, Why: "one device pointer a GPU, in a host array (the guide's cufftXtSetWorkArea and cufftXtSetCallback)", Arrays: HostMemory}, "workArea caller_info callback_routine")
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "cufftXtSetJITCallback: the callback's LTO-IR, a host buffer the call reads"}, "lto_callback_fatbin")
	memoryNames(rows, MemoryRule{Memory: HostMemory, Why: "a plan's sizes, the GPUs chosen, the work sizes and the query's structure: host memory the call reads or writes"}, "n inembed onembed whichGPUs workSize queryStruct")
	return rows
}()
