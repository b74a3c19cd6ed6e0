// Command streamOrderedAllocation is NVIDIA's cuda-samples
// streamOrderedAllocation (Samples/2_Concepts_and_Techniques/
// streamOrderedAllocation) in Go with the layer, package cuda. It adds two
// vectors of 1,048,576 floats on a non-blocking stream whose buffers are
// allocated and freed in stream order (cuda.AllocAsync and Buffer.Close,
// cuMemAllocAsync and cuMemFreeAsync), twice:
//
//   - basicStreamOrderedAllocation: once, with the default pool's
//     settings;
//   - streamOrderedAllocationPostSync: 20 times, synchronising the stream
//     after each, with the default pool's release threshold raised to the
//     maximum so that the synchronisations keep the freed memory in the
//     pool; it prints the time of the 20 iterations between two events.
//
// It prints what the sample prints, and exits with status 1 when a result
// is wrong (the sample's relative error norm, at least 1e-6).
//
// What differs from the C++ sample:
//   - The kernel is compiled at run time with NVRTC (Context.ModuleFromSource)
//     and launched with Kernel.Launch, which checks its arguments.
//   - The calls are the driver API's through the layer, not the runtime
//     API's; the copies from and to Go slices (pageable memory, as the
//     sample's malloc'ed vectors) are Buffer.CopyFromAsync and
//     CopyToAsync, which keep the slices pinned in place until the stream
//     has passed them.
//   - It uses device 0 and takes no -device flag; the inputs are glibc's
//     rand() as the sample's (sample.CRand), so the same numbers.
//   - The host result vector is zeroed between the two functions, so the
//     second check cannot pass on the first function's result.
//
// It needs an NVIDIA GPU, its driver and NVRTC 13 (libnvrtc.so.13; or set
// CUGEN_LIBNVRTC):
//
//	go run ./examples/streamOrderedAllocation
//
// The C++ original, for comparison (from a cuda-samples checkout):
//
//	nvcc -O2 -I Common -o streamOrderedAllocation Samples/2_Concepts_and_Techniques/streamOrderedAllocation/streamOrderedAllocation.cu
package main

import (
	"fmt"
	"math"
	"os"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/examples/internal/sample"
)

const maxIter = 20

const source = `
extern "C" __global__ void vectorAddGPU(const float *a, const float *b, float *c, int N) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) {
        c[idx] = a[idx] + b[idx];
    }
}`

// vecAdd is one round of both functions: allocate on s, copy a and b in,
// add, free the inputs, copy c out, free c, all queued on s.
func vecAdd(s *cuda.Stream, k *cuda.Kernel, a, b, c []float32) error {
	n := len(a)
	da, err := cuda.AllocAsync[float32](s, n)
	if err != nil {
		return err
	}
	db, err := cuda.AllocAsync[float32](s, n)
	if err != nil {
		return err
	}
	dc, err := cuda.AllocAsync[float32](s, n)
	if err != nil {
		return err
	}
	if err := da.CopyFromAsync(s, a); err != nil {
		return err
	}
	if err := db.CopyFromAsync(s, b); err != nil {
		return err
	}
	if err := k.Launch(cuda.ForN(n, 256).On(s), da, db, dc, int32(n)); err != nil {
		return err
	}
	if err := da.Close(); err != nil { // cudaFreeAsync: after the kernel, in stream order
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	if err := dc.CopyToAsync(s, c); err != nil {
		return err
	}
	return dc.Close()
}

// check is the sample's comparison: the relative L2 norm of the error, in
// float as the sample computes it.
func check(a, b, c []float32) bool {
	fmt.Printf("> Checking the results from vectorAddGPU() ...\n")
	var errorNorm, refNorm float32
	for n := range a {
		ref := a[n] + b[n]
		diff := c[n] - ref
		errorNorm += diff * diff
		refNorm += ref * ref
	}
	errorNorm = float32(math.Sqrt(float64(errorNorm)))
	refNorm = float32(math.Sqrt(float64(refNorm)))
	return errorNorm/refNorm < 1e-6
}

func basicStreamOrderedAllocation(ctx *cuda.Context, k *cuda.Kernel, a, b, c []float32) bool {
	fmt.Printf("Starting basicStreamOrderedAllocation()\n")
	s, err := ctx.NewNonBlockingStream()
	sample.Check(err)
	defer s.Close()
	sample.Check(vecAdd(s, k, a, b, c))
	sample.Check(s.Synchronize())
	ok := check(a, b, c)
	if ok {
		fmt.Printf("basicStreamOrderedAllocation PASSED\n")
	}
	return ok
}

func streamOrderedAllocationPostSync(ctx *cuda.Context, k *cuda.Kernel, a, b, c []float32) bool {
	fmt.Printf("Starting streamOrderedAllocationPostSync()\n")
	s, err := ctx.NewNonBlockingStream()
	sample.Check(err)
	defer s.Close()
	start, err := ctx.NewEvent()
	sample.Check(err)
	defer start.Close()
	end, err := ctx.NewEvent()
	sample.Check(err)
	defer end.Close()
	pool, err := ctx.DefaultMemPool()
	sample.Check(err)
	defer pool.Close()
	// A high release threshold: the synchronisations do not give the
	// pool's memory back to the system (the default threshold, 0, does).
	sample.Check(pool.SetReleaseThreshold(math.MaxUint64))

	sample.Check(start.Record(s))
	for range maxIter {
		sample.Check(vecAdd(s, k, a, b, c))
		sample.Check(s.Synchronize())
	}
	sample.Check(end.Record(s))
	sample.Check(end.Synchronize())
	elapsed, err := cuda.Elapsed(start, end)
	sample.Check(err)
	fmt.Printf("Total elapsed time = %f ms over %d iterations\n", float64(elapsed.Nanoseconds())/1e6, maxIter)
	ok := check(a, b, c)
	if ok {
		fmt.Printf("streamOrderedAllocationPostSync PASSED\n")
	}
	return ok
}

func main() {
	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	dev := ctx.Device()
	major, minor, err := dev.ComputeCapability()
	sample.Check(err)
	fmt.Printf("GPU Device %d: %q with compute capability %d.%d\n\n", dev.Ordinal(), sample.ArchName(int32(major), int32(minor)), major, minor)
	pools, err := dev.Attribute(cu.DeviceAttributeMemoryPoolsSupported)
	sample.Check(err)
	if pools == 0 {
		fmt.Printf("Waiving execution as device does not support Memory Pools\n")
		os.Exit(2) // EXIT_WAIVED
	}
	mod, err := ctx.ModuleFromSource(cuda.Source{Code: source})
	sample.Check(err)
	defer mod.Close()
	k, err := mod.Kernel("vectorAddGPU")
	sample.Check(err)

	const nelem = 1048576
	a, b, c := make([]float32, nelem), make([]float32, nelem), make([]float32, nelem)
	r := sample.NewCRand(1)
	for n := range nelem {
		a[n] = r.Float32()
		b[n] = r.Float32()
	}
	ok1 := basicStreamOrderedAllocation(ctx, k, a, b, c)
	clear(c) // the second function's result must be its own
	ok2 := streamOrderedAllocationPostSync(ctx, k, a, b, c)
	if !ok1 || !ok2 {
		os.Exit(1)
	}
}
