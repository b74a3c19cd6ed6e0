/**
 * \brief See also, over several lines
 *
 * \sa ::cuCtxSynchronize,
 * ::cuSeeAlso(),
 * ::cudaDriverGetVersion,
 * ::CUcontext,
 * ::CU_MEM_LOCATION_TYPE_DEVICE
 */
CUresult CUDAAPI cuSeeAlso(void);

/**
 * \brief nvrtc.h says see
 *
 * \see     ::cuSeeAlso
 */
CUresult CUDAAPI cuCtxSynchronize(void);
