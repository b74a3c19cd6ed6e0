// Command saxpy computes y = a*x + y for 1M floats on the GPU with the Go
// layer (package cuda): typed buffers, a kernel from embedded PTX, a
// checked launch, and the copies back on a stream that the goroutine waits
// on without holding a thread. It checks every element on the host and
// exits with status 1 when one is wrong or a call fails. It needs an
// NVIDIA GPU and its driver (libcuda.so.1):
//
//	go run ./examples/saxpy
package main

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/cugen/cugen/cuda"
)

//go:embed saxpy.ptx
var saxpyPTX []byte

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "saxpy:", err)
		os.Exit(1)
	}
}

func run() error {
	const n = 1 << 20
	const a = float32(2.5)
	ctx, err := cuda.NewContext(0)
	if err != nil {
		return err
	}
	defer ctx.Close()
	name, _ := ctx.Device().Name()
	fmt.Printf("device 0: %s\n", name)

	mod, err := ctx.LoadModule(saxpyPTX)
	if err != nil {
		return err
	}
	defer mod.Close()
	saxpy, err := mod.Kernel("saxpy")
	if err != nil {
		return err
	}

	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i%1000)/7, float32(i%13)
	}
	dx, err := cuda.AllocFrom(ctx, x)
	if err != nil {
		return err
	}
	defer dx.Close()
	dy, err := cuda.AllocFrom(ctx, y)
	if err != nil {
		return err
	}
	defer dy.Close()

	stream, err := ctx.NewStream()
	if err != nil {
		return err
	}
	defer stream.Close()
	// float32, *Buffer, *Buffer, int32: checked against the kernel's own
	// parameters (4, 8, 8 and 4 bytes) before the launch.
	if err := saxpy.Launch(cuda.ForN(n, 256).On(stream), a, dx, dy, int32(n)); err != nil {
		return err
	}
	got := make([]float32, n)
	if err := dy.CopyToAsync(stream, got); err != nil {
		return err
	}
	wait, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := stream.Wait(wait); err != nil {
		return err
	}

	for i := range got {
		if want := a*x[i] + y[i]; math.Abs(float64(got[i]-want)) > 1e-5*math.Abs(float64(want))+1e-6 {
			fmt.Println("Result = FAIL")
			return fmt.Errorf("y[%d] = %v, want %v", i, got[i], want)
		}
	}
	fmt.Printf("saxpy of %d elements: Result = PASS\n", n)
	return nil
}
