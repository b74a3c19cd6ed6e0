// ABI fixture for cugen's emit tests: implements cuda.h and
// cuda_runtime_api.h of this directory. Each function records the arguments
// it received in abi_rec (as 64-bit words: integers extended as their C
// type says, floats as their bits, structs as little-endian words) and/or
// echoes them through its outputs, so a Go test can check that every value
// crossed the generated call path intact.
//
// Built by emit/internal/abitest: gcc -shared -fPIC -o libabi.so abi.c -lpthread
#include "cuda.h"
#include "cuda_runtime.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// ---- recording ----

uint64_t abi_rec[64]; // the arguments of the last recording call
int abi_nrec;

static void reset(void) { memset(abi_rec, 0, sizeof abi_rec); abi_nrec = 0; }
static void put(uint64_t v) { if (abi_nrec < 64) abi_rec[abi_nrec++] = v; }
static void puti(long long v) { put((uint64_t)v); }
static void putf(float f) { uint32_t u; memcpy(&u, &f, 4); put(u); }
static void putd(double d) { uint64_t u; memcpy(&u, &d, 8); put(u); }
static void putbytes(const void *p, size_t n) {
	for (size_t i = 0; i < n; i += 8) {
		uint64_t w = 0;
		memcpy(&w, (const char *)p + i, n - i < 8 ? n - i : 8);
		put(w);
	}
}

static uint64_t fnv1a(const void *p, size_t n) {
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < n; i++) {
		h ^= ((const unsigned char *)p)[i];
		h *= 1099511628211ull;
	}
	return h;
}

// ---- errors ----

static const char *drvName(int e) {
	switch (e) {
	case CUDA_SUCCESS: return "CUDA_SUCCESS";
	case CUDA_ERROR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
	case CUDA_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
	case CUDA_ERROR_INVALID_DEVICE: return "CUDA_ERROR_INVALID_DEVICE";
	case CUDA_ERROR_UNKNOWN: return "CUDA_ERROR_UNKNOWN";
	}
	return NULL;
}

static const char *message(int e) {
	switch (e) {
	case 0: return "no error";
	case 1: return "invalid argument";
	case 2: return "out of memory";
	case 101: return "invalid device ordinal";
	case 999: return "unknown error";
	}
	return NULL;
}

CUresult cuGetErrorString(CUresult error, const char **pStr) {
	if (!pStr) return CUDA_ERROR_INVALID_VALUE;
	*pStr = message(error);
	return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult error, const char **pStr) {
	if (!pStr) return CUDA_ERROR_INVALID_VALUE;
	*pStr = drvName(error);
	return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

const char *cudaGetErrorName(cudaError_t error) {
	switch (error) {
	case cudaSuccess: return "cudaSuccess";
	case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
	case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
	case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
	case cudaErrorUnknown: return "cudaErrorUnknown";
	}
	return "unrecognized error code";
}

const char *cudaGetErrorString(cudaError_t error) {
	const char *s = message(error);
	return s ? s : "unrecognized error code";
}

// The runtime packages check the major version of the library they load.
cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
	*runtimeVersion = CUDART_VERSION;
	return cudaSuccess;
}

// The driver packages identify the library they load by this symbol
// (LibraryDesc.Identify); the headers here do not declare it, so nothing
// binds it.
CUresult cuDriverGetVersion(int *driverVersion) {
	*driverVersion = CUDA_VERSION;
	return CUDA_SUCCESS;
}

// ---- driver: integers, handles, outputs ----

CUresult cuAbiIntegers(signed char i8, unsigned char u8, short i16, unsigned short u16,
                       int i32, unsigned int u32, long long i64, unsigned long long u64,
                       size_t size, CUdeviceptr dptr, CUdevice dev, CUabiSign sign,
                       CUmemLocationType loc) {
	reset();
	puti(i8);
	put(u8);
	puti(i16);
	put(u16);
	puti(i32);
	put(u32);
	puti(i64);
	put(u64);
	put(size);
	put(dptr);
	puti(dev);
	puti(sign);
	put(loc);
	return CUDA_SUCCESS;
}

