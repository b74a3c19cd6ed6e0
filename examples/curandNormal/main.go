// Command curandNormal generates 10^9 normally distributed floats (mean 0,
// standard deviation 1) with cuRAND's default pseudo-random generator and
// a fixed seed, times the generation, and checks the sample's mean and
// variance, summed in float64 on the host from chunks copied back. The C
// program in c/ makes the same calls in the same order and prints the same
// lines; with the same seed both print the same numbers.
//
//	go run ./examples/curandNormal [-n 1000000000] [-reps 10]
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/curand"
	"github.com/cugen/cugen/examples/internal/sample"
	"github.com/cugen/cugen/ffi"
)

func main() {
	n := flag.Int("n", 1e9, "count of normal floats (even: the generator makes them in pairs)")
	reps := flag.Int("reps", 10, "timed generations")
	flag.Parse()
	N := *n
	if N <= 0 || N%2 != 0 || *reps <= 0 {
		log.Fatalf("-n %d -reps %d: want a positive even count and at least one repetition", N, *reps)
	}

	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	name, _ := ctx.Device().Name()
	fmt.Printf("device 0: %s\n", name)

	buf, err := cuda.Alloc[float32](ctx, N)
	sample.Check(err)
	defer buf.Close()

	// cuRAND calls run with the context current on a locked thread.
	sample.Check(ctx.Do(func() error {
		var gen curand.Generator
		if gen, err = curand.CreateGenerator(curand.RngPseudoDefault); err != nil {
			return err
		}
		defer curand.DestroyGenerator(gen)
		if err := curand.SetPseudoRandomGeneratorSeed(gen, 1234); err != nil {
			return err
		}
		out := ffi.Device(ffi.DevicePtr[float32](buf.Ptr()))
		ms, err := sample.Timed(*reps, func() error {
			return curand.GenerateNormal(gen, out, uint64(N), 0, 1)
		})
		if err != nil {
			return err
		}
		fmt.Printf("%d normal floats: %8.3f ms per generation, %7.2f Gsamples/s\n", N, ms, float64(N)/ms/1e6)
		return nil
	}))

	// The mean and variance of the last generation, in float64 on the host.
	first := make([]float32, 2)
	sample.Check(buf.Slice(0, 2).CopyTo(first))
	fmt.Printf("first values: %.6f %.6f\n", first[0], first[1])
	var sum, sumSq float64
	chunk := make([]float32, min(N, 1<<24))
	for i := 0; i < N; i += len(chunk) {
		part := chunk[:min(len(chunk), N-i)]
		sample.Check(buf.Slice(i, i+len(part)).CopyTo(part))
		for _, v := range part {
			sum += float64(v)
			sumSq += float64(v) * float64(v)
		}
	}
	mean := sum / float64(N)
	variance := sumSq/float64(N) - mean*mean
	// 1e-3, or five standard errors of the variance for a small -n.
	tol := max(1e-3, 5*math.Sqrt(2/float64(N)))
	fmt.Printf("mean %.6f, variance %.6f (tolerance %.0e)\n", mean, variance, tol)
	if math.Abs(mean) >= tol || math.Abs(variance-1) >= tol {
		fmt.Println("mean or variance out of tolerance: Result = FAIL")
		os.Exit(1)
	}
	fmt.Println("Result = PASS")
}
