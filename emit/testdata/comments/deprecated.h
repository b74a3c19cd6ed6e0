/**
 * \brief Returns the shared memory configuration.
 *
 * \deprecated
 *
 * This function will return in \p pConfig the current size.
 *
 * \param pConfig - Returned shared memory configuration
 *
 * \return
 * ::CUDA_SUCCESS
 */
CUresult CUDAAPI cuBareDeprecated(int *pConfig);

/**
 * \brief Old call.
 *
 * \deprecated This function is deprecated as of CUDA 5.0
 * and does nothing.
 *
 * It used to sync.
 */
CUresult CUDAAPI cuDeprecatedWithText(void);

/**
 * Errors, some deprecated
 */
typedef enum cuDeprecatedErr_enum {
    /**
     * This indicates that the device is 3 &times; busy. More text.
     */
    CU_DEP_BUSY = 1,
    /**
     * \deprecated
     * This error return is deprecated as of CUDA 5.0. It is no longer an error
     * to attempt to enable/disable the profiling via ::cuCtxSynchronize without
     * initialization.
     */
    CU_DEP_PROFILER = 2,
    CU_DEP_TRAILING = 3 /**< \deprecated This value is deprecated as of CUDA 11.0 */
} cuDeprecatedErr;

/** \brief Synchronizes */
CUresult CUDAAPI cuCtxSynchronize(void);
