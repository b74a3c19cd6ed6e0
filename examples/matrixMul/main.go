// Command matrixMul multiplies two matrices on the GPU with a tiled kernel
// (16x16 tiles in shared memory, matmul.ptx) through the Go layer (package
// cuda), in the shape of NVIDIA's cuda-samples matrixMul
// (Samples/0_Introduction/matrixMul): A is 320x320, B 320x640, the kernel
// runs 300 times between two events for the GFlop/s figure, and the result
// is checked. Unlike the sample, whose A and B are constant (every element
// of C is the same), the inputs vary and C is checked against a product
// computed on the host, so a wrong index cannot pass. It exits with status
// 1 when an element is wrong or a call fails. It needs an NVIDIA GPU and
// its driver (libcuda.so.1):
//
//	go run ./examples/matrixMul
package main

import (
	_ "embed"
	"fmt"
	"math"
	"os"

	"github.com/cugen/cugen/cuda"
)

//go:embed matmul.ptx
var matmulPTX []byte

const (
	tile       = 16  // the kernel's tile and block edge
	iterations = 300 // the sample's nIter
	hA, wA     = 320, 320
	hB, wB     = wA, 640
)

func main() {
	fmt.Println("[Matrix Multiply Using CUDA] - Starting...")
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "matrixMul:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		return err
	}
	defer ctx.Close()
	name, _ := ctx.Device().Name()
	major, minor, _ := ctx.Device().ComputeCapability()
	fmt.Printf("GPU Device 0: %q with compute capability %d.%d\n\n", name, major, minor)
	fmt.Printf("MatrixA(%d,%d), MatrixB(%d,%d)\n", wA, hA, wB, hB)

	mod, err := ctx.LoadModule(matmulPTX)
	if err != nil {
		return err
	}
	defer mod.Close()
	matmul, err := mod.Kernel("matmul")
	if err != nil {
		return err
	}

	a, b := make([]float32, hA*wA), make([]float32, hB*wB)
	for i := range a {
		a[i] = float32(i%17) / 16
	}
	for i := range b {
		b[i] = float32(i%23)/22 - 0.5
	}
	dA, err := cuda.AllocFrom(ctx, a)
	if err != nil {
		return err
	}
	defer dA.Close()
	dB, err := cuda.AllocFrom(ctx, b)
	if err != nil {
		return err
	}
	defer dB.Close()
	dC, err := cuda.Alloc[float32](ctx, hA*wB)
	if err != nil {
		return err
	}
	defer dC.Close()

	stream, err := ctx.NewStream()
	if err != nil {
		return err
	}
	defer stream.Close()
	cfg := cuda.Config{
		Grid:  cuda.Dim3{X: (wB + tile - 1) / tile, Y: (hA + tile - 1) / tile},
		Block: cuda.Dim3{X: tile, Y: tile},
	}.On(stream)
	launch := func() error { return matmul.Launch(cfg, dA, dB, dC, int32(hA), int32(wB), int32(wA)) }

	fmt.Println("Computing result using CUDA Kernel...")
	if err := launch(); err != nil { // warm up
		return err
	}
	if err := stream.Synchronize(); err != nil {
		return err
	}
	fmt.Println("done")
	start, err := ctx.NewEvent()
	if err != nil {
		return err
	}
	defer start.Close()
	stop, err := ctx.NewEvent()
	if err != nil {
		return err
	}
	defer stop.Close()
	if err := start.Record(stream); err != nil {
		return err
	}
	for range iterations {
		if err := launch(); err != nil {
			return err
		}
	}
	if err := stop.Record(stream); err != nil {
		return err
	}
	if err := stop.Synchronize(); err != nil {
		return err
	}
	total, err := cuda.Elapsed(start, stop)
	if err != nil {
		return err
	}
	msec := total.Seconds() * 1e3 / iterations
	flops := 2.0 * wA * hA * wB
	fmt.Printf("Performance= %.2f GFlop/s, Time= %.3f msec, Size= %.0f Ops, WorkgroupSize= %d threads/block\n",
		flops*1e-9/(msec/1e3), msec, flops, tile*tile)

	c := make([]float32, hA*wB)
	if err := dC.CopyTo(c); err != nil {
		return err
	}
	fmt.Print("Checking computed result for correctness: ")
	for i := range hA {
		for j := range wB {
			var want float64
			for k := range wA {
				want += float64(a[i*wA+k]) * float64(b[k*wB+j])
			}
			if got := float64(c[i*wB+j]); math.Abs(got-want) > 1e-4*(1+math.Abs(want)) {
				fmt.Println("Result = FAIL")
				return fmt.Errorf("C[%d][%d] = %v, want %v", i, j, got, want)
			}
		}
	}
	fmt.Println("Result = PASS")
	return nil
}
