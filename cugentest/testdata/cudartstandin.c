/*
 * cudartstandin.c: a stand-in CUDA runtime over the stand-in driver
 * (cudastandin.c), for the context demo on machines without a GPU. Built
 * as cudart64_12.dll with x86_64-w64-mingw32-gcc, linked against the
 * stand-in nvcuda.dll (make test-windows), it does what the runtime does
 * with contexts: the first call that needs the driver runs cuInit; the
 * first cudaSetDevice of a device retains its primary context, once per
 * process, and makes it current on the calling thread; the device is
 * remembered per thread. It is test code: no NVIDIA code or header is in
 * it.
 */
#include <stddef.h>

#ifdef _WIN32
#define API __declspec(dllexport)
#define IMPORT __declspec(dllimport)
#else
#define API __attribute__((visibility("default")))
#define IMPORT
#endif

typedef int CUresult;
typedef void *CUcontext;

IMPORT CUresult cuInit(unsigned flags);
IMPORT CUresult cuDriverGetVersion(int *v);
IMPORT CUresult cuDeviceGetCount(int *n);
IMPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, int dev);
IMPORT CUresult cuCtxSetCurrent(CUcontext ctx);

enum {
	cudaSuccess = 0,
	cudaErrorInvalidValue = 1,
	cudaErrorInitializationError = 3,
	cudaErrorNoDevice = 100,
	cudaErrorInvalidDevice = 101,
};

#define MAX_DEVICES 8

static volatile int lock_word;
static void lock(void) { while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE)) {} }
static void unlock(void) { __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE); }

static CUcontext primary[MAX_DEVICES]; /* retained by cudaSetDevice */
static __thread int device;            /* this thread's device */

API int cugen_standin_runtime(void) { return 1; }

API int cudaRuntimeGetVersion(int *v) {
	if (!v)
		return cudaErrorInvalidValue;
	*v = 12040;
	return cudaSuccess;
}

API int cudaDriverGetVersion(int *v) {
	if (!v)
		return cudaErrorInvalidValue;
	return cuDriverGetVersion(v) == 0 ? cudaSuccess : cudaErrorInitializationError;
}

API const char *cudaGetErrorName(int e) {
	switch (e) {
	case cudaSuccess: return "cudaSuccess";
	case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
	case cudaErrorInitializationError: return "cudaErrorInitializationError";
	case cudaErrorNoDevice: return "cudaErrorNoDevice";
	case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
	}
	return "unrecognized error code";
}

API const char *cudaGetErrorString(int e) {
	switch (e) {
	case cudaSuccess: return "no error";
	case cudaErrorInvalidValue: return "invalid argument";
	case cudaErrorInitializationError: return "initialization error";
	case cudaErrorNoDevice: return "no CUDA-capable device is detected";
	case cudaErrorInvalidDevice: return "invalid device ordinal";
	}
	return "unrecognized error code";
}

static int count(int *n) {
	if (cuInit(0) != 0)
		return cudaErrorInitializationError;
	if (cuDeviceGetCount(n) != 0)
		return cudaErrorInitializationError;
	return *n > 0 ? cudaSuccess : cudaErrorNoDevice;
}

API int cudaGetDeviceCount(int *n) {
	if (!n)
		return cudaErrorInvalidValue;
	return count(n);
}

API int cudaSetDevice(int dev) {
	int n, r = count(&n);
	if (r != cudaSuccess)
		return r;
	if (dev < 0 || dev >= n || dev >= MAX_DEVICES)
		return cudaErrorInvalidDevice;
	lock();
	if (!primary[dev] && cuDevicePrimaryCtxRetain(&primary[dev], dev) != 0)
		r = cudaErrorInvalidDevice;
	CUcontext ctx = primary[dev];
	unlock();
	if (r != cudaSuccess)
		return r;
	if (cuCtxSetCurrent(ctx) != 0)
		return cudaErrorInitializationError;
	device = dev;
	return cudaSuccess;
}

API int cudaGetDevice(int *dev) {
	if (!dev)
		return cudaErrorInvalidValue;
	*dev = device;
	return cudaSuccess;
}
