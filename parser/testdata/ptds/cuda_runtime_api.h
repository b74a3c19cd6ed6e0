#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__

#define CUDART_VERSION 12040
#define CUDARTAPI

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
    #define __CUDART_API_PER_THREAD_DEFAULT_STREAM
    #define __CUDART_API_PTDS(api) api ## _ptds
    #define __CUDART_API_PTSZ(api) api ## _ptsz
#else
    #define __CUDART_API_PTDS(api) api
    #define __CUDART_API_PTSZ(api) api
#endif

/* Only active with per-thread default streams: read from the text. */
#if defined(__CUDART_API_PER_THREAD_DEFAULT_STREAM)
    #define cudaMemcpy                     __CUDART_API_PTDS(cudaMemcpy)
    #define cudaStreamQuery                __CUDART_API_PTSZ(cudaStreamQuery)
#endif

enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1
};

typedef struct CUstream_st *cudaStream_t;

/**
 * \brief Copies data between host and device
 *
 * \param dst   - Destination memory address
 * \param src   - Source memory address
 * \param count - Size in bytes to copy
 * \param kind  - Type of transfer
 */
extern cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);

/**
 * \brief Queries an asynchronous stream for completion status
 *
 * \param stream - Stream identifier
 */
extern cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream);

/**
 * \brief Set device to be used for GPU executions
 *
 * \param device - Device on which the active host thread should execute the device code.
 */
extern cudaError_t CUDARTAPI cudaSetDevice(int device);

#endif
