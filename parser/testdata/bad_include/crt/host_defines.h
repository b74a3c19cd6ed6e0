/* A damaged copy: a declarator is repeated. */
#define __host__
typedef struct dim3_st {
    unsigned int x, y, z;
} dim3 dim3;