CUresult cuAbiFail(CUresult result) { return result; }

CUresult cuAbiAlignedOut(CUabiAligned *out, unsigned long long seed) {
	if ((uintptr_t)out % 64 != 0) return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < 16; i++) out->words[i] = seed + i;
	return CUDA_SUCCESS;
}

CUresult cuAbiAlignedInOut(CUabiAligned *tensorMap, unsigned long long add) {
	if ((uintptr_t)tensorMap % 64 != 0) return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < 16; i++) tensorMap->words[i] += add;
	return CUDA_SUCCESS;
}

CUresult cuAbiAlignedIn(const CUabiAligned *tensorMap, unsigned long long *sum) {
	if ((uintptr_t)tensorMap % 64 != 0) return CUDA_ERROR_INVALID_VALUE;
	unsigned long long s = 0;
	for (int i = 0; i < 16; i++) s += tensorMap->words[i];
	*sum = s;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
	if (!device || ordinal == 99) return CUDA_ERROR_INVALID_VALUE;
	*device = ordinal;
	return CUDA_SUCCESS;
}

CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev) {
	if (!pctx) return CUDA_ERROR_INVALID_VALUE;
	*pctx = (CUcontext)(uintptr_t)(0xC7C0000000000000ull ^ (uint64_t)flags << 32 ^ (uint32_t)dev);
	return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
	reset();
	put((uintptr_t)ctx);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) {
	if (!uuid) return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < 16; i++) uuid->bytes[i] = (char)(dev * 16 + i);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
	if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
	snprintf(name, (size_t)len, "ABI device %d (len %d)", dev, len);
	return CUDA_SUCCESS;
}

/* cuDeviceGetLuid writes all 8 bytes of the LUID, as a driver does: a
   binding that passes the address of one byte is overwritten past it. */
CUresult cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask, CUdevice dev) {
	if (!luid || !deviceNodeMask) return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < 8; i++) luid[i] = (char)(0xA0 + dev * 8 + i);
	*deviceNodeMask = 1u << dev;
	return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd) {
	if (!pMilliseconds) return CUDA_ERROR_INVALID_VALUE;
	*pMilliseconds = (float)((uintptr_t)hEnd - (uintptr_t)hStart) / 4.0f;
	return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name) {
	if (!hfunc || !name) return CUDA_ERROR_INVALID_VALUE;
	size_t n = strlen(name);
	reset();
	put(n);
	*hfunc = (CUfunction)(uintptr_t)(fnv1a(name, n) ^ (uintptr_t)hmod);
	return CUDA_SUCCESS;
}

CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream) {
	reset();
	put(devPtr);
	put(count);
	put(location.type);
	puti(location.id);
	put(flags);
	put((uintptr_t)hStream);
	return CUDA_SUCCESS;
}

CUresult cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr) {
	if (!pHandle) return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < 64; i++) pHandle->reserved[i] = (char)(dptr + 3 * i);
	return CUDA_SUCCESS;
}

CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags) {
	if (!pdptr) return CUDA_ERROR_INVALID_VALUE;
	reset();
	putbytes(&handle, sizeof handle);
	put(Flags);
	*pdptr = fnv1a(&handle, sizeof handle) ^ Flags;
	return CUDA_SUCCESS;
}

// ---- driver: floating point and structs ----

CUresult cuAbiFloats(int i0, float f0, double d0, long long i1, float f1, double d1,
                     unsigned int i2, float f2, double d2, short i3, float f3, double d3,
                     unsigned char i4, float f4, double d4, size_t i5, CUdeviceptr i6, int i7) {
	reset();
	puti(i0);
	putf(f0);
	putd(d0);
	puti(i1);
	putf(f1);
	putd(d1);
	put(i2);
	putf(f2);
	putd(d2);
	puti(i3);
	putf(f3);
	putd(d3);
	put(i4);
	putf(f4);
	putd(d4);
	put(i5);
	put(i6);
	puti(i7);
	return CUDA_SUCCESS;
}

