// Kernels of cugen kernels' tests: extern "C" kernels with scalars,
// buffers, a struct and a 16-byte aligned vector type, and a template
// instantiated with -name.
struct Params {
	char flag;
	double scale;
	int counts[3];
};

extern "C" __global__ void saxpy(float a, const float *__restrict__ x, float *y, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void mixed(char c, Params p, float4 v, double *out) {
	out[0] = c + p.scale + p.counts[0] + p.counts[1] + p.counts[2] + v.x + v.y + v.z + v.w + p.flag;
}

template <typename T>
__global__ void scale(T *y, const T *x, T a, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) y[i] = a * x[i];
}
