// The kernels of examples/vectorAddTyped, compiled by cugen kernels at
// generate time into the package ./kernels.
extern "C" __global__ void vecAdd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

// A template: bound for float and double with -name.
template <typename T>
__global__ void axpy(T alpha, const T *x, T *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = alpha * x[i] + y[i];
}
