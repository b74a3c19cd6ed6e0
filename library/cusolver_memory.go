package library

// cusolverMemory is where each pointer parameter of cuSOLVER's dense API
// (cusolverDn.h) points, from the cuSOLVER Library guide
// (docs.nvidia.com/cuda/cusolver), whose tables give each parameter's
// memory: "device" for the matrices, vectors, pivots, workspaces and the
// info outputs, "host" for the host workspace of the 64-bit API, the
// buffer sizes, the eigenvalue bounds and counts of syevdx and the
// iteration counts and residuals the helper functions report. The headers
// themselves say nothing of memory.
var cusolverMemory = func() map[string]MemoryRule {
	rows := map[string]MemoryRule{}
	device := func(why string) MemoryRule { return MemoryRule{Memory: DeviceMemory, Why: why} }
	host := func(why string) MemoryRule { return MemoryRule{Memory: HostMemory, Why: why} }

	memoryNames(rows, device("a matrix or vector: the guide's tables say device memory"),
		"A B C D E S U V VT W T VL VR d e tau TAU TAUP TAUQ dA dB dX d_A d_S d_U d_V d_T d_tau Srand Urand Vrand")
	memoryNames(rows, device("a batched function's array of device pointers, itself in device memory (the guide's potrfBatched and potrsBatched: device)"), "Aarray")
	memoryNames(rows, device("a workspace the caller allocated in device memory, of the size the _bufferSize function gave (the guide's tables: device)"),
		"work Work Workspace d_work dWorkspace bufferOnDevice pBuffer")
	memoryNames(rows, device("gesvd's rwork: the unconverged superdiagonal elements, in device memory (the guide's table: device)"), "rwork")
	memoryNames(rows, device("pivots in device memory (the guide's tables: device)"), "devIpiv dipiv ipiv")
	memoryNames(rows, device("the status the call writes in stream order, in device memory (the guide's devInfo, info and infoArray: device)"),
		"devInfo info d_info infoArray")

	memoryNames(rows, host("the 64-bit API's host workspace, of the size the _bufferSize function gave (the guide's bufferOnHost: host)"), "bufferOnHost")
	memoryNames(rows, host("a workspace size the _bufferSize function writes to host memory"), "lwork workspaceInBytesOnDevice workspaceInBytesOnHost")
	memoryNames(rows, host("syevdx's bounds of the eigenvalue interval, read from host memory (the guide's vl and vu: host)"), "vl vu")
	memoryNames(rows, host("syevdx's count of eigenvalues found, written to host memory (the guide's meig: host)"), "meig meig64 h_meig")
	memoryNames(rows, host("gesv's and the IRS functions' iteration count, in host memory (the guide's iter and niters: host)"), "iter niters outer_niters maxiters")
	memoryNames(rows, host("a value the call reports in host memory (the guide's h_R_nrmF, h_err_sigma, syevjGetResidual and syevjGetSweeps: host)"),
		"h_R_nrmF h_err_sigma residual executed_sweeps")
	memoryNames(rows, host("cusolverDnIRSInfosGetResidualHistory writes the address of a host array it owns"), "residual_history")
	memoryNames(rows, host("the logger's C stream, a host FILE"), "file")

	// Creating a syevj or gesvdj parameter set returns its handle to the
	// host, unlike the status outputs of the same name.
	memoryRows(rows, host("the new handle, written to host memory"), "info", "cusolverDnCreateSyevjInfo", "cusolverDnCreateGesvdjInfo")
	return rows
}()
