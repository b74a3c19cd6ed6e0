#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__

enum cudaError { cudaSuccess = 0 };
typedef enum cudaError cudaError_t;

#endif
