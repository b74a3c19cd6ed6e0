/*
 * ABI fixture for cugen's emit tests: vector types. Not NVIDIA's file.
 */
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__

struct dim3 {
    unsigned int x, y, z;
};

typedef struct dim3 dim3;

#endif /* __VECTOR_TYPES_H__ */
