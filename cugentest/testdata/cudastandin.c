/*
 * cudastandin.c: a stand-in CUDA driver for tests on machines without a
 * GPU. Built as libcuda.so.1 with cc (Linux) and as nvcuda.dll with
 * x86_64-w64-mingw32-gcc (make test-windows, run under wine), it exports
 * the part of the driver API that the context demo and the layer's
 * context and memory code call, with the driver's rules for them:
 *
 *   - every call but cuDriverGetVersion, cuGetErrorName and
 *     cuGetErrorString fails with CUDA_ERROR_NOT_INITIALIZED before cuInit;
 *   - one device, ordinal 0, named "cugen stand-in GPU", 1 GiB;
 *   - a context stack per thread (cuCtxCreate pushes, cuCtxSetCurrent
 *     replaces the top, cuCtxDestroy pops it where current);
 *   - the primary context is reference counted (Retain, Release,
 *     GetState); it is inactive, and its memory freed, at zero;
 *   - memory is host memory: a CUdeviceptr is the address of a malloc'd
 *     block, known to the driver; allocating or copying needs a current,
 *     live context (else CUDA_ERROR_INVALID_CONTEXT), copies must lie
 *     within one allocation (else CUDA_ERROR_INVALID_VALUE), and
 *     cuMemGetInfo's free memory is the total less what is allocated.
 *
 * cugen_standin identifies it, so that a test never mistakes a real
 * driver for it. It is test code: no NVIDIA code or header is in it.
 */
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#ifdef _WIN32
#define API __declspec(dllexport)
#else
#define API __attribute__((visibility("default")))
#endif

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum {
	SUCCESS = 0,
	INVALID_VALUE = 1,
	OUT_OF_MEMORY = 2,
	NOT_INITIALIZED = 3,
	NO_DEVICE = 100,
	INVALID_DEVICE = 101,
	INVALID_CONTEXT = 201,
	CONTEXT_ALREADY_IN_USE = 216,
	PRIMARY_CONTEXT_ACTIVE = 708,
};

#define VERSION 12040
#define TOTAL_MEM (1ULL << 30)
#define STACK 16

struct ctx {
	int live;    /* not destroyed (a primary context: retained) */
	int primary; /* the device's primary context */
	int refs;    /* the primary context's reference count */
	unsigned flags;
	struct ctx *next; /* every context ever made (they are never freed) */
};

struct alloc {
	unsigned char *p;
	size_t n;
	struct ctx *ctx;
	struct alloc *next;
};

static volatile int lock_word;
static void lock(void) { while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE)) {} }
static void unlock(void) { __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE); }

static int initialized;
static struct ctx primary = {0, 1, 0, 0, 0};
static struct ctx *contexts = &primary;
static struct alloc *allocs;
static size_t allocated;

static __thread struct ctx *stack[STACK];
static __thread int depth;

API int cugen_standin(void) { return 1; }

static struct ctx *current(void) { return depth > 0 ? stack[depth - 1] : NULL; }

static int known(struct ctx *c) {
	for (struct ctx *k = contexts; k; k = k->next)
		if (k == c)
			return 1;
	return 0;
}

/* need_ctx checks the calling thread's current context, the lock held. */
static CUresult need_ctx(void) {
	if (!initialized)
		return NOT_INITIALIZED;
	struct ctx *c = current();
	if (!c || !c->live)
		return INVALID_CONTEXT;
	return SUCCESS;
}

/* free_ctx_memory frees the allocations of c, the lock held. */
static void free_ctx_memory(struct ctx *c) {
	struct alloc **a = &allocs;
	while (*a) {
		if ((*a)->ctx == c) {
			struct alloc *dead = *a;
			*a = dead->next;
			allocated -= dead->n;
			free(dead->p);
			free(dead);
		} else {
			a = &(*a)->next;
		}
	}
}

/* find returns the allocation holding [p, p+n), the lock held. */
static struct alloc *find(CUdeviceptr p, size_t n) {
	for (struct alloc *a = allocs; a; a = a->next) {
		CUdeviceptr base = (CUdeviceptr)(uintptr_t)a->p;
		if (p >= base && p - base <= a->n && n <= a->n - (p - base))
			return a;
	}
	return NULL;
}

/*
 * DEVICE_CHECKS are a device call's checks, in the driver's order:
 * cuInit called, then device d the one device, then ok, the call's own
 * arguments good.
 */
#define DEVICE_CHECKS(d, ok) \
	do { \
		if (!initialized) \
			return NOT_INITIALIZED; \
		if ((d) != 0) \
			return INVALID_DEVICE; \
		if (!(ok)) \
			return INVALID_VALUE; \
	} while (0)

API CUresult cuInit(unsigned flags) {
	if (flags != 0)
		return INVALID_VALUE;
	lock();
	initialized = 1;
	unlock();
	return SUCCESS;
}

API CUresult cuDriverGetVersion(int *v) {
	if (!v)
		return INVALID_VALUE;
	*v = VERSION;
	return SUCCESS;
}

