// The C++ reference for examples/graphConditionalNodes: the five graphs of
// NVIDIA's graphConditionalNodes sample, written without the samples'
// helper headers, printing the same lines (the kernels with printf). The
// device runtime's cudaGraphSetConditional needs relocatable device code:
//
//	nvcc -O2 -rdc=true -o conditional conditional.cu -lcudadevrt
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(call)                                                                    \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,          \
                    cudaGetErrorString(e_));                                        \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

__global__ void setOdd(char *p, cudaGraphConditionalHandle h)
{
    unsigned int v = *p & 1;
    cudaGraphSetConditional(h, v);
    printf("GPU: Handle set to %d\n", v);
}
__global__ void sayTrue(void) { printf("GPU: Hello from the GPU! The condition was true.\n"); }
__global__ void sayFalse(void) { printf("GPU: Hello from the GPU! The condition was false.\n"); }
__global__ void loopEmpty(void) { printf("GPU: doWhileEmptyKernel()\n"); }
__global__ void loopCount(char *p, cudaGraphConditionalHandle h)
{
    if (--(*p) == 0) cudaGraphSetConditional(h, 0);
    printf("GPU: counter = %d\n", *p);
}
__global__ void whileCount(char *p, cudaGraphConditionalHandle h)
{
    printf("GPU: counter = %d\n", *p);
    if (*p) (*p)--;
    cudaGraphSetConditional(h, *p);
}
__global__ void whileAfter(void) { printf("GPU: capturedWhileEmptyKernel()\n"); }
__global__ void setValue(char *p, cudaGraphConditionalHandle h)
{
    unsigned int v = *p;
    cudaGraphSetConditional(h, v);
    printf("GPU: Handle set to %d\n", v);
}
__global__ void caseC(void) { printf("GPU: Hello from switchGraphKernelC(), running on the GPU!\n"); }
__global__ void caseD(void) { printf("GPU: Hello from switchGraphKernelD(), running on the GPU!\n"); }
__global__ void caseE(void) { printf("GPU: Hello from switchGraphKernelE(), running on the GPU!\n"); }
__global__ void caseF(void) { printf("GPU: Hello from switchGraphKernelF(), running on the GPU!\n"); }

// kernel adds a one-thread launch of fn after the nodes deps.
static cudaGraphNode_t kernel(cudaGraph_t g, void *fn, void **args, const cudaGraphNode_t *deps, size_t ndeps)
{
    cudaKernelNodeParams p = {};
    p.func = fn;
    p.gridDim = dim3(1);
    p.blockDim = dim3(1);
    p.kernelParams = args;
    cudaGraphNode_t n;
    CK(cudaGraphAddKernelNode(&n, g, deps, ndeps, &p));
    return n;
}

// conditional adds a conditional node and returns its bodies in out.
static cudaGraphNode_t conditional(cudaGraph_t g, cudaGraphConditionalHandle h, cudaGraphConditionalNodeType t,
                                   unsigned size, const cudaGraphNode_t *deps, size_t ndeps, cudaGraph_t *out)
{
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = t;
    p.conditional.size = size;
    cudaGraphNode_t n;
    CK(cudaGraphAddNode(&n, g, deps, NULL, ndeps, &p));
    for (unsigned i = 0; i < size; i++) out[i] = p.conditional.phGraph_out[i];
    return n;
}

static void run(cudaGraphExec_t e, char *d, int v, const char *what)
{
    CK(cudaMemset(d, v, 1));
    printf("Host: Launching graph with %s set to %d\n", what, v);
    CK(cudaGraphLaunch(e, 0));
    CK(cudaDeviceSynchronize());
}

static void finish(const char *name, cudaGraph_t g, cudaGraphExec_t e, char *d)
{
    CK(cudaGraphExecDestroy(e));
    CK(cudaGraphDestroy(g));
    CK(cudaFree(d));
    printf("%s: Complete\n\n", name);
}

// arch names the architecture as the samples' table does, for the
// compute capabilities of this century's data centre GPUs.
static const char *arch(int major, int minor)
{
    switch (major * 10 + minor) {
    case 70: return "Volta";
    case 75: return "Turing";
    case 80: case 86: case 87: return "Ampere";
    case 89: return "Ada";
    case 90: return "Hopper";
    }
    return major >= 10 ? "Blackwell" : "unknown";
}

