// simpleSurfaceWrite.cu is examples/simpleSurfaceWrite in CUDA C++ with
// the runtime API: the same generated image written into a CUDA array
// through a surface, the same rotation through a texture (bilinear,
// normalized coordinates, wrap), host reference and output, to run beside
// the Go port.
//
//	nvcc -O2 -o simpleSurfaceWrite simpleSurfaceWrite.cu
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                                   \
    do {                                                                                              \
        cudaError_t e_ = (call);                                                                      \
        if (e_ != cudaSuccess) {                                                                      \
            fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", __FILE__, __LINE__, (int)e_, \
                    cudaGetErrorName(e_), #call);                                                     \
            exit(EXIT_FAILURE);                                                                       \
        }                                                                                             \
    } while (0)

static const char *sampleName = "simpleSurfaceWrite";
static const float angle = 0.5f;
static const float maxEpsilonError = 5e-3f;
static const int width = 512, height = 512;

__global__ void surfaceWriteKernel(float *gIData, int width, int height, cudaSurfaceObject_t outputSurface)
{
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    surf2Dwrite(gIData[y * width + x], outputSurface, x * 4, y, cudaBoundaryModeTrap);
}

__global__ void transformKernel(float *gOData, int width, int height, float theta, cudaTextureObject_t tex)
{
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;

    float u = x / (float)width;
    float v = y / (float)height;
    u -= 0.5f;
    v -= 0.5f;
    float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
    float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;

    gOData[y * width + x] = tex2D<float>(tex, tu, tv);
}

// image is the Go port's: concentric rings, darker on every other square
// of a 64-pixel checkerboard, in [0, 1].
static std::vector<float> image(int w, int h)
{
    std::vector<float> img(w * h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            double ring = 0.5 + 0.5 * cos(hypot((double)(x - w / 2), (double)(y - h / 2)) / 9);
            if ((x / 64 + y / 64) % 2 == 1) ring *= 0.6;
            img[y * w + x] = (float)ring;
        }
    }
    return img;
}

static int wrapIndex(int i, int n) { return ((i % n) + n) % n; }

// bilinearWrap is tex2D's linear filtering at normalized coordinates with
// wrapping, weights in 8-bit fixed point.
static float bilinearWrap(const std::vector<float> &img, int w, int h, float u, float v)
{
    double x = u * (float)w - 0.5f, y = v * (float)h - 0.5f;
    double fx = floor(x), fy = floor(y);
    float a = (float)(nearbyint((x - fx) * 256) / 256), b = (float)(nearbyint((y - fy) * 256) / 256);
    int i0 = wrapIndex((int)fx, w), j0 = wrapIndex((int)fy, h);
    int i1 = wrapIndex((int)fx + 1, w), j1 = wrapIndex((int)fy + 1, h);
    return (1 - a) * (1 - b) * img[j0 * w + i0] + a * (1 - b) * img[j0 * w + i1] + (1 - a) * b * img[j1 * w + i0]
         + a * b * img[j1 * w + i1];
}

static const char *archName(int major, int minor)
{
    switch (major) {
    case 7: return minor == 5 ? "Turing" : "Volta";
    case 8: return minor == 9 ? "Ada" : "Ampere";
    case 9: return "Hopper";
    default: return major >= 10 ? "Blackwell" : "unknown";
    }
}

static bool run()
{
    int dev = 0;
    CHECK(cudaSetDevice(dev));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("GPU Device %d: \"%s\" with compute capability %d.%d\n\n", dev, archName(prop.major, prop.minor),
           prop.major, prop.minor);
    printf("CUDA device [%s] has %d Multi-Processors, SM %d.%d\n", prop.name, prop.multiProcessorCount, prop.major,
           prop.minor);

    std::vector<float> hData = image(width, height);
    printf("Generated 'rings', %d x %d pixels\n", width, height);
    size_t size = (size_t)width * height * sizeof(float);

    float *dData = NULL;
    CHECK(cudaMalloc(&dData, size));
    CHECK(cudaMemcpy(dData, hData.data(), size, cudaMemcpyHostToDevice));
    cudaChannelFormatDesc channelDesc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t cuArray;
    CHECK(cudaMallocArray(&cuArray, &channelDesc, width, height, cudaArraySurfaceLoadStore));

    dim3 dimBlock(8, 8, 1);
    dim3 dimGrid(width / dimBlock.x, height / dimBlock.y, 1);
    cudaResourceDesc surfRes = {};
    surfRes.resType = cudaResourceTypeArray;
    surfRes.res.array.array = cuArray;
    cudaSurfaceObject_t outputSurface;
    CHECK(cudaCreateSurfaceObject(&outputSurface, &surfRes));
    surfaceWriteKernel<<<dimGrid, dimBlock>>>(dData, width, height, outputSurface);
    CHECK(cudaGetLastError());

    cudaResourceDesc texRes = {};
    texRes.resType = cudaResourceTypeArray;
    texRes.res.array.array = cuArray;
    cudaTextureDesc texDescr = {};
    texDescr.normalizedCoords = true;
    texDescr.filterMode = cudaFilterModeLinear;
    texDescr.addressMode[0] = cudaAddressModeWrap;
    texDescr.addressMode[1] = cudaAddressModeWrap;
    texDescr.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex;
    CHECK(cudaCreateTextureObject(&tex, &texRes, &texDescr, NULL));

    transformKernel<<<dimGrid, dimBlock, 0>>>(dData, width, height, angle, tex); // warmup
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    transformKernel<<<dimGrid, dimBlock, 0>>>(dData, width, height, angle, tex);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("Processing time: %f (ms)\n", ms);
    printf("%.2f Mpixels/sec\n", (width * height / (ms / 1000.0f)) / 1e6);

    std::vector<float> out(width * height);
    CHECK(cudaMemcpy(out.data(), dData, size, cudaMemcpyDeviceToHost));

    printf("Comparing with the C++ reference (bilinear, wrap, 8-bit weights)\n");
    float c = (float)cos((double)angle), s = (float)sin((double)angle);
    double maxErr = 0;
    int bad = 0;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            float u = x / (float)width - 0.5f, v = y / (float)height - 0.5f;
            float tu = u * c - v * s + 0.5f, tv = v * c + u * s + 0.5f;
            double e = fabs((double)out[y * width + x] - bilinearWrap(hData, width, height, tu, tv));
            if (e > maxErr) maxErr = e;
            if (e > maxEpsilonError) bad++;
        }
    }
    printf("\tmax |GPU - reference| = %.3g, %d of %d pixels above %g\n", maxErr, bad, width * height,
           maxEpsilonError);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaDestroySurfaceObject(outputSurface));
    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFree(dData));
    CHECK(cudaFreeArray(cuArray));
    return bad == 0;
}

int main()
{
    printf("%s starting...\n", sampleName);
    bool ok = run();
    printf("%s completed, returned %s\n", sampleName, ok ? "OK" : "ERROR!");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
