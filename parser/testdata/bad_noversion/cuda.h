#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

/* CUDA_VERSION is missing: this is not the driver API header. */
typedef int CUdevice;

#endif
