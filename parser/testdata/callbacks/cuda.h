#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12040
#define CUDAAPI
#define CUDA_CB

typedef struct CUstream_st *CUstream;
typedef enum cudaError_enum {
    CUDA_SUCCESS = 0
} CUresult;

/**
 * CUDA host function
 * \param userData Argument value passed to the function
 */
typedef void (CUDA_CB *CUhostFn)(void *userData);

/**
 * CUDA stream callback
 * \param hStream The stream the callback was added to, as passed to ::cuStreamAddCallback.  May be NULL.
 * \param status ::CUDA_SUCCESS or any persistent error on the stream.
 * \param userData User parameter provided at registration.
 */
typedef void (CUDA_CB *CUstreamCallback)(CUstream hStream, CUresult status, void *userData);

/**
 * Host node parameters
 */
typedef struct CUDA_HOST_NODE_PARAMS_st {
    CUhostFn fn;    /**< The function to call when the node executes */
    void* userData; /**< Argument to pass to the function */
} CUDA_HOST_NODE_PARAMS;

/**
 * \brief Enqueues a host function call in a stream
 *
 * \param hStream  - Stream to enqueue function call in
 * \param fn       - The function to call once preceding stream operations are complete
 * \param userData - User-specified data to be passed to the function
 */
CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);

/**
 * \brief Add a callback to a compute stream
 *
 * \param hStream  - Stream to add callback to
 * \param callback - The function to call once preceding stream operations are complete
 * \param userData - User specified data to be passed to the callback function
 * \param flags    - Reserved for future use, must be 0
 */
CUresult CUDAAPI cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags);

/**
 * \brief Registers a logging callback (an inline function-pointer parameter)
 *
 * \param callbackFunc - The function to call with each log message
 * \param userData     - User-specified data passed to the callback
 */
CUresult CUDAAPI cuLogsRegisterCallback(void (*callbackFunc)(void *data, int level, const char *message, unsigned long length), void *userData);

#endif
