#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__

/* Outputs the documentation says in other words (issue 12, bug 5). */

#define CUDART_VERSION 13000
#define CUDARTAPI

enum cudaError { cudaSuccess = 0 };
typedef enum cudaError cudaError_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef struct CUlib_st *cudaLibrary_t;
struct cudaMemLocation { int type; int id; };
enum cudaMemAllocationType { cudaMemAllocationTypePinned = 1 };
struct cudaMemPoolPtrExportData { unsigned char reserved[64]; };

/**
  * \brief Gets the current memory pool for a given memory location and allocation type
  * 
  * Returns the last pool provided to ::cudaMemSetMemPool for this location.
  *
  * \returns
  * ::cudaSuccess
  */
extern cudaError_t CUDARTAPI cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location, enum cudaMemAllocationType type);

/**
 * \brief Import a memory pool allocation from another process.
 *
 * Returns in \p ptr_out a pointer to the imported memory.
 *
 * \param[out] ptr_out  - pointer to imported memory
 * \param[in] pool      - pool from which to import
 * \param[in] shareData - data specifying the memory to import
 */
extern cudaError_t CUDARTAPI cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool, struct cudaMemPoolPtrExportData *exportData);

/**
 * \brief Returns the number of kernels within a library
 *
 * Returns in \p count the number of kernels in \p lib.
 *
 * \param count - Number of kernels found within the library
 * \param lib - Library to query
 */
extern cudaError_t CUDARTAPI cudaLibraryGetKernelCount(unsigned int *count, cudaLibrary_t lib);

#endif