int main()
{
    int dev = 0, major, minor, drv;
    CK(cudaSetDevice(dev));
    CK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    CK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    printf("GPU Device %d: \"%s\" with compute capability %d.%d\n\n", dev, arch(major, minor), major, minor);
    CK(cudaDriverGetVersion(&drv));
    printf("Driver version is: %d.%d\n", drv / 1000, (drv % 100) / 10);
    if (drv < 12030) {
        printf("Skipping execution as driver does not support Graph Conditional Nodes\n");
        return 0;
    }
    char *d;
    cudaGraph_t g, body[4];
    cudaGraphExec_t e;
    cudaGraphConditionalHandle h;
    void *args[2] = {&d, &h};

    // if
    CK(cudaMalloc(&d, 1));
    printf("simpleIfGraph: Building graph...\n");
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    cudaGraphNode_t a = kernel(g, (void *)setOdd, args, NULL, 0);
    conditional(g, h, cudaGraphCondTypeIf, 1, &a, 1, body);
    kernel(body[0], (void *)sayTrue, NULL, NULL, 0);
    CK(cudaGraphInstantiate(&e, g, 0));
    run(e, d, 0, "device memory");
    run(e, d, 1, "device memory");
    finish("simpleIfGraph", g, e, d);

    // do-while
    CK(cudaMalloc(&d, 1));
    printf("simpleDoWhileGraph: Building graph...\n");
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    conditional(g, h, cudaGraphCondTypeWhile, 1, NULL, 0, body);
    cudaGraphNode_t e1 = kernel(body[0], (void *)loopEmpty, NULL, NULL, 0);
    cudaGraphNode_t e2 = kernel(body[0], (void *)loopEmpty, NULL, &e1, 1);
    kernel(body[0], (void *)loopCount, args, &e2, 1);
    CK(cudaGraphInstantiate(&e, g, 0));
    run(e, d, 10, "loop counter");
    finish("simpleDoWhileGraph", g, e, d);

    // kernel, while, kernel
    CK(cudaMalloc(&d, 1));
    printf("capturedWhileGraph: Building graph...\n");
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    a = kernel(g, (void *)whileCount, args, NULL, 0);
    cudaGraphNode_t w = conditional(g, h, cudaGraphCondTypeWhile, 1, &a, 1, body);
    kernel(g, (void *)whileAfter, NULL, &w, 1);
    kernel(body[0], (void *)whileCount, args, NULL, 0);
    CK(cudaGraphInstantiate(&e, g, 0));
    run(e, d, 0, "loop counter");
    run(e, d, 10, "loop counter");
    finish("capturedWhileGraph", g, e, d);

    if (drv < 12080) {
        printf("Skipping execution as driver does not support if/else and switch type Graph Conditional Nodes\n");
        return 0;
    }

    // if/else
    CK(cudaMalloc(&d, 1));
    printf("simpleIfElseGraph: Building graph...\n");
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    a = kernel(g, (void *)setOdd, args, NULL, 0);
    conditional(g, h, cudaGraphCondTypeIf, 2, &a, 1, body);
    kernel(body[0], (void *)sayTrue, NULL, NULL, 0);
    kernel(body[1], (void *)sayFalse, NULL, NULL, 0);
    CK(cudaGraphInstantiate(&e, g, 0));
    run(e, d, 0, "device memory");
    run(e, d, 1, "device memory");
    finish("simpleIfElseGraph", g, e, d);

    // switch
    CK(cudaMalloc(&d, 1));
    printf("simpleSwitchGraph: Building graph...\n");
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    a = kernel(g, (void *)setValue, args, NULL, 0);
    conditional(g, h, cudaGraphCondTypeSwitch, 4, &a, 1, body);
    void *cases[4] = {(void *)caseC, (void *)caseD, (void *)caseE, (void *)caseF};
    for (int i = 0; i < 4; i++) kernel(body[i], cases[i], NULL, NULL, 0);
    CK(cudaGraphInstantiate(&e, g, 0));
    for (int i = 0; i < 5; i++) run(e, d, i, "device memory");
    finish("simpleSwitchGraph", g, e, d);
    return 0;
}
