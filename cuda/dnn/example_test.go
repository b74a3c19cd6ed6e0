// The Example prints what the GPU computes: TestMain leaves it out where
// no GPU or library is (cugentest.RunExamplesOnGPU; see package cuda's).

package dnn_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/dnn"
	"github.com/cugen/cugen/cuda/sys/cudnn"
	"github.com/cugen/cugen/cugentest"
)

func TestMain(m *testing.M) {
	os.Exit(cugentest.RunExamplesOnGPU(m, cuda.DeviceCount, cudnn.SharedLibrary()))
}

func ExampleHandle_MatmulBiasReLU() {
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
	h, err := dnn.New(ctx, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	// Y = ReLU(A·B + bias) in half precision, one 8×8 matrix each: A the
	// identity, B[i][j] = j-4, bias 0, so Y's rows are ReLU(j-4).
	const n = 8
	plan, err := h.MatmulBiasReLU(dnn.MatmulBiasReLU{
		A: dnn.Matrix(1, dnn.Float16, 1, n, n), B: dnn.Matrix(2, dnn.Float16, 1, n, n),
		Bias: dnn.Matrix(3, dnn.Float16, 1, 1, n), Y: dnn.Matrix(4, dnn.Float16, 1, n, n),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer plan.Close()
	a, b := make([]cuda.Float16, n*n), make([]cuda.Float16, n*n)
	for i := range n {
		for j := range n {
			if i == j {
				a[i*n+j] = cuda.Float16Of(1)
			}
			b[i*n+j] = cuda.Float16Of(float32(j - 4))
		}
	}
	ab, _ := cuda.AllocFrom(ctx, a)
	bb, _ := cuda.AllocFrom(ctx, b)
	bias, _ := cuda.Alloc[cuda.Float16](ctx, n)
	y, err := cuda.Alloc[cuda.Float16](ctx, n*n)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, buf := range []*cuda.Buffer[cuda.Float16]{ab, bb, bias, y} {
		defer buf.Close()
	}
	if err := bias.Zero(); err != nil {
		fmt.Println(err)
		return
	}
	if err := plan.Execute(dnn.Bind(1, ab), dnn.Bind(2, bb), dnn.Bind(3, bias), dnn.Bind(4, y)); err != nil {
		fmt.Println(err)
		return
	}
	out := make([]cuda.Float16, n*n)
	if err := y.CopyToAsync(s, out); err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	row := make([]float32, n)
	for j, v := range out[:n] {
		row[j] = v.Float32()
	}
	fmt.Println(row)
	// Output: [0 0 0 0 0 1 2 3]
}
