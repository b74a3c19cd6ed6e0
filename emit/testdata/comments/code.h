/**
 * \brief Launches a kernel
 *
 * The parameters are passed as in this example:
 * \code
    size_t argBufferSize;
    char argBuffer[256];

    void *config[] = {
        CU_LAUNCH_PARAM_BUFFER_POINTER, argBuffer,
        CU_LAUNCH_PARAM_END
    };
 * \endcode
 * A paragraph after the code: Go names (::cuCtxSynchronize) are linked here,
 * not in the code above.
 *
 * \code
 * cuCtxSynchronize(); // a comment in the code: ::cuCtxSynchronize stays
 * \endcode
 */
CUresult CUDAAPI cuLaunchSketch(void **extra);

/** \brief Synchronizes */
CUresult CUDAAPI cuCtxSynchronize(void);
