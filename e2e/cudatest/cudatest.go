// Package cudatest holds what the end-to-end and reliability tests of the
// generated cuda12 packages share. Test-only: nothing else imports it.
package cudatest

import (
	"runtime"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/generated/cuda12/cu"
)

// Device0 locks the goroutine to its OS thread (CUDA's current context
// belongs to the thread), initialises the driver and makes device 0's
// primary context current. Without a driver or a device it skips t, or
// fails it (cugentest.NeedDevice); another cuInit error fails it. The
// returned func releases the context and unlocks the thread.
func Device0(t testing.TB) (cu.Device, func()) {
	t.Helper()
	runtime.LockOSThread()
	if err := cu.Init(0); err != nil {
		runtime.UnlockOSThread()
		cugentest.NeedDevice(t, err)
	}
	dev, err := cu.DeviceGet(0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := cu.DevicePrimaryCtxRetain(dev)
	if err != nil {
		t.Fatal(err)
	}
	if err := cu.CtxSetCurrent(ctx); err != nil {
		t.Fatal(err)
	}
	return dev, func() {
		cu.DevicePrimaryCtxRelease(dev)
		runtime.UnlockOSThread()
	}
}

// LoadPTX JIT-compiles ptx (PTX text) into a module in the current context
// and returns it with the named functions, in order. The caller unloads
// the module while its context is still current.
func LoadPTX(t testing.TB, ptx string, names ...string) (cu.Module, []cu.Function) {
	t.Helper()
	src := append([]byte(ptx), 0)
	mod, err := cu.ModuleLoadData(unsafe.Pointer(&src[0]))
	if err != nil {
		t.Fatalf("cuModuleLoadData: %v", err)
	}
	fns := make([]cu.Function, len(names))
	for i, name := range names {
		if fns[i], err = cu.ModuleGetFunction(mod, name); err != nil {
			t.Fatal(err)
		}
	}
	return mod, fns
}

// VecAddPTX holds vadd, c[i] = a[i] + b[i] for i < n (a, b, c float
// pointers, n a u32), and empty, both written by hand in PTX so the tests
// need no compiler: the driver JIT-compiles it for the device.
const VecAddPTX = `
.version 7.0
.target sm_52
.address_size 64

.visible .entry vadd(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<11>;

	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [pc];
	ld.param.u32 %r2, [n];
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ntid.x;
	mov.u32 %r5, %tid.x;
	mad.lo.s32 %r1, %r3, %r4, %r5;
	setp.ge.u32 %p1, %r1, %r2;
	@%p1 bra DONE;
	cvta.to.global.u64 %rd4, %rd1;
	cvta.to.global.u64 %rd5, %rd2;
	cvta.to.global.u64 %rd6, %rd3;
	mul.wide.u32 %rd7, %r1, 4;
	add.s64 %rd8, %rd4, %rd7;
	add.s64 %rd9, %rd5, %rd7;
	add.s64 %rd10, %rd6, %rd7;
	ld.global.f32 %f1, [%rd8];
	ld.global.f32 %f2, [%rd9];
	add.f32 %f3, %f1, %f2;
	st.global.f32 [%rd10], %f3;
DONE:
	ret;
}

.visible .entry empty()
{
	ret;
}
`

// SaxpySource is CUDA C++ the NVRTC tests compile at run time, for CUDA
// 12 and 13: y[i] = a*x[i] + y[i] for i < n, with C linkage so its entry
// point is named saxpy.
const SaxpySource = `
extern "C" __global__ void saxpy(float a, const float *x, float *y, unsigned long long n)
{
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
`
