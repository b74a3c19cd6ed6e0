// Command contextdemo shows in Go how the CUDA runtime API rides on the
// driver API. The first runtime call
// initialises the driver (cuInit); the first runtime call that needs a
// context retains the device's primary context and makes it current on the
// calling OS thread. Run it on a machine with an NVIDIA GPU:
//
//	go run ./examples/contextdemo
package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudart"
)

func main() {
	// The current context belongs to the OS thread; keep this goroutine on one.
	runtime.LockOSThread()

	ctx, err := cu.CtxGetCurrent()
	fmt.Printf("1. Before any runtime call: cuCtxGetCurrent = %#x, %v\n", ctx, err)
	fmt.Println("   (the driver is not initialised yet, so there is no context)")

	n, err := cudart.GetDeviceCount()
	if !cudart.Check(err) {
		os.Exit(1)
	}
	fmt.Printf("2. cudaGetDeviceCount = %d: the first runtime call ran cuInit\n", n)
	ctx, err = cu.CtxGetCurrent()
	fmt.Printf("   cuCtxGetCurrent = %#x, %v: initialised, but still no context\n", ctx, err)

	fmt.Println("3. cudaSetDevice(0) is the first call that needs a context:")
	if !cudart.Check(cudart.SetDevice(0)) {
		os.Exit(1)
	}
	ctx, err = cu.CtxGetCurrent()
	fmt.Printf("   cuCtxGetCurrent = %#x, %v\n", ctx, err)
	primary, err := cu.DevicePrimaryCtxRetain(0)
	if !cu.Check(err) {
		os.Exit(1)
	}
	defer cu.DevicePrimaryCtxRelease(0)
	fmt.Printf("   cuDevicePrimaryCtxRetain(0) = %#x: the same context (%v)\n", primary, primary == ctx)

	dev, err := cudart.GetDevice()
	cudart.Check(err)
	fmt.Printf("4. cudaGetDevice = %d\n", dev)

	fmt.Println("5. A bad device ordinal, checked as CUDA C++'s checkRuntime does:")
	cudart.Check(cudart.SetDevice(99))

	fmt.Println("6. Another OS thread has its own context stack:")
	err = cudart.OnDevice(0, func() error {
		c, err := cu.CtxGetCurrent()
		fmt.Printf("   on a fresh locked thread after cudaSetDevice(0): cuCtxGetCurrent = %#x, %v\n", c, err)
		return err
	})
	cudart.Check(err)
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		c, err := cu.CtxGetCurrent()
		fmt.Printf("   on another fresh thread, before any call: cuCtxGetCurrent = %#x, %v\n", c, err)
		close(done)
	}()
	<-done
}
