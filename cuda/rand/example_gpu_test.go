//go:build gpuexamples

// Examples that need a GPU: built with the gpuexamples tag only (see
// package cuda's example_gpu_test.go).

package rand_test

import (
	"fmt"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/rand"
)

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
