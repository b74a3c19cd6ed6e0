// bench.c: the C column of cugen's benchmarks. It dlopens the same
// libraries the Go packages use and times the same calls, on one thread
// with device 0's primary context current. Build and run on the GPU machine:
//
//	gcc -O2 -o bench bench.c -ldl && ./bench libcuda.so.1 path/to/libcudart.so.12
//
// With "launch N" after the libraries it runs only the two launch
// measurements, N launches each; with "submit N", only the submit loop
// (N launches in bursts of 64, the wait between bursts untimed), for
// mk/gpu-profile.sh to profile beside the Go loop.
//
// Output: one "name ns/op" line per benchmark (and GB/s for the copy).
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
static CUresult (*cuInit)(unsigned);
static CUresult (*cuDeviceGet)(int *, int);
static CUresult (*cuDevicePrimaryCtxRetain)(void **, int);
static CUresult (*cuCtxSetCurrent)(void *);
static CUresult (*cuCtxGetCurrent)(void **);
static CUresult (*cuCtxSynchronize)(void);
static CUresult (*cuModuleLoadData)(void **, const void *);
static CUresult (*cuModuleGetFunction)(void **, void *, const char *);
static CUresult (*cuMemAlloc)(unsigned long long *, size_t);
static CUresult (*cuMemcpyHtoD)(unsigned long long, const void *, size_t);
static CUresult (*cuLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **, void **);
static CUresult (*cuStreamCreate)(void **, unsigned);
static CUresult (*cuStreamBeginCapture)(void *, int);
static CUresult (*cuStreamEndCapture)(void *, void **);
static CUresult (*cuStreamSynchronize)(void *);
static CUresult (*cuGraphInstantiate)(void **, void *, unsigned long long);
static CUresult (*cuGraphLaunch)(void *, void *);
static int (*cudaSetDevice)(int);
static int (*cudaGetDevice)(int *);
static int (*cudaMallocHost)(void **, size_t);
static int (*cudaMalloc)(void **, size_t);
static int (*cudaMemcpy)(void *, const void *, size_t, int);

static const char ptx[] =
	".version 7.0\n.target sm_52\n.address_size 64\n"
	".visible .entry empty()\n{\n\tret;\n}\n";

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *must(void *lib, const char *name) {
	void *p = dlsym(lib, name);
	if (!p) { fprintf(stderr, "dlsym %s: %s\n", name, dlerror()); exit(1); }
	return p;
}

#define CHECK(x) do { int r_ = (x); if (r_) { fprintf(stderr, "%s = %d\n", #x, r_); exit(1); } } while (0)

// launch times n launches of the empty kernel and the wait for them (the
// launch rate, as BenchmarkLaunchEmpty measures it), the same in blocks of
// 1000 with a wait after each (as BenchmarkLaunchInterleaved does), then n
// launches in bursts of 64 with the wait between bursts untimed (the CPU's
// cost of one launch while the queue has room, as BenchmarkLaunchSubmit
// measures it). n is rounded up to whole blocks and bursts.
static void submit(void *fn, int n) {
	double t, spent = 0;
	int bursts = (n + 63) / 64;
	for (int k = 0; k < bursts; k++) {
		t = now();
		for (int i = 0; i < 64; i++) CHECK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
		spent += now() - t;
		CHECK(cuCtxSynchronize());
	}
	printf("LaunchSubmit %.1f ns/op %d launches\n", spent / (bursts * 64.0), bursts * 64);
}

static void launch(void *fn, int n) {
	for (int i = 0; i < 1000; i++) CHECK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	CHECK(cuCtxSynchronize());
	double t = now();
	for (int i = 0; i < n; i++) CHECK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	CHECK(cuCtxSynchronize());
	printf("LaunchEmpty %.1f ns/op\n", (now() - t) / n);
	int blocks = (n + 999) / 1000;
	t = now();
	for (int k = 0; k < blocks; k++) {
		for (int i = 0; i < 1000; i++) CHECK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
		CHECK(cuCtxSynchronize());
	}
	printf("LaunchBlocks %.1f ns/op\n", (now() - t) / (blocks * 1000.0));
	double submit = 0;
	int bursts = (n + 63) / 64;
	for (int k = 0; k < bursts; k++) {
		t = now();
		for (int i = 0; i < 64; i++) CHECK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
		submit += now() - t;
		CHECK(cuCtxSynchronize());
	}
	printf("LaunchSubmit %.1f ns/op\n", submit / (bursts * 64.0));
}

