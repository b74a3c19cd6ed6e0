//go:build linux && (amd64 || arm64)

package reliability

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/e2e/cudatest"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
)

// storePTX has one kernel: *(p + off) = 42, a 32-bit store to global
// memory with no bounds check, so the caller picks an address the device
// cannot write.
const storePTX = `
.version 7.0
.target sm_52
.address_size 64

.visible .entry store(.param .u64 p, .param .u64 off)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<5>;

	ld.param.u64 %rd1, [p];
	ld.param.u64 %rd2, [off];
	add.s64 %rd3, %rd1, %rd2;
	cvta.to.global.u64 %rd4, %rd3;
	mov.u32 %r1, 42;
	st.global.u32 [%rd4], %r1;
	ret;
}
`

// gpu makes device 0's primary context current on a locked thread.
func gpu(t *testing.T) (cu.Device, func()) {
	t.Helper()
	return cudatest.Device0(t)
}

// TestIllegalAddress: a kernel stores to address 0, then to an address
// 1 TiB beyond a 4 KiB allocation. cuCtxSynchronize reports
// CUDA_ERROR_ILLEGAL_ADDRESS, the error is sticky (every later call on the
// context reports it, the runtime too), and the process goes on: the
// driver still answers calls that need no context. Each address runs in its
// own child process, since the fault ruins the context for the process.
func TestIllegalAddress(t *testing.T) {
	for _, where := range []string{"null", "far"} {
		t.Run(where, func(t *testing.T) {
			if !isChild(t) {
				runChild(t)
				return
			}
			dev, done := gpu(t)
			defer done()
			// The module is not unloaded: the fault ruins the context.
			_, fns := cudatest.LoadPTX(t, storePTX, "store")
			fn := fns[0]
			var err error
			var base cu.Deviceptr
			var off uint64
			if where == "far" {
				if base, err = cu.MemAlloc(4096); err != nil {
					t.Fatal(err)
				}
				off = 1 << 40
			}
			args := []unsafe.Pointer{unsafe.Pointer(&base), unsafe.Pointer(&off)}
			if err := cu.LaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, args, nil); err != nil {
				t.Fatalf("cuLaunchKernel: %v (the fault should surface at the synchronization)", err)
			}
			err = cu.CtxSynchronize()
			t.Logf("cuCtxSynchronize: %v", err)
			if !errors.Is(err, cu.ErrorIllegalAddress) {
				t.Fatalf("cuCtxSynchronize after a store to %s: %v, want CUDA_ERROR_ILLEGAL_ADDRESS", where, err)
			}
			// Sticky: the context is unusable from now on.
			for i := 0; i < 3; i++ {
				if err := cu.CtxSynchronize(); !errors.Is(err, cu.ErrorIllegalAddress) {
					t.Errorf("cuCtxSynchronize #%d after the fault: %v", i+2, err)
				}
			}
			if _, err := cu.MemAlloc(4096); !errors.Is(err, cu.ErrorIllegalAddress) {
				t.Errorf("cuMemAlloc after the fault: %v, want the sticky CUDA_ERROR_ILLEGAL_ADDRESS", err)
			}
			if err := cu.LaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, args, nil); !errors.Is(err, cu.ErrorIllegalAddress) {
				t.Errorf("cuLaunchKernel after the fault: %v", err)
			}
			// The runtime shares the primary context and sees it too.
			if err := cudart.SharedLibrary().Load(); err != nil {
				t.Logf("no CUDA 12 runtime: %v", err)
			} else if err := cudart.DeviceSynchronize(); err != nil {
				t.Logf("cudaDeviceSynchronize after the fault: %v (errors.Is cudaErrorIllegalAddress: %v)", err, errors.Is(err, cudart.ErrorIllegalAddress))
			} else {
				t.Errorf("cudaDeviceSynchronize after the fault: no error")
			}
			// The process is alive and the driver answers.
			if v, err := cu.DriverGetVersion(); err != nil || v == 0 {
				t.Errorf("cuDriverGetVersion after the fault: %d, %v", v, err)
			}
			if name, err := cu.DeviceGetName(dev); err != nil {
				t.Logf("cuDeviceGetName after the fault: %q, %v", name, err)
			}
			// Recovery, reported but not required: reset the primary
			// context and allocate again.
			cu.DevicePrimaryCtxRelease(dev)
			if err := cu.DevicePrimaryCtxReset(dev); err != nil {
				t.Logf("cuDevicePrimaryCtxReset: %v", err)
				return
			}
			ctx, err := cu.DevicePrimaryCtxRetain(dev)
			if err == nil {
				err = cu.CtxSetCurrent(ctx)
			}
			if err == nil {
				var p cu.Deviceptr
				if p, err = cu.MemAlloc(4096); err == nil {
					cu.MemFree(p)
				}
			}
			t.Logf("after cuDevicePrimaryCtxReset, a fresh primary context allocates: err = %v", err)
		})
	}
}

// TestOutOfMemory: cuMemAlloc of 1 PiB is CUDA_ERROR_OUT_OF_MEMORY, not
// sticky: a small allocation afterwards succeeds.
func TestOutOfMemory(t *testing.T) {
	if !isChild(t) {
		runChild(t)
		return
	}
	_, done := gpu(t)
	defer done()
	p, err := cu.MemAlloc(1 << 50)
	t.Logf("cuMemAlloc(1 PiB): %#x, %v", p, err)
	if !errors.Is(err, cu.ErrorOutOfMemory) || p != 0 {
		t.Fatalf("cuMemAlloc(1 PiB) = %#x, %v; want 0, CUDA_ERROR_OUT_OF_MEMORY", p, err)
	}
	p, err = cu.MemAlloc(1 << 20)
	if err != nil {
		t.Fatalf("cuMemAlloc(1 MiB) after an out-of-memory error: %v", err)
	}
	cu.MemFree(p)
	if err := cudart.SharedLibrary().Load(); err != nil {
		t.Logf("no CUDA 12 runtime, its half skipped: %v", err)
		return
	}
	if _, err := cudart.Malloc(1 << 50); !errors.Is(err, cudart.ErrorMemoryAllocation) {
		t.Errorf("cudaMalloc(1 PiB): %v, want cudaErrorMemoryAllocation", err)
	}
	if err := cudart.GetLastError(); err != nil && !errors.Is(err, cudart.ErrorMemoryAllocation) {
		t.Errorf("cudaGetLastError: %v", err)
	}
	if err := cudart.GetLastError(); err != nil {
		t.Errorf("cudaGetLastError a second time: %v, want nil (not sticky)", err)
	}
}
