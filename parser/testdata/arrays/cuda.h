#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

/* Arrays (issue 12, bug 4): pointers to several elements are never scalar
   results. */

#define CUDA_VERSION 13000
#define CUDAAPI

typedef __SIZE_TYPE__ size_t;
typedef int CUdevice;
typedef struct CUgraphicsResource_st *CUgraphicsResource;
typedef struct CUstream_st *CUstream;
typedef enum CUatomicOperation_enum { CU_ATOMIC_OPERATION_INTEGER_ADD = 0 } CUatomicOperation;
typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;
typedef unsigned int CUlogIterator;

/**
 * \brief Return an LUID and device node mask for the device
 *
 * \param luid - Returned LUID
 * \param deviceNodeMask - Returned device node mask
 * \param dev  - Device to get identifier string for
 */
CUresult CUDAAPI cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask, CUdevice dev);

/**
 * \brief A fixed size in the documentation's words
 *
 * \param key - Returned 16-byte key
 * \param dev - Device
 */
CUresult CUDAAPI cuFixtureGetKey(unsigned char *key, CUdevice dev);

/**
 * \brief A char buffer of undocumented size and no length: never one char
 *
 * \param tag - Returned tag
 */
CUresult CUDAAPI cuFixtureGetTag(char *tag);

/**
 * \brief A bool is one value, never a char buffer (cuFileGetParameterBool of CUDA 13)
 *
 * \param flag - The location where the value will be stored.
 */
CUresult CUDAAPI cuFixtureGetFlag(_Bool *flag);

/**
 * \brief Queries details about atomic operations supported between the device and host.
 *
 * \param capabilities - Returned capability details of each requested operation
 * \param operations   - Requested operations
 * \param count        - Count of requested operations and size of capabilities
 * \param dev          - Device handle
 */
CUresult CUDAAPI cuDeviceGetHostAtomicCapabilities(unsigned int *capabilities, const CUatomicOperation *operations, unsigned int count, CUdevice dev);

/**
 * \brief Map graphics resources for access by CUDA
 *
 * \param count     - Number of resources to map
 * \param resources - Resources to map for CUDA usage
 * \param hStream   - Stream with which to synchronize
 */
CUresult CUDAAPI cuGraphicsMapResources(unsigned int count, CUgraphicsResource *resources, CUstream hStream);

/**
 * \brief Returns a stream's flags
 *
 * \param hStream - Handle to the stream to be queried
 * \param flags   - Pointer to an unsigned integer in which the stream's flags are returned
 * See ::cuStreamCreate for the list of valid flags
 */
CUresult CUDAAPI cuStreamGetFlags(CUstream hStream, unsigned int *flags);

/**
 * \brief Returns the name of the device: a char buffer with its length is a string
 *
 * \param name - Returned identifier string for the device
 * \param len  - Maximum length of string to store in \p name
 * \param dev  - Device to get identifier string for
 */
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev);

/**
 * \brief Dump accumulated driver logs into a buffer: query-then-fill, with one
 * pointer (the iterator) that is not an array
 *
 * \param iterator - Optional auto-advancing iterator specifying the starting log to read.
 * \param buffer   - Pointer to dump logs
 * \param size     - See description
 * \param flags    - Reserved for future use, must be 0
 */
CUresult CUDAAPI cuLogsDumpToMemory(CUlogIterator *iterator, char *buffer, size_t *size, unsigned int flags);

#endif
