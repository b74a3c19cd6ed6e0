#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__

#define CUDART_VERSION 12040
#define CUDARTAPI

#include "driver_types.h"

/**
 * \brief Returns which device is currently being used
 *
 * \param device - Returns the device on which the active host thread executes the device code.
 */
extern cudaError_t CUDARTAPI cudaGetDevice(int *device);

#endif
