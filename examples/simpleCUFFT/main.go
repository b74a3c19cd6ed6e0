// Command simpleCUFFT is NVIDIA's cuda-samples simpleCUFFT
// (Samples/4_CUDA_Libraries/simpleCUFFT) in Go on the layer's fft
// package (cuda/fft): a 1D convolution of a 50-point signal with an 11-point filter
// through the FFT. Both are padded to 56 points and transformed in place
// (cufftExecC2C, forward), multiplied point by point and scaled by 1/56 in
// a kernel, and the product is transformed back; the result must match
// the convolution computed on the host (relative L2 error below 1e-5,
// sdkCompareL2fe's test). It prints what the sample prints and exits with
// status 1 on a wrong result.
//
// What differs from the C++ sample:
//   - The plans are fft.Plan values: the simple one is fft.New1D
//     (cufftPlan1d in the sample), the "advanced" one fft.NewPlan
//     (cufftCreate + cufftMakePlanMany64 where the sample calls
//     cufftXtMakePlanMany with CUDA_C_32F: the same single-precision C2C
//     plan), whose work area size is the "Temporary buffer size" line.
//   - The kernel ComplexPointwiseMulAndScale is the sample's, compiled at
//     run time with NVRTC (Context.ModuleFromSource) where the sample
//     compiles it with nvcc; it runs on the same grid, 32 blocks of 256
//     threads, on the legacy default stream as the sample's transforms.
//   - The inputs are the sample's (glibc's rand(), never seeded), so the
//     numbers are the sample's; the device is 0 (see
//     examples/internal/sample.FindCudaDevice).
//
// It needs an NVIDIA GPU, CUDA 13's cuFFT (libcufft.so.12) and NVRTC
// (libnvrtc.so.13).
//
// The sample's own build, from its directory in cuda-samples (with
// Common/ on the include path):
//
//	nvcc -O2 -I../../../Common -o simpleCUFFT simpleCUFFT.cu -lcufft
//
// This port:
//
//	go run ./examples/simpleCUFFT
package main

import (
	"fmt"
	"math"
	"os"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/fft"
	"github.com/cugen/cugen/examples/internal/sample"
)

const (
	signalSize = 50
	filterSize = 11
)

// kernelSource is the sample's ComplexPointwiseMulAndScale with its
// complex helpers, for NVRTC (float2 comes with NVRTC's built-in vector
// types).
const kernelSource = `
typedef float2 Complex;

static __device__ inline Complex ComplexScale(Complex a, float s) {
	Complex c;
	c.x = s * a.x;
	c.y = s * a.y;
	return c;
}

static __device__ inline Complex ComplexMul(Complex a, Complex b) {
	Complex c;
	c.x = a.x * b.x - a.y * b.y;
	c.y = a.x * b.y + a.y * b.x;
	return c;
}

extern "C" __global__ void ComplexPointwiseMulAndScale(Complex *a, const Complex *b, int size, float scale) {
	const int numThreads = blockDim.x * gridDim.x;
	const int threadID = blockIdx.x * blockDim.x + threadIdx.x;
	for (int i = threadID; i < size; i += numThreads) {
		a[i] = ComplexScale(ComplexMul(a[i], b[i]), scale);
	}
}
`

