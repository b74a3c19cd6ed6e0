#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12040
#define CUDAAPI

typedef unsigned long long CUdeviceptr;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef enum CUgraphNodeType_enum {
    CU_GRAPH_NODE_TYPE_KERNEL = 0,
    CU_GRAPH_NODE_TYPE_MEMSET = 2,
    CU_GRAPH_NODE_TYPE_EVENT_RECORD = 7
} CUgraphNodeType;

typedef struct CUDA_KERNEL_NODE_PARAMS_st {
    CUfunction func;             /**< Kernel to launch */
    unsigned int gridDimX;       /**< Width of grid in blocks */
    unsigned int blockDimX;      /**< X dimension of each thread block */
    void **kernelParams;         /**< Array of pointers to kernel parameters */
} CUDA_KERNEL_NODE_PARAMS;

typedef struct CUDA_MEMSET_NODE_PARAMS_st {
    CUdeviceptr dst;             /**< Destination device pointer */
    unsigned int value;          /**< Value to be set */
    unsigned int elementSize;    /**< Size of each element in bytes. Must be 1, 2, or 4. */
} CUDA_MEMSET_NODE_PARAMS;

/**
 * Graph node parameters.  See ::cuGraphAddNode.
 */
typedef struct CUgraphNodeParams_st {
    CUgraphNodeType type;    /**< Type of the node */
    int reserved0[3];        /**< Reserved.  Must be zero. */

    union {
        long long reserved1[29];             /**< Padding. Unused bytes must be zero. */
        CUDA_KERNEL_NODE_PARAMS kernel;      /**< Kernel node parameters. */
        CUDA_MEMSET_NODE_PARAMS memset;      /**< Memset node parameters. */
        struct {
            CUevent event;                   /**< The event to record when the node executes */
            unsigned int flags;              /**< Record flags */
        };
    };
    long long reserved2;     /**< Reserved bytes. Must be zero. */
} CUgraphNodeParams;

/**
 * Kernel node attributes: an anonymous struct inside an anonymous union.
 */
typedef struct {
    int kind;                /**< Which member is valid */
    union {
        struct {
            short x, y;
        };
        int packed;
    };
} CUanonExample;

#endif
