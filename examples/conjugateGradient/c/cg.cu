// The C reference of examples/conjugateGradient: the computation of
// NVIDIA's conjugateGradient sample (the same matrix from glibc's rand(),
// the same cuSPARSE and cuBLAS calls in the same order, on the legacy
// default stream as the sample's), printing the same lines, without the
// samples' helper headers. Build on a machine with the CUDA toolkit:
//
//	nvcc -O2 -o cg cg.cu -lcusparse -lcublas
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x) do { int rc_ = (int)(x); if (rc_) { fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, rc_); exit(1); } } while (0)

static const char *archName(int major, int minor) {
	switch (major << 4 | minor) {
	case 0x80: case 0x86: case 0x87: return "Ampere";
	case 0x89: return "Ada";
	case 0x90: return "Hopper";
	}
	return major >= 10 ? "Blackwell" : "unknown";
}

// tridiag fills a random symmetric tridiagonal n×n matrix of nz elements
// in CSR, drawing rand() in the sample's order.
static void tridiag(int *rowPtr, int *col, float *val, int n, int nz) {
	rowPtr[0] = 0, col[0] = 0, col[1] = 1;
	val[0] = (float)rand() / RAND_MAX + 10.0f;
	val[1] = (float)rand() / RAND_MAX;
	for (int i = 1; i < n; i++) {
		rowPtr[i] = i > 1 ? rowPtr[i - 1] + 3 : 2;
		int s = (i - 1) * 3 + 2;
		col[s] = i - 1;
		col[s + 1] = i;
		if (i < n - 1) col[s + 2] = i + 1;
		val[s] = val[s - 1];
		val[s + 1] = (float)rand() / RAND_MAX + 10.0f;
		if (i < n - 1) val[s + 2] = (float)rand() / RAND_MAX;
	}
	rowPtr[n] = nz;
}

int main(void) {
	const float tol = 1e-5f;
	const int maxIter = 10000;
	cudaDeviceProp prop;
	CHECK(cudaSetDevice(0));
	CHECK(cudaGetDeviceProperties(&prop, 0));
	printf("GPU Device %d: \"%s\" with compute capability %d.%d\n\n", 0, archName(prop.major, prop.minor), prop.major, prop.minor);
	printf("> GPU device has %d Multi-Processors, SM %d.%d compute capabilities\n\n", prop.multiProcessorCount, prop.major, prop.minor);

	int n = 1048576, nz = (n - 2) * 3 + 4;
	int *I = (int *)malloc(sizeof(int) * (n + 1)), *J = (int *)malloc(sizeof(int) * nz);
	float *val = (float *)malloc(sizeof(float) * nz);
	tridiag(I, J, val, n, nz);
	float *x = (float *)malloc(sizeof(float) * n), *rhs = (float *)malloc(sizeof(float) * n);
	for (int i = 0; i < n; i++) rhs[i] = 1, x[i] = 0;

	cublasHandle_t bl;
	cusparseHandle_t sp;
	CHECK(cublasCreate(&bl));
	CHECK(cusparseCreate(&sp));
	int *dCol, *dRow;
	float *dVal, *dx, *dr, *dp, *dAx;
	CHECK(cudaMalloc(&dCol, nz * sizeof(int)));
	CHECK(cudaMalloc(&dRow, (n + 1) * sizeof(int)));
	CHECK(cudaMalloc(&dVal, nz * sizeof(float)));
	CHECK(cudaMalloc(&dx, n * sizeof(float)));
	CHECK(cudaMalloc(&dr, n * sizeof(float)));
	CHECK(cudaMalloc(&dp, n * sizeof(float)));
	CHECK(cudaMalloc(&dAx, n * sizeof(float)));
	cusparseSpMatDescr_t A;
	cusparseDnVecDescr_t vx, vp, vAx;
	CHECK(cusparseCreateCsr(&A, n, n, nz, dRow, dCol, dVal, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
	CHECK(cusparseCreateDnVec(&vx, n, dx, CUDA_R_32F));
	CHECK(cusparseCreateDnVec(&vp, n, dp, CUDA_R_32F));
	CHECK(cusparseCreateDnVec(&vAx, n, dAx, CUDA_R_32F));
	CHECK(cudaMemcpy(dCol, J, nz * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dRow, I, (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dVal, val, nz * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dr, rhs, n * sizeof(float), cudaMemcpyHostToDevice));

	float alpha = 1, alpham1 = -1, beta = 0, r0 = 0, r1, dot, a, na, b;
	size_t size = 0;
	CHECK(cusparseSpMV_bufferSize(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vAx, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &size));
	void *work = NULL;
	CHECK(cudaMalloc(&work, size));

	CHECK(cusparseSpMV(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vAx, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, work));
	CHECK(cublasSaxpy(bl, n, &alpham1, dAx, 1, dr, 1));
	CHECK(cublasSdot(bl, n, dr, 1, dr, 1, &r1));
	int k = 1;
	while (r1 > tol * tol && k <= maxIter) {
		if (k > 1) {
			b = r1 / r0;
			CHECK(cublasSscal(bl, n, &b, dp, 1));
			CHECK(cublasSaxpy(bl, n, &alpha, dr, 1, dp, 1));
		} else {
			CHECK(cublasScopy(bl, n, dr, 1, dp, 1));
		}
		CHECK(cusparseSpMV(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vp, &beta, vAx, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, work));
		CHECK(cublasSdot(bl, n, dp, 1, dAx, 1, &dot));
		a = r1 / dot;
		CHECK(cublasSaxpy(bl, n, &a, dp, 1, dx, 1));
		na = -a;
		CHECK(cublasSaxpy(bl, n, &na, dAx, 1, dr, 1));
		r0 = r1;
		CHECK(cublasSdot(bl, n, dr, 1, dr, 1, &r1));
		CHECK(cudaDeviceSynchronize());
		printf("iteration = %3d, residual = %e\n", k, sqrt(r1));
		k++;
	}
	CHECK(cudaMemcpy(x, dx, n * sizeof(float), cudaMemcpyDeviceToHost));
	float err = 0;
	for (int i = 0; i < n; i++) {
		float rsum = 0;
		for (int j = I[i]; j < I[i + 1]; j++) rsum += val[j] * x[J[j]];
		float diff = fabs(rsum - rhs[i]);
		if (diff > err) err = diff;
	}
	printf("Test Summary:  Error amount = %f\n", err);
	return k <= maxIter ? 0 : 1;
}
