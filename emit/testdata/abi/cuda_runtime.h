/*
 * ABI fixture for cugen's emit tests (runtime API). Not NVIDIA's file.
 */
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__

#include "cuda_runtime_api.h"

#endif /* __CUDA_RUNTIME_H__ */
