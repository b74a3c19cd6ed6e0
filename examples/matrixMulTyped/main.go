// Command matrixMulTyped is examples/matrixMul with its kernel as typed Go
// functions: `cugen kernels` compiled matrixMul.cu, a template of the tile
// edge, for tiles of 16 and 32 (-name 'matrixMul<16>' -name
// 'matrixMul<32>'), and each instantiation is a method of package kernels
// whose parameters have the kernel's C types. The sizes are the sample's
// (A 320x320, B 320x640, 300 launches between two events); both tile
// sizes run and each result is checked against a product computed on the
// host. It exits with status 1 when an element is wrong or a call fails.
// It needs an NVIDIA GPU and its driver:
//
//	go run ./examples/matrixMulTyped
package main

//go:generate go run ../../cmd/cugen kernels -src matrixMul.cu -arch sm_80,sm_90 -name matrixMul<16> -name matrixMul<32> -cuda github.com/cugen/cugen/cuda -out kernels

import (
	"fmt"
	"math"
	"os"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/examples/matrixMulTyped/kernels"
)

const (
	iterations = 300
	hA, wA     = 320, 320
	hB, wB     = wA, 640
)

func main() {
	fmt.Println("[Matrix Multiply Using CUDA] - Starting...")
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "matrixMulTyped:", err)
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
	k, err := kernels.Load(ctx)
	if err != nil {
		return err
	}
	defer k.Close()

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

	for _, tile := range []uint32{16, 32} {
		cfg := cuda.Config{
			Grid:  cuda.Dim3{X: (wB + tile - 1) / tile, Y: (hA + tile - 1) / tile},
			Block: cuda.Dim3{X: tile, Y: tile},
		}.On(stream)
		launch := func() error {
			if tile == 16 {
				return k.MatrixMul16(cfg, dC, dA, dB, hA, wA, wB)
			}
			return k.MatrixMul32(cfg, dC, dA, dB, hA, wA, wB)
		}
		fmt.Printf("Computing result using CUDA Kernel matrixMul<%d>...\n", tile)
		if err := launch(); err != nil { // warm up
			return err
		}
		if err := stream.Synchronize(); err != nil {
			return err
		}
		start, err := ctx.NewEvent()
		if err != nil {
			return err
		}
		stop, err := ctx.NewEvent()
		if err != nil {
			return err
		}
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
		start.Close()
		stop.Close()
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
				for x := range wA {
					want += float64(a[i*wA+x]) * float64(b[x*wB+j])
				}
				if got := float64(c[i*wB+j]); math.Abs(got-want) > 1e-4*(1+math.Abs(want)) {
					fmt.Println("Result = FAIL")
					return fmt.Errorf("matrixMul<%d>: C[%d][%d] = %v, want %v", tile, i, j, got, want)
				}
			}
		}
		fmt.Println("Result = PASS")
		if err := dC.Zero(); err != nil {
			return err
		}
	}
	return nil
}
