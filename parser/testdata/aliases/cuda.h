#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12040

#define CUDAAPI

/* Versioned entry points: C programs write the API name, link the symbol. */
#define cuDeviceTotalMem                    cuDeviceTotalMem_v2
#define cuCtxCreate                         cuCtxCreate_v2
#define cuMemAlloc                          cuMemAlloc_v2

typedef unsigned long long CUdeviceptr_v2;
typedef CUdeviceptr_v2 CUdeviceptr;
typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;
typedef struct CUctx_st *CUcontext;
typedef __SIZE_TYPE__ size_t;

typedef enum cudaError_enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1
} CUresult;

typedef struct CUexecAffinityParam_st {
    int type;
} CUexecAffinityParam;

/**
 * \brief Returns the total amount of memory on the device
 *
 * \param bytes - Returned memory available on device in bytes
 * \param dev   - Device handle
 */
CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice dev);

/**
 * \brief Create a CUDA context
 *
 * \param pctx  - Returned context handle of the new context
 * \param flags - Context creation flags
 * \param dev   - Device to create context on
 */
CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);

/**
 * \brief Create a CUDA context with execution affinity
 *
 * \param pctx        - Returned context handle of the new context
 * \param paramsArray - Execution affinity parameters
 * \param numParams   - Number of execution affinity parameters
 * \param flags       - Context creation flags
 * \param dev         - Device to create context on
 */
CUresult CUDAAPI cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams, unsigned int flags, CUdevice dev);

/**
 * \brief Allocates device memory
 *
 * \param dptr     - Returned device pointer
 * \param bytesize - Requested allocation size in bytes
 */
CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);

/**
 * \brief Returns a handle to a compute device
 *
 * \param device  - Returned device handle
 * \param ordinal - Device number to get handle for
 */
CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal);

/* Unversioned entry points, kept for old binaries. */
#if defined(__CUDA_API_VERSION_INTERNAL)
#undef cuMemAlloc
CUresult CUDAAPI cuMemAlloc(unsigned int *dptr, unsigned int bytesize);
#endif

#endif
