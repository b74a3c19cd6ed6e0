// The C reference of examples/cuSolverDn_LinearSolver: the computation of
// NVIDIA's cuSolverDn_LinearSolver sample on its default matrix, generated
// here as in the Go program (gr_900_900_crg.mtx's 9-point Laplacian of a
// 30x30 grid, one-based CSR) instead of read from the file, solved with
// the sample's calls (cusolverDnDpotrf/Dpotrs, Dgetrf/Dgetrs, or
// Dgeqrf/Dormqr and cublasDtrsm; -R=chol|lu|qr), printing the same lines
// as the Go program. Build on a machine with the CUDA toolkit:
//
//	nvcc -O2 -o linearsolver linearsolver.cu -lcusolver -lcublas
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(x) do { int rc_ = (int)(x); if (rc_) { fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, rc_); exit(1); } } while (0)

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static const char *archName(int major, int minor) {
	switch (major << 4 | minor) {
	case 0x80: case 0x86: case 0x87: return "Ampere";
	case 0x89: return "Ada";
	case 0x90: return "Hopper";
	}
	return major >= 10 ? "Blackwell" : "unknown";
}

int main(int argc, char **argv) {
	const char *method = "chol";
	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "-R=", 3) == 0) method = argv[i] + 3;
	cudaDeviceProp prop;
	CHECK(cudaSetDevice(0));
	CHECK(cudaGetDeviceProperties(&prop, 0));
	printf("GPU Device %d: \"%s\" with compute capability %d.%d\n\n", 0, archName(prop.major, prop.minor), prop.major, prop.minor);

	printf("step 1: generate gr_900_900_crg.mtx's matrix (the 9-point Laplacian of a 30x30 grid)\n");
	const int g = 30, n = g * g;
	int *rowPtr = (int *)malloc(sizeof(int) * (n + 1)), *colInd = (int *)malloc(sizeof(int) * 9 * n);
	double *val = (double *)malloc(sizeof(double) * 9 * n);
	int nnz = 0;
	rowPtr[0] = 1;
	for (int j = 0; j < g; j++)
		for (int i = 0; i < g; i++) {
			for (int dj = -1; dj <= 1; dj++)
				for (int di = -1; di <= 1; di++) {
					int ni = i + di, nj = j + dj;
					if (ni < 0 || ni >= g || nj < 0 || nj >= g) continue;
					colInd[nnz] = ni + g * nj + 1;
					val[nnz++] = di == 0 && dj == 0 ? 8 : -1;
				}
			rowPtr[i + g * j + 1] = nnz + 1;
		}
	int base = rowPtr[0], lda = n;
	printf("sparse matrix A is %d x %d with %d nonzeros, base=%d\n", n, n, nnz, base);
	printf("step 2: convert CSR(A) to dense matrix\n");
	double *hA = (double *)calloc((size_t)lda * n, sizeof(double)), *hB = (double *)malloc(sizeof(double) * n);
	double *hX = (double *)malloc(sizeof(double) * n), *hR = (double *)malloc(sizeof(double) * n);
	for (int row = 0; row < n; row++)
		for (int k = rowPtr[row] - base; k < rowPtr[row + 1] - base; k++) hA[row + (colInd[k] - base) * lda] = val[k];
	printf("step 3: set right hand side vector (b) to 1\n");
	for (int i = 0; i < n; i++) hB[i] = 1;

	cusolverDnHandle_t h;
	cublasHandle_t bl;
	cudaStream_t s;
	CHECK(cusolverDnCreate(&h));
	CHECK(cublasCreate(&bl));
	CHECK(cudaStreamCreate(&s));
	CHECK(cusolverDnSetStream(h, s));
	CHECK(cublasSetStream(bl, s));
	double *dA0, *dA, *dB, *dX, *dR, *work, *tau;
	int *info, *ipiv, hinfo = 0, lwork = 0, lwork2 = 0;
	printf("step 4: prepare data on device\n");
	CHECK(cudaMalloc(&dA0, sizeof(double) * lda * n));
	CHECK(cudaMalloc(&dA, sizeof(double) * lda * n));
	CHECK(cudaMalloc(&dB, sizeof(double) * n));
	CHECK(cudaMalloc(&dX, sizeof(double) * n));
	CHECK(cudaMalloc(&dR, sizeof(double) * n));
	CHECK(cudaMalloc(&tau, sizeof(double) * n));
	CHECK(cudaMalloc(&info, sizeof(int)));
	CHECK(cudaMalloc(&ipiv, sizeof(int) * n));
	CHECK(cudaMemcpy(dA0, hA, sizeof(double) * lda * n, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dB, hB, sizeof(double) * n, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dA, dA0, sizeof(double) * lda * n, cudaMemcpyDeviceToDevice));

	printf("step 5: solve A*x = b \n");
	const double one = 1, minusOne = -1;
	double start, stop;
	if (strcmp(method, "chol") == 0) {
		CHECK(cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, dA, lda, &lwork));
		CHECK(cudaMalloc(&work, sizeof(double) * lwork));
		start = now();
		CHECK(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, dA, lda, work, lwork, info));
		CHECK(cudaMemcpy(&hinfo, info, sizeof(int), cudaMemcpyDeviceToHost));
		if (hinfo) fprintf(stderr, "Error: Cholesky factorization failed\n");
		CHECK(cudaMemcpy(dX, dB, sizeof(double) * n, cudaMemcpyDeviceToDevice));
		CHECK(cusolverDnDpotrs(h, CUBLAS_FILL_MODE_LOWER, n, 1, dA, lda, dX, n, info));
		CHECK(cudaDeviceSynchronize());
		stop = now();
		printf("timing: cholesky = %10.6f sec\n", stop - start);
	} else if (strcmp(method, "lu") == 0) {
		CHECK(cusolverDnDgetrf_bufferSize(h, n, n, dA, lda, &lwork));
		CHECK(cudaMalloc(&work, sizeof(double) * lwork));
		start = now();
		CHECK(cusolverDnDgetrf(h, n, n, dA, lda, work, ipiv, info));
		CHECK(cudaMemcpy(&hinfo, info, sizeof(int), cudaMemcpyDeviceToHost));
		if (hinfo) fprintf(stderr, "Error: LU factorization failed\n");
		CHECK(cudaMemcpy(dX, dB, sizeof(double) * n, cudaMemcpyDeviceToDevice));
		CHECK(cusolverDnDgetrs(h, CUBLAS_OP_N, n, 1, dA, lda, ipiv, dX, n, info));
		CHECK(cudaDeviceSynchronize());
		stop = now();
		printf("timing: LU = %10.6f sec\n", stop - start);
	} else {
		CHECK(cusolverDnDgeqrf_bufferSize(h, n, n, dA, lda, &lwork));
		CHECK(cusolverDnDormqr_bufferSize(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, 1, n, dA, lda, NULL, dX, n, &lwork2));
		if (lwork2 > lwork) lwork = lwork2;
		CHECK(cudaMalloc(&work, sizeof(double) * lwork));
		start = now();
		CHECK(cusolverDnDgeqrf(h, n, n, dA, lda, tau, work, lwork, info));
		CHECK(cudaMemcpy(&hinfo, info, sizeof(int), cudaMemcpyDeviceToHost));
		if (hinfo) fprintf(stderr, "Error: QR factorization failed\n");
		CHECK(cudaMemcpy(dX, dB, sizeof(double) * n, cudaMemcpyDeviceToDevice));
		CHECK(cusolverDnDormqr(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, 1, n, dA, lda, tau, dX, n, work, lwork, info));
		CHECK(cublasDtrsm(bl, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, 1, &one, dA, lda, dX, n));
		CHECK(cudaDeviceSynchronize());
		stop = now();
		printf("workspace = %d bytes \n", (int)(sizeof(double) * lwork));
		printf("timing: QR = %10.6f sec\n", stop - start);
	}

	printf("step 6: evaluate residual\n");
	CHECK(cudaMemcpy(dR, dB, sizeof(double) * n, cudaMemcpyDeviceToDevice));
	CHECK(cublasDgemm(bl, CUBLAS_OP_N, CUBLAS_OP_N, n, 1, n, &minusOne, dA0, lda, dX, n, &one, dR, n));
	CHECK(cudaMemcpy(hX, dX, sizeof(double) * n, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(hR, dR, sizeof(double) * n, cudaMemcpyDeviceToHost));
	double xInf = 0, rInf = 0, aInf = 0;
	for (int i = 0; i < n; i++) {
		if (fabs(hX[i]) > xInf) xInf = fabs(hX[i]);
		if (fabs(hR[i]) > rInf) rInf = fabs(hR[i]);
		double sum = 0;
		for (int j = 0; j < n; j++) sum += fabs(hA[i + j * lda]);
		if (sum > aInf) aInf = sum;
	}
	printf("|b - A*x| = %E \n", rInf);
	printf("|A| = %E \n", aInf);
	printf("|x| = %E \n", xInf);
	printf("|b - A*x|/(|A|*|x|) = %E \n", rInf / (aInf * xInf));
	return hinfo != 0;
}
