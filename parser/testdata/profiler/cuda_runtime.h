#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__

#include "cuda_runtime_api.h"

#endif
