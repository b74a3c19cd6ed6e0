#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12040
#define CUDAAPI
#define __CUDA_API_PTDS(api) api

typedef struct CUstream_st *CUstream;
typedef int CUdevice;

/**
 * Legacy stream handle
 */
#define CU_STREAM_LEGACY     ((CUstream)0x1)

/**
 * Per-thread stream handle
 */
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

#define CU_DEVICE_CPU               ((CUdevice)-1) /**< Device that represents the CPU */

/**
 * If set, host memory is portable between CUDA contexts.
 * Flag for ::cuMemHostAlloc()
 */
#define CU_MEMHOSTALLOC_PORTABLE        0x01

/**
 * If set, host memory is mapped into CUDA address space.
 */
#define CU_MEMHOSTALLOC_DEVICEMAP       0x02

#define CU_LAUNCH_PARAM_END_AS_INT      0x00
#define CU_LAUNCH_PARAM_END             ((void*)CU_LAUNCH_PARAM_END_AS_INT) /**< End of array terminator */
#define CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT 0x01
#define CU_LAUNCH_PARAM_BUFFER_POINTER  ((void*)CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT)

#define CU_IPC_HANDLE_SIZE 64
#define CU_MEM_CREATE_USAGE_TILE_POOL   0x1
#define CU_TRSA_OVERRIDE_FORMAT         0x01U
#define CU_ALL_BITS                     0xffffffffffffffffULL
#define CUDART_PI_F                     3.141592654f
#define CUDART_SQRT_2                   1.4142135623730951

/* Not constants: function-like, strings, reserved names, API aliases. */
#define CU_MAKE_FLAG(x)                 ((x) << 1)
#define CU_VERSION_STRING               "12.4"
#define __CU_INTERNAL                   1
#define cuMemcpyHtoD                    __CUDA_API_PTDS(cuMemcpyHtoD_v2)
#define cuCtxCreate                     cuCtxCreate_v2

#endif
