// Package cudatest holds what the end-to-end and reliability tests of the
// generated cuda12 packages share. Test-only: nothing else imports it.
package cudatest

import (
	"errors"
	"runtime"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/generated/cuda12/cu"
)

// Device0 locks the goroutine to its OS thread (CUDA's current context
// belongs to the thread), initialises the driver and makes device 0's
// primary context current; it skips t where there is no device. The
// returned func releases the context and unlocks the thread.
func Device0(t testing.TB) (cu.Device, func()) {
	t.Helper()
	runtime.LockOSThread()
	if err := cu.Init(0); err != nil {
		runtime.UnlockOSThread()
		var coded interface{ Unwrap() error }
		if errors.Is(err, cu.ErrorNoDevice) || !errors.As(err, &coded) {
			t.Skipf("no CUDA device: %v", err)
		}
		t.Skipf("cuInit: %v", err)
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