func main() {
	fmt.Println("[simpleCUFFT] is starting...")
	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	major, minor, err := ctx.Device().ComputeCapability()
	sample.Check(err)
	fmt.Printf("GPU Device %d: %q with compute capability %d.%d\n\n", 0, sample.ArchName(int32(major), int32(minor)), major, minor)
	s, err := ctx.DefaultStream()
	sample.Check(err)

	rng := sample.NewCRand(1)
	signal := make([]complex64, signalSize)
	for i := range signal {
		signal[i] = complex(rng.Float32(), 0)
	}
	filter := make([]complex64, filterSize)
	for i := range filter {
		filter[i] = complex(rng.Float32(), 0)
	}
	paddedSignal, paddedFilter := padData(signal, filter)
	newSize := len(paddedSignal)

	dSignal, err := cuda.AllocFrom(ctx, paddedSignal)
	sample.Check(err)
	defer dSignal.Close()
	dFilter, err := cuda.AllocFrom(ctx, paddedFilter)
	sample.Check(err)
	defer dFilter.Close()

	plan, err := fft.New1D(ctx, s, newSize, fft.C2C, 1)
	sample.Check(err)
	defer plan.Close()
	planAdv, err := fft.NewPlan(ctx, s, fft.Desc{Type: fft.C2C, Dims: []int{newSize}, Batch: 1})
	sample.Check(err)
	defer planAdv.Close()
	fmt.Printf("Temporary buffer size %d bytes\n", planAdv.WorkSize())

	fmt.Println("Transforming signal cufftExecC2C")
	sample.Check(plan.C2C(dSignal, dSignal, fft.Forward))
	sample.Check(planAdv.C2C(dFilter, dFilter, fft.Forward))

	fmt.Println("Launching ComplexPointwiseMulAndScale<<< >>>")
	mod, err := ctx.ModuleFromSource(cuda.Source{Code: kernelSource, Name: "simpleCUFFT.cu"})
	sample.Check(err)
	defer mod.Close()
	mulAndScale, err := mod.Kernel("ComplexPointwiseMulAndScale")
	sample.Check(err)
	cfg := cuda.Config{Grid: cuda.Dim3{X: 32}, Block: cuda.Dim3{X: 256}, Stream: s}
	sample.Check(mulAndScale.Launch(cfg, dSignal, dFilter, int32(newSize), float32(1)/float32(newSize)))

	fmt.Println("Transforming signal back cufftExecC2C")
	sample.Check(plan.C2C(dSignal, dSignal, fft.Inverse))

	convolved := make([]complex64, newSize)
	sample.Check(s.Synchronize())
	sample.Check(dSignal.CopyTo(convolved))
	ref := convolve(signal, filter)
	if !compareL2fe(ref, convolved[:signalSize], 1e-5) {
		os.Exit(1)
	}
}

// padData pads the signal with zeros to the new size and wraps the filter
// around it (its centre at index 0), as the sample's PadData.
func padData(signal, filter []complex64) (paddedSignal, paddedFilter []complex64) {
	minRadius := len(filter) / 2
	maxRadius := len(filter) - minRadius
	newSize := len(signal) + maxRadius
	paddedSignal = make([]complex64, newSize)
	copy(paddedSignal, signal)
	paddedFilter = make([]complex64, newSize)
	copy(paddedFilter, filter[minRadius:])
	copy(paddedFilter[newSize-minRadius:], filter[:minRadius])
	return paddedSignal, paddedFilter
}

// convolve is the sample's host convolution, in float32 as the sample's.
func convolve(signal, filter []complex64) []complex64 {
	minRadius := len(filter) / 2
	maxRadius := len(filter) - minRadius
	out := make([]complex64, len(signal))
	for i := range out {
		for j := -maxRadius + 1; j <= minRadius; j++ {
			if k := i + j; k >= 0 && k < len(signal) {
				a, b := signal[k], filter[minRadius-j]
				out[i] += complex(real(a)*real(b)-imag(a)*imag(b), real(a)*imag(b)+imag(a)*real(b))
			}
		}
	}
	return out
}

// compareL2fe is sdkCompareL2fe over the real and imaginary parts: the L2
// norm of the difference relative to the reference's, below epsilon. It
// says why on a failure (the sample does in its debug build).
func compareL2fe(ref, data []complex64, epsilon float64) bool {
	var errSum, refSum float64
	for i := range ref {
		for _, d := range [2][2]float32{{real(ref[i]), real(data[i])}, {imag(ref[i]), imag(data[i])}} {
			diff := float64(d[0] - d[1])
			errSum += diff * diff
			refSum += float64(d[0]) * float64(d[0])
		}
	}
	if refSum < 1e-7 {
		fmt.Fprintln(os.Stderr, "ERROR, reference l2-norm is 0")
		return false
	}
	e := math.Sqrt(errSum) / math.Sqrt(refSum)
	if !(e < epsilon) {
		fmt.Fprintf(os.Stderr, "ERROR, l2-norm error %g is greater than epsilon %g\n", e, epsilon)
		return false
	}
	return true
}
