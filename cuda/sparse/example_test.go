// The Example prints what the GPU computes: TestMain leaves it out where
// no GPU or library is (cugentest.RunExamplesOnGPU; see package cuda's).

package sparse_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sparse"
	"github.com/cugen/cugen/cuda/sys/cusparse"
	"github.com/cugen/cugen/cugentest"
)

func TestMain(m *testing.M) {
	os.Exit(cugentest.RunExamplesOnGPU(m, cuda.DeviceCount, cusparse.SharedLibrary()))
}

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
