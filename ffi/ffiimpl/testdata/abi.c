// ABI conformance fixtures for package ffi, built by the tests with
// gcc -shared -fPIC -O1. Every function records what it received, as raw
// bytes, in rec[] (read by the test through the symbol's address) and
// returns a value the test also checks.
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

uint64_t rec[64];
static int nrec;

static void reset(void) { memset(rec, 0, sizeof rec); nrec = 0; }
static void put(uint64_t v) { rec[nrec++] = v; }
static void putd(double v) { uint64_t u; memcpy(&u, &v, 8); put(u); }
static void putf(float v) { uint32_t u; memcpy(&u, &v, 4); put(u); }
// putmem records an aggregate as whole 8-byte words, the tail zero-filled.
static void putmem(const void *p, size_t n) {
	while (n > 0) {
		uint64_t w = 0;
		size_t k = n < 8 ? n : 8;
		memcpy(&w, p, k);
		put(w);
		p = (const char *)p + k;
		n -= k;
	}
}

// ---- integers: 0..11 arguments, each recorded, the count returned. ----
#define A uint64_t
uint64_t i0(void) { reset(); return 0x1122334455667788ull; }
uint64_t i1(A a1) { reset(); put(a1); return 1; }
uint64_t i2(A a1, A a2) { reset(); put(a1); put(a2); return 2; }
uint64_t i3(A a1, A a2, A a3) { reset(); put(a1); put(a2); put(a3); return 3; }
uint64_t i4(A a1, A a2, A a3, A a4) { reset(); put(a1); put(a2); put(a3); put(a4); return 4; }
uint64_t i5(A a1, A a2, A a3, A a4, A a5) { reset(); put(a1); put(a2); put(a3); put(a4); put(a5); return 5; }
uint64_t i6(A a1, A a2, A a3, A a4, A a5, A a6) {
	reset(); put(a1); put(a2); put(a3); put(a4); put(a5); put(a6); return 6;
}
uint64_t i7(A a1, A a2, A a3, A a4, A a5, A a6, A a7) {
	reset(); put(a1); put(a2); put(a3); put(a4); put(a5); put(a6); put(a7); return 7;
}
uint64_t i8(A a1, A a2, A a3, A a4, A a5, A a6, A a7, A a8) {
	reset(); put(a1); put(a2); put(a3); put(a4); put(a5); put(a6); put(a7); put(a8); return 8;
}
uint64_t i9(A a1, A a2, A a3, A a4, A a5, A a6, A a7, A a8, A a9) {
	reset(); put(a1); put(a2); put(a3); put(a4); put(a5); put(a6); put(a7); put(a8); put(a9); return 9;
}
uint64_t i10(A a1, A a2, A a3, A a4, A a5, A a6, A a7, A a8, A a9, A a10) {
	reset(); put(a1); put(a2); put(a3); put(a4); put(a5); put(a6); put(a7); put(a8); put(a9); put(a10);
	return 10;
}
uint64_t i11(A a1, A a2, A a3, A a4, A a5, A a6, A a7, A a8, A a9, A a10, A a11) {
	reset(); put(a1); put(a2); put(a3); put(a4); put(a5); put(a6); put(a7); put(a8); put(a9); put(a10);
	put(a11); return 11;
}
// i38: more integers than any generated signature passes (cusolverDnXgesvdr
// takes 26), so the trampoline's copy of many stack words is exercised.
uint64_t i38(A a1, A a2, A a3, A a4, A a5, A a6, A a7, A a8, A a9, A a10, A a11, A a12, A a13, A a14, A a15, A a16, A a17, A a18, A a19, A a20, A a21, A a22, A a23, A a24, A a25, A a26, A a27, A a28, A a29, A a30, A a31, A a32, A a33, A a34, A a35, A a36, A a37, A a38) {
	reset(); put(a1); put(a2); put(a3); put(a4); put(a5); put(a6); put(a7); put(a8); put(a9); put(a10); put(a11); put(a12); put(a13); put(a14); put(a15); put(a16); put(a17); put(a18); put(a19); put(a20); put(a21); put(a22); put(a23); put(a24); put(a25); put(a26); put(a27); put(a28); put(a29); put(a30); put(a31); put(a32); put(a33); put(a34); put(a35); put(a36); put(a37); put(a38);
	return 38;
}
#undef A