CUresult cuAbiStructs(CUabiMixed m, CUabiFloat3 v, int after, CUabiMixed *echo) {
	reset();
	puti(m.i);
	putf(m.f);
	putd(m.d);
	putf(v.x);
	putf(v.y);
	putf(v.z);
	puti(after);
	if (!echo) return CUDA_ERROR_INVALID_VALUE;
	echo->i = 2 * m.i;
	echo->f = 2 * m.f;
	echo->d = 2 * m.d;
	return CUDA_SUCCESS;
}

CUresult cuAbiPointers(void *p, const void *cp, void **slots, unsigned int *counter) {
	reset();
	put((uintptr_t)p);
	put((uintptr_t)cp);
	put(cp ? *(const unsigned char *)cp : 0);
	put((uintptr_t)slots);
	put((uintptr_t)counter);
	if (slots) slots[0] = p;
	if (counter) *counter *= 2;
	return CUDA_SUCCESS;
}

// ---- callbacks ----
// Stream 0 (NULL) calls back on the calling thread before returning; stream
// 0xBAD fails; any other stream calls back from a new thread, and the
// synchronize functions wait for those.

#define BAD_STREAM ((uintptr_t)0xBAD)

static atomic_int pending;
static pthread_mutex_t fnsMu = PTHREAD_MUTEX_INITIALIZER;
uintptr_t abi_fns[16]; // distinct callback addresses received, in order
int abi_nfns;
long long abi_callbacks; // callbacks started (every one, any thread)

static void noteFn(uintptr_t fn) {
	pthread_mutex_lock(&fnsMu);
	abi_callbacks++;
	int i = 0;
	while (i < abi_nfns && abi_fns[i] != fn) i++;
	if (i == abi_nfns && abi_nfns < 16) abi_fns[abi_nfns++] = fn;
	pthread_mutex_unlock(&fnsMu);
}

struct job {
	CUhostFn host;
	CUstreamCallback drv;
	cudaStreamCallback_t rt;
	void *stream;
	int status;
	void *ud;
};

static void run(struct job *j) {
	if (j->host) j->host(j->ud);
	else if (j->drv) j->drv((CUstream)j->stream, (CUresult)j->status, j->ud);
	else j->rt((cudaStream_t)j->stream, (cudaError_t)j->status, j->ud);
}

static void *worker(void *arg) {
	struct job j = *(struct job *)arg;
	free(arg);
	run(&j);
	atomic_fetch_sub(&pending, 1);
	return NULL;
}

static int submit(struct job j) {
	if ((uintptr_t)j.stream == BAD_STREAM) return 1;
	if (!j.stream) {
		run(&j);
		return 0;
	}
	struct job *p = malloc(sizeof *p);
	if (!p) return 2;
	*p = j;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	atomic_fetch_add(&pending, 1);
	pthread_t t;
	int rc = pthread_create(&t, &a, worker, p);
	pthread_attr_destroy(&a);
	if (rc != 0) {
		atomic_fetch_sub(&pending, 1);
		free(p);
		return 2;
	}
	return 0;
}

static void drain(void) {
	while (atomic_load(&pending) > 0) {
		struct timespec ts = {0, 50000};
		nanosleep(&ts, NULL);
	}
}

static int captureHost(CUstream s, CUhostFn fn, void *ud);

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData) {
	if (!fn) return CUDA_ERROR_INVALID_VALUE;
	if (captureHost(hStream, fn, userData)) return CUDA_SUCCESS;
	if ((uintptr_t)hStream != BAD_STREAM) noteFn((uintptr_t)fn);
	return (CUresult)submit((struct job){.host = fn, .stream = hStream, .ud = userData});
}

CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags) {
	if (!callback) return CUDA_ERROR_INVALID_VALUE;
	if ((uintptr_t)hStream != BAD_STREAM) noteFn((uintptr_t)callback);
	return (CUresult)submit((struct job){.drv = callback, .stream = hStream, .status = (int)flags, .ud = userData});
}

CUresult cuCtxSynchronize(void) {
	drain();
	return CUDA_SUCCESS;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
	if (!fn) return cudaErrorInvalidValue;
	if ((uintptr_t)stream != BAD_STREAM) noteFn((uintptr_t)fn);
	return (cudaError_t)submit((struct job){.host = fn, .stream = stream, .ud = userData});
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned int flags) {
	if (!callback) return cudaErrorInvalidValue;
	if ((uintptr_t)stream != BAD_STREAM) noteFn((uintptr_t)callback);
	return (cudaError_t)submit((struct job){.rt = callback, .stream = stream, .status = (int)flags, .ud = userData});
}

cudaError_t cudaDeviceSynchronize(void) {
	drain();
	return cudaSuccess;
}

// ---- runtime ----

cudaError_t cudaGetDeviceCount(int *count) {
	if (!count) return cudaErrorInvalidValue;
	*count = 3;
	return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
	if (device < 0 || device > 7) return cudaErrorInvalidDevice;
	reset();
	puti(device);
	return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device) {
	if (!prop) return cudaErrorInvalidValue;
	if (device < 0 || device > 7) return cudaErrorInvalidDevice;
	memset(prop, 0xEE, sizeof *prop); // padding is not the Go code's business
	memset(prop->name, 0, sizeof prop->name);
	snprintf(prop->name, sizeof prop->name, "ABI GPU %d", device);
	prop->totalGlobalMem = (size_t)device << 33 | 5;
	prop->major = 9;
	prop->minor = device;
	prop->flag = 0xA5;
	prop->clockGHz = 1.5 + device;
	prop->ports[0] = 1;
	prop->ports[1] = 2;
	prop->ports[2] = 65535;
	return cudaSuccess;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream) {
	reset();
	put((uintptr_t)func);
	put(gridDim.x);
	put(gridDim.y);
	put(gridDim.z);
	put(blockDim.x);
	put(blockDim.y);
	put(blockDim.z);
	put((uintptr_t)args);
	put(args ? (uintptr_t)args[0] : 0);
	put(sharedMem);
	put((uintptr_t)stream);
	return cudaSuccess;
}

// putExtra records a launch's extra array (0 for NULL; else 1, the size,
// the buffer's FNV-1a hash and its first 8 bytes); -1 if it is malformed.
static int putExtra(void **extra) {
	if (!extra) {
		put(0);
		return 0;
	}
	if (extra[0] != CU_LAUNCH_PARAM_BUFFER_POINTER || extra[2] != CU_LAUNCH_PARAM_BUFFER_SIZE || extra[4] != CU_LAUNCH_PARAM_END)
		return -1;
	size_t n = *(size_t *)extra[3];
	uint64_t first = 0;
	memcpy(&first, extra[1], n < 8 ? n : 8);
	put(1);
	put(n);
	put(fnv1a(extra[1], n));
	put(first);
	return 0;
}

