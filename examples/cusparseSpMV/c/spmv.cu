// The C reference of examples/cusparseSpMV: the same cuSPARSE calls in the
// same order, timed the same way, printing the same lines. Build on a
// machine with the CUDA toolkit:
//
//	nvcc -O2 -o spmv spmv.cu -lcusparse
#include <cuda_runtime.h>
#include <cusparse.h>
#include <limits.h>
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

struct spmv { cusparseHandle_t h; cusparseSpMatDescr_t A; cusparseDnVecDescr_t X, Y; float alpha, beta; void *work; };

static int product(void *p) {
	struct spmv *s = (struct spmv *)p;
	return cusparseSpMV(s->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &s->alpha, s->A, s->X, &s->beta, s->Y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, s->work);
}

int main(int argc, char **argv) {
	int n = 1 << 20, reps = 100;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-n")) n = atoi(argv[i + 1]);
		if (!strcmp(argv[i], "-reps")) reps = atoi(argv[i + 1]);
	}
	if (n < 3 || n > INT_MAX / 3 || reps <= 0) {
		fprintf(stderr, "-n %d -reps %d: want 3 <= n <= %d and at least one repetition\n", n, reps, INT_MAX / 3);
		return 1;
	}
	struct cudaDeviceProp prop;
	CHECK(cudaGetDeviceProperties(&prop, 0));
	printf("device 0: %s\n", prop.name);

	// The matrix in CSR (zero-based, 32-bit indices) and x: small integers,
	// so every product is exact in FP32.
	int *rowPtr = (int *)malloc((n + 1) * sizeof(int));
	int *colInd = (int *)malloc(3 * (size_t)n * sizeof(int));
	float *vals = (float *)malloc(3 * (size_t)n * sizeof(float));
	float *x = (float *)malloc(n * sizeof(float));
	int nnz = 0;
	for (int i = 0; i < n; i++) {
		rowPtr[i] = nnz;
		for (int j = i > 0 ? i - 1 : 0; j <= (i + 1 < n ? i + 1 : n - 1); j++) {
			colInd[nnz] = j;
			vals[nnz++] = j == i ? 2 : -1;
		}
		x[i] = (float)(7LL * i % 11 - 5);
	}
	rowPtr[n] = nnz;
	int *dRowPtr, *dColInd;
	float *dVals, *dx, *dy;
	CHECK(cudaMalloc((void **)&dRowPtr, (n + 1) * sizeof(int)));
	CHECK(cudaMalloc((void **)&dColInd, nnz * sizeof(int)));
	CHECK(cudaMalloc((void **)&dVals, nnz * sizeof(float)));
	CHECK(cudaMalloc((void **)&dx, n * sizeof(float)));
	CHECK(cudaMalloc((void **)&dy, n * sizeof(float)));
	CHECK(cudaMemcpy(dRowPtr, rowPtr, (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dColInd, colInd, nnz * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dVals, vals, nnz * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));

	struct spmv s;
	CHECK(cusparseCreate(&s.h));
	CHECK(cusparseCreateCsr(&s.A, n, n, nnz, dRowPtr, dColInd, dVals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
	CHECK(cusparseCreateDnVec(&s.X, n, dx, CUDA_R_32F));
	CHECK(cusparseCreateDnVec(&s.Y, n, dy, CUDA_R_32F));

	// y = alpha*A*x + beta*y, alpha and beta in host memory (the default).
	s.alpha = 1;
	s.beta = 0;
	size_t size;
	CHECK(cusparseSpMV_bufferSize(s.h, CUSPARSE_OPERATION_NON_TRANSPOSE, &s.alpha, s.A, s.X, &s.beta, s.Y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &size));
	s.work = NULL;
	if (size > 0) CHECK(cudaMalloc(&s.work, size));
	float ms = timed(reps, product, &s);
	printf("SpMV 1D Laplacian %dx%d, %d nonzeros (%zu bytes of work buffer): %8.4f ms\n", n, n, nnz, size, ms);
	CHECK(cusparseDestroyDnVec(s.Y));
	CHECK(cusparseDestroyDnVec(s.X));
	CHECK(cusparseDestroySpMat(s.A));
	CHECK(cusparseDestroy(s.h));

	// The same product on the CPU, in double.
	float *y = (float *)malloc(n * sizeof(float));
	CHECK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
	double maxErr = 0, maxRef = 0;
	for (int i = 0; i < n; i++) {
		double ref = 0;
		for (int k = rowPtr[i]; k < rowPtr[i + 1]; k++) ref += (double)vals[k] * x[colInd[k]];
		maxErr = fmax(maxErr, fabs(y[i] - ref));
		maxRef = fmax(maxRef, fabs(ref));
	}
	printf("y[0:3] = %.1f %.1f %.1f, max |y - CPU| = %.2e (max |y| %.1f, tolerance 1e-06 relative)\n", y[0], y[1], y[2], maxErr, maxRef);
	if (maxErr > 1e-6 * maxRef) {
		printf("product differs from the CPU's: Result = FAIL\n");
		return 1;
	}
	printf("Result = PASS\n");
	cudaFree(s.work);
	cudaFree(dRowPtr);
	cudaFree(dColInd);
	cudaFree(dVals);
	cudaFree(dx);
	cudaFree(dy);
	free(rowPtr);
	free(colInd);
	free(vals);
	free(x);
	free(y);
	return 0;
}
