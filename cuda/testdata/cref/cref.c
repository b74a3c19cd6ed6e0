/* cref: what C gets from the driver for the calls the Go API is checked
 * against on the GPU (TestGPUAgainstC, gpu_cref_test.go): the JIT
 * linker's info log for PTX inputs given no name (NULL, as NVIDIA's
 * samples pass it), and cuOccupancyMaxPotentialBlockSize with block-size
 * limits below and above the device's maximum (cuda-samples pass
 * 1,000,000). Built there with cc; opens LIBCUDA with dlopen.
 *
 *	cref LIBCUDA CALLER.PTX CALLEE.PTX
 *
 * Prints the info log between "info log:" and "end log", then one line
 * "limit L: block B minGrid G" per limit. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUlinkState, *CUmodule, *CUfunction;

static void *lib;
static void *sym(const char *name) {
    void *p = dlsym(lib, name);
    if (!p) { fprintf(stderr, "cref: %s: %s\n", name, dlerror()); exit(1); }
    return p;
}
#define CHECK(call) do { CUresult r = (call); if (r) { fprintf(stderr, "cref: %s: error %d\n", #call, r); exit(1); } } while (0)

static char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc(len + 1);
    if (fread(b, 1, len, f) != (size_t)len) { perror(path); exit(1); }
    b[len] = 0;
    fclose(f);
    *n = len + 1; /* PTX goes in with its terminating NUL */
    return b;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: cref LIBCUDA CALLER.PTX CALLEE.PTX\n"); return 2; }
    lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) { fprintf(stderr, "cref: %s\n", dlerror()); return 1; }
    CUresult (*cuInit)(unsigned) = sym("cuInit");
    CUresult (*cuDeviceGet)(CUdevice *, int) = sym("cuDeviceGet");
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = sym("cuDevicePrimaryCtxRetain");
    CUresult (*cuCtxSetCurrent)(CUcontext) = sym("cuCtxSetCurrent");
    CUresult (*cuLinkCreate)(unsigned, int *, void **, CUlinkState *) = sym("cuLinkCreate_v2");
    CUresult (*cuLinkAddData)(CUlinkState, int, void *, size_t, const char *, unsigned, int *, void **) = sym("cuLinkAddData_v2");
    CUresult (*cuLinkComplete)(CUlinkState, void **, size_t *) = sym("cuLinkComplete");
    CUresult (*cuLinkDestroy)(CUlinkState) = sym("cuLinkDestroy");
    CUresult (*cuModuleLoadData)(CUmodule *, const void *) = sym("cuModuleLoadData");
    CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *) = sym("cuModuleGetFunction");
    CUresult (*cuOccupancyMaxPotentialBlockSize)(int *, int *, CUfunction, void *, size_t, int) = sym("cuOccupancyMaxPotentialBlockSize");

    CUdevice dev;
    CUcontext ctx;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));

    /* the options of the Go API's Context.Link with LogVerbose and a
     * LogSize of 64 KiB, in its order; WALL_TIME is an output the driver
     * writes into its value slot */
    static char info[1 << 16], errlog[1 << 16];
    int opts[] = {3, 4, 5, 6, 2, 12}; /* INFO_LOG_BUFFER, _SIZE_BYTES, ERROR_LOG_BUFFER, _SIZE_BYTES, WALL_TIME, LOG_VERBOSE */
    void *vals[] = {info, (void *)(size_t)sizeof info, errlog, (void *)(size_t)sizeof errlog, 0, (void *)(size_t)1};
    CUlinkState ls;
    CHECK(cuLinkCreate(6, opts, vals, &ls));
    for (int i = 2; i <= 3; i++) {
        size_t n;
        char *ptx = slurp(argv[i], &n);
        CHECK(cuLinkAddData(ls, 1 /* CU_JIT_INPUT_PTX */, ptx, n, NULL, 0, NULL, NULL));
    }
    void *img;
    size_t size;
    CHECK(cuLinkComplete(ls, &img, &size));
    printf("info log:\n%s\nend log\n", info);
    CUmodule m;
    CUfunction f;
    CHECK(cuModuleLoadData(&m, img));
    CHECK(cuLinkDestroy(ls));
    CHECK(cuModuleGetFunction(&f, m, "callTwice"));
    int limits[] = {0, 32, 100, 1024, 1025, 1000000};
    for (int i = 0; i < 6; i++) {
        int minGrid = 0, block = 0;
        CHECK(cuOccupancyMaxPotentialBlockSize(&minGrid, &block, f, NULL, 0, limits[i]));
        printf("limit %d: block %d minGrid %d\n", limits[i], block, minGrid);
    }
    return 0;
}
