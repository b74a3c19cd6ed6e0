//go:build gpuexamples

// Examples that need a GPU: built with the gpuexamples tag only (see
// package cuda's example_gpu_test.go).

package sparse_test

import (
	"fmt"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sparse"
)

func ExampleSpMV() {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	s, err := ctx.NewStream()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	h, err := sparse.NewHandle(ctx, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	// A = [[0 2] [3 0]] in CSR: row i's values are at rowPtr[i]:rowPtr[i+1].
	a, err := sparse.NewCSR(ctx, 2, 2, []int32{0, 1, 2}, []int32{1, 0}, []float32{2, 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer a.Close()
	xb, _ := cuda.AllocFrom(ctx, []float32{1, 10})
	yb, err := cuda.Alloc[float32](ctx, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer xb.Close()
	defer yb.Close()
	x, _ := sparse.NewVec(xb)
	y, err := sparse.NewVec(yb)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer x.Close()
	defer y.Close()
	// y = 1·A·x + 0·y
	if err := sparse.SpMV(h, sparse.NoTrans, 1, a, x, 0, y); err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float32, 2)
	if err := yb.CopyToAsync(s, out); err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output: [20 3]
}
