/**
 * \brief Returns the latest CUDA version supported by driver
 *
 * Returns in \p *driverVersion the version of CUDA supported by
 * the driver.
 *
 * \param driverVersion - Returns the CUDA driver version
 *
 * \return
 * ::CUDA_SUCCESS
 */
CUresult CUDAAPI cuDriverGetVersion(int *driverVersion);

/**
 * \brief Initialize the CUDA driver API
 * Initializes the driver API and must be called before any other function from
 * the driver API in the current process. Currently, the \p Flags parameter must be 0.
 *
 * \param Flags - Initialization flag for CUDA.
 */
CUresult CUDAAPI cuInit(unsigned int Flags);

/**
 * \brief Gets the context's API version, over two lines
 * of the brief, which ends at the blank line.
 *
 * \param ctx     - Context to check
 * \param version - Pointer to version
 */
CUresult CUDAAPI cuCtxGetApiVersion(CUcontext ctx, unsigned int *version);

/**
 * A comment with no brief command: its first paragraph opens the description
 */
CUresult CUDAAPI cuCtxSynchronize(void);

/**
 * CUDA device pointer
 * CUdeviceptr is defined as an unsigned integer type whose size matches the size of a pointer on the target platform.
 */
typedef unsigned long long CUdeviceptr_title;
