// Command launchexp asks where a kernel launch made from Go loses time
// against the same launch made from a C loop (BENCHMARKS.md, "Kernel launch
// rate"). Every way below launches the empty kernel in blocks of 1000,
// waits for them, and rotates with the others in one process, so the
// machine's drift between runs cancels; it prints each way's median block.
//
// It needs ffi-experiment.patch applied to ffi (three switches that are not
// part of cugen: Direct calls runtime.asmcgocall without the runtime's
// entersyscall/exitsyscall, SetSP realigns the C stack, SetLean skips the
// vector registers) and a build with cgo and -ldflags=-checklinkname=0.
// See run.sh.
package main

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <immintrin.h>
typedef int (*launch_t)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **, void **);
static launch_t L;
static volatile long counter;
static int xopen(void) {
	void *d = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!d) return -1;
	L = (launch_t)dlsym(d, "cuLaunchKernel");
	return L ? 0 : -2;
}
static int one(void *f) { return L(f, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0); }
// loop launches n times from C; v adds work between launches.
static int loop(void *f, long n, int v) {
	for (long i = 0; i < n; i++) {
		int r = L(f, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0);
		if (r) return r;
		switch (v) {
		case 1: __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST); break;
		case 2: _mm_sfence(); break;
		case 3: _mm_mfence(); break;
		case 4: // 1000 adds in 4 KB of straight-line code
			__asm__ volatile(".rept 250\n add $1,%%r8\n add $1,%%r9\n add $1,%%r10\n add $1,%%r11\n .endr" ::: "r8", "r9", "r10", "r11", "cc");
			break;
		case 5: // the same 1000 adds in a 16-byte loop body
			for (int k = 0; k < 250; k++)
				__asm__ volatile("add $1,%%r8\n add $1,%%r9\n add $1,%%r10\n add $1,%%r11" ::: "r8", "r9", "r10", "r11", "cc");
			break;
		}
	}
	return 0;
}
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"time"
	"unsafe"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cu"
)

const ptx = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry empty()\n{\n\tret;\n}\n\x00"

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "launchexp:", err)
		os.Exit(1)
	}
}

func main() {
	runtime.LockOSThread()
	must(cu.Init(0))
	dev, err := cu.DeviceGet(0)
	must(err)
	ctx, err := cu.DevicePrimaryCtxRetain(dev)
	must(err)
	must(cu.CtxSetCurrent(ctx))
	src := []byte(ptx)
	mod, err := cu.ModuleLoadData(unsafe.Pointer(&src[0]))
	must(err)
	fn, err := cu.ModuleGetFunction(mod, "empty")
	must(err)
	if C.xopen() != 0 {
		must(fmt.Errorf("cannot dlopen libcuda.so.1"))
	}
	cf := *(*unsafe.Pointer)(unsafe.Pointer(&fn)) // a C handle, not Go memory

	gen := func(n int) {
		for range n {
			must(cu.LaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, nil, nil))
		}
	}
	cloop := func(v int) func(int) {
		return func(n int) {
			if r := C.loop(cf, C.long(n), C.int(v)); r != 0 {
				must(fmt.Errorf("cuLaunchKernel: %d", r))
			}
		}
	}
	with := func(set func(bool), n int) { set(true); gen(n); set(false) }
	ways := []struct {
		name string
		f    func(int)
	}{
		{"C loop", cloop(0)},
		{"C loop + lock xadd", cloop(1)},
		{"C loop + sfence", cloop(2)},
		{"C loop + mfence", cloop(3)},
		{"C loop + 1000 adds, 4 KB", cloop(4)},
		{"C loop + 1000 adds, 16 B", cloop(5)},
		{"generated (runtime.cgocall)", gen},
		{"generated, asmcgocall only", func(n int) { with(func(b bool) { ffi.Direct = b }, n) }},
		{"generated, SP%64 = 0", func(n int) { with(func(b bool) { ffi.SetSP(b, 0) }, n) }},
		{"generated, SP%64 = 32", func(n int) { with(func(b bool) { ffi.SetSP(b, 32) }, n) }},
		{"generated, no vector loads", func(n int) { with(ffi.SetLean, n) }},
		{"cgo, one call per launch", func(n int) {
			for range n {
				if r := C.one(cf); r != 0 {
					must(fmt.Errorf("cuLaunchKernel: %d", r))
				}
			}
		}},
	}
	const block, rounds = 1000, 200
	gen(5000)
	must(cu.CtxSynchronize())
	times := make([][]float64, len(ways))
	for r := range rounds {
		for k := range ways {
			w := (r + k) % len(ways)
			t := time.Now()
			ways[w].f(block)
			must(cu.CtxSynchronize())
			times[w] = append(times[w], float64(time.Since(t).Nanoseconds())/block)
		}
	}
	median := func(x []float64) float64 { y := slices.Clone(x); slices.Sort(y); return y[len(y)/2] }
	base := median(times[0])
	for k, w := range ways {
		m := median(times[k])
		fmt.Printf("%-30s %7.1f ns/launch  %+7.1f ns  %5.1f%% of the C loop's rate\n", w.name, m, m-base, 100*base/m)
	}
}
