// Command reductionMultiBlockCG is NVIDIA's cuda-samples
// reductionMultiBlockCG (Samples/2_Concepts_and_Techniques/
// reductionMultiBlockCG) in Go with the layer, package cuda: a sum of
// 2^25 floats in one kernel launch, whose blocks each reduce a stretch of
// the input and then wait for one another (cooperative groups'
// grid.sync()) before the first thread adds the blocks' sums. That needs
// a cooperative launch, every block resident at once: here
// cuda.Config{Cooperative: true} (cuLaunchKernelEx with
// CU_LAUNCH_ATTRIBUTE_COOPERATIVE), with as many blocks as the occupancy
// calculator says fit the device.
//
// It prints what the sample prints and exits with status 1 when the GPU's
// sum differs from the host's (Kahan) sum by 1e-8 times the element count
// or more, as the sample decides.
//
// What differs from the C++ sample:
//   - The kernel is the sample's, compiled at run time with NVRTC; NVRTC
//     needs the CUDA toolkit's headers for cooperative_groups.h, found in
//     $CUDA_HOME/include, $CUDA_PATH/include or /usr/local/cuda/include
//     (with include/cccl, where CUDA 13 keeps what cooperative_groups.h
//     includes).
//   - The block size and grid come from Kernel.SuggestBlockSize and
//     Kernel.MaxActiveBlocksPerSM (cuOccupancyMaxPotentialBlockSize,
//     cuOccupancyMaxActiveBlocksPerMultiprocessor), as the sample's
//     cudaOccupancy calls; the launch is Kernel.Launch, not
//     cudaLaunchCooperativeKernel.
//   - The time is measured with Go's clock around each launch and
//     Context.Synchronize, as the sample's stopwatch around the launch and
//     cudaDeviceSynchronize.
//   - It uses device 0 and takes no flags (-n, -threads, -maxblocks); the
//     input is glibc's rand() as the sample's (sample.CRand).
//
// It needs an NVIDIA GPU, its driver, NVRTC 13 and the toolkit's headers:
//
//	go run ./examples/reductionMultiBlockCG
//
// The C++ original, for comparison (from a cuda-samples checkout):
//
//	nvcc -O2 -I Common -o reductionMultiBlockCG Samples/2_Concepts_and_Techniques/reductionMultiBlockCG/reductionMultiBlockCG.cu
package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/examples/internal/sample"
)

const source = `
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ void reduceBlock(double *sdata, const cg::thread_block &cta)
{
    const unsigned int        tid    = cta.thread_rank();
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);

    sdata[tid] = cg::reduce(tile32, sdata[tid], cg::plus<double>());
    cg::sync(cta);

    double beta = 0.0;
    if (cta.thread_rank() == 0) {
        beta = 0;
        for (int i = 0; i < blockDim.x; i += tile32.size()) {
            beta += sdata[i];
        }
        sdata[0] = beta;
    }
    cg::sync(cta);
}

extern "C" __global__ void reduceSinglePassMultiBlockCG(const float *g_idata, float *g_odata, unsigned int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::grid_group   grid  = cg::this_grid();

    extern double __shared__ sdata[];

    sdata[block.thread_rank()] = 0;

    for (int i = grid.thread_rank(); i < n; i += grid.size()) {
        sdata[block.thread_rank()] += g_idata[i];
    }

    cg::sync(block);

    reduceBlock(sdata, block);
    if (block.thread_rank() == 0) {
        g_odata[blockIdx.x] = sdata[0];
    }
    cg::sync(grid);

    if (grid.thread_rank() == 0) {
        for (int block = 1; block < gridDim.x; block++) {
            g_odata[0] += g_odata[block];
        }
    }
}`

// toolkitIncludes returns the -I options for cooperative_groups.h.
func toolkitIncludes() ([]string, error) {
	for _, d := range []string{os.Getenv("CUDA_HOME"), os.Getenv("CUDA_PATH"), "/usr/local/cuda"} {
		if d == "" {
			continue
		}
		inc := filepath.Join(d, "include")
		if _, err := os.Stat(filepath.Join(inc, "cooperative_groups.h")); err != nil {
			continue
		}
		opts := []string{"-I" + inc}
		if st, err := os.Stat(filepath.Join(inc, "cccl")); err == nil && st.IsDir() {
			opts = append(opts, "-I"+filepath.Join(inc, "cccl"))
		}
		return opts, nil
	}
	return nil, fmt.Errorf("no CUDA toolkit include directory with cooperative_groups.h (set CUDA_HOME)")
}

