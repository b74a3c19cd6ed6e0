// cubbench: CUB's own C++ (cub::DeviceReduce::Sum, cub::DeviceScan::InclusiveSum,
// cub::DeviceRadixSort::SortKeys and SortPairs with int32 values)
// at the sizes and types of package algo's BenchmarkGPU, for mk/cub-bench.sh,
// which builds it with nvcc on the GPU machine and runs it interleaved with
// the Go benchmark. Prints one line per case, in Go's benchmark format:
//
//	BenchmarkCUB/Sum/float32/n=1048576  ITERS  NS ns/op  ELEMS elems/s
//
// Temporary storage is allocated once per case, as a caller of CUB would.
// The inputs are the Go benchmark's and pybench.py's: element i is
// splitmix64(i), for int64 its bits, for float32 its high 32 bits as an
// int32 times 2^-31.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

static uint64_t splitmix64(uint64_t i) {
    uint64_t z = (i + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void key(float *k, uint64_t h) { *k = float(int32_t(uint32_t(h >> 32))) * 0x1p-31f; }
static void key(int64_t *k, uint64_t h) { *k = int64_t(h); }

template <typename T>
static void bench(const char *type, int n, int iters) {
    std::vector<T> h(n);
    for (int i = 0; i < n; i++) key(&h[i], splitmix64(uint64_t(i)));
    T *in, *out;
    int32_t *vin, *vout;
    CHECK(cudaMalloc(&in, sizeof(T) * (n ? n : 1)));
    CHECK(cudaMalloc(&out, sizeof(T) * (n ? n : 1)));
    CHECK(cudaMalloc(&vin, sizeof(int32_t) * (n ? n : 1)));
    CHECK(cudaMalloc(&vout, sizeof(int32_t) * (n ? n : 1)));
    CHECK(cudaMemcpy(in, h.data(), sizeof(T) * n, cudaMemcpyHostToDevice));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    const char *names[] = {"Sum", "InclusiveSum", "SortKeys", "SortPairs"};
    for (int alg = 0; alg < 4; alg++) {
        size_t bytes = 0;
        void *tmp = nullptr;
        auto call = [&]() {
            if (alg == 0) CHECK(cub::DeviceReduce::Sum(tmp, bytes, in, out, n, s));
            else if (alg == 1) CHECK(cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n, s));
            else if (alg == 2) CHECK(cub::DeviceRadixSort::SortKeys(tmp, bytes, in, out, n, 0, int(sizeof(T) * 8), s));
            else CHECK(cub::DeviceRadixSort::SortPairs(tmp, bytes, in, out, vin, vout, n, 0, int(sizeof(T) * 8), s));
        };
        call(); // the size of the temporary storage
        CHECK(cudaMalloc(&tmp, bytes ? bytes : 1));
        auto run = call;
        run(); // warm up
        CHECK(cudaEventRecord(a, s));
        for (int i = 0; i < iters; i++) run();
        CHECK(cudaEventRecord(b, s));
        CHECK(cudaEventSynchronize(b));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        double ns = ms * 1e6 / iters;
        printf("BenchmarkCUB/%s/%s/n=%d \t%d\t%.1f ns/op\t%.4g elems/s\n", names[alg], type, n, iters, ns, n / (ns * 1e-9));
        CHECK(cudaFree(tmp));
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(vin));
    CHECK(cudaFree(vout));
    CHECK(cudaStreamDestroy(s));
}

// cubbench [N]: the cases of N elements only (for a profiler), else all.
int main(int argc, char **argv) {
    for (int n : {1 << 16, 1 << 20, 1 << 24, 1 << 28}) {
        if (argc > 1 && n != atoi(argv[1])) continue;
        int iters = n <= (1 << 20) ? 2000 : n <= (1 << 24) ? 200 : 20;
        bench<float>("float32", n, iters);
        bench<int64_t>("int64", n, iters);
    }
    return 0;
}
