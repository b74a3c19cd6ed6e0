/* mylib: a small library of a project's own, bound by cugen gen -desc
 * mylib.json. It runs on the CPU; its API has the shape of a CUDA
 * library's: a status enum, a stream, device-or-host pointers, an error
 * string function and a logger callback. */
#ifndef MYLIB_H
#define MYLIB_H

#include <cuda_runtime_api.h>

#define MYLIB_VERSION 10203

/** Status of every mylib call. */
typedef enum mylibStatus_enum {
    MYLIB_STATUS_SUCCESS = 0,       /**< The call succeeded. */
    MYLIB_STATUS_INVALID_VALUE = 1, /**< A value was out of range (header text). */
    MYLIB_STATUS_NOT_INITIALIZED = 2 /**< No logger was set (header text). */
} mylibStatus_t;

/** A logger: called with each message mylib logs and the user pointer
 * given to mylibSetLogger. */
typedef void (*mylibLogFn)(const char *msg, void *user);

/**
 * \brief Returns the library's version.
 *
 * \param[out] version - 10000*major + 100*minor + patch
 */
mylibStatus_t mylibGetVersion(int *version);

/**
 * \brief Returns the text of a status.
 *
 * \param status - the status
 */
const char *mylibGetErrorString(mylibStatus_t status);

/**
 * \brief Sums an array.
 *
 * \param x - Array of \p n floats
 * \param n - number of elements of \p x
 * \param[out] out - the sum
 */
mylibStatus_t mylibSum(const float *x, int n, float *out);

/**
 * \brief Multiplies an array by alpha, in the order of a stream.
 *
 * \param x - Array of \p n floats, scaled in place
 * \param n - number of elements of \p x; negative is MYLIB_STATUS_INVALID_VALUE
 * \param alpha - the factor
 * \param stream - the stream the work is ordered on
 */
mylibStatus_t mylibScale(float *x, int n, float alpha, cudaStream_t stream);

/**
 * \brief Returns the stream of the last mylibScale.
 *
 * \param[out] stream - the stream
 */
mylibStatus_t mylibLastStream(cudaStream_t *stream);

/**
 * \brief Sets the logger: \p fn is called with \p user for each message
 * mylib logs, until the next mylibSetLogger (NULL: no logger).
 *
 * \param fn - the logger
 * \param user - passed to \p fn
 */
mylibStatus_t mylibSetLogger(mylibLogFn fn, void *user);

/**
 * \brief Logs a message through the logger.
 *
 * \param msg - the message
 */
mylibStatus_t mylibLog(const char *msg);

#endif
