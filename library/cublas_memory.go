package library

// cublasMemory is where each pointer parameter of cuBLAS points, from the
// cuBLAS Library guide (docs.nvidia.com/cuda/cublas), whose tables give
// each parameter's memory: "device" for matrices, vectors and the batched
// functions' arrays of pointers, "host or device" for the scalars and
// results the pointer mode governs (cublasSetPointerMode),
// "host" for the host side of the copy helpers and for the arrays of
// gemmGroupedBatched. The headers themselves say nothing of memory.
var cublasMemory = func() map[string]MemoryRule {
	rows := map[string]MemoryRule{}
	device := func(why string) MemoryRule { return MemoryRule{Memory: DeviceMemory, Why: why} }
	host := func(why string) MemoryRule { return MemoryRule{Memory: HostMemory, Why: why} }
	either := MemoryRule{Memory: HostOrDeviceMemory, Why: "a scalar or result in host or device memory by the handle's pointer mode (host with CUBLAS_POINTER_MODE_HOST, the default; device with CUBLAS_POINTER_MODE_DEVICE)"}

	memoryNames(rows, device("a matrix or vector: the guide's tables say device memory"), "A AP B C x y")
	memoryNames(rows, device("a batched function's array of device pointers, itself in device memory (the guide's tables: device)"), "Aarray Barray Carray Ainv TauArray xarray yarray")
	memoryNames(rows, device("an array of pivots or statuses in device memory (the guide's tables: device)"), "P devIpiv devInfoArray")
	memoryNames(rows, device("the device side of a copy helper (devicePtr)"), "devicePtr")
	memoryNames(rows, device("cublasSetWorkspace: the user-owned workspace is device memory"), "workspace")
	memoryRows(rows, device("where the emulated GEMMs write the mantissa bit count they chose, in stream order: device memory (the guide's table for it; cuBLAS 13)"),
		"mantissaBitCount", "cublasSetFixedPointEmulationMantissaBitCountPointer")
	memoryNames(rows, either, "alpha beta result")
	memoryNames(rows, MemoryRule{Memory: HostOrDeviceMemory, Why: "a rotation's scalar or parameter array in host or device memory by the pointer mode (the guide's rot, rotg, rotm and rotmg)"}, "a b c s param d1 d2 x1 y1")
	memoryNames(rows, host("gemmGroupedBatched: an array with one entry a group, in host memory (the guide's table for it)"),
		"alpha_array beta_array group_size m_array n_array k_array lda_array ldb_array ldc_array transa_array transb_array")
	memoryNames(rows, host("the host side of a copy helper (hostPtr)"), "hostPtr")

	// The copy helpers: the side that is host memory.
	hostSide := host("the host side of a copy helper (cublasSetMatrix, cublasGetMatrix, cublasSetVector, cublasGetVector and their Async forms)")
	memoryRows(rows, hostSide, "A", "cublasSetMatrix", "cublasSetMatrix_64", "cublasSetMatrixAsync", "cublasSetMatrixAsync_64")
	memoryRows(rows, hostSide, "B", "cublasGetMatrix", "cublasGetMatrix_64", "cublasGetMatrixAsync", "cublasGetMatrixAsync_64")
	memoryRows(rows, hostSide, "x", "cublasSetVector", "cublasSetVector_64")
	memoryRows(rows, hostSide, "y", "cublasGetVector", "cublasGetVector_64")

	// info: a device array of statuses, one a matrix, for the functions
	// that report one a matrix; a host int for those that report only on
	// their arguments.
	for _, t := range []string{"S", "D", "C", "Z"} {
		memoryRows(rows, device("infoArray: one status a matrix, in device memory (the guide's table: device)"), "info",
			"cublas"+t+"getrfBatched", "cublas"+t+"getriBatched", "cublas"+t+"matinvBatched")
		memoryRows(rows, host("info: the status of the arguments, in host memory (the guide's table: host)"), "info",
			"cublas"+t+"getrsBatched", "cublas"+t+"geqrfBatched", "cublas"+t+"gelsBatched")
	}
	return rows
}()
