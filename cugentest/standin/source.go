package standin

// The stand-ins' C sources. Each function the packages call returns
// success and counts its calls (COUNTED lists them; standin_count reads a
// count by name). The driver's memory is the C heap, so copies and fills
// work; the libraries compute nothing.

// common is the counting machinery each source starts with, after its
// COUNTED(X) list.
const common = `
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#define DECL(f) static long n_##f;
COUNTED(DECL)
#define HIT(f) __atomic_fetch_add(&n_##f, 1, __ATOMIC_RELAXED)
long standin_count(const char *name) {
#define CMP(f) if (strcmp(name, #f) == 0) return __atomic_load_n(&n_##f, __ATOMIC_RELAXED);
	COUNTED(CMP)
	return -1;
}
static void *fresh(void) { return calloc(1, 64); }
static int property(int type, int *v, int major) {
	*v = type == 0 ? major : 0;
	return 0;
}
`

const driverSource = `
#define COUNTED(X) X(cuCtxGetCurrent) X(cuCtxSetCurrent) X(cuStreamSynchronize) \
	X(cuMemAlloc_v2) X(cuMemAllocAsync) X(cuMemFree_v2) X(cuMemFreeAsync) \
	X(cuMemcpyHtoDAsync_v2) X(cuStreamCreate) X(cuStreamDestroy_v2) X(cuDevicePrimaryCtxRelease_v2) \
	X(cuLinkAddData_v2) X(cuLinkAddData_v2_nullName)
` + common + `
static __thread void *current;
int cuInit(unsigned flags) { return 0; }
int cuDriverGetVersion(int *v) { *v = 13000; return 0; }
int cuDeviceGetCount(int *n) { *n = 1; return 0; }
int cuDeviceGet(int *d, int ordinal) { if (ordinal != 0) return 101; *d = 0; return 0; }
int cuDeviceGetAttribute(int *v, int attr, int dev) { *v = 1; return 0; }
int cuDeviceGetName(char *name, int len, int dev) { strncpy(name, "stand-in", len); return 0; }
int cuDeviceTotalMem_v2(size_t *b, int dev) { *b = (size_t)1 << 34; return 0; }
int cuDevicePrimaryCtxRetain(void **c, int dev) { static char ctx; *c = &ctx; return 0; }
int cuDevicePrimaryCtxRelease_v2(int dev) { HIT(cuDevicePrimaryCtxRelease_v2); return 0; }
int cuCtxGetCurrent(void **c) { HIT(cuCtxGetCurrent); *c = current; return 0; }
int cuCtxSetCurrent(void *c) { HIT(cuCtxSetCurrent); current = c; return 0; }
int cuCtxSynchronize(void) { return 0; }
int cuStreamCreate(void **s, unsigned flags) { HIT(cuStreamCreate); *s = fresh(); return 0; }
int cuStreamDestroy_v2(void *s) { HIT(cuStreamDestroy_v2); free(s); return 0; }
int cuStreamSynchronize(void *s) { HIT(cuStreamSynchronize); return 0; }
int cuStreamQuery(void *s) { return 0; }
int cuCtxPushCurrent_v2(void *c) { current = c; return 0; }
int cuCtxPopCurrent_v2(void **c) { if (c) *c = current; return 0; }
/* cuLinkAddData_v2_nullName counts the calls whose name was NULL. */
int cuLinkAddData_v2(void *st, int typ, void *data, size_t n, const char *name, unsigned k, void *o, void **v) {
	HIT(cuLinkAddData_v2);
	if (!name) HIT(cuLinkAddData_v2_nullName);
	return 0;
}
int cuMemAlloc_v2(uint64_t *p, size_t n) { HIT(cuMemAlloc_v2); *p = (uint64_t)(uintptr_t)calloc(1, n ? n : 1); return 0; }
int cuMemFree_v2(uint64_t p) { HIT(cuMemFree_v2); free((void *)(uintptr_t)p); return 0; }
int cuMemAllocAsync(uint64_t *p, size_t n, void *s) { HIT(cuMemAllocAsync); *p = (uint64_t)(uintptr_t)calloc(1, n ? n : 1); return 0; }
int cuMemFreeAsync(uint64_t p, void *s) { HIT(cuMemFreeAsync); free((void *)(uintptr_t)p); return 0; }
int cuMemAllocHost_v2(void **p, size_t n) { *p = calloc(1, n ? n : 1); return 0; }
int cuMemFreeHost(void *p) { free(p); return 0; }
int cuMemcpyHtoD_v2(uint64_t d, const void *s, size_t n) { memcpy((void *)(uintptr_t)d, s, n); return 0; }
int cuMemcpyDtoH_v2(void *d, uint64_t s, size_t n) { memcpy(d, (void *)(uintptr_t)s, n); return 0; }
int cuMemcpyDtoD_v2(uint64_t d, uint64_t s, size_t n) { memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n); return 0; }
int cuMemcpyHtoDAsync_v2(uint64_t d, const void *s, size_t n, void *st) { HIT(cuMemcpyHtoDAsync_v2); memcpy((void *)(uintptr_t)d, s, n); return 0; }
int cuMemcpyDtoHAsync_v2(void *d, uint64_t s, size_t n, void *st) { memcpy(d, (void *)(uintptr_t)s, n); return 0; }
int cuMemcpyDtoDAsync_v2(uint64_t d, uint64_t s, size_t n, void *st) { memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n); return 0; }
int cuMemsetD8_v2(uint64_t d, unsigned char v, size_t n) { memset((void *)(uintptr_t)d, v, n); return 0; }
int cuMemsetD8Async(uint64_t d, unsigned char v, size_t n, void *s) { memset((void *)(uintptr_t)d, v, n); return 0; }
int cuMemsetD16_v2(uint64_t d, unsigned short v, size_t n) { unsigned short *p = (void *)(uintptr_t)d; while (n--) *p++ = v; return 0; }
int cuMemsetD16Async(uint64_t d, unsigned short v, size_t n, void *s) { return cuMemsetD16_v2(d, v, n); }
int cuMemsetD32_v2(uint64_t d, unsigned v, size_t n) { unsigned *p = (void *)(uintptr_t)d; while (n--) *p++ = v; return 0; }
int cuMemsetD32Async(uint64_t d, unsigned v, size_t n, void *s) { return cuMemsetD32_v2(d, v, n); }
int cuEventCreate(void **e, unsigned flags) { *e = fresh(); return 0; }
int cuEventDestroy_v2(void *e) { free(e); return 0; }
int cuEventRecord(void *e, void *s) { return 0; }
int cuEventQuery(void *e) { return 0; }
int cuEventSynchronize(void *e) { return 0; }
int cuGetErrorName(int e, const char **s) { *s = "CUDA_ERROR_STANDIN"; return 0; }
int cuGetErrorString(int e, const char **s) { *s = "stand-in error"; return 0; }
`

