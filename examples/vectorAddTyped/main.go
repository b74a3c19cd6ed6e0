// Command vectorAddTyped is examples/vectorAddRTC with its kernels as typed
// Go functions: `cugen kernels` compiled vectorAdd.cu with NVRTC when the
// package was generated (no GPU needed), embedded cubins for sm_80 and
// sm_90 and PTX for newer GPUs in package kernels, and gave each kernel a
// Go function whose parameters have the kernel's C types. Passing a
// float64 where the kernel takes a float is a compile error, not a wrong
// result. It needs an NVIDIA GPU and its driver; NVRTC is not needed at
// run time:
//
//	go run ./examples/vectorAddTyped
//
// Regenerate the kernels (NVRTC 12 or 13 on the machine, no GPU):
//
//	go generate ./examples/vectorAddTyped
package main

//go:generate go run ../../cmd/cugen kernels -src vectorAdd.cu -arch sm_80,sm_90 -name axpy<float> -name axpy<double> -cuda github.com/cugen/cugen/cuda -out kernels

import (
	"fmt"
	"log"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/examples/internal/sample"
	"github.com/cugen/cugen/examples/vectorAddTyped/kernels"
)

func main() {
	const n = 50000
	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	k, err := kernels.Load(ctx) // the cubin for this GPU, else the PTX
	sample.Check(err)
	defer k.Close()

	a, b, c := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), float32(2*i)
	}
	da, err := cuda.AllocFrom(ctx, a)
	sample.Check(err)
	db, err := cuda.AllocFrom(ctx, b)
	sample.Check(err)
	dc, err := cuda.Alloc[float32](ctx, n)
	sample.Check(err)
	sample.Check(k.VecAdd(cuda.ForN(n, 256), da, db, dc, n))
	sample.Check(dc.CopyTo(c))
	for i := range c {
		if c[i] != a[i]+b[i] {
			log.Fatalf("vecAdd: c[%d] = %v, want %v: Result = FAIL", i, c[i], a[i]+b[i])
		}
	}

	// y = 0.5·x + y in double precision, through the template's instantiation
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64(i), 1
	}
	dx, err := cuda.AllocFrom(ctx, x)
	sample.Check(err)
	dy, err := cuda.AllocFrom(ctx, y)
	sample.Check(err)
	sample.Check(k.AxpyDouble(cuda.ForN(n, 256), 0.5, dx, dy, n))
	sample.Check(dy.CopyTo(y))
	for i := range y {
		if want := 0.5*float64(i) + 1; y[i] != want {
			log.Fatalf("axpy<double>: y[%d] = %v, want %v: Result = FAIL", i, y[i], want)
		}
	}
	fmt.Println("Result = PASS")
}
