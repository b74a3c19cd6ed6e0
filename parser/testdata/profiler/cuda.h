#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12040
#define CUDAAPI

typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;

/**
 * \brief Initialize the driver API
 *
 * \param Flags - Initialization flag for CUDA.
 */
CUresult CUDAAPI cuInit(unsigned int Flags);

#endif