const cublasSource = `
#define COUNTED(X) X(cublasCreate_v2) X(cublasDestroy_v2) X(cublasSetStream_v2) \
	X(cublasSetPointerMode_v2) X(cublasSetMathMode) X(cublasSetWorkspace_v2) \
	X(cublasSgemm_v2) X(cublasSgemmBatched) X(cublasSgemmStridedBatched)
` + common + `
int cublasGetProperty(int type, int *v) { return property(type, v, MAJOR); }
int cublasGetVersion_v2(void *h, int *v) { *v = MAJOR * 10000; return 0; }
int cublasCreate_v2(void **h) { HIT(cublasCreate_v2); *h = fresh(); return 0; }
int cublasDestroy_v2(void *h) { HIT(cublasDestroy_v2); free(h); return 0; }
int cublasSetStream_v2(void *h, void *s) { HIT(cublasSetStream_v2); return 0; }
int cublasGetStream_v2(void *h, void **s) { *s = 0; return 0; }
int cublasSetPointerMode_v2(void *h, int m) { HIT(cublasSetPointerMode_v2); return 0; }
int cublasGetPointerMode_v2(void *h, int *m) { *m = 0; return 0; }
int cublasSetMathMode(void *h, int m) { HIT(cublasSetMathMode); return 0; }
int cublasGetMathMode(void *h, int *m) { *m = 0; return 0; }
int cublasSetWorkspace_v2(void *h, void *w, size_t n) { HIT(cublasSetWorkspace_v2); return 0; }
int cublasSgemm_v2(void *h, int ta, int tb, int m, int n, int k, const float *al, const float *a, int lda,
	const float *b, int ldb, const float *be, float *c, int ldc) { HIT(cublasSgemm_v2); return 0; }
int cublasDgemm_v2(void *h, int ta, int tb, int m, int n, int k, const double *al, const double *a, int lda,
	const double *b, int ldb, const double *be, double *c, int ldc) { return 0; }
int cublasSgemmBatched(void *h, int ta, int tb, int m, int n, int k, const float *al, const float *const a[], int lda,
	const float *const b[], int ldb, const float *be, float *const c[], int ldc, int count) { HIT(cublasSgemmBatched); return 0; }
int cublasSgemmStridedBatched(void *h, int ta, int tb, int m, int n, int k, const float *al, const float *a, int lda, long long sa,
	const float *b, int ldb, long long sb, const float *be, float *c, int ldc, long long sc, int count) { HIT(cublasSgemmStridedBatched); return 0; }
`