cudaError_t cudaAbiKernelNode(const struct cudaKernelNodeParams *p) {
	if (!p) return cudaErrorInvalidValue;
	reset();
	put((uintptr_t)p->func);
	put(p->gridDim.x);
	return putExtra(p->extra) ? cudaErrorInvalidValue : cudaSuccess;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra) {
	reset();
	put((uintptr_t)f);
	put(gridDimX);
	put(gridDimY);
	put(gridDimZ);
	put(blockDimX);
	put(blockDimY);
	put(blockDimZ);
	put(sharedMemBytes);
	put((uintptr_t)hStream);
	put(kernelParams ? (uint64_t)*(int *)kernelParams[0] : 0);
	return putExtra(extra) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

cudaError_t cudaFree(void *devPtr) {
	reset();
	put((uintptr_t)devPtr);
	return cudaSuccess;
}

cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset, size_t *paramSize) {
	if (!paramOffset || !paramSize) return cudaErrorInvalidValue;
	reset();
	put((uintptr_t)func);
	put(paramIndex);
	*paramOffset = paramIndex * 8;
	*paramSize = (uint32_t)(uintptr_t)func;
	return cudaSuccess;
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent) {
	if (!pitchedDevPtr) return cudaErrorInvalidValue;
	reset();
	put(extent.width);
	put(extent.height);
	put(extent.depth);
	pitchedDevPtr->ptr = (void *)(uintptr_t)(0x100000 + extent.depth);
	pitchedDevPtr->pitch = (extent.width + 511) & ~(size_t)511;
	pitchedDevPtr->xsize = extent.width;
	pitchedDevPtr->ysize = extent.height;
	return cudaSuccess;
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent) {
	reset();
	put((uintptr_t)pitchedDevPtr.ptr);
	put(pitchedDevPtr.pitch);
	put(pitchedDevPtr.xsize);
	put(pitchedDevPtr.ysize);
	puti(value);
	put(extent.width);
	put(extent.height);
	put(extent.depth);
	return cudaSuccess;
}

cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags) {
	if (!devPtr) return cudaErrorInvalidValue;
	reset();
	putbytes(&handle, sizeof handle);
	put(flags);
	uintptr_t sum = 0;
	for (int i = 0; i < 64; i++) sum += (unsigned char)handle.reserved[i];
	*devPtr = (void *)(0x200000 + sum);
	return cudaSuccess;
}

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f) {
	struct cudaChannelFormatDesc d = {x, y, z, w, f};
	return d;
}

dim3 cudaAbiMakeDim3(unsigned int x, unsigned int y, unsigned int z) {
	dim3 d = {x, y, z};
	return d;
}

double cudaAbiScale(float f, int n, double d) { return ((double)f + d) * n; }

float cudaAbiHalf(float f) { return f / 2; }

int cudaAbiNegate(int v) { return -v; }

void cudaAbiRecord(long long v) {
	reset();
	puti(v);
}

// ---- registered and synchronous callbacks ----

struct CUasyncCallbackEntry_st {
	CUasyncCallback fn;
	void *userData;
	int live;
};
static struct CUasyncCallbackEntry_st asyncEntries[4096];

