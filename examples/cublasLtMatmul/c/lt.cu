// The C reference of examples/cublasLtMatmul: the same cuBLASLt and cuBLAS
// calls in the same order, timed the same way, printing the same lines.
// Build on a machine with the CUDA toolkit:
//
//	nvcc -O2 -o lt lt.cu -lcublasLt -lcublas
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x) do { int rc_ = (int)(x); if (rc_) { fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, rc_); exit(1); } } while (0)

#define WORKSPACE_BYTES (32 << 20) // the most cublasLt may use

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

struct gemm {
	cublasLtHandle_t lt; cublasLtMatmulDesc_t desc; cublasLtMatrixLayout_t layout; cublasLtMatmulAlgo_t algo;
	cublasHandle_t h; int n; float *a, *b, *c, *d; void *ws; float alpha, beta;
};

static int ltMatmul(void *p) {
	struct gemm *g = (struct gemm *)p;
	return cublasLtMatmul(g->lt, g->desc, &g->alpha, g->a, g->layout, g->b, g->layout, &g->beta, g->d, g->layout, g->d, g->layout,
		&g->algo, g->ws, WORKSPACE_BYTES, 0);
}

static int sgemm(void *p) {
	struct gemm *g = (struct gemm *)p;
	return cublasSgemm(g->h, CUBLAS_OP_N, CUBLAS_OP_N, g->n, g->n, g->n, &g->alpha, g->a, g->n, g->b, g->n, &g->beta, g->c, g->n);
}

int main(int argc, char **argv) {
	int n = 1024, reps = 100;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-n")) n = atoi(argv[i + 1]);
		if (!strcmp(argv[i], "-reps")) reps = atoi(argv[i + 1]);
	}
	if (n <= 0 || n > 32768 || reps <= 0) {
		fprintf(stderr, "-n %d -reps %d: want 1 <= n <= 32768 and at least one repetition\n", n, reps);
		return 1;
	}
	size_t N = n, count = N * N;
	struct cudaDeviceProp prop;
	CHECK(cudaGetDeviceProperties(&prop, 0));
	printf("device 0: %s\n", prop.name);

	// A and B: fixed values in [-1, 1), column-major, leading dimension N.
	float *ha = (float *)malloc(count * sizeof(float)), *hb = (float *)malloc(count * sizeof(float));
	for (size_t i = 0; i < count; i++) {
		ha[i] = (float)((long long)((37 * i + 11) % 101) - 50) / 50;
		hb[i] = (float)((long long)((53 * i + 29) % 103) - 51) / 51;
	}
	struct gemm g;
	g.n = n;
	g.alpha = 1;
	g.beta = 0;
	CHECK(cudaMalloc((void **)&g.a, count * sizeof(float)));
	CHECK(cudaMalloc((void **)&g.b, count * sizeof(float)));
	CHECK(cudaMalloc((void **)&g.d, count * sizeof(float))); // cublasLt's product
	CHECK(cudaMalloc((void **)&g.c, count * sizeof(float))); // SGEMM's product
	CHECK(cudaMalloc(&g.ws, WORKSPACE_BYTES));
	CHECK(cudaMemcpy(g.a, ha, count * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(g.b, hb, count * sizeof(float), cudaMemcpyHostToDevice));

	CHECK(cublasLtCreate(&g.lt));
	CHECK(cublasLtMatmulDescCreate(&g.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F)); // FP32 compute and scale, no transposes
	CHECK(cublasLtMatrixLayoutCreate(&g.layout, CUDA_R_32F, N, N, N));       // one layout serves A, B, C and D
	cublasLtMatmulPreference_t pref;
	CHECK(cublasLtMatmulPreferenceCreate(&pref));
	uint64_t maxWS = WORKSPACE_BYTES;
	CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &maxWS, sizeof maxWS));

	// The heuristic's first choice.
	cublasLtMatmulHeuristicResult_t heur[1];
	int count1 = 0;
	CHECK(cublasLtMatmulAlgoGetHeuristic(g.lt, g.desc, g.layout, g.layout, g.layout, g.layout, pref, 1, heur, &count1));
	if (count1 == 0 || heur[0].state != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "cublasLtMatmulAlgoGetHeuristic: no algorithm (%d returned, state %d)\n", count1, (int)heur[0].state);
		return 1;
	}
	g.algo = heur[0].algo;
	int32_t id;
	size_t written;
	CHECK(cublasLtMatmulAlgoConfigGetAttribute(&g.algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, &written));
	printf("heuristic: algorithm %d, workspace %zu bytes\n", id, heur[0].workspaceSize);

	CHECK(cublasCreate(&g.h));
	double flops = 2.0 * N * N * N;
	float ms = timed(reps, ltMatmul, &g);
	printf("%-20s %dx%dx%d: %8.4f ms/GEMM, %7.2f TFLOP/s\n", "cublasLtMatmul fp32", n, n, n, ms, flops / ms / 1e9);
	ms = timed(reps, sgemm, &g);
	printf("%-20s %dx%dx%d: %8.4f ms/GEMM, %7.2f TFLOP/s\n", "cublasSgemm", n, n, n, ms, flops / ms / 1e9);
	CHECK(cublasDestroy(g.h));
	CHECK(cublasLtMatmulPreferenceDestroy(pref));
	CHECK(cublasLtMatrixLayoutDestroy(g.layout));
	CHECK(cublasLtMatmulDescDestroy(g.desc));
	CHECK(cublasLtDestroy(g.lt));

	// D against C everywhere, and both against the CPU in column 0.
	float *hd = (float *)malloc(count * sizeof(float)), *hc = (float *)malloc(count * sizeof(float));
	CHECK(cudaMemcpy(hd, g.d, count * sizeof(float), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(hc, g.c, count * sizeof(float), cudaMemcpyDeviceToHost));
	double diff = 0, maxC = 0, cpuErr = 0;
	for (size_t i = 0; i < count; i++) {
		diff = fmax(diff, fabs((double)hd[i] - hc[i]));
		maxC = fmax(maxC, fabs((double)hc[i]));
	}
	for (size_t i = 0; i < N; i++) {
		double want = 0;
		for (size_t k = 0; k < N; k++) want += (double)ha[i + k * N] * hb[k];
		cpuErr = fmax(cpuErr, fmax(fabs(hd[i] - want), fabs(hc[i] - want)));
	}
	printf("max |Lt - SGEMM| = %.2e, max |CPU - GPU| in column 0 = %.2e, max |C| = %.2f (tolerance 1e-05 relative)\n", diff, cpuErr, maxC);
	if (!(diff <= 1e-5 * maxC && cpuErr <= 1e-5 * maxC)) {
		printf("products differ: Result = FAIL\n");
		return 1;
	}
	printf("Result = PASS\n");
	free(ha);
	free(hb);
	free(hd);
	free(hc);
	cudaFree(g.a);
	cudaFree(g.b);
	cudaFree(g.c);
	cudaFree(g.d);
	cudaFree(g.ws);
	return 0;
}
