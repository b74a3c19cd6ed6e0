package e2e

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/cudatest"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
)

// Multi-GPU tests, written for any number of devices: one locked goroutine
// per device (cudart.OnDevice), each seeing its own device's primary context.
// With one device they run the per-device part and skip the peer part.

func deviceCount(t *testing.T) int {
	t.Helper()
	n, err := cudart.GetDeviceCount()
	cugentest.NeedDevice(t, err)
	if err := cu.Init(0); err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// TestPerDevicePrimaryContexts: after cudaSetDevice(d) on its own thread,
// each goroutine's current context is device d's primary context, and the
// contexts of different devices differ.
func TestPerDevicePrimaryContexts(t *testing.T) {
	n := deviceCount(t)
	ctxs := make([]cu.Context, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for d := 0; d < n; d++ {
		wg.Add(1)
		go func(d int) {
			defer wg.Done()
			errs[d] = cudart.OnDevice(int32(d), func() error {
				cur, err := cu.CtxGetCurrent()
				if err != nil {
					return err
				}
				primary, err := cu.DevicePrimaryCtxRetain(cu.Device(d))
				if err != nil {
					return err
				}
				defer cu.DevicePrimaryCtxRelease(cu.Device(d))
				if cur != primary {
					return fmt.Errorf("device %d: current context %#x is not the primary context %#x", d, cur, primary)
				}
				ctxs[d] = cur
				return nil
			})
		}(d)
	}
	wg.Wait()
	seen := map[cu.Context]int{}
	for d := 0; d < n; d++ {
		if errs[d] != nil {
			t.Fatal(errs[d])
		}
		if o, dup := seen[ctxs[d]]; dup {
			t.Fatalf("devices %d and %d share context %#x", o, d, ctxs[d])
		}
		seen[ctxs[d]] = d
		t.Logf("device %d: primary context %#x current on its goroutine's thread", d, ctxs[d])
	}
}

// TestKernelsOnEveryDevice runs the vector-add kernel on every device at
// once, one goroutine per device, and checks every result.
func TestKernelsOnEveryDevice(t *testing.T) {
	n := deviceCount(t)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for d := 0; d < n; d++ {
		wg.Add(1)
		go func(d int) {
			defer wg.Done()
			errs[d] = cu.OnPrimaryContext(cu.Device(d), func(cu.Context) error { return vecAddOn(d) })
		}(d)
	}
	wg.Wait()
	for d, err := range errs {
		if err != nil {
			t.Fatalf("device %d: %v", d, err)
		}
	}
	t.Logf("vadd correct on all %d devices, launched concurrently", n)
}

// vecAddOn runs vadd with inputs that depend on the device, in the current
// context, and checks the output.
func vecAddOn(d int) error {
	src := append([]byte(cudatest.VecAddPTX), 0)
	mod, err := cu.ModuleLoadData(unsafe.Pointer(&src[0]))
	if err != nil {
		return err
	}
	defer cu.ModuleUnload(mod)
	fn, err := cu.ModuleGetFunction(mod, "vadd")
	if err != nil {
		return err
	}
	const n = 1 << 22
	a, b, c := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i%1000), float32(d+1)
	}
	size := uint64(n * 4)
	var p [3]cu.Deviceptr
	for i := range p {
		if p[i], err = cu.MemAlloc(size); err != nil {
			return err
		}
		defer cu.MemFree(p[i])
	}
	if err := cu.MemcpyHtoD(p[0], unsafe.Pointer(&a[0]), size); err != nil {
		return err
	}
	if err := cu.MemcpyHtoD(p[1], unsafe.Pointer(&b[0]), size); err != nil {
		return err
	}
	count := uint32(n)
	args := []unsafe.Pointer{unsafe.Pointer(&p[0]), unsafe.Pointer(&p[1]), unsafe.Pointer(&p[2]), unsafe.Pointer(&count)}
	if err := cu.LaunchKernel(fn, n/256, 1, 1, 256, 1, 1, 0, 0, args, nil); err != nil {
		return err
	}
	if err := cu.CtxSynchronize(); err != nil {
		return err
	}
	if err := cu.MemcpyDtoH(unsafe.Pointer(&c[0]), p[2], size); err != nil {
		return err
	}
	for i := range c {
		if c[i] != a[i]+b[i] {
			return fmt.Errorf("c[%d] = %v, want %v", i, c[i], a[i]+b[i])
		}
	}
	return nil
}

// TestPeerAccessAndCopy enables peer access between devices 0 and 1 (both
// through the runtime's cudaDeviceCanAccessPeer and the driver's
// cuCtxEnablePeerAccess) and copies 1 GiB from device 0 to device 1 with
// cudaMemcpyPeer, reporting the bandwidth.
func TestPeerAccessAndCopy(t *testing.T) {
	n := deviceCount(t)
	cugentest.SkipFewGPUs(t, 2, n) // peer access and peer copies
	for _, pair := range [][2]int32{{0, 1}, {1, 0}} {
		ok, err := cudart.DeviceCanAccessPeer(pair[0], pair[1])
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("cudaDeviceCanAccessPeer(%d, %d) = %d", pair[0], pair[1], ok)
		if ok == 0 {
			t.Skipf("device %d cannot access device %d", pair[0], pair[1])
		}
	}
	ctx1, err := cu.DevicePrimaryCtxRetain(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cu.DevicePrimaryCtxRelease(1)
	const size = 1 << 30
	err = cu.OnPrimaryContext(0, func(cu.Context) error {
		err := cu.CtxEnablePeerAccess(ctx1, 0)
		if err != nil && !errors.Is(err, cu.ErrorPeerAccessAlreadyEnabled) {
			return err
		}
		t.Logf("cuCtxEnablePeerAccess(device 1's context) on device 0: %v", err)
		src, err := cudart.Malloc(size)
		if err != nil {
			return err
		}
		defer cudart.Free(src)
		if err := cudart.Memset(src, 0x5a, size); err != nil {
			return err
		}
		var dst unsafe.Pointer
		if err := cudart.OnDevice(1, func() error {
			var err error
			dst, err = cudart.Malloc(size)
			return err
		}); err != nil {
			return err
		}
		defer cudart.OnDevice(1, func() error { return cudart.Free(dst) })
		if err := cudart.MemcpyPeer(dst, 1, src, 0, size); err != nil { // warm-up
			return err
		}
		best := time.Duration(1 << 62)
		for i := 0; i < 5; i++ {
			start := time.Now()
			if err := cudart.MemcpyPeer(dst, 1, src, 0, size); err != nil {
				return err
			}
			if err := cudart.DeviceSynchronize(); err != nil {
				return err
			}
			if d := time.Since(start); d < best {
				best = d
			}
		}
		back := make([]byte, 1<<20)
		if err := cudart.OnDevice(1, func() error {
			return cudart.Memcpy(unsafe.Pointer(&back[0]), unsafe.Add(dst, size-len(back)), uint64(len(back)), cudart.MemcpyDeviceToHost)
		}); err != nil {
			return err
		}
		for i, v := range back {
			if v != 0x5a {
				return fmt.Errorf("byte %d of the peer copy is %#x, want 0x5a", size-len(back)+i, v)
			}
		}
		t.Logf("1 GiB cudaMemcpyPeer device 0 -> device 1: %.1f GB/s (best of 5)", float64(size)/best.Seconds()/1e9)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