const curandSource = `
#define COUNTED(X) X(curandCreateGenerator) X(curandDestroyGenerator) X(curandSetStream) \
	X(curandGenerateUniform) X(curandGenerateNormal)
` + common + `
int curandGetProperty(int type, int *v) { return property(type, v, MAJOR); }
int curandGetVersion(int *v) { *v = MAJOR * 1000; return 0; }
int curandCreateGenerator(void **g, int t) { HIT(curandCreateGenerator); *g = fresh(); return 0; }
int curandDestroyGenerator(void *g) { HIT(curandDestroyGenerator); free(g); return 0; }
int curandSetStream(void *g, void *s) { HIT(curandSetStream); return 0; }
int curandSetPseudoRandomGeneratorSeed(void *g, unsigned long long seed) { return 0; }
int curandSetGeneratorOffset(void *g, unsigned long long off) { return 0; }
int curandGenerateSeeds(void *g) { return 0; }
int curandGenerate(void *g, unsigned *p, size_t n) { return 0; }
int curandGenerateUniform(void *g, float *p, size_t n) { HIT(curandGenerateUniform); return 0; }
int curandGenerateUniformDouble(void *g, double *p, size_t n) { return 0; }
int curandGenerateNormal(void *g, float *p, size_t n, float mean, float sd) { HIT(curandGenerateNormal); return 0; }
`

const cufftSource = `
#define COUNTED(X) X(cufftCreate) X(cufftDestroy) X(cufftSetStream) X(cufftExecC2C) X(cufftMakePlanMany64)
` + common + `
int cufftGetProperty(int type, int *v) { return property(type, v, MAJOR); }
int cufftGetVersion(int *v) { *v = MAJOR * 1000; return 0; }
int cufftCreate(int *p) { static int next = 1; HIT(cufftCreate); *p = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED); return 0; }
int cufftDestroy(int p) { HIT(cufftDestroy); return 0; }
int cufftMakePlanMany64(int p, int rank, long long *n, long long *ie, long long is, long long id,
	long long *oe, long long os, long long od, int type, long long batch, size_t *work) { HIT(cufftMakePlanMany64); *work = 4096; return 0; }
int cufftSetAutoAllocation(int p, int a) { return 0; }
int cufftSetWorkArea(int p, void *w) { return 0; }
int cufftSetStream(int p, void *s) { HIT(cufftSetStream); return 0; }
int cufftExecC2C(int p, void *i, void *o, int dir) { HIT(cufftExecC2C); return 0; }
int cufftExecR2C(int p, void *i, void *o) { return 0; }
int cufftExecC2R(int p, void *i, void *o) { return 0; }
int cufftExecZ2Z(int p, void *i, void *o, int dir) { return 0; }
`

const cusparseSource = `
#define COUNTED(X) X(cusparseCreate) X(cusparseDestroy) X(cusparseSetStream) \
	X(cusparseCreateCsr) X(cusparseCreateCoo) X(cusparseCreateBsr) X(cusparseDestroySpMat)
` + common + `
int cusparseGetProperty(int type, int *v) { return property(type, v, MAJOR); }
int cusparseGetVersion(void *h, int *v) { *v = MAJOR * 1000; return 0; }
int cusparseCreate(void **h) { HIT(cusparseCreate); *h = fresh(); return 0; }
int cusparseDestroy(void *h) { HIT(cusparseDestroy); free(h); return 0; }
int cusparseSetStream(void *h, void *s) { HIT(cusparseSetStream); return 0; }
int cusparseCreateCsr(void **d, int64_t rows, int64_t cols, int64_t nnz, void *rp, void *ci, void *v,
	int rt, int ct, int base, int vt) { HIT(cusparseCreateCsr); *d = fresh(); return 0; }
int cusparseCreateCoo(void **d, int64_t rows, int64_t cols, int64_t nnz, void *ri, void *ci, void *v,
	int it, int base, int vt) { HIT(cusparseCreateCoo); *d = fresh(); return 0; }
int cusparseCreateBsr(void **d, int64_t brows, int64_t bcols, int64_t bnnz, int64_t rbd, int64_t cbd,
	void *rp, void *ci, void *v, int rt, int ct, int base, int vt, int order) { HIT(cusparseCreateBsr); *d = fresh(); return 0; }
int cusparseDestroySpMat(const void *d) { HIT(cusparseDestroySpMat); free((void *)d); return 0; }
`

const cusolverSource = `
#define COUNTED(X) X(cusolverDnCreate) X(cusolverDnDestroy) X(cusolverDnSetStream) \
	X(cusolverDnCreateParams) X(cusolverDnDestroyParams)
` + common + `
int cusolverGetProperty(int type, int *v) { return property(type, v, MAJOR); }
int cusolverGetVersion(int *v) { *v = MAJOR * 1000; return 0; }
int cusolverDnCreate(void **h) { HIT(cusolverDnCreate); *h = fresh(); return 0; }
int cusolverDnDestroy(void *h) { HIT(cusolverDnDestroy); free(h); return 0; }
int cusolverDnSetStream(void *h, void *s) { HIT(cusolverDnSetStream); return 0; }
int cusolverDnCreateParams(void **p) { HIT(cusolverDnCreateParams); *p = fresh(); return 0; }
int cusolverDnDestroyParams(void *p) { HIT(cusolverDnDestroyParams); free(p); return 0; }
`
