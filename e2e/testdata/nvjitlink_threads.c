/*
 * nvjitlink_threads.c: nvJitLink with one handle's calls on two threads,
 * in C, without Go: the reason for library.NVJitLink's OneThread.
 *
 *   gcc -O1 -o nvjitlink_threads nvjitlink_threads.c -ldl -lpthread
 *   ./nvjitlink_threads LIBNVRTC LIBNVJITLINK SUFFIX [same]
 *
 * SUFFIX is the symbol version, 12_4 for libnvJitLink.so.12 of CUDA 12.4
 * (its API functions are __nvJitLinkCreate_12_4 and so on). Ten times, it
 * compiles a kernel calling an undefined f to LTO-IR with NVRTC, creates
 * a handle and adds the LTO-IR on thread A, then links (an error, with
 * its log) and destroys the handle on thread B; A and B live for the
 * whole run, as Go's threads do. With "same" every call is on A.
 *
 * Debian's libnvjitlink12 (12.4.127) on glibc 2.36: without "same",
 * glibc aborts ("corrupted size vs. prev_size") or a SIGSEGV comes within
 * the ten links, in 5 of 5 runs; with "same", "ok" in 5 of 5. No test
 * runs it (a test expecting a crash would fail CI when a library fixes
 * it); run it against a new nvJitLink before dropping OneThread.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*fn_t)();
static fn_t nvrtcCreate, nvrtcCompile, nvrtcLTOSize, nvrtcLTO, nvrtcDestroy;
static fn_t jlCreate, jlAdd, jlComplete, jlLogSize, jlLog, jlDestroy;
static char *ltoir;
static size_t ltoirSize;
static void *handle;

static fn_t sym(void *lib, const char *name, const char *suffix) {
	char full[128];
	if (suffix)
		snprintf(full, sizeof full, "__%s_%s", name, suffix);
	else
		snprintf(full, sizeof full, "%s", name);
	fn_t f = (fn_t)dlsym(lib, full);
	if (!f) {
		fprintf(stderr, "no %s\n", full);
		exit(2);
	}
	return f;
}

/* a worker thread runs the functions handed to it, one at a time */
struct worker {
	pthread_t t;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	void (*job)(void);
};

static void *serve(void *arg) {
	struct worker *w = arg;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->job)
			pthread_cond_wait(&w->cv, &w->mu);
		w->job();
		w->job = NULL;
		pthread_cond_broadcast(&w->cv);
	}
	return NULL;
}

static void run(struct worker *w, void (*job)(void)) {
	pthread_mutex_lock(&w->mu);
	w->job = job;
	pthread_cond_broadcast(&w->cv);
	while (w->job)
		pthread_cond_wait(&w->cv, &w->mu);
	pthread_mutex_unlock(&w->mu);
}

static void createAndAdd(void) {
	const char *opts[] = {"-arch=sm_90", "-lto"};
	if (jlCreate(&handle, 2, opts) || jlAdd(handle, 3 /* NVJITLINK_INPUT_LTOIR */, ltoir, ltoirSize, "k.ltoir")) {
		fprintf(stderr, "create or add failed\n");
		exit(2);
	}
}

static void linkAndDestroy(void) {
	int r = jlComplete(handle);
	size_t n = 0;
	jlLogSize(handle, &n);
	char *log = calloc(n + 1, 1);
	jlLog(handle, log);
	if (r == 0 || !strstr(log, "f")) {
		fprintf(stderr, "link: %d, log %s\n", r, log);
		exit(2);
	}
	free(log);
	jlDestroy(&handle);
}

int main(int argc, char **argv) {
	if (argc < 4) {
		fprintf(stderr, "usage: %s LIBNVRTC LIBNVJITLINK SUFFIX [same]\n", argv[0]);
		return 2;
	}
	void *rtc = dlopen(argv[1], RTLD_NOW), *jl = dlopen(argv[2], RTLD_NOW);
	if (!rtc || !jl) {
		fprintf(stderr, "%s\n", dlerror());
		return 2;
	}
	nvrtcCreate = sym(rtc, "nvrtcCreateProgram", NULL);
	nvrtcCompile = sym(rtc, "nvrtcCompileProgram", NULL);
	nvrtcLTOSize = sym(rtc, "nvrtcGetLTOIRSize", NULL);
	nvrtcLTO = sym(rtc, "nvrtcGetLTOIR", NULL);
	nvrtcDestroy = sym(rtc, "nvrtcDestroyProgram", NULL);
	jlCreate = sym(jl, "nvJitLinkCreate", argv[3]);
	jlAdd = sym(jl, "nvJitLinkAddData", argv[3]);
	jlComplete = sym(jl, "nvJitLinkComplete", argv[3]);
	jlLogSize = sym(jl, "nvJitLinkGetErrorLogSize", argv[3]);
	jlLog = sym(jl, "nvJitLinkGetErrorLog", argv[3]);
	jlDestroy = sym(jl, "nvJitLinkDestroy", argv[3]);

	void *prog;
	const char *src = "extern \"C\" __device__ float f(float);\n"
	                  "extern \"C\" __global__ void k(float *y) { y[0] = f(y[0]); }\n";
	const char *opts[] = {"--gpu-architecture=sm_90", "-dlto", "-rdc=true"};
	if (nvrtcCreate(&prog, src, "k.cu", 0, NULL, NULL) || nvrtcCompile(prog, 3, opts)) {
		fprintf(stderr, "NVRTC failed\n");
		return 2;
	}
	nvrtcLTOSize(prog, &ltoirSize);
	ltoir = malloc(ltoirSize);
	nvrtcLTO(prog, ltoir);
	nvrtcDestroy(&prog);

	static struct worker a = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
	static struct worker b = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
	pthread_create(&a.t, NULL, serve, &a);
	pthread_create(&b.t, NULL, serve, &b);
	int same = argc > 4 && strcmp(argv[4], "same") == 0;
	for (int i = 0; i < 10; i++) {
		run(&a, createAndAdd);
		run(same ? &a : &b, linkAndDestroy);
	}
	printf("ok\n");
	return 0;
}
