// The Example prints what the GPU computes: TestMain leaves it out where
// no GPU or library is (cugentest.RunExamplesOnGPU; see package cuda's).

package rand_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/rand"
	"github.com/cugen/cugen/cuda/sys/curand"
	"github.com/cugen/cugen/cugentest"
)

func TestMain(m *testing.M) {
	os.Exit(cugentest.RunExamplesOnGPU(m, cuda.DeviceCount, curand.SharedLibrary()))
}

func ExampleUniform() {
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
	g, err := rand.New(ctx, s, rand.Philox)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()
	if err := g.SetSeed(1234); err != nil {
		fmt.Println(err)
		return
	}
	const n = 1 << 20
	x, err := cuda.Alloc[float32](ctx, n)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer x.Close()
	// n numbers uniform in (0, 1], generated on the device.
	if err := rand.Uniform(g, x); err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float32, n)
	if err := x.CopyToAsync(s, out); err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	sum, inRange := 0.0, true
	for _, v := range out {
		sum += float64(v)
		inRange = inRange && v > 0 && v <= 1
	}
	fmt.Printf("in (0, 1]: %v, mean %.2f\n", inRange, sum/n)
	// Output: in (0, 1]: true, mean 0.50
}
