package library

// cusolverSpMemory is where each pointer parameter of cuSOLVERSp points,
// from the cuSOLVER guide's sparse sections (docs.nvidia.com/cuda/cusolver),
// whose tables give each parameter's memory: a function whose name ends
// in Host runs on the CPU, all its arrays in host memory; the others take
// the matrix, the right-hand sides, the solution and the work buffer in
// device memory, and report counts and statuses (singularity, position,
// the buffer sizes) in host memory. (The reorderings, rank, eigenvalue
// count and symmetry test exist only as Host functions.)
var cusolverSpMemory = func() map[string]MemoryRule {
	rows := map[string]MemoryRule{}
	device := func(why string) MemoryRule { return MemoryRule{Memory: DeviceMemory, Why: why} }
	host := func(why string) MemoryRule { return MemoryRule{Memory: HostMemory, Why: why} }
	rows["*Host.*"] = host("a function whose name ends in Host runs on the CPU: every array it takes is host memory (the guide's Host functions)")
	memoryNames(rows, device("the CSR matrix: device memory (the guide's tables: device)"),
		"csrValA csrRowPtrA csrColIndA csrVal csrRowPtr csrColInd")
	memoryNames(rows, device("a right-hand side, solution, eigenvector, guess or eigenvalue: device memory (the guide's tables: device)"), "b x x0 mu")
	memoryNames(rows, device("a diagonal the low-level API extracts: device memory (the guide's csrcholDiag, csrqrDiag)"), "diag")
	memoryNames(rows, device("the work buffer the caller allocated, of the size the BufferInfo function gave: device memory"), "pBuffer")
	memoryNames(rows, host("a count, status or size the call reports: host memory (the guide's tables: host)"),
		"singularity position internalDataInBytes workspaceInBytes")
	memoryNames(rows, host("a new handle or info, written to host memory"), "handle info")
	memoryNames(rows, host("cusolverSpGetStream: the stream, written to a host variable"), "streamId")
	return rows
}()

// cusolverRfMemory is where each pointer parameter of cuSOLVERRf points,
// from the cuSOLVER guide's refactorization section: cuSOLVERRf works on
// the device, and its h_ names are the host side of its Setup and Extract
// functions; the batched functions take host arrays of device pointers,
// one a matrix.
var cusolverRfMemory = func() map[string]MemoryRule {
	rows := map[string]MemoryRule{}
	device := func(why string) MemoryRule { return MemoryRule{Memory: DeviceMemory, Why: why} }
	host := func(why string) MemoryRule { return MemoryRule{Memory: HostMemory, Why: why} }
	memoryNames(rows, device("the matrices, factors, permutations and right-hand sides cuSOLVERRf works on: device memory (the guide's tables: device)"),
		"csrRowPtrA csrColIndA csrValA csrRowPtrL csrColIndL csrValL csrRowPtrU csrColIndU csrValU P Q Temp XF")
	memoryNames(rows, MemoryRule{Memory: DeviceMemory, Why: "one device array a matrix of the batch, in a host array (the guide's batched functions), or the device address of a bundled factor, written to a host variable (cusolverRfAccessBundledFactorsDevice)", Arrays: HostMemory},
		"csrValA_array XF_array Mp Mi Mx")
	memoryNames(rows, host("the host side of the Setup and Extract functions (h_ names): host memory (the guide's tables: host)"),
		"h_csrRowPtrA h_csrColIndA h_csrValA h_csrValA_array h_csrRowPtrL h_csrColIndL h_csrValL h_csrRowPtrU h_csrColIndU h_csrValU h_P h_Q h_Mp h_Mi h_Mx h_nnzL h_nnzU h_nnzM")
	memoryNames(rows, host("a count, position or setting the call reports: host memory"), "nnzM position diag factAlg fastMode format report solveAlg zero boost handle")
	return rows
}()
