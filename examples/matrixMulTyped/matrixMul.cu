// The kernel of examples/matrixMulTyped: C = A·B with square tiles of
// shared memory, the tile edge a template parameter (as in NVIDIA's
// matrixMul sample), bound for 16 and 32 with cugen kernels -name.
template <int TILE>
__global__ void matrixMul(float *C, const float *A, const float *B, int hA, int wA, int wB) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0;
    for (int t = 0; t < (wA + TILE - 1) / TILE; t++) {
        int ak = t * TILE + threadIdx.x, bk = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = row < hA && ak < wA ? A[row * wA + ak] : 0;
        Bs[threadIdx.y][threadIdx.x] = bk < wA && col < wB ? B[bk * wB + col] : 0;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < hA && col < wB) C[row * wB + col] = sum;
}
