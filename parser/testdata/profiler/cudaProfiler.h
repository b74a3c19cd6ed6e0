#ifndef __cuda_profiler_h__
#define __cuda_profiler_h__

/* The profiler's driver half: its functions and types join package cu. */

#include <cuda.h>

/**
 * Profiler Output Modes
 */
typedef enum CUoutput_mode_enum
{
    CU_OUT_KEY_VALUE_PAIR  = 0x00, /**< Output mode Key-Value pair format. */
    CU_OUT_CSV             = 0x01  /**< Output mode Comma separated values format. */
} CUoutput_mode;

/**
 * \brief Enable profiling.
 *
 * \return
 * ::CUDA_SUCCESS
 */
CUresult CUDAAPI cuProfilerStart(void);

/**
 * \brief Disable profiling.
 *
 * \return
 * ::CUDA_SUCCESS
 */
CUresult CUDAAPI cuProfilerStop(void);

#endif
