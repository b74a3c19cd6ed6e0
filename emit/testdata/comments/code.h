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

/**
 * \brief A code block inside a list item (cuMemcpy2D)
 *
 * where:
 * - first item;
 * - srcMemoryType and dstMemoryType specify the type of memory of the
 *   source and destination, respectively; CUmemorytype_enum is defined as:
 *
 * \code
   typedef enum CUmemorytype_enum {
      CU_MEMORYTYPE_HOST = 0x01
   } CUmemorytype;
 * \endcode
 *
 * For host pointers, the starting address is
 * \code
  void* Start = (void*)((char*)srcHost+srcY*srcPitch + srcXInBytes);
 * \endcode
 */
CUresult CUDAAPI cuCodeInList(void);
