// The C reference of examples/curandNormal: the same cuRAND calls in the
// same order, timed the same way, printing the same lines. Build on a
// machine with the CUDA toolkit:
//
//	nvcc -O2 -o curand curand.cu -lcurand
#include <cuda_runtime.h>
#include <curand.h>
#include <math.h>
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

struct normal { curandGenerator_t gen; float *out; size_t n; };

static int generate(void *p) {
	struct normal *g = (struct normal *)p;
	return curandGenerateNormal(g->gen, g->out, g->n, 0.0f, 1.0f);
}

int main(int argc, char **argv) {
	long long n = 1000000000;
	int reps = 10;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-n")) n = atoll(argv[i + 1]);
		if (!strcmp(argv[i], "-reps")) reps = atoi(argv[i + 1]);
	}
	if (n <= 0 || n % 2 != 0 || reps <= 0) {
		fprintf(stderr, "-n %lld -reps %d: want a positive even count and at least one repetition\n", n, reps);
		return 1;
	}
	size_t N = (size_t)n;
	struct cudaDeviceProp prop;
	CHECK(cudaGetDeviceProperties(&prop, 0));
	printf("device 0: %s\n", prop.name);

	struct normal g;
	g.n = N;
	CHECK(cudaMalloc((void **)&g.out, N * sizeof(float)));
	CHECK(curandCreateGenerator(&g.gen, CURAND_RNG_PSEUDO_DEFAULT));
	CHECK(curandSetPseudoRandomGeneratorSeed(g.gen, 1234));
	float ms = timed(reps, generate, &g);
	printf("%zu normal floats: %8.3f ms per generation, %7.2f Gsamples/s\n", N, ms, (double)N / ms / 1e6);
	CHECK(curandDestroyGenerator(g.gen));

	// The mean and variance of the last generation, in double on the host.
	float first[2];
	CHECK(cudaMemcpy(first, g.out, sizeof first, cudaMemcpyDeviceToHost));
	printf("first values: %.6f %.6f\n", first[0], first[1]);
	double sum = 0, sumSq = 0;
	size_t chunkLen = N < (1 << 24) ? N : (1 << 24);
	float *chunk = (float *)malloc(chunkLen * sizeof(float));
	for (size_t i = 0; i < N; i += chunkLen) {
		size_t len = N - i < chunkLen ? N - i : chunkLen;
		CHECK(cudaMemcpy(chunk, g.out + i, len * sizeof(float), cudaMemcpyDeviceToHost));
		for (size_t j = 0; j < len; j++) {
			sum += (double)chunk[j];
			sumSq += (double)chunk[j] * (double)chunk[j];
		}
	}
	double mean = sum / N;
	double variance = sumSq / N - mean * mean;
	// 1e-3, or five standard errors of the variance for a small -n.
	double tol = fmax(1e-3, 5 * sqrt(2.0 / N));
	printf("mean %.6f, variance %.6f (tolerance %.0e)\n", mean, variance, tol);
	if (fabs(mean) >= tol || fabs(variance - 1) >= tol) {
		printf("mean or variance out of tolerance: Result = FAIL\n");
		return 1;
	}
	printf("Result = PASS\n");
	free(chunk);
	cudaFree(g.out);
	return 0;
}
