// The C reference of examples/cufftRoundTrip: the same cuFFT calls in the
// same order, timed the same way, printing the same lines. Build on a
// machine with the CUDA toolkit:
//
//	nvcc -O2 -o fft fft.cu -lcufft
#include <cuda_runtime.h>
#include <cufft.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x) do { int rc_ = (int)(x); if (rc_) { fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, rc_); exit(1); } } while (0)

#define N (1 << 24) // transform length
#define F1 1000     // x[k] = exp(2πi F1 k/N) + 0.5 exp(-2πi F2 k/N):
#define F2 12345    // X[F1] = N, X[N-F2] = N/2, every other bin 0.

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

struct fft { cufftHandle plan; cufftComplex *in, *freq, *out; };

static int roundTrip(void *p) {
	struct fft *f = (struct fft *)p;
	int rc = cufftExecC2C(f->plan, f->in, f->freq, CUFFT_FORWARD);
	if (rc) return rc;
	return cufftExecC2C(f->plan, f->freq, f->out, CUFFT_INVERSE);
}

int main(int argc, char **argv) {
	int reps = 10;
	for (int i = 1; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "-reps")) reps = atoi(argv[i + 1]);
	if (reps <= 0) {
		fprintf(stderr, "-reps %d: want at least one repetition\n", reps);
		return 1;
	}
	struct cudaDeviceProp prop;
	CHECK(cudaGetDeviceProperties(&prop, 0));
	printf("device 0: %s\n", prop.name);

	size_t bytes = (size_t)N * sizeof(cufftComplex);
	cufftComplex *x = (cufftComplex *)malloc(bytes);
	for (long long k = 0; k < N; k++) {
		double a = 2 * M_PI * (double)(F1 * k % N) / N, b = -2 * M_PI * (double)(F2 * k % N) / N;
		x[k].x = (float)(cos(a) + 0.5 * cos(b));
		x[k].y = (float)(sin(a) + 0.5 * sin(b));
	}
	struct fft f;
	CHECK(cudaMalloc((void **)&f.in, bytes));
	CHECK(cudaMalloc((void **)&f.freq, bytes));
	CHECK(cudaMalloc((void **)&f.out, bytes));
	CHECK(cudaMemcpy(f.in, x, bytes, cudaMemcpyHostToDevice));
	CHECK(cufftPlan1d(&f.plan, N, CUFFT_C2C, 1));
	float ms = timed(reps, roundTrip, &f);
	printf("%d-point C2C FFT forward+inverse: %8.3f ms\n", N, ms);
	CHECK(cufftDestroy(f.plan));

	// The two peaks of the spectrum, relative to N.
	cufftComplex *X = (cufftComplex *)malloc(bytes);
	CHECK(cudaMemcpy(X, f.freq, bytes, cudaMemcpyDeviceToHost));
	double peak1 = hypot((double)X[F1].x - N, (double)X[F1].y) / N;
	double peak2 = hypot((double)X[N - F2].x - N / 2, (double)X[N - F2].y) / N;
	printf("X[%d] = %.1f%+.1fi, X[N-%d] = %.1f%+.1fi\n", F1, X[F1].x, X[F1].y, F2, X[N - F2].x, X[N - F2].y);

	// The round trip: out/N against x, relative to max |x| = 1.5.
	cufftComplex *y = X;
	CHECK(cudaMemcpy(y, f.out, bytes, cudaMemcpyDeviceToHost));
	double maxErr = 0;
	for (size_t k = 0; k < N; k++) {
		double e = hypot((double)y[k].x / N - x[k].x, (double)y[k].y / N - x[k].y) / 1.5;
		if (e > maxErr) maxErr = e;
	}
	printf("peak errors %.2e %.2e, round trip max error %.2e (tolerance 1e-04)\n", peak1, peak2, maxErr);
	if (peak1 >= 1e-4 || peak2 >= 1e-4 || maxErr >= 1e-4) {
		printf("error out of tolerance: Result = FAIL\n");
		return 1;
	}
	printf("Result = PASS\n");
	free(x);
	free(X);
	cudaFree(f.in);
	cudaFree(f.freq);
	cudaFree(f.out);
	return 0;
}
