#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12040
#define CUDAAPI

typedef __SIZE_TYPE__ size_t;
typedef unsigned long long CUdeviceptr;
typedef int CUdevice;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphNode_st *CUgraphNode;
typedef struct CUtexref_st *CUtexref;
typedef struct CUlinkState_st *CUlinkState;
typedef struct CUmemPoolHandle_st *CUmemoryPool;
typedef enum CUjit_option_enum { CU_JIT_MAX_REGISTERS = 0 } CUjit_option;
typedef enum CUmemLocationType_enum { CU_MEM_LOCATION_TYPE_DEVICE = 0x1 } CUmemLocationType;
typedef enum CUmemAccess_flags_enum { CU_MEM_ACCESS_FLAGS_PROT_NONE = 0x0 } CUmemAccess_flags;
typedef struct CUmemLocation_st {
    CUmemLocationType type; /**< Specifies the location type */
    int id;                 /**< identifier for a given this location's ::CUmemLocationType. */
} CUmemLocation;
typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;

/**
 * \brief Returns a handle to a compute device
 *
 * \param device  - Returned device handle
 * \param ordinal - Device number to get handle for
 */
CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal);

/**
 * \brief Returns an identifier string for the device
 *
 * \param name - Returned identifier string for the device
 * \param len  - Maximum length of string to store in \p name
 * \param dev  - Device to get identifier string for
 */
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev);

/**
 * \brief Gets the string representation of an error code enum name
 *
 * \param error - Error code to convert to string
 * \param pStr - Address of the string pointer.
 */
CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr);

/**
 * \brief Returns the latest CUDA version supported by driver
 *
 * \param driverVersion - Returns the CUDA driver version
 */
CUresult CUDAAPI cuDriverGetVersion(int *driverVersion);

/**
 * \brief Copies memory from Host to Device
 *
 * \param dstDevice - Destination device pointer
 * \param srcHost   - Source host pointer
 * \param ByteCount - Size of memory copy in bytes
 */
CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);

/**
 * \brief Copies memory from Device to Host
 *
 * \param dstHost   - Destination host pointer
 * \param srcDevice - Source device pointer
 * \param ByteCount - Size of memory copy in bytes
 */
CUresult CUDAAPI cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);

/**
 * \brief Returns the accessibility of a pool from a device
 *
 * \param[out] flags    - the accessibility of the pool from the specified location
 * \param[in] memPool   - the pool being queried
 * \param[in] location  - the location accessing the pool
 */
CUresult CUDAAPI cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location);

/**
 * \brief Returns a graph's nodes
 *
 * Returns a list of \p hGraph's nodes. \p nodes may be NULL, in which case this
 * function will return the number of nodes in \p numNodes. Otherwise,
 * \p numNodes entries will be filled in.
 *
 * \param hGraph   - Graph to query
 * \param nodes    - Pointer to return the nodes
 * \param numNodes - See description
 */
CUresult CUDAAPI cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes);

/**
 * \brief Creates a pending JIT linker invocation.
 *
 * \param numOptions   Size of options arrays
 * \param options      Array of linker and compiler options
 * \param optionValues Array of option values, each cast to void *
 * \param stateOut     On success, this will contain a CUlinkState to specify
 *                     and complete this action
 */
CUresult CUDAAPI cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues, CUlinkState *stateOut);

/**
 * \brief Sets the border color for a texture reference
 *
 * \param hTexRef       - Texture reference
 * \param pBorderColor  - RGBA color
 */
CUresult CUDAAPI cuTexRefSetBorderColor(CUtexref hTexRef, float *pBorderColor);

#endif
