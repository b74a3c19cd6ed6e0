/*
 * ABI fixture for cugen's emit tests: runtime types. Not NVIDIA's file.
 */
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__

#define CUDART_CB

typedef __SIZE_TYPE__ size_t;

/**
 * CUDA error types
 */
enum cudaError {
    /**
     * The API call returned with no errors.
     */
    cudaSuccess = 0,
    /**
     * This indicates that one or more of the parameters passed to the API call
     * is not within an acceptable range of values.
     */
    cudaErrorInvalidValue = 1,
    /**
     * The API call failed because it was unable to allocate enough memory.
     */
    cudaErrorMemoryAllocation = 2,
    /**
     * This indicates that the device ordinal supplied by the user does not
     * correspond to a valid CUDA device.
     */
    cudaErrorInvalidDevice = 101,
    /**
     * This indicates that an unknown internal error has occurred.
     */
    cudaErrorUnknown = 999
};

/**
 * CUDA error types
 */
typedef enum cudaError cudaError_t;

/**
 * CUDA stream
 */
typedef struct CUstream_st *cudaStream_t;

/**
 * CUDA kernel
 */
typedef struct CUkern_st *cudaKernel_t;

/**
 * Channel format kind
 */
enum cudaChannelFormatKind {
    cudaChannelFormatKindSigned = 0,   /**< Signed channel format */
    cudaChannelFormatKindUnsigned = 1, /**< Unsigned channel format */
    cudaChannelFormatKindFloat = 2,    /**< Float channel format */
    cudaChannelFormatKindNone = 3      /**< No channel format */
};

/**
 * CUDA Channel format descriptor
 */
struct cudaChannelFormatDesc {
    int x; /**< x */
    int y; /**< y */
    int z; /**< z */
    int w; /**< w */
    enum cudaChannelFormatKind f; /**< Channel format kind */
};

/**
 * CUDA extent
 */
struct cudaExtent {
    size_t width;  /**< Width in elements when referring to array memory, in bytes when referring to linear memory */
    size_t height; /**< Height in elements */
    size_t depth;  /**< Depth in elements */
};

/**
 * CUDA Pitched memory pointer
 */
struct cudaPitchedPtr {
    void *ptr;    /**< Pointer to allocated memory */
    size_t pitch; /**< Pitch of allocated memory in bytes */
    size_t xsize; /**< Logical width of allocation in elements */
    size_t ysize; /**< Logical height of allocation in elements */
};

/**
 * CUDA IPC memory handle
 */
typedef struct cudaIpcMemHandle_st {
    char reserved[64];
} cudaIpcMemHandle_t;

/**
 * Fixture: device properties, with padding between members.
 */
struct cudaDeviceProp {
    char name[20];         /**< ASCII string identifying device */
    size_t totalGlobalMem; /**< Global memory available on device in bytes */
    int major;             /**< Major compute capability */
    int minor;             /**< Minor compute capability */
    unsigned char flag;    /**< A byte followed by padding */
    double clockGHz;       /**< A double after the padding */
    unsigned short ports[3]; /**< An array of shorts */
};

/**
 * CUDA host function
 * \param userData Argument value passed to the function
 */
typedef void (CUDART_CB *cudaHostFn_t)(void *userData);

/**
 * Type of stream callback functions.
 * \param stream The stream as passed to ::cudaStreamAddCallback, may be NULL.
 * \param status ::cudaSuccess or any persistent error on the stream.
 * \param userData User parameter provided at registration.
 */
typedef void (CUDART_CB *cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

#endif /* __DRIVER_TYPES_H__ */
