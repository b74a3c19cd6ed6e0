/**
 * \brief Returns a list of result codes
 *
 * \return
 * ::CUDA_SUCCESS,
 * ::CUDA_ERROR_DEINITIALIZED,
 * ::CUDA_ERROR_NOT_INITIALIZED
 * \notefnerr
 */
CUresult CUDAAPI cuReturnsList(void);

/**
 * \brief Returns a sentence
 *
 * \returns The dynamic shared memory needed by a block.
 */
size_t CUDAAPI cuReturnsSentence(int blockSize);

/**
 * \brief nvrtc.h lists its results as link items
 *
 * \return
 *   - \link #nvrtcResult NVRTC_SUCCESS \endlink
 *   - \link #nvrtcResult NVRTC_ERROR_INVALID_INPUT \endlink
 *
 * \see     ::cuReturnsList
 */
CUresult CUDAAPI cuReturnsLinks(void);
