// stubcuda.c: a stand-in libcuda for measuring the layer's own cost on a
// machine without a GPU. Every entry point the layer's launch and
// stream-ordered allocation benchmarks reach returns CUDA_SUCCESS at once:
// cuLaunchKernel does nothing, cuMemAllocAsync hands out addresses without
// memory behind them. Run against it, a benchmark that alternates the
// layer's call and the raw cu package's call measures exactly what the
// layer adds, in ns (mk/stubbench.sh builds it and runs them):
//
//	gcc -O2 -shared -fPIC -o libcuda.so.1 stubcuda.c
//	CUGEN_LIBCUDA=$PWD/libcuda.so.1 go test -run '^$' -bench Overhead ./layer
//
// Kernels of a module are numbered by name; cuFuncGetParamInfo reports
// saxpy(float, float *, float *, int)'s parameters, as a CUDA 12.4+
// driver does, and none for the others. The async copies, memset and
// cuLaunchHostFunc (which calls its function at once) let
// TestGPUHotPathAllocs count allocations on the real call path (its
// data check then fails: nothing is copied).
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef int CUresult;
enum { OK = 0, INVALID_VALUE = 1, NOT_FOUND = 500 };

static __thread void *current; // per thread, as the driver's
static uint64_t next_addr = 1 << 20;

CUresult cuInit(unsigned flags) { (void)flags; return OK; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return OK; } // a driver of the newest major: both builds run
CUresult cuDeviceGet(int *d, int ordinal) { *d = ordinal; return ordinal == 0 ? OK : INVALID_VALUE; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return OK; }
CUresult cuDeviceGetAttribute(int *v, int attr, int dev) { (void)attr; (void)dev; *v = 1; return OK; }
CUresult cuDeviceGetName(char *name, int len, int dev) {
	(void)dev;
	strncpy(name, "stub", len);
	return OK;
}
CUresult cuDeviceTotalMem_v2(size_t *n, int dev) { (void)dev; *n = (size_t)80 << 30; return OK; }
CUresult cuDevicePrimaryCtxRetain(void **c, int dev) { *c = (void *)(uintptr_t)(0x1000 + dev); return OK; }
CUresult cuDevicePrimaryCtxRelease_v2(int dev) { (void)dev; return OK; }
CUresult cuCtxGetCurrent(void **c) { *c = current; return OK; }
CUresult cuCtxSetCurrent(void *c) { current = c; return OK; }
CUresult cuCtxSynchronize(void) { return OK; }
CUresult cuGetErrorName(CUresult e, const char **s) { (void)e; *s = "CUDA_ERROR_STUB"; return OK; }
CUresult cuGetErrorString(CUresult e, const char **s) { (void)e; *s = "stub error"; return OK; }

CUresult cuModuleLoadDataEx(void **m, const void *img, unsigned n, void *opts, void *vals) {
	(void)img; (void)n; (void)opts; (void)vals;
	*m = (void *)0x2000;
	return OK;
}
CUresult cuModuleLoadData(void **m, const void *img) { return cuModuleLoadDataEx(m, img, 0, 0, 0); }
CUresult cuModuleUnload(void *m) { (void)m; return OK; }
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
	(void)m;
	*f = (void *)(uintptr_t)(strcmp(name, "saxpy") == 0 ? 0x3001 : 0x3002);
	return OK;
}
CUresult cuFuncGetParamInfo(void *f, size_t i, size_t *off, size_t *size) {
	static const size_t so[4] = {0, 8, 16, 24}, ss[4] = {4, 8, 8, 4};
	if (f != (void *)0x3001 || i >= 4) return INVALID_VALUE;
	*off = so[i];
	*size = ss[i];
	return OK;
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
	unsigned shared, void *stream, void **params, void **extra) {
	(void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz;
	(void)shared; (void)stream; (void)params; (void)extra;
	return OK;
}

CUresult cuMemAlloc_v2(uint64_t *p, size_t n) { *p = next_addr; next_addr += (n + 255) & ~(size_t)255; return OK; }
CUresult cuMemFree_v2(uint64_t p) { (void)p; return OK; }
CUresult cuMemAllocAsync(uint64_t *p, size_t n, void *s) { (void)s; return cuMemAlloc_v2(p, n); }
CUresult cuMemAllocFromPoolAsync(uint64_t *p, size_t n, void *pool, void *s) { (void)pool; (void)s; return cuMemAlloc_v2(p, n); }
CUresult cuMemFreeAsync(uint64_t p, void *s) { (void)p; (void)s; return OK; }
CUresult cuMemcpyHtoD_v2(uint64_t d, const void *h, size_t n) { (void)d; (void)h; (void)n; return OK; }
CUresult cuMemcpyDtoH_v2(void *h, uint64_t d, size_t n) { (void)d; (void)h; (void)n; return OK; }

CUresult cuStreamCreate(void **s, unsigned flags) { (void)flags; *s = (void *)0x4000; return OK; }
CUresult cuStreamDestroy_v2(void *s) { (void)s; return OK; }
CUresult cuStreamSynchronize(void *s) { (void)s; return OK; }
CUresult cuStreamQuery(void *s) { (void)s; return OK; }
CUresult cuEventCreate(void **e, unsigned flags) { (void)flags; *e = (void *)0x5000; return OK; }
CUresult cuEventDestroy_v2(void *e) { (void)e; return OK; }
CUresult cuEventRecord(void *e, void *s) { (void)e; (void)s; return OK; }
CUresult cuEventQuery(void *e) { (void)e; return OK; }
CUresult cuEventSynchronize(void *e) { (void)e; return OK; }
CUresult cuMemcpyHtoDAsync_v2(uint64_t d, const void *h, size_t n, void *s) { (void)d; (void)h; (void)n; (void)s; return OK; }
CUresult cuMemcpyDtoHAsync_v2(void *h, uint64_t d, size_t n, void *s) { (void)d; (void)h; (void)n; (void)s; return OK; }
CUresult cuMemcpyDtoDAsync_v2(uint64_t d, uint64_t s_, size_t n, void *s) { (void)d; (void)s_; (void)n; (void)s; return OK; }
CUresult cuMemsetD32Async(uint64_t d, unsigned v, size_t n, void *s) { (void)d; (void)v; (void)n; (void)s; return OK; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned f) { (void)s; (void)e; (void)f; return OK; }
CUresult cuLaunchHostFunc(void *s, void (*fn)(void *), void *data) { (void)s; fn(data); return OK; }