CUresult cuDeviceRegisterAsyncNotification(CUdevice device, CUasyncCallback callbackFunc, void *userData, CUasyncCallbackHandle *callback) {
	(void)device;
	for (int i = 0; i < 4096; i++) {
		if (!asyncEntries[i].live) {
			asyncEntries[i] = (struct CUasyncCallbackEntry_st){callbackFunc, userData, 1};
			*callback = &asyncEntries[i];
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuDeviceUnregisterAsyncNotification(CUdevice device, CUasyncCallbackHandle callback) {
	(void)device;
	if (!callback || !callback->live) return CUDA_ERROR_INVALID_VALUE;
	callback->live = 0;
	return CUDA_SUCCESS;
}

CUresult cuAbiFireAsync(unsigned long long bytes) {
	for (int i = 0; i < 4096; i++) {
		if (asyncEntries[i].live) {
			CUasyncNotificationInfo info = {1, bytes};
			asyncEntries[i].fn(&info, asyncEntries[i].userData, &asyncEntries[i]);
		}
	}
	return CUDA_SUCCESS;
}

int abi_occupancy_returns; // cuOccupancyMaxPotentialBlockSize calls that returned

CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func, CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize, int blockSizeLimit) {
	(void)func; (void)blockSizeLimit;
	size_t sum = 0, best = (size_t)-1;
	int bestBlock = 0;
	for (int b = 32; b <= 128; b *= 2) {
		size_t s = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(b) : dynamicSMemSize;
		sum += s;
		if (s < best) { best = s; bestBlock = b; }
	}
	*minGridSize = (int)sum;
	*blockSize = bestBlock;
	abi_occupancy_returns++;
	return CUDA_SUCCESS;
}

// ---- graphs, stream capture, user objects ----
// Stream 0xCA9 can capture. A graph (or exec: the same struct) holds host
// nodes and references to user objects; clones and execs copy both and
// take their own references; destroying any releases its references, and
// the last release runs the user object's destructor on that thread.

#define CAPTURE_STREAM ((uintptr_t)0xCA9)

struct CUuserObject_st {
	int refs;
	void *ptr;
	CUhostFn destroy;
};

struct CUgraph_st {
	int nnodes, nobjs;
	CUhostFn fns[16];
	void *uds[16];
	CUuserObject objs[16];
	unsigned int counts[16];
};

static CUgraph capturing; // the graph CAPTURE_STREAM captures into, or NULL
long long abi_user_objects; // user objects alive

static int captureHost(CUstream s, CUhostFn fn, void *ud) {
	if ((uintptr_t)s != CAPTURE_STREAM || !capturing || capturing->nnodes == 16) return 0;
	capturing->fns[capturing->nnodes] = fn;
	capturing->uds[capturing->nnodes++] = ud;
	return 1;
}

CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode) {
	(void)mode;
	if ((uintptr_t)hStream != CAPTURE_STREAM || capturing) return CUDA_ERROR_INVALID_VALUE;
	capturing = calloc(1, sizeof *capturing);
	return capturing ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph) {
	if ((uintptr_t)hStream != CAPTURE_STREAM || !capturing || !phGraph) return CUDA_ERROR_INVALID_VALUE;
	*phGraph = capturing;
	capturing = NULL;
	return CUDA_SUCCESS;
}

CUresult cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
        unsigned long long *id_out, CUgraph *graph_out, const CUgraphNode **dependencies_out, size_t *numDependencies_out) {
	if (!captureStatus_out) return CUDA_ERROR_INVALID_VALUE;
	int on = (uintptr_t)hStream == CAPTURE_STREAM && capturing;
	*captureStatus_out = on ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
	if (id_out) *id_out = on;
	if (graph_out) *graph_out = on ? capturing : NULL;
	if (dependencies_out) *dependencies_out = NULL;
	if (numDependencies_out) *numDependencies_out = 0;
	return CUDA_SUCCESS;
}

CUresult cuUserObjectCreate(CUuserObject *object_out, void *ptr, CUhostFn destroy, unsigned int initialRefcount, unsigned int flags) {
	if (!object_out || !destroy || initialRefcount == 0 || flags != CU_USER_OBJECT_NO_DESTRUCTOR_SYNC) return CUDA_ERROR_INVALID_VALUE;
	CUuserObject o = malloc(sizeof *o);
	if (!o) return CUDA_ERROR_OUT_OF_MEMORY;
	*o = (struct CUuserObject_st){(int)initialRefcount, ptr, destroy};
	abi_user_objects++;
	*object_out = o;
	return CUDA_SUCCESS;
}

CUresult cuUserObjectRelease(CUuserObject object, unsigned int count) {
	if (!object || count == 0 || (int)count > object->refs) return CUDA_ERROR_INVALID_VALUE;
	object->refs -= (int)count;
	if (object->refs == 0) {
		object->destroy(object->ptr);
		abi_user_objects--;
		free(object);
	}
	return CUDA_SUCCESS;
}

CUresult cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count, unsigned int flags) {
	if (!graph || !object || count == 0 || graph->nobjs == 16) return CUDA_ERROR_INVALID_VALUE;
	if (!(flags & CU_GRAPH_USER_OBJECT_MOVE)) object->refs += (int)count;
	graph->objs[graph->nobjs] = object;
	graph->counts[graph->nobjs++] = count;
	return CUDA_SUCCESS;
}