int main(int argc, char **argv) {
	if (argc != 3 && !(argc == 5 && (!strcmp(argv[3], "launch") || !strcmp(argv[3], "submit")))) {
		fprintf(stderr, "usage: bench LIBCUDA LIBCUDART [launch N | submit N]\n");
		return 2;
	}
	void *d = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL), *r = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
	if (!d || !r) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 1; }
	cuInit = must(d, "cuInit"); cuDeviceGet = must(d, "cuDeviceGet");
	cuDevicePrimaryCtxRetain = must(d, "cuDevicePrimaryCtxRetain"); cuCtxSetCurrent = must(d, "cuCtxSetCurrent");
	cuCtxGetCurrent = must(d, "cuCtxGetCurrent"); cuCtxSynchronize = must(d, "cuCtxSynchronize");
	cuModuleLoadData = must(d, "cuModuleLoadData"); cuModuleGetFunction = must(d, "cuModuleGetFunction");
	cuMemAlloc = must(d, "cuMemAlloc_v2"); cuMemcpyHtoD = must(d, "cuMemcpyHtoD_v2"); cuLaunchKernel = must(d, "cuLaunchKernel");
	cuStreamCreate = must(d, "cuStreamCreate"); cuStreamBeginCapture = must(d, "cuStreamBeginCapture_v2");
	cuStreamEndCapture = must(d, "cuStreamEndCapture"); cuStreamSynchronize = must(d, "cuStreamSynchronize");
	cuGraphInstantiate = must(d, "cuGraphInstantiateWithFlags"); cuGraphLaunch = must(d, "cuGraphLaunch");
	cudaSetDevice = must(r, "cudaSetDevice"); cudaGetDevice = must(r, "cudaGetDevice");
	cudaMallocHost = must(r, "cudaMallocHost"); cudaMalloc = must(r, "cudaMalloc"); cudaMemcpy = must(r, "cudaMemcpy");

	int dev; void *ctx, *mod, *fn;
	double ns;
	CHECK(cuInit(0)); CHECK(cuDeviceGet(&dev, 0)); CHECK(cuDevicePrimaryCtxRetain(&ctx, dev)); CHECK(cuCtxSetCurrent(ctx));
	CHECK(cudaSetDevice(0));
	CHECK(cuModuleLoadData(&mod, ptx)); CHECK(cuModuleGetFunction(&fn, mod, "empty"));
	if (argc == 5 && !strcmp(argv[3], "submit")) { // the profiled loop only
		for (int i = 0; i < 1000; i++) CHECK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
		CHECK(cuCtxSynchronize());
		submit(fn, atoi(argv[4]));
		return 0;
	}
	if (argc == 5) { // launch only: the launch-rate rounds of BENCHMARKS.md
		launch(fn, atoi(argv[4]));
		return 0;
	}

	const int n = 2000000;
	double t = now();
	for (int i = 0; i < n; i++) CHECK(cuCtxGetCurrent(&ctx));
	printf("CtxGetCurrent %.1f ns/op\n", (now() - t) / n);
	t = now();
	for (int i = 0; i < n; i++) CHECK(cudaGetDevice(&dev));
	printf("CudaGetDevice %.1f ns/op\n", (now() - t) / n);
	t = now();
	for (int i = 0; i < n; i++) CHECK(cuDeviceGet(&dev, 0));
	printf("DeviceGet %.1f ns/op\n", (now() - t) / n);

	unsigned long long dst; unsigned long long src = 42;
	CHECK(cuMemAlloc(&dst, 8));
	const int m = 200000;
	t = now();
	for (int i = 0; i < m; i++) CHECK(cuMemcpyHtoD(dst, &src, 8));
	printf("MemcpyHtoD8B %.1f ns/op\n", (now() - t) / m);

	launch(fn, m);

	// A graph of 100 empty kernels captured from a stream (1 = CU_STREAM_NON_BLOCKING,
	// 1 = CU_STREAM_CAPTURE_MODE_THREAD_LOCAL), as BenchmarkGraphLaunch builds it.
	void *stream, *graph, *exec;
	CHECK(cuStreamCreate(&stream, 1));
	CHECK(cuStreamBeginCapture(stream, 1));
	for (int i = 0; i < 100; i++) CHECK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, stream, NULL, NULL));
	CHECK(cuStreamEndCapture(stream, &graph));
	CHECK(cuGraphInstantiate(&exec, graph, 0));
	const int g = 20000;
	for (int i = 0; i < 100; i++) CHECK(cuGraphLaunch(exec, stream));
	CHECK(cuStreamSynchronize(stream));
	t = now();
	for (int i = 0; i < g; i++) CHECK(cuGraphLaunch(exec, stream));
	CHECK(cuStreamSynchronize(stream));
	ns = (now() - t) / g;
	printf("GraphLaunch %.1f ns/op %.1f ns/kernel\n", ns, ns / 100);

	const size_t size = 256u << 20;
	void *host, *devp;
	CHECK(cudaMallocHost(&host, size)); CHECK(cudaMalloc(&devp, size));
	memset(host, 7, size);
	CHECK(cudaMemcpy(devp, host, size, 1));
	const int k = 10;
	t = now();
	for (int i = 0; i < k; i++) CHECK(cudaMemcpy(devp, host, size, 1));
	ns = (now() - t) / k;
	printf("Memcpy256MB %.0f ns/op %.2f GB/s\n", ns, size / ns);
	return 0;
}
