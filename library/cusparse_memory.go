package library

import "strings"

// cusparseMemory is where each pointer parameter of cuSPARSE points, from
// the cuSPARSE Library guide (docs.nvidia.com/cuda/cusparse), whose tables
// give each parameter's memory: "device" for the arrays of a sparse or
// dense matrix or vector (the generic API's descriptors keep the device
// pointers they are given) and for the work buffers, "host or device" for
// the scalars and results the handle's pointer mode governs
// (cusparseSetPointerMode), "host" for sizes and for the getters' outputs.
// The headers themselves say nothing of memory.
var cusparseMemory = func() map[string]MemoryRule {
	rows := map[string]MemoryRule{}
	device := func(why string) MemoryRule { return MemoryRule{Memory: DeviceMemory, Why: why} }
	host := func(why string) MemoryRule { return MemoryRule{Memory: HostMemory, Why: why} }
	either := func(why string) MemoryRule { return MemoryRule{Memory: HostOrDeviceMemory, Why: why} }
	const mode = " in host or device memory by the handle's pointer mode (host with CUSPARSE_POINTER_MODE_HOST, the default; device with CUSPARSE_POINTER_MODE_DEVICE)"

	// The legacy (BSR, CSR, COO, CSC) routines' arrays.
	memoryNames(rows, device("an array of a sparse matrix in the legacy format (values, row or column pointers, indices): the guide's tables say device memory"), strings.Join([]string{
		"csrSortedRowPtrA csrSortedColIndA csrSortedValA csrSortedValA_valM csrSortedRowPtrB csrSortedColIndB csrSortedValB",
		"csrSortedRowPtrC csrSortedColIndC csrSortedValC csrSortedRowPtr csrSortedColInd csrSortedVal",
		"csrRowPtr csrColInd csrVal csrRowPtrA csrColIndA csrRowPtrC",
		"bsrSortedRowPtrA bsrSortedColIndA bsrSortedValA bsrSortedRowPtrC bsrSortedColIndC bsrSortedValC",
		"bsrSortedRowPtr bsrSortedColInd bsrSortedVal bsrSortedMaskPtrA bsrSortedEndPtrA",
		"bscVal bscRowInd bscColPtr cscVal cscRowInd cscColPtr cscRowIndA cscColPtrA",
		"cooRowInd cooColInd cooRowsA cooColsA xVal xInd",
	}, " "))
	memoryNames(rows, device("a dense matrix or vector, a right-hand side or a solution: the guide's tables say device memory"), "A B C X x y f")
	memoryNames(rows, device("a diagonal of a tridiagonal or pentadiagonal system (gtsv2, gpsvInterleavedBatch): device memory (the guide's tables)"), "dl d du dw ds")
	memoryNames(rows, device("a per-row or per-column count, permutation or coloring the routine reads or writes: device memory (the guide's tables)"), "nnzPerRow nnzPerRowCol P coloring reordering")
	memoryRows(rows, device("the identity permutation the routine writes: a device array of n (the guide's cusparseCreateIdentityPermutation)"), "p", "cusparseCreateIdentityPermutation")
	memoryNames(rows, device("a work buffer the caller allocates: the guide says device memory"), "pBuffer buffer workspace pInputBuffer externalBuffer externalBuffer1 externalBuffer2 externalBuffer3 externalBuffer4 externalBuffer5")

	// The generic API: the descriptors keep device pointers.
	memoryNames(rows, device("an array a generic descriptor refers to (offsets, indices, values): the guide's cusparseCreate* and Set* say device memory"), strings.Join([]string{
		"csrRowOffsets csrColInd csrValues cscColOffsets cscRowInd cscValues cooValues cooRows cooColumns",
		"bsrRowOffsets bsrColInd bsrValues ellColInd ellValue sellSliceOffsets sellColInd sellValues",
		"values indices newValues",
	}, " "))

	// The pointer mode's scalars and results.
	memoryNames(rows, either("a scalar"+mode), "alpha beta c_coeff s_coeff threshold")
	memoryNames(rows, either("a result"+mode), "result position nnzTotalDevHostPtr nnzC")
	memoryNames(rows, either("csrilu02/bsrilu02 numeric boost: the tolerance and the boost value"+mode), "tol boost_val")

	// Host: sizes the call writes, and what the getters return.
	getters := host("a getter's output: a host variable the call writes (for an array, the device address the descriptor holds)")
	for fn, ps := range map[string]string{
		"cusparseBlockedEllGet": "ellColInd ellValue", "cusparseConstBlockedEllGet": "ellColInd ellValue",
		"cusparseCooGet": "cooRowInd cooColInd cooValues", "cusparseConstCooGet": "cooRowInd cooColInd cooValues",
		"cusparseCscGet": "cscColOffsets cscRowInd cscValues", "cusparseConstCscGet": "cscColOffsets cscRowInd cscValues",
		"cusparseCsrGet": "csrRowOffsets csrColInd csrValues", "cusparseConstCsrGet": "csrRowOffsets csrColInd csrValues",
		"cusparseDnMatGet": "values", "cusparseConstDnMatGet": "values", "cusparseDnMatGetValues": "values", "cusparseConstDnMatGetValues": "values",
		"cusparseDnVecGet": "values", "cusparseConstDnVecGet": "values", "cusparseDnVecGetValues": "values", "cusparseConstDnVecGetValues": "values",
		"cusparseSpMatGetValues": "values", "cusparseConstSpMatGetValues": "values",
		"cusparseSpVecGet": "indices values", "cusparseConstSpVecGet": "indices values",
		"cusparseSpVecGetValues": "values", "cusparseConstSpVecGetValues": "values",
	} {
		for _, p := range strings.Fields(ps) {
			memoryRows(rows, getters, p, fn)
		}
	}
	memoryNames(rows, host("a getter's output: a host variable the call writes (the guide's cusparse*Get* functions)"),
		"rows cols nnz ld size order type format idxType idxBase valueType batchCount batchStride ellBlockSize ellCols ellIdxType csrRowOffsetsType csrColIndType cscColOffsetsType cscRowIndType num_prods")
	memoryNames(rows, host("a buffer size in and out: a host size_t the call reads and writes (the guide's SpGEMM functions)"), "bufferSize1 bufferSize2 bufferSize3 bufferSize4 bufferSize5 SpMMWorkspaceSize")
	memoryNames(rows, host("cusparseSpMMOp_createPlan: the LTO-IR buffers of the user's operators, in host memory the call reads"), "addOperationNvvmBuffer mulOperationNvvmBuffer epilogueNvvmBuffer")
	memoryNames(rows, host("a new descriptor or plan: the host variable the call writes its handle to"), "descr plan")
	memoryNames(rows, host("csrcolor: the fraction to color is a host float the call reads, the color count a host int it writes (the guide's csrcolor table)"), "fractionToColor ncolors")
	memoryNames(rows, host("cusparseSpMatGetAttribute and SetAttribute: the attribute's value in host memory"), "data")
	memoryNames(rows, host("cusparseLoggerSetFile: a host FILE"), "file")
	return rows
}()