// Narrow signed and unsigned integers, also on the stack (after 8 args):
// recorded as the callee widens them.
int32_t narrow(int32_t a, int8_t b, int16_t c, uint32_t d, uint8_t e, uint16_t f, int64_t g, int32_t h,
	       int32_t i, int8_t j) {
	reset();
	put((uint64_t)(int64_t)a); put((uint64_t)(int64_t)b); put((uint64_t)(int64_t)c); put(d); put(e);
	put(f); put((uint64_t)g); put((uint64_t)(int64_t)h); put((uint64_t)(int64_t)i);
	put((uint64_t)(int64_t)j);
	return a + b + c + h + i + j; // a negative int32 result
}

// ---- floats: ints, floats and doubles interleaved; 12 FP args spill. ----
double mixed(int32_t i1, float f1, double d1, int64_t i2, float f2, double d2, uint8_t i3, float f3,
	     double d3, void *i4, float f4, double d4, int32_t i5, float f5, double d5, int64_t i6,
	     float f6, int64_t i7, double d6, int32_t i8) {
	reset();
	put((uint64_t)(int64_t)i1); putf(f1); putd(d1); put((uint64_t)i2); putf(f2); putd(d2); put(i3);
	putf(f3); putd(d3); put((uint64_t)(uintptr_t)i4); putf(f4); putd(d4); put((uint64_t)(int64_t)i5);
	putf(f5); putd(d5); put((uint64_t)i6); putf(f6); put((uint64_t)i7); putd(d6);
	put((uint64_t)(int64_t)i8);
	return i1 + f1 + d1 + i2 + f2 + d2 + i3 + f3 + d3 + f4 + d4 + i5 + f5 + d5 + i6 + f6 + i7 + d6 + i8;
}
float retf(float a, double b, float c) { reset(); putf(a); putd(b); putf(c); return a * c + (float)b; }
double retd(double a, int32_t n) { reset(); putd(a); put((uint64_t)(int64_t)n); return a * n; }

// ---- structs by value, shaped like the CUDA ones. ----
typedef struct { int16_t a; uint16_t b; } s4;
typedef struct { int32_t type; int32_t id; } s8; // cudaMemLocation
typedef struct { uint32_t x, y, z; } dim3;
typedef struct { int64_t a, b; } s16;
typedef struct { int32_t a; float b; double c; } s16m; // INTEGER + SSE eightbytes
typedef struct { double c; int64_t a; } s16r;   // SSE + INTEGER eightbytes
typedef struct { float x, y; } hfa2;
typedef struct { float x, y, z; } hfa3;         // 12-byte HFA; two SSE eightbytes on amd64
typedef struct { double a, b, c, d; } hfa4d;    // 32-byte HFA: registers on arm64, memory on amd64
enum kind { kindSigned, kindUnsigned, kindFloat };
typedef struct { int x, y, z, w; enum kind f; } fdesc; // cudaChannelFormatDesc
typedef struct { size_t width, height, depth; } extent; // cudaExtent
typedef struct { void *ptr; size_t pitch, xsize, ysize; } pitched; // cudaPitchedPtr
typedef struct { char reserved[64]; } ipc; // cudaIpcMemHandle_t

#define PUT(s) putmem(&(s), sizeof(s))

