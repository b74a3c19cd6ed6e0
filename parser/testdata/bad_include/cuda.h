#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12040

#include "crt/host_defines.h"

typedef int CUdevice;

#endif
