// The C reference of examples/cusolverCholesky: the same cuSOLVER calls in
// the same order, timed the same way, printing the same lines. Build on a
// machine with the CUDA toolkit:
//
//	nvcc -O2 -o cholesky cholesky.cu -lcusolver
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x) do { int rc_ = (int)(x); if (rc_) { fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, rc_); exit(1); } } while (0)

// timed runs reset and fn once to warm up, then reps times, each fn alone
// between two events on the default stream (fn overwrites its input, which
// reset restores), and returns the mean milliseconds of fn.
static float timed(int reps, int (*reset)(void *), int (*fn)(void *), void *arg) {
	cudaEvent_t start, stop;
	float total = 0, ms;
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	for (int i = 0; i <= reps; i++) {
		CHECK(reset(arg));
		CHECK(cudaEventRecord(start, 0));
		CHECK(fn(arg));
		CHECK(cudaEventRecord(stop, 0));
		CHECK(cudaEventSynchronize(stop));
		CHECK(cudaEventElapsedTime(&ms, start, stop));
		if (i > 0) total += ms; // run 0 is the warm-up
	}
	cudaEventDestroy(start);
	cudaEventDestroy(stop);
	return total / reps;
}

struct chol { cusolverDnHandle_t h; int n, lwork; float *a0, *b0, *dA, *dB, *work; int *info; };

static int reset(void *p) {
	struct chol *c = (struct chol *)p;
	size_t n = c->n;
	int rc = cudaMemcpy(c->dA, c->a0, n * n * sizeof(float), cudaMemcpyDeviceToDevice);
	if (rc) return rc;
	return cudaMemcpy(c->dB, c->b0, n * sizeof(float), cudaMemcpyDeviceToDevice);
}

static int solve(void *p) {
	struct chol *c = (struct chol *)p;
	int rc = cusolverDnSpotrf(c->h, CUBLAS_FILL_MODE_LOWER, c->n, c->dA, c->n, c->work, c->lwork, c->info);
	if (rc) return rc;
	return cusolverDnSpotrs(c->h, CUBLAS_FILL_MODE_LOWER, c->n, 1, c->dA, c->n, c->dB, c->n, c->info + 1);
}

int main(int argc, char **argv) {
	int n = 1024, reps = 10;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-n")) n = atoi(argv[i + 1]);
		if (!strcmp(argv[i], "-reps")) reps = atoi(argv[i + 1]);
	}
	if (n <= 0 || n > 16384 || reps <= 0) {
		fprintf(stderr, "-n %d -reps %d: want 1 <= n <= 16384 and at least one repetition\n", n, reps);
		return 1;
	}
	size_t N = n;
	struct cudaDeviceProp prop;
	CHECK(cudaGetDeviceProperties(&prop, 0));
	printf("device 0: %s\n", prop.name);

	// A = B*B^T + n*I (symmetric, so column-major is row-major) and
	// b = A*xWant, in double, then rounded to float.
	double *B = (double *)malloc(N * N * sizeof(double)); // row i at B + i*N, entries in [-1, 1)
	for (size_t i = 0; i < N; i++)
		for (size_t k = 0; k < N; k++) B[i * N + k] = (double)((long long)((131 * i + 71 * k + 29 * i * k) % 101) - 50) / 50;
	float *a = (float *)malloc(N * N * sizeof(float));
	for (size_t i = 0; i < N; i++) {
		for (size_t j = 0; j <= i; j++) {
			double s = 0;
			for (size_t k = 0; k < N; k++) s += B[i * N + k] * B[j * N + k];
			if (i == j) s += (double)N;
			a[i + j * N] = a[j + i * N] = (float)s;
		}
	}
	float *b = (float *)malloc(N * sizeof(float));
	for (size_t i = 0; i < N; i++) {
		double s = 0;
		for (size_t j = 0; j < N; j++) s += (double)a[i + j * N] * (double)((int)(j % 5) - 2);
		b[i] = (float)s;
	}
	struct chol c;
	c.n = n;
	CHECK(cudaMalloc((void **)&c.a0, N * N * sizeof(float)));
	CHECK(cudaMalloc((void **)&c.b0, N * sizeof(float)));
	CHECK(cudaMalloc((void **)&c.dA, N * N * sizeof(float))); // overwritten by the factor
	CHECK(cudaMalloc((void **)&c.dB, N * sizeof(float)));     // overwritten by x
	CHECK(cudaMalloc((void **)&c.info, 2 * sizeof(int)));     // Spotrf's and Spotrs's devInfo
	CHECK(cudaMemcpy(c.a0, a, N * N * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(c.b0, b, N * sizeof(float), cudaMemcpyHostToDevice));

	CHECK(cusolverDnCreate(&c.h));
	CHECK(cusolverDnSpotrf_bufferSize(c.h, CUBLAS_FILL_MODE_LOWER, n, c.dA, n, &c.lwork));
	c.work = NULL;
	if (c.lwork > 0) CHECK(cudaMalloc((void **)&c.work, (size_t)c.lwork * sizeof(float)));
	float ms = timed(reps, reset, solve, &c);
	printf("Cholesky %dx%d (workspace %d floats): Spotrf+Spotrs %8.3f ms\n", n, n, c.lwork, ms);
	CHECK(cusolverDnDestroy(c.h));

	int infos[2];
	CHECK(cudaMemcpy(infos, c.info, sizeof infos, cudaMemcpyDeviceToHost));
	if (infos[0] != 0 || infos[1] != 0) {
		fprintf(stderr, "devInfo: Spotrf %d, Spotrs %d, want 0 (Spotrf > 0: the leading minor of that order is not positive definite)\n", infos[0], infos[1]);
		return 1;
	}

	// The residual ||A*x - b|| / ||b|| on the CPU, in double.
	float *x = (float *)malloc(N * sizeof(float));
	CHECK(cudaMemcpy(x, c.dB, N * sizeof(float), cudaMemcpyDeviceToHost));
	double rr = 0, bb = 0;
	for (size_t i = 0; i < N; i++) {
		double r = -(double)b[i];
		for (size_t j = 0; j < N; j++) r += (double)a[i + j * N] * (double)x[j];
		rr += r * r;
		bb += (double)b[i] * (double)b[i];
	}
	double res = sqrt(rr / bb);
	printf("x[0:3] = %.4f %.4f %.4f (want -2 -1 0), ||Ax-b||/||b|| = %.2e (tolerance 1e-04)\n", x[0], x[n > 1 ? 1 : 0], x[n > 2 ? 2 : n - 1], res);
	if (!(res < 1e-4)) {
		printf("residual out of tolerance: Result = FAIL\n");
		return 1;
	}
	printf("Result = PASS\n");
	free(B);
	free(a);
	free(b);
	free(x);
	cudaFree(c.a0);
	cudaFree(c.b0);
	cudaFree(c.dA);
	cudaFree(c.dB);
	cudaFree(c.info);
	cudaFree(c.work);
	return 0;
}
