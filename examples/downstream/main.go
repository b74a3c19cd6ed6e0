package main

import (
	"errors"
	"fmt"
	"log"
	"runtime"

	"example.com/downstream/cuda/cu"
	"example.com/downstream/cuda/cuda"
	"example.com/downstream/cuda/cudart"
)

// src is a kernel compiled at run time with NVRTC through the layer.
const src = `extern "C" __global__ void vecAdd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}`

func main() {
	runtime.LockOSThread()
	v, err := cu.DriverGetVersion()
	check(err)
	fmt.Printf("CUDA driver API %d.%d, bindings generated from CUDA %d.%d headers\n",
		v/1000, v%1000/10, cudart.HeaderVersion/1000, cudart.HeaderVersion%1000/10)
	n, err := cudart.GetDeviceCount()
	if errors.Is(err, cudart.ErrorNoDevice) {
		n, err = 0, nil
	}
	check(err)
	fmt.Printf("%d CUDA device(s)\n", n)
	if n == 0 {
		return
	}
	sum, err := vecAdd(3)
	check(err)
	fmt.Println("vecAdd on device 0:", sum)
}

// vecAdd adds a[i] = i and b[i] = 2i on device 0 with the layer and
// returns c[k].
func vecAdd(k int) (float32, error) {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		return 0, err
	}
	defer ctx.Close()
	mod, err := ctx.ModuleFromSource(cuda.Source{Code: src})
	if err != nil {
		return 0, err
	}
	kernel, err := mod.Kernel("vecAdd")
	if err != nil {
		return 0, err
	}
	const n = 1000
	a, b, c := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), float32(2*i)
	}
	da, err := cuda.AllocFrom(ctx, a)
	if err != nil {
		return 0, err
	}
	db, err := cuda.AllocFrom(ctx, b)
	if err != nil {
		return 0, err
	}
	dc, err := cuda.Alloc[float32](ctx, n)
	if err != nil {
		return 0, err
	}
	if err := kernel.Launch(cuda.ForN(n, 256), da, db, dc, int32(n)); err != nil {
		return 0, err
	}
	if err := dc.CopyTo(c); err != nil {
		return 0, err
	}
	return c[k], nil
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
