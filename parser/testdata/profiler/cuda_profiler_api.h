#ifndef __CUDA_PROFILER_API_H__
#define __CUDA_PROFILER_API_H__

/* The profiler's runtime half: its functions join package cudart. */

#include "driver_types.h"

/**
 * \brief Enable profiling.
 *
 * \return
 * ::cudaSuccess
 */
extern cudaError_t CUDARTAPI cudaProfilerStart(void);

/**
 * \brief Disable profiling.
 *
 * \return
 * ::cudaSuccess
 */
extern cudaError_t CUDARTAPI cudaProfilerStop(void);

#endif
