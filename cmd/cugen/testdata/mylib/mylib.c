/* mylib's implementation, on the CPU (see mylib.h). */
#include <stddef.h>
#include <stdio.h>

typedef struct CUstream_st *cudaStream_t; /* as driver_types.h */
typedef enum { MYLIB_STATUS_SUCCESS, MYLIB_STATUS_INVALID_VALUE, MYLIB_STATUS_NOT_INITIALIZED } mylibStatus_t;
typedef void (*mylibLogFn)(const char *msg, void *user);

static mylibLogFn logger;
static void *loggerUser;
static cudaStream_t lastStream;

static void logf_(const char *msg) {
    if (logger) logger(msg, loggerUser);
}

mylibStatus_t mylibGetVersion(int *version) {
    if (!version) return MYLIB_STATUS_INVALID_VALUE;
    *version = 10203;
    return MYLIB_STATUS_SUCCESS;
}

const char *mylibGetErrorString(mylibStatus_t status) {
    switch (status) {
    case MYLIB_STATUS_SUCCESS: return "no error (libmylib)";
    case MYLIB_STATUS_INVALID_VALUE: return "invalid value (libmylib)";
    case MYLIB_STATUS_NOT_INITIALIZED: return "not initialized (libmylib)";
    }
    return "unrecognized error code";
}

mylibStatus_t mylibSum(const float *x, int n, float *out) {
    if (n < 0 || (n > 0 && !x) || !out) return MYLIB_STATUS_INVALID_VALUE;
    float s = 0;
    for (int i = 0; i < n; i++) s += x[i];
    *out = s;
    char msg[64];
    snprintf(msg, sizeof msg, "mylibSum: %d elements", n);
    logf_(msg);
    return MYLIB_STATUS_SUCCESS;
}

mylibStatus_t mylibScale(float *x, int n, float alpha, cudaStream_t stream) {
    if (n < 0 || (n > 0 && !x)) return MYLIB_STATUS_INVALID_VALUE;
    for (int i = 0; i < n; i++) x[i] *= alpha;
    lastStream = stream;
    return MYLIB_STATUS_SUCCESS;
}

mylibStatus_t mylibLastStream(cudaStream_t *stream) {
    if (!stream) return MYLIB_STATUS_INVALID_VALUE;
    *stream = lastStream;
    return MYLIB_STATUS_SUCCESS;
}

mylibStatus_t mylibSetLogger(mylibLogFn fn, void *user) {
    logger = fn;
    loggerUser = user;
    return MYLIB_STATUS_SUCCESS;
}

mylibStatus_t mylibLog(const char *msg) {
    if (!logger) return MYLIB_STATUS_NOT_INITIALIZED;
    logf_(msg);
    return MYLIB_STATUS_SUCCESS;
}
