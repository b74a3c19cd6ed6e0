// Command vectorAddRTC adds two vectors on the GPU from CUDA C++ source
// compiled at run time (NVRTC) with the Go layer, package cuda. It needs an
// NVIDIA GPU, its driver and NVRTC 13 (libnvrtc.so.13; or set
// CUGEN_LIBNVRTC):
//
//	go run ./examples/vectorAddRTC
package main

import (
	"fmt"
	"log"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/examples/internal/sample"
)

const source = `
extern "C" __global__ void vecAdd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}`

func main() {
	const n = 50000
	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	mod, err := ctx.ModuleFromSource(cuda.Source{Code: source}) // for this GPU's arch
	sample.Check(err)
	vecAdd, err := mod.Kernel("vecAdd")
	sample.Check(err)

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
	sample.Check(vecAdd.Launch(cuda.ForN(n, 256), da, db, dc, int32(n)))
	sample.Check(dc.CopyTo(c))

	for i := range c {
		if c[i] != a[i]+b[i] {
			log.Fatalf("c[%d] = %v, want %v: Result = FAIL", i, c[i], a[i]+b[i])
		}
	}
	fmt.Println("Result = PASS")
}
