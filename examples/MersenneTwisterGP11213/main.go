// Command MersenneTwisterGP11213 is NVIDIA's cuda-samples
// MersenneTwisterGP11213 (Samples/4_CUDA_Libraries/MersenneTwisterGP11213)
// in Go on the layer's rand package (cuda/rand): it
// makes 2,400,000 uniform numbers with cuRAND's MTGP32 generator on the
// GPU and with the same generator on the CPU (a host generator), both
// seeded 777, and compares them (the
// L1 norm of the difference relative to the CPU's must be below 1e-6);
// then it times ten generations on the GPU. It prints what the sample
// prints and exits with status 1 when the two sequences differ.
//
// What differs from the C++ sample:
//   - The generators are rand.Generator (curandCreateGenerator, bound to
//     a non-blocking stream as the sample's) and rand.HostGenerator
//     (curandCreateGeneratorHost); the buffers are cuda.Buffer and
//     cuda.HostBuffer (cudaMallocHost in the sample, cuMemHostAlloc here).
//   - The timing is Go's clock around the ten calls and the stream's
//     synchronisation, as the sample's StopWatch.
//   - Flags are Go's: -count N and -seed S (the sample's --count=N and
//     --seed=S work too). The device is 0 (see
//     examples/internal/sample.FindCudaDevice).
//
// It needs an NVIDIA GPU and cuRAND (libcurand.so.10, CUDA 12 or 13).
//
// The sample's own build, from its directory in cuda-samples (with
// Common/ on the include path):
//
//	nvcc -O2 -I../../../Common -o MersenneTwisterGP11213 MersenneTwister.cpp -lcurand
//
// This port:
//
//	go run ./examples/MersenneTwisterGP11213 [-count 2400000] [-seed 777]
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"time"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/rand"
	"github.com/cugen/cugen/examples/internal/sample"
)

func main() {
	count := flag.Int("count", 2400000, "random numbers to generate")
	seed := flag.Int("seed", 777, "the generators' seed")
	flag.Parse()
	if *count <= 0 {
		log.Fatalf("-count %d: want a positive count", *count)
	}
	fmt.Printf("%s Starting...\n\n", os.Args[0])
	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	major, minor, err := ctx.Device().ComputeCapability()
	sample.Check(err)
	fmt.Printf("GPU Device %d: %q with compute capability %d.%d\n\n", 0, sample.ArchName(int32(major), int32(minor)), major, minor)

	n := *count
	fmt.Printf("Allocating data for %d samples...\n", n)
	fmt.Printf("Seeding with %d ...\n", *seed)
	s, err := ctx.NewNonBlockingStream()
	sample.Check(err)
	defer s.Close()
	dRand, err := cuda.Alloc[float32](ctx, n)
	sample.Check(err)
	defer dRand.Close()

	gpu, err := rand.New(ctx, s, rand.MTGP32)
	sample.Check(err)
	defer gpu.Close()
	sample.Check(gpu.SetSeed(uint64(*seed)))
	cpu, err := rand.NewHost(rand.MTGP32)
	sample.Check(err)
	defer cpu.Close()
	sample.Check(cpu.SetSeed(uint64(*seed)))

	// Example 1: the GPU's numbers against the CPU's.
	hRandGPU, err := cuda.AllocHost[float32](ctx, n)
	sample.Check(err)
	defer hRandGPU.Close()
	fmt.Printf("Generating random numbers on GPU...\n\n")
	sample.Check(rand.Uniform(gpu, dRand))
	fmt.Printf("\nReading back the results...\n")
	sample.Check(dRand.CopyToHostAsync(s, hRandGPU))
	hRandCPU := make([]float32, n)
	fmt.Printf("Generating random numbers on CPU...\n\n")
	sample.Check(rand.UniformHost(cpu, hRandCPU))
	sample.Check(s.Synchronize())
	fmt.Printf("Comparing CPU/GPU random numbers...\n\n")
	l1 := compareResults(hRandGPU.Slice(), hRandCPU)

	// Example 2: the GPU's generation timed.
	const iterations = 10
	t0 := time.Now()
	for range iterations {
		sample.Check(rand.Uniform(gpu, dRand))
	}
	sample.Check(s.Synchronize())
	gpuTime := time.Since(t0).Seconds() / iterations
	fmt.Printf("MersenneTwisterGP11213, Throughput = %.4f GNumbers/s, Time = %.5f s, Size = %d Numbers\n", 1e-9*float64(n)/gpuTime, gpuTime, n)
	fmt.Println("Shutting down...")
	if !(l1 < 1e-6) {
		os.Exit(1)
	}
}

// compareResults prints and returns the sample's comparison: the largest
// absolute difference, and the L1 norm of the differences relative to the
// CPU's numbers (sums in float32, as the sample's).
func compareResults(gpu, cpu []float32) float32 {
	var maxDelta, sumDelta, sumRef float32
	for i := range cpu {
		delta := float32(math.Abs(float64(cpu[i] - gpu[i])))
		sumDelta += delta
		sumRef += float32(math.Abs(float64(cpu[i])))
		maxDelta = max(maxDelta, delta)
	}
	l1 := sumDelta / sumRef
	fmt.Printf("Max absolute error: %E\n", maxDelta)
	fmt.Printf("L1 norm: %E\n\n", l1)
	return l1
}
