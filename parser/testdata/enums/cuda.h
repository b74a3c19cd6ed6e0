#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12040

/**
 * Error codes
 */
typedef enum cudaError_enum {
    /**
     * The API call returned with no errors.
     */
    CUDA_SUCCESS                              = 0,

    /**
     * This indicates that one or more of the parameters passed to the API call
     * is not within an acceptable range of values.
     */
    CUDA_ERROR_INVALID_VALUE                  = 1,

    /**
     * This indicates that an unknown internal error has occurred.
     */
    CUDA_ERROR_UNKNOWN                        = 999
} CUresult;

/**
 * Context creation flags
 */
typedef enum CUctx_flags_enum {
    CU_CTX_SCHED_AUTO          = 0x00, /**< Automatic scheduling */
    CU_CTX_SCHED_SPIN          = 0x01, /**< Set spin as default scheduling */
    CU_CTX_SCHED_MASK          = 0x07,
    CU_CTX_MAP_HOST            = 0x08, /**< \deprecated This flag was deprecated */
    CU_CTX_FLAGS_MASK          = 0xFF
} CUctx_flags;

/**
 * Memory advise values (anonymous enum behind a typedef)
 */
typedef enum {
    CU_MEM_ADVISE_SET_READ_MOSTLY          = 1, /**< Data will mostly be read */
    CU_MEM_ADVISE_UNSET_READ_MOSTLY        = 2,
    CU_MEM_ADVISE_SET_PREFERRED_LOCATION   = CU_MEM_ADVISE_UNSET_READ_MOSTLY + 1
} CUmem_advise;

/**
 * Device codes
 */
typedef enum CUdevice_enum {
    CU_DEVICE_CPU               = -1, /**< Device that represents the CPU */
    CU_DEVICE_INVALID           = -2  /**< Device that represents an invalid device */
} CUdevice_enum;

/** Flags with the sign bit set */
enum cudaFlagsExample {
    cudaFlagA = 1 << 0,
    cudaFlagB = 1 << 1,
    cudaFlagHigh = 0x80000000U
};

/** Anonymous, untyped enum: named by its first enumerator */
enum {
    CU_LIMIT_A = 0,
    CU_LIMIT_B
};

typedef enum cudaError_enum CUresult_alias;

#endif