static CUresult copyGraph(CUgraph *out, CUgraph g) {
	if (!out || !g) return CUDA_ERROR_INVALID_VALUE;
	CUgraph c = malloc(sizeof *c);
	if (!c) return CUDA_ERROR_OUT_OF_MEMORY;
	*c = *g;
	for (int i = 0; i < c->nobjs; i++) c->objs[i]->refs += (int)c->counts[i];
	*out = c;
	return CUDA_SUCCESS;
}

CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph) { return copyGraph(phGraphClone, originalGraph); }

CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags) {
	(void)flags;
	return copyGraph(phGraphExec, hGraph);
}

CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream) {
	(void)hStream;
	if (!hGraphExec) return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < hGraphExec->nnodes; i++) hGraphExec->fns[i](hGraphExec->uds[i]);
	return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph hGraph) {
	if (!hGraph) return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < hGraph->nobjs; i++) cuUserObjectRelease(hGraph->objs[i], hGraph->counts[i]);
	free(hGraph);
	return CUDA_SUCCESS;
}

CUresult cuGraphExecDestroy(CUgraphExec hGraphExec) { return cuGraphDestroy(hGraphExec); }

struct CUgraphNode_st {
	CUgraph g;
	int i;
};
static struct CUgraphNode_st nodePool[4096];
static int nodesUsed;

CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams) {
	(void)dependencies; (void)numDependencies;
	if (!phGraphNode || !hGraph || !nodeParams || !nodeParams->fn || hGraph->nnodes == 16 || nodesUsed == 4096) return CUDA_ERROR_INVALID_VALUE;
	hGraph->fns[hGraph->nnodes] = nodeParams->fn;
	hGraph->uds[hGraph->nnodes] = nodeParams->userData;
	nodePool[nodesUsed] = (struct CUgraphNode_st){hGraph, hGraph->nnodes++};
	*phGraphNode = &nodePool[nodesUsed++];
	return CUDA_SUCCESS;
}

CUresult cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams) {
	if (!hNode || !nodeParams || !nodeParams->fn) return CUDA_ERROR_INVALID_VALUE;
	hNode->g->fns[hNode->i] = nodeParams->fn;
	hNode->g->uds[hNode->i] = nodeParams->userData;
	return CUDA_SUCCESS;
}

CUresult cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams) {
	if (!hGraphExec || !hNode || !nodeParams || !nodeParams->fn || hNode->i >= hGraphExec->nnodes) return CUDA_ERROR_INVALID_VALUE;
	hGraphExec->fns[hNode->i] = nodeParams->fn;
	hGraphExec->uds[hNode->i] = nodeParams->userData;
	return CUDA_SUCCESS;
}

CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags) {
	if (!phGraph || flags) return CUDA_ERROR_INVALID_VALUE;
	*phGraph = calloc(1, sizeof **phGraph);
	return *phGraph ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

// The generic node calls take host nodes only, through the host node calls.
static const CUDA_HOST_NODE_PARAMS *hostOf(const CUgraphNodeParams *p, CUDA_HOST_NODE_PARAMS *out) {
	if (!p || p->type != CU_GRAPH_NODE_TYPE_HOST) return NULL;
	*out = (CUDA_HOST_NODE_PARAMS){p->host.fn, p->host.userData};
	return out;
}

CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, size_t numDependencies, CUgraphNodeParams *nodeParams) {
	CUDA_HOST_NODE_PARAMS h;
	if (!hostOf(nodeParams, &h)) return CUDA_ERROR_INVALID_VALUE;
	return cuGraphAddHostNode(phGraphNode, hGraph, dependencies, numDependencies, &h);
}

CUresult cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams) {
	CUDA_HOST_NODE_PARAMS h;
	if (!hostOf(nodeParams, &h)) return CUDA_ERROR_INVALID_VALUE;
	return cuGraphHostNodeSetParams(hNode, &h);
}

CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams) {
	CUDA_HOST_NODE_PARAMS h;
	if (!hostOf(nodeParams, &h)) return CUDA_ERROR_INVALID_VALUE;
	return cuGraphExecHostNodeSetParams(hGraphExec, hNode, &h);
}