// cudaLaunchKernel's shape.
int launch(const void *fn, dim3 grid, dim3 block, void **args, size_t shm, void *stream) {
	reset(); put((uint64_t)(uintptr_t)fn); PUT(grid); PUT(block); put((uint64_t)(uintptr_t)args);
	put(shm); put((uint64_t)(uintptr_t)stream);
	return 3;
}
// cudaMemset3DAsync's shape.
int memset3d(pitched p, int value, extent e, void *stream) {
	reset(); PUT(p); put((uint64_t)(int64_t)value); PUT(e); put((uint64_t)(uintptr_t)stream);
	return 4;
}
// cudaIpcOpenMemHandle's shape.
int ipcopen(void **dev, ipc h, unsigned int flags) {
	reset(); put((uint64_t)(uintptr_t)dev); PUT(h); put(flags);
	return 5;
}
// NppStreamContext (48 bytes) and NppiSize.
typedef struct {
	void *stream;
	int device, sms, threadsPerSM, threadsPerBlock;
	size_t sharedPerBlock;
	int ccMajor, ccMinor;
	unsigned int streamFlags;
	int reserved;
} nppctx;
typedef struct { int width, height; } nppsize;
// nppiAdd_8u_C1RSfs_Ctx's shape: six integer arguments fill the
// registers, then NppiSize, the scale factor and the 48-byte
// NppStreamContext by value; an NPP error status (negative) returned.
int nppadd(const void *src1, int step1, const void *src2, int step2, void *dst, int dstStep, nppsize roi, int scale, nppctx ctx) {
	reset(); put((uint64_t)(uintptr_t)src1); put((uint64_t)(int64_t)step1); put((uint64_t)(uintptr_t)src2);
	put((uint64_t)(int64_t)step2); put((uint64_t)(uintptr_t)dst); put((uint64_t)(int64_t)dstStep);
	PUT(roi); put((uint64_t)(int64_t)scale); PUT(ctx);
	return -8;
}
// Every small class, in registers while they last.
int small(s4 a, s8 b, s16 c, s16m d, hfa2 e, s16r f, fdesc g, hfa3 h, hfa4d i) {
	reset(); PUT(a); PUT(b); PUT(c); PUT(d); PUT(e); PUT(f); PUT(g); PUT(h); PUT(i);
	return 6;
}
// A 16-byte struct that no longer fits in the integer registers goes wholly
// to the stack; on amd64 the int after it still takes a register, on arm64
// it follows it onto the stack.
int straddle(int64_t a1, int64_t a2, int64_t a3, int64_t a4, int64_t a5, int64_t a6, int64_t a7, s16 s,
	     int64_t a8) {
	reset(); put(a1); put(a2); put(a3); put(a4); put(a5); put(a6); put(a7); PUT(s); put(a8);
	return 7;
}
// The same for floating point: an HFA after seven doubles.
double fstraddle(double d1, double d2, double d3, double d4, double d5, double d6, double d7, hfa3 h,
		 double d8, s16m m) {
	reset(); putd(d1); putd(d2); putd(d3); putd(d4); putd(d5); putd(d6); putd(d7); PUT(h); putd(d8);
	PUT(m);
	return d1 + d8;
}

// ---- struct results. ----
fdesc make_desc(int x, int y, int z, int w, enum kind f) { // cudaCreateChannelDesc
	fdesc d = {x, y, z, w, f};
	reset(); return d;
}
s8 ret8(int32_t t, int32_t id) { s8 s = {t, id}; reset(); return s; }
dim3 retdim3(uint32_t x, uint32_t y, uint32_t z) { dim3 d = {x, y, z}; reset(); return d; }
s16 ret16(int64_t a, int64_t b) { s16 s = {a, b}; reset(); return s; }
s16m ret16m(int32_t a, float b, double c) { s16m s = {a, b, c}; reset(); return s; }
s16r ret16r(double c, int64_t a) { s16r s = {c, a}; reset(); return s; }
hfa2 rethfa2(float x, float y) { hfa2 h = {x, y}; reset(); return h; }
hfa3 rethfa3(float x, float y, float z) { hfa3 h = {x, y, z}; reset(); return h; }
hfa4d rethfa4d(double a, double b, double c, double d) { hfa4d h = {a, b, c, d}; reset(); return h; }
extent retextent(size_t w, size_t h, size_t d, int64_t extra) {
	extent e = {w, h, d};
	reset(); put((uint64_t)extra); return e;
}

// ---- callbacks from another thread. ----
typedef void (*hostfn)(void *userData);
struct job { hostfn fn; void *ud; int n; };
static void *worker(void *p) {
	struct job *j = p;
	for (int i = 0; i < j->n; i++) j->fn(j->ud);
	return NULL;
}
// on_thread calls fn(ud) n times from a new pthread and waits for it.
int on_thread(hostfn fn, void *ud, int n) {
	struct job j = {fn, ud, n};
	pthread_t t;
	if (pthread_create(&t, NULL, worker, &j) != 0) return -1;
	return pthread_join(t, NULL);
}

// ---- benchmark targets. ----
int b0(void) { return 0; }
int b2(void *p, int n) { return n + (p != 0); }
int b6(void *a, void *b, size_t c, int d, int e, void *f) { return d + e + (int)c + (a == b) + (f != 0); }
double bf(int a, float b, double c, float d) { return a + b + c + d; }

// ---- the stack pointer the callee sees at entry (a leaf: no prologue
// moves it before the asm reads it). amd64 wants SP = 8 mod 16 there (the
// CALL pushed the return address onto a 16-byte aligned stack); arm64
// wants SP = 0 mod 16.
uint64_t entry_sp(void) {
	uint64_t sp;
#if defined(__x86_64__)
	__asm__ volatile("mov %%rsp, %0" : "=r"(sp));
#elif defined(__aarch64__)
	__asm__ volatile("mov %0, sp" : "=r"(sp));
#endif
	return sp;
}
