// The C reference of examples/allocBench: the same 100,000 stream-ordered
// allocations and frees (cuMemAllocAsync, cuMemFreeAsync) of the same
// sizes, 16 live, on one stream, from the device's default pool with its
// release threshold at the maximum; a warm-up round, then ROUNDS timed
// rounds (default 5), each ending in cuStreamSynchronize.
//
//	nvcc -O2 -o allocbench allocbench.cu -lcuda
//	./allocbench [ROUNDS]
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define PAIRS 100000
#define LIVE 16

static void check(CUresult r, const char *what) {
    if (r != CUDA_SUCCESS) {
        const char *name = "?";
        cuGetErrorName(r, &name);
        fprintf(stderr, "allocbench: %s: %s\n", what, name);
        exit(1);
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static size_t sizes[PAIRS];

static void round_(CUstream s) {
    CUdeviceptr ring[LIVE] = {0};
    for (int i = 0; i < PAIRS; i++) {
        if (ring[i % LIVE]) check(cuMemFreeAsync(ring[i % LIVE], s), "cuMemFreeAsync");
        check(cuMemAllocAsync(&ring[i % LIVE], sizes[i], s), "cuMemAllocAsync");
    }
    for (int i = 0; i < LIVE; i++) check(cuMemFreeAsync(ring[i], s), "cuMemFreeAsync");
    check(cuStreamSynchronize(s), "cuStreamSynchronize");
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1 || rounds > 1000) rounds = 5;
    uint64_t x = 1;
    for (int i = 0; i < PAIRS; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        sizes[i] = (size_t)256 << ((x >> 33) % 19); // Go's x >> 33 % 19
    }
    CUdevice dev;
    CUcontext ctx;
    CUstream s;
    CUmemoryPool pool;
    check(cuInit(0), "cuInit");
    check(cuDeviceGet(&dev, 0), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    check(cuStreamCreate(&s, CU_STREAM_DEFAULT), "cuStreamCreate");
    check(cuDeviceGetDefaultMemPool(&pool, dev), "cuDeviceGetDefaultMemPool");
    cuuint64_t threshold = UINT64_MAX;
    check(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold), "cuMemPoolSetAttribute");
    char name[256];
    check(cuDeviceGetName(name, sizeof name, dev), "cuDeviceGetName");
    printf("allocbench (C): %d alloc/free pairs of 256 B to 64 MiB, %d live, on one stream of %s\n", PAIRS, LIVE, name);
    round_(s); // warm-up
    double *ns = (double *)malloc(rounds * sizeof *ns);
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        round_(s);
        ns[r] = (now() - t0) / PAIRS;
        printf("round %d:  C %.0f ns/pair\n", r + 1, ns[r]);
    }
    qsort(ns, rounds, sizeof *ns, cmp);
    printf("median: C %.0f ns/pair\n", ns[rounds / 2]);
    check(cuStreamDestroy(s), "cuStreamDestroy");
    check(cuDevicePrimaryCtxRelease(dev), "cuDevicePrimaryCtxRelease");
    return 0;
}
