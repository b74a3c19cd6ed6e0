#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12040

typedef int CUdevice;
CUresult cuInit(unsigned int Flags);

#endif
