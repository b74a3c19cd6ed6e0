#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#define CUDART_VERSION 12040
#endif