API CUresult cuGetErrorName(CUresult r, const char **s) {
	switch (r) {
	case SUCCESS: *s = "CUDA_SUCCESS"; break;
	case INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; break;
	case OUT_OF_MEMORY: *s = "CUDA_ERROR_OUT_OF_MEMORY"; break;
	case NOT_INITIALIZED: *s = "CUDA_ERROR_NOT_INITIALIZED"; break;
	case INVALID_DEVICE: *s = "CUDA_ERROR_INVALID_DEVICE"; break;
	case INVALID_CONTEXT: *s = "CUDA_ERROR_INVALID_CONTEXT"; break;
	default: *s = NULL; return INVALID_VALUE;
	}
	return SUCCESS;
}

API CUresult cuGetErrorString(CUresult r, const char **s) {
	switch (r) {
	case SUCCESS: *s = "no error"; break;
	case INVALID_VALUE: *s = "invalid argument"; break;
	case OUT_OF_MEMORY: *s = "out of memory"; break;
	case NOT_INITIALIZED: *s = "initialization error"; break;
	case INVALID_DEVICE: *s = "invalid device ordinal"; break;
	case INVALID_CONTEXT: *s = "invalid device context"; break;
	default: *s = NULL; return INVALID_VALUE;
	}
	return SUCCESS;
}

API CUresult cuDeviceGetCount(int *n) {
	if (!initialized)
		return NOT_INITIALIZED;
	if (!n)
		return INVALID_VALUE;
	*n = 1;
	return SUCCESS;
}

API CUresult cuDeviceGet(CUdevice *d, int ordinal) {
	if (!initialized)
		return NOT_INITIALIZED;
	if (!d)
		return INVALID_VALUE;
	if (ordinal != 0)
		return INVALID_DEVICE;
	*d = 0;
	return SUCCESS;
}

API CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
	DEVICE_CHECKS(d, name && len > 0);
	snprintf(name, (size_t)len, "%s", "cugen stand-in GPU");
	return SUCCESS;
}

API CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) {
	DEVICE_CHECKS(d, bytes);
	*bytes = TOTAL_MEM;
	return SUCCESS;
}

/* Compute capability 9.0 (attributes 75 and 76); 0 for the rest. */
API CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d) {
	DEVICE_CHECKS(d, v);
	*v = attr == 75 ? 9 : 0;
	return SUCCESS;
}

static CUresult push(struct ctx *c) {
	if (depth == STACK)
		return OUT_OF_MEMORY;
	stack[depth++] = c;
	return SUCCESS;
}

API CUresult cuCtxCreate_v2(struct ctx **out, unsigned flags, CUdevice d) {
	DEVICE_CHECKS(d, out);
	struct ctx *c = calloc(1, sizeof *c);
	if (!c)
		return OUT_OF_MEMORY;
	c->live = 1;
	c->flags = flags;
	lock();
	c->next = contexts;
	contexts = c;
	unlock();
	CUresult r = push(c);
	if (r == SUCCESS)
		*out = c;
	return r;
}

/* CUDA 13's cuCtxCreate: parameters (execution affinity, CIG) must be NULL. */
API CUresult cuCtxCreate_v4(struct ctx **out, void *params, unsigned flags, CUdevice d) {
	if (params)
		return INVALID_VALUE;
	return cuCtxCreate_v2(out, flags, d);
}

API CUresult cuCtxDestroy_v2(struct ctx *c) {
	if (!initialized)
		return NOT_INITIALIZED;
	lock();
	if (!c || !known(c) || !c->live || c->primary) {
		unlock();
		return INVALID_CONTEXT;
	}
	c->live = 0;
	free_ctx_memory(c);
	unlock();
	/* Popped from the calling thread's stack where it is current. */
	if (current() == c)
		depth--;
	return SUCCESS;
}

API CUresult cuCtxGetCurrent(struct ctx **out) {
	if (!initialized)
		return NOT_INITIALIZED;
	if (!out)
		return INVALID_VALUE;
	*out = current();
	return SUCCESS;
}

API CUresult cuCtxSetCurrent(struct ctx *c) {
	if (!initialized)
		return NOT_INITIALIZED;
	if (!c) { /* NULL pops the current context */
		if (depth > 0)
			depth--;
		return SUCCESS;
	}
	lock();
	int ok = known(c) && c->live;
	unlock();
	if (!ok)
		return INVALID_CONTEXT;
	if (depth == 0)
		return push(c);
	stack[depth - 1] = c;
	return SUCCESS;
}

API CUresult cuCtxPushCurrent_v2(struct ctx *c) {
	if (!initialized)
		return NOT_INITIALIZED;
	lock();
	int ok = c && known(c) && c->live;
	unlock();
	if (!ok)
		return INVALID_CONTEXT;
	return push(c);
}

