// The C reference of examples/cublasGemm: the same cuBLAS calls in the same
// order, timed the same way. Build on a machine with the CUDA toolkit:
//
//	nvcc -O2 -o gemm gemm.cu -lcublas
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x) do { int rc_ = (int)(x); if (rc_) { fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, rc_); exit(1); } } while (0)

static float timed(int reps, int (*fn)(void *), void *arg) {
	cudaEvent_t start, stop;
	float ms;
	CHECK(fn(arg));
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	CHECK(cudaEventRecord(start, 0));
	for (int i = 0; i < reps; i++) CHECK(fn(arg));
	CHECK(cudaEventRecord(stop, 0));
	CHECK(cudaEventSynchronize(stop));
	CHECK(cudaEventElapsedTime(&ms, start, stop));
	cudaEventDestroy(start);
	cudaEventDestroy(stop);
	return ms / reps;
}

struct gemm { cublasHandle_t h; int n, small; float *a, *b, *c; __nv_bfloat16 *a16, *c16; float alpha, beta; };

static int sgemm(void *p) {
	struct gemm *g = (struct gemm *)p;
	return cublasSgemm(g->h, CUBLAS_OP_N, CUBLAS_OP_N, g->n, g->n, g->n, &g->alpha, g->a, g->n, g->b, g->n, &g->beta, g->c, g->n);
}

static int gemmEx(void *p) {
	struct gemm *g = (struct gemm *)p;
	return cublasGemmEx(g->h, CUBLAS_OP_N, CUBLAS_OP_N, g->n, g->n, g->n, &g->alpha, g->a16, CUDA_R_16BF, g->n, g->a16, CUDA_R_16BF, g->n,
		&g->beta, g->c16, CUDA_R_16BF, g->n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

static int smallGemms(void *p) {
	struct gemm *g = (struct gemm *)p;
	for (int i = 0; i < g->small; i++) {
		int rc = cublasSgemm(g->h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &g->alpha, g->a, g->n, g->b, g->n, &g->beta, g->c, g->n);
		if (rc) return rc;
	}
	return 0;
}

int main(int argc, char **argv) {
	struct gemm g = {0};
	struct cudaDeviceProp prop;
	g.n = 8192; g.small = 100000; g.alpha = 1; g.beta = 0;
	int reps = 10;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-n")) g.n = atoi(argv[i + 1]);
		if (!strcmp(argv[i], "-small")) g.small = atoi(argv[i + 1]);
		if (!strcmp(argv[i], "-reps")) reps = atoi(argv[i + 1]);
	}
	size_t N = g.n, count = N * N;
	CHECK(cudaGetDeviceProperties(&prop, 0));
	printf("device 0: %s\n", prop.name);
	float *host = (float *)malloc(count * sizeof(float));
	__nv_bfloat16 *bf = (__nv_bfloat16 *)malloc(count * sizeof(__nv_bfloat16));
	for (size_t i = 0; i < count; i++) { host[i] = (float)(i % 7) - 3; bf[i] = __float2bfloat16(host[i]); }
	CHECK(cudaMalloc((void **)&g.a, count * 4));
	CHECK(cudaMalloc((void **)&g.b, count * 4));
	CHECK(cudaMalloc((void **)&g.c, count * 4));
	CHECK(cudaMalloc((void **)&g.a16, count * 2));
	CHECK(cudaMalloc((void **)&g.c16, count * 2));
	CHECK(cudaMemcpy(g.a, host, count * 4, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(g.b, host, count * 4, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(g.a16, bf, count * 2, cudaMemcpyHostToDevice));
	CHECK(cublasCreate(&g.h));
	double flops = 2.0 * N * N * N;
	float ms = timed(reps, sgemm, &g);
	printf("%-28s %dx%dx%d: %8.3f ms/GEMM, %7.2f TFLOP/s\n", "SGEMM fp32", g.n, g.n, g.n, ms, flops / ms / 1e9);
	ms = timed(reps, gemmEx, &g);
	printf("%-28s %dx%dx%d: %8.3f ms/GEMM, %7.2f TFLOP/s\n", "GemmEx bf16 (fp32 compute)", g.n, g.n, g.n, ms, flops / ms / 1e9);
	double want = 0;
	for (size_t k = 0; k < N; k++) want += (double)host[k * N] * host[k];
	float got;
	CHECK(cudaMemcpy(&got, g.c, 4, cudaMemcpyDeviceToHost));
	if (got != want) { printf("SGEMM C[0,0] = %g, want %g\n", got, want); return 1; }
	ms = timed(1, smallGemms, &g);
	printf("%d SGEMMs of %dx%dx%d one by one: %8.1f ms, %9.0f GEMMs/s\n", g.small, 64, 64, 64, ms, g.small / ms * 1e3);
	printf("C[0,0] = %g (want %g): Result = PASS\n", got, want);
	cublasDestroy(g.h);
	return 0;
}
