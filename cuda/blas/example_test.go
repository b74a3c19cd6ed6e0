// The Example prints what the GPU computes: TestMain leaves it out where
// no GPU or library is (cugentest.RunExamplesOnGPU; see package cuda's).

package blas_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/blas"
	"github.com/cugen/cugen/cuda/sys/cublas"
	"github.com/cugen/cugen/cugentest"
)

func TestMain(m *testing.M) {
	os.Exit(cugentest.RunExamplesOnGPU(m, cuda.DeviceCount, cublas.SharedLibrary()))
}

func ExampleGemm() {
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
	h, err := blas.New(ctx, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	// Row-major 2×2 matrices, as Go slices hold them.
	a, _ := cuda.AllocFrom(ctx, []float32{1, 2, 3, 4})
	b, _ := cuda.AllocFrom(ctx, []float32{5, 6, 7, 8})
	c, err := cuda.Alloc[float32](ctx, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, buf := range []*cuda.Buffer[float32]{a, b, c} {
		defer buf.Close()
	}
	// C = 1·A·B + 0·C, queued on s.
	if err := blas.Gemm(h, blas.NoTrans, blas.NoTrans, 1, blas.Dense(a, 2, 2), blas.Dense(b, 2, 2), 0, blas.Dense(c, 2, 2)); err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float32, 4)
	if err := c.CopyToAsync(s, out); err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output: [19 22 43 50]
}