API CUresult cuCtxPopCurrent_v2(struct ctx **out) {
	if (!initialized)
		return NOT_INITIALIZED;
	if (depth == 0)
		return INVALID_CONTEXT;
	struct ctx *c = stack[--depth];
	if (out)
		*out = c;
	return SUCCESS;
}

API CUresult cuCtxGetDevice(CUdevice *d) {
	lock();
	CUresult r = need_ctx();
	unlock();
	if (r != SUCCESS)
		return r;
	if (!d)
		return INVALID_VALUE;
	*d = 0;
	return SUCCESS;
}

API CUresult cuCtxSynchronize(void) {
	lock();
	CUresult r = need_ctx();
	unlock();
	return r;
}

API CUresult cuDevicePrimaryCtxRetain(struct ctx **out, CUdevice d) {
	DEVICE_CHECKS(d, out);
	lock();
	primary.refs++;
	primary.live = 1;
	unlock();
	*out = &primary;
	return SUCCESS;
}

API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) {
	if (!initialized)
		return NOT_INITIALIZED;
	if (d != 0)
		return INVALID_DEVICE;
	lock();
	if (primary.refs == 0) {
		unlock();
		return INVALID_CONTEXT;
	}
	if (--primary.refs == 0) {
		primary.live = 0;
		free_ctx_memory(&primary);
	}
	unlock();
	return SUCCESS;
}

API CUresult cuDevicePrimaryCtxGetState(CUdevice d, unsigned *flags, int *active) {
	DEVICE_CHECKS(d, flags && active);
	lock();
	*flags = primary.flags;
	*active = primary.live;
	unlock();
	return SUCCESS;
}

API CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
	lock();
	CUresult r = need_ctx();
	if (r == SUCCESS && (!free_bytes || !total))
		r = INVALID_VALUE;
	if (r == SUCCESS) {
		*free_bytes = TOTAL_MEM - allocated;
		*total = TOTAL_MEM;
	}
	unlock();
	return r;
}

API CUresult cuMemAlloc_v2(CUdeviceptr *out, size_t n) {
	lock();
	CUresult r = need_ctx();
	if (r == SUCCESS && (!out || n == 0))
		r = INVALID_VALUE;
	if (r == SUCCESS && n > TOTAL_MEM - allocated)
		r = OUT_OF_MEMORY;
	struct alloc *a = NULL;
	if (r == SUCCESS) {
		a = calloc(1, sizeof *a);
		if (a)
			a->p = malloc(n);
		if (!a || !a->p) {
			free(a);
			r = OUT_OF_MEMORY;
		}
	}
	if (r == SUCCESS) {
		a->n = n;
		a->ctx = current();
		a->next = allocs;
		allocs = a;
		allocated += n;
		*out = (CUdeviceptr)(uintptr_t)a->p;
	}
	unlock();
	return r;
}

API CUresult cuMemFree_v2(CUdeviceptr p) {
	lock();
	CUresult r = need_ctx();
	if (r != SUCCESS) {
		unlock();
		return r;
	}
	for (struct alloc **a = &allocs; *a; a = &(*a)->next) {
		if ((CUdeviceptr)(uintptr_t)(*a)->p == p) {
			struct alloc *dead = *a;
			*a = dead->next;
			allocated -= dead->n;
			free(dead->p);
			free(dead);
			unlock();
			return SUCCESS;
		}
	}
	unlock();
	return INVALID_VALUE;
}

API CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
	lock();
	CUresult r = need_ctx();
	if (r == SUCCESS && (!src || !find(dst, n)))
		r = INVALID_VALUE;
	if (r == SUCCESS)
		memcpy((void *)(uintptr_t)dst, src, n);
	unlock();
	return r;
}

API CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
	lock();
	CUresult r = need_ctx();
	if (r == SUCCESS && (!dst || !find(src, n)))
		r = INVALID_VALUE;
	if (r == SUCCESS)
		memcpy(dst, (void *)(uintptr_t)src, n);
	unlock();
	return r;
}

API CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) {
	lock();
	CUresult r = need_ctx();
	if (r == SUCCESS && (!find(dst, n) || !find(src, n)))
		r = INVALID_VALUE;
	if (r == SUCCESS)
		memmove((void *)(uintptr_t)dst, (void *)(uintptr_t)src, n);
	unlock();
	return r;
}

API CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n) {
	lock();
	CUresult r = need_ctx();
	if (r == SUCCESS && !find(dst, n))
		r = INVALID_VALUE;
	if (r == SUCCESS)
		memset((void *)(uintptr_t)dst, v, n);
	unlock();
	return r;
}

API CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned v, size_t n) {
	lock();
	CUresult r = need_ctx();
	if (r == SUCCESS && (n > SIZE_MAX / 4 || dst % 4 != 0 || !find(dst, n * 4)))
		r = INVALID_VALUE;
	if (r == SUCCESS) {
		unsigned *p = (unsigned *)(uintptr_t)dst;
		for (size_t i = 0; i < n; i++)
			p[i] = v;
	}
	unlock();
	return r;
}
