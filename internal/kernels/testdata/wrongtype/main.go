// Command wrongtype passes a float64 where vecAdd's kernel takes a float
// pointer's buffer and an int: it must not compile (TestWrongTypeFails).
package main

import (
	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/examples/vectorAddTyped/kernels"
)

func main() {
	ctx, _ := cuda.NewContext(0)
	k, _ := kernels.Load(ctx)
	x, _ := cuda.Alloc[float64](ctx, 4)
	_ = k.VecAdd(cuda.ForN(4, 4), x, x, x, 4)
}
