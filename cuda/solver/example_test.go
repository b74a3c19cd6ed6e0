// The Example prints what the GPU computes: TestMain leaves it out where
// no GPU or library is (cugentest.RunExamplesOnGPU; see package cuda's).

package solver_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/solver"
	"github.com/cugen/cugen/cuda/sys/cusolver"
	"github.com/cugen/cugen/cugentest"
)

func TestMain(m *testing.M) {
	os.Exit(cugentest.RunExamplesOnGPU(m, cuda.DeviceCount, cusolver.SharedLibrary()))
}

func ExamplePotrs() {
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
	h, err := solver.NewHandle(ctx, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	// Solve A·x = b for the symmetric positive definite A = [[4 2] [2 3]]
	// (column-major, as cuSOLVER keeps matrices) and b = [8 8].
	ab, _ := cuda.AllocFrom(ctx, []float64{4, 2, 2, 3})
	bb, err := cuda.AllocFrom(ctx, []float64{8, 8})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ab.Close()
	defer bb.Close()
	A, B := solver.NewMatrix(ab, 2, 2), solver.NewMatrix(bb, 2, 1)
	if err := solver.Potrf(h, solver.Lower, A); err != nil { // A = L·Lᵀ
		fmt.Println(err)
		return
	}
	if err := solver.Potrs(h, solver.Lower, A, B); err != nil { // B = x
		fmt.Println(err)
		return
	}
	x := make([]float64, 2)
	if err := bb.CopyTo(x); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("x = [%.3f %.3f]\n", x[0], x[1])
	// Output: x = [1.000 2.000]
}