// reduceCPU is the sample's host sum: Kahan's compensated summation in
// float.
func reduceCPU(data []float32) float32 {
	sum := data[0]
	var c float32
	for _, v := range data[1:] {
		y := v - c
		t := sum + y
		c = (t - sum) - y
		sum = t
	}
	return sum
}

func main() {
	const sampleName = "reductionMultiBlockCG"
	fmt.Printf("%s Starting...\n\n", sampleName)
	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	dev := ctx.Device()
	prop, err := dev.Properties()
	sample.Check(err)
	fmt.Printf("GPU Device %d: %q with compute capability %d.%d\n\n", dev.Ordinal(),
		sample.ArchName(int32(prop.ComputeCapabilityMajor), int32(prop.ComputeCapabilityMinor)),
		prop.ComputeCapabilityMajor, prop.ComputeCapabilityMinor)
	if !prop.CooperativeLaunch {
		fmt.Printf("\nSelected GPU (%d) does not support Cooperative Kernel Launch, Waiving the run\n", dev.Ordinal())
		os.Exit(2) // EXIT_WAIVED
	}
	if !runTest(ctx, prop) {
		os.Exit(1)
	}
}

func runTest(ctx *cuda.Context, prop cuda.DeviceProperties) bool {
	const size = 1 << 25
	fmt.Printf("%d elements\n", size)
	h := make([]float32, size)
	r := sample.NewCRand(1)
	for i := range h {
		h[i] = float32(r.Int()&0xFF) / float32(sample.RandMax)
	}

	inc, err := toolkitIncludes()
	sample.Check(err)
	mod, err := ctx.ModuleFromSource(cuda.Source{Code: source, Options: inc})
	sample.Check(err)
	defer mod.Close()
	k, err := mod.Kernel("reduceSinglePassMultiBlockCG")
	sample.Check(err)

	maxBlocks := prop.MultiprocessorCount * (prop.MaxThreadsPerMultiprocessor / prop.MaxThreadsPerBlock)
	numThreads, numBlocks, err := k.SuggestBlockSize(0, 0)
	sample.Check(err)
	numBlocks = min(maxBlocks, numBlocks)
	perSM, err := k.MaxActiveBlocksPerSM(numThreads, numThreads*8)
	sample.Check(err)
	numBlocks = min(numBlocks, perSM*prop.MultiprocessorCount)
	fmt.Printf("numThreads: %d\n", numThreads)
	fmt.Printf("numBlocks: %d\n", numBlocks)

	din, err := cuda.AllocFrom(ctx, h)
	sample.Check(err)
	defer din.Close()
	dout, err := cuda.AllocFrom(ctx, h[:numBlocks]) // as the sample, which copies the input's first numBlocks
	sample.Check(err)
	defer dout.Close()

	cfg := cuda.Config{
		Grid:        cuda.Dim3{X: uint32(numBlocks)},
		Block:       cuda.Dim3{X: uint32(numThreads)},
		SharedMem:   uint32(numThreads * 8), // a double per thread
		Cooperative: true,
	}
	const testIterations = 100
	fmt.Printf("\nLaunching %s kernel\n", "SinglePass Multi Block Cooperative Groups")
	var total time.Duration
	for range testIterations {
		t0 := time.Now()
		sample.Check(k.Launch(cfg, din, dout, uint32(size)))
		sample.Check(ctx.Synchronize())
		total += time.Since(t0)
	}
	got := make([]float32, 1)
	sample.Check(dout.Slice(0, 1).CopyTo(got))
	gpuResult := got[0]

	reduceTime := float64(total.Nanoseconds()) / 1e6 / testIterations
	fmt.Printf("Average time: %f ms\n", reduceTime)
	fmt.Printf("Bandwidth:    %f GB/s\n\n", float64(size*4)/(reduceTime*1.0e6))

	cpuResult := reduceCPU(h)
	fmt.Printf("GPU result = %0.12f\n", gpuResult)
	fmt.Printf("CPU result = %0.12f\n", cpuResult)
	diff := math.Abs(float64(gpuResult) - float64(cpuResult))
	return diff < 1e-8*size
}
