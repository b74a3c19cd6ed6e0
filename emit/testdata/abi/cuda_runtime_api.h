/*
 * ABI fixture for cugen's emit tests: a small runtime API whose functions
 * have the signature shapes of the real cuda_runtime_api.h (and a few
 * more). emit/testdata/abi/abi.c implements it; the generated package is
 * emit/internal/abitest/cudart. Not NVIDIA's file.
 */
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__

#define CUDART_VERSION 12040
#define CUDARTAPI

#include "driver_types.h"
#include "vector_types.h"

/**
 * CUDA GPU kernel node parameters
 */
struct cudaKernelNodeParams {
    void* func;                     /**< Kernel to launch */
    dim3 gridDim;                   /**< Grid dimensions */
    dim3 blockDim;                  /**< Block dimensions */
    unsigned int sharedMemBytes;    /**< Dynamic shared-memory size per thread block in bytes */
    void **kernelParams;            /**< Array of pointers to individual kernel arguments*/
    void **extra;                   /**< Pointer to kernel arguments in the "extra" format */
};

/**
 * \brief Returns the string representation of an error code enum name
 *
 * \param error - Error code to convert to string
 *
 * \return
 * \p char* pointer to a NULL-terminated string
 */
extern const char* CUDARTAPI cudaGetErrorName(cudaError_t error);

/**
 * \brief Returns the description string for an error code
 *
 * \param error - Error code to convert to string
 *
 * \return
 * \p char* pointer to a NULL-terminated string
 */
extern const char* CUDARTAPI cudaGetErrorString(cudaError_t error);

/**
 * \brief Returns the CUDA Runtime version
 *
 * \param runtimeVersion - Returns the CUDA Runtime version.
 */
extern cudaError_t CUDARTAPI cudaRuntimeGetVersion(int *runtimeVersion);

/**
 * \brief Returns the number of compute-capable devices
 *
 * \param count - Returns the number of devices with compute capability greater or equal to 2.0
 */
extern cudaError_t CUDARTAPI cudaGetDeviceCount(int *count);

/**
 * \brief Set device to be used for GPU executions
 *
 * The fixture accepts devices 0 to 7.
 *
 * \param device - Device on which the active host thread should execute the device code.
 */
extern cudaError_t CUDARTAPI cudaSetDevice(int device);

/**
 * \brief Returns information about the compute-device
 *
 * \param prop   - Properties for the specified device
 * \param device - Device number to get properties for
 */
extern cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);

/**
 * \brief Wait for compute device to finish
 *
 * The fixture waits until every callback it started has returned.
 */
extern cudaError_t CUDARTAPI cudaDeviceSynchronize(void);

/**
 * \brief Launches a device function
 *
 * \param func      - Device function symbol
 * \param gridDim   - Grid dimentions
 * \param blockDim  - Block dimentions
 * \param args      - Arguments
 * \param sharedMem - Shared memory
 * \param stream    - Stream identifier
 */
extern cudaError_t CUDARTAPI cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream);

/**
 * \brief Frees memory on the device
 *
 * The fixture records \p devPtr.
 *
 * \param devPtr - Device pointer to memory to free
 */
extern cudaError_t CUDARTAPI cudaFree(void *devPtr);

/**
 * \brief Returns attributes of a kernel: the fixture records \p func and
 * returns its low 32 bits as \p paramSize.
 *
 * \param func       - Device function symbol
 * \param paramIndex - Parameter index
 * \param paramOffset - Returned offset
 * \param paramSize  - Returned size
 */
extern cudaError_t CUDARTAPI cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset, size_t *paramSize);

/**
 * \brief Reads kernel node parameters: the fixture records \p p->func,
 * \p p->gridDim.x, then \p p->extra as cuLaunchKernel records it.
 *
 * \param p - Kernel node parameters
 */
extern cudaError_t CUDARTAPI cudaAbiKernelNode(const struct cudaKernelNodeParams *p);

/**
 * \brief Allocates logical 1D, 2D, or 3D memory objects on the device
 *
 * \param pitchedDevPtr - Pointer to allocated pitched device memory
 * \param extent        - Requested allocation size (\p width field in bytes)
 */
extern cudaError_t CUDARTAPI cudaMalloc3D(struct cudaPitchedPtr* pitchedDevPtr, struct cudaExtent extent);

/**
 * \brief Initializes or sets device memory to a value
 *
 * \param pitchedDevPtr - Pointer to pitched device memory
 * \param value         - Value to set for each byte of specified memory
 * \param extent        - Size parameters for where to set device memory (\p width field in bytes)
 */
extern cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);

/**
 * \brief Opens an interprocess memory handle exported from another process
 *
 * \param devPtr - Returned device pointer
 * \param handle - ::cudaIpcMemHandle to open
 * \param flags  - Flags for this operation. Must be specified as ::cudaIpcMemLazyEnablePeerAccess
 */
extern cudaError_t CUDARTAPI cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags);

/**
 * \brief Returns a channel descriptor using the specified format
 *
 * \param x - X component
 * \param y - Y component
 * \param z - Z component
 * \param w - W component
 * \param f - Channel format
 */
extern struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);

/**
 * \brief Enqueues a host function call in a stream
 *
 * The fixture behaves as cuLaunchHostFunc does.
 *
 * \param stream   - Stream to enqueue function call in
 * \param fn       - The function to call once preceding stream operations are complete
 * \param userData - User-specified data to be passed to the function
 */
extern cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);

/**
 * \brief Add a callback to a compute stream
 *
 * The fixture behaves as cuStreamAddCallback does.
 *
 * \param stream   - Stream to add callback to
 * \param callback - The function to call once preceding stream operations are complete
 * \param userData - User specified data to be passed to the callback function
 * \param flags    - Reserved for future use, must be 0
 */
extern cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned int flags);

/**
 * \brief Fixture: a struct returned in registers
 */
extern dim3 CUDARTAPI cudaAbiMakeDim3(unsigned int x, unsigned int y, unsigned int z);

/**
 * \brief Fixture: a double result from mixed arguments
 */
extern double CUDARTAPI cudaAbiScale(float f, int n, double d);

/**
 * \brief Fixture: a float result
 */
extern float CUDARTAPI cudaAbiHalf(float f);

/**
 * \brief Fixture: a plain int result
 */
extern int CUDARTAPI cudaAbiNegate(int v);

/**
 * \brief Fixture: no result; records \p v
 */
extern void CUDARTAPI cudaAbiRecord(long long v);

#endif /* __CUDA_RUNTIME_API_H__ */
