#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12040
#define CUDAAPI

#if defined(__GNUC__)
#define __CUDA_DEPRECATED __attribute__((deprecated))
#else
#define __CUDA_DEPRECATED
#endif

typedef struct CUctx_st *CUcontext;
typedef enum cudaError_enum {
    CUDA_SUCCESS = 0
} CUresult;

/**
 * \brief Increment context usage-count
 *
 * \deprecated
 *
 * Note that this function is deprecated and should not be used.
 *
 * \param pctx  - Returned context handle of the current context
 * \param flags - Context attach flags (must be 0)
 */
__CUDA_DEPRECATED CUresult CUDAAPI cuCtxAttach(CUcontext *pctx, unsigned int flags);

/**
 * \brief Decrement a context's usage-count
 *
 * \deprecated
 *
 * \param ctx - Context to destroy
 */
CUresult CUDAAPI cuCtxDetach(CUcontext ctx);

/**
 * \brief Sets the current thread's cache preference (attribute only)
 *
 * \param config - Requested cache configuration
 */
__CUDA_DEPRECATED CUresult CUDAAPI cuCtxSetCacheConfigLegacy(int config);

/**
 * \brief Pushes a context on the current CPU thread
 *
 * This replaces the deprecated ::cuCtxAttach; it is not deprecated itself.
 *
 * \param ctx - Context to push
 */
CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx);

#endif
