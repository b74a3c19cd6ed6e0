#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12040

/**
 * Specifies the properties of a decompression request.
 */
typedef struct CUmemDecompressFlags_st {
    unsigned int readOnly : 1;      /**< Source buffer is not written */
    unsigned int portable : 1;      /**< Usable from every context */
    unsigned int : 6;               /* reserved */
    unsigned int level : 4;         /**< Compression level */
    unsigned char algorithm;        /**< Algorithm identifier */
    unsigned long long offset : 40; /**< Byte offset in the source buffer */
    unsigned long long : 0;
    int signedDelta : 7;            /**< Signed delta */
} CUmemDecompressFlags;

#endif
