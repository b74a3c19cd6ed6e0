// Command simpleTexture is NVIDIA's cuda-samples simpleTexture
// (Samples/0_Introduction/simpleTexture) in Go with the layer, package
// cuda: it rotates a 512 × 512 image by 0.5 radians on the GPU, each thread
// sampling a texture over a CUDA array with bilinear filtering at
// normalized coordinates, wrapping at the edges; then it checks the result
// and prints what the sample prints, "simpleTexture completed, returned
// OK" (exit status 0) or "... ERROR!" (exit status 1).
//
// What differs from the C++ sample:
//   - The image is made here (examples/internal/sample.RingImage: rings
//     over a checkerboard, values in [0, 1]) instead of read from the
//     sample's teapot512.pgm, and the reference is computed here too: the
//     same rotation in Go, sampled with the texture unit's bilinear
//     filtering (sample.BilinearWrap: weights in 8-bit fixed point,
//     wrapped indices). Every pixel must be within the sample's MAX_EPSILON_ERROR
//     (5e-3) of it; the sample compares an 8-bit PGM of its output with
//     ref_rotated.pgm and lets 15% of the pixels differ by more.
//   - The kernel is the sample's transformKernel compiled at run time by
//     NVRTC (extern "C", no other change); the array, texture and launch
//     go through the layer: cuda.AllocArray, Array.Texture, Kernel.Launch
//     with the *cuda.Texture as the cudaTextureObject_t argument.
//   - The time is measured with CUDA events around the second launch,
//     where the sample uses a host timer around the launch and a
//     cudaDeviceSynchronize.
//   - -o FILE writes the rotated image as a PGM (the sample always writes
//     teapot512_out.pgm).
//   - It uses device 0.
//
// It needs an NVIDIA GPU, its driver and NVRTC 13 (libnvrtc.so.13; or set
// CUGEN_LIBNVRTC):
//
//	go run ./examples/simpleTexture
//
// c/simpleTexture.cu is the same program (same image, kernel, reference
// and output) in CUDA C++ with the runtime API, to run beside it:
//
//	nvcc -O2 -o simpleTexture c/simpleTexture.cu && ./simpleTexture
//
// The original, from a cuda-samples checkout, runs from its directory so
// that it finds its data/:
//
//	cd Samples/0_Introduction/simpleTexture
//	nvcc -O2 -I../../../Common -o simpleTexture simpleTexture.cu && ./simpleTexture
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/examples/internal/sample"
)

const (
	sampleName      = "simpleTexture"
	angle           = 0.5 // radians
	maxEpsilonError = 5e-3
	width, height   = 512, 512
)

// source is the sample's transformKernel.
const source = `
extern "C" __global__ void transformKernel(float *outputData, int width, int height, float theta, cudaTextureObject_t tex)
{
    // calculate normalized texture coordinates
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;

    float u  = (float)x - (float)width / 2;
    float v  = (float)y - (float)height / 2;
    float tu = u * cosf(theta) - v * sinf(theta);
    float tv = v * cosf(theta) + u * sinf(theta);

    tu /= (float)width;
    tv /= (float)height;

    // read from texture and write to global memory
    outputData[y * width + x] = tex2D<float>(tex, tu + 0.5f, tv + 0.5f);
}
`

func main() {
	out := flag.String("o", "", "write the rotated image to this PGM file")
	flag.Parse()
	fmt.Printf("%s starting...\n", sampleName)
	ok := run(*out)
	result := "OK"
	if !ok {
		result = "ERROR!"
	}
	fmt.Printf("%s completed, returned %s\n", sampleName, result)
	if !ok {
		os.Exit(1)
	}
}

func run(outFile string) bool {
	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	major, minor, err := ctx.Device().ComputeCapability()
	sample.Check(err)
	fmt.Printf("GPU Device 0: %q with compute capability %d.%d\n\n", sample.ArchName(int32(major), int32(minor)), major, minor)

	hData := sample.RingImage(width, height)
	fmt.Printf("Generated 'rings', %d x %d pixels\n", width, height)

	mod, err := ctx.ModuleFromSource(cuda.Source{Code: source})
	sample.Check(err)
	defer mod.Close()
	transform, err := mod.Kernel("transformKernel")
	sample.Check(err)

	dData, err := cuda.Alloc[float32](ctx, width*height)
	sample.Check(err)
	defer dData.Close()

	// The array and its texture: float elements, bilinear filtering at
	// normalized coordinates, wrapping in x and y.
	arr, err := cuda.AllocArray[float32](ctx, cuda.ArrayDesc{Width: width, Height: height})
	sample.Check(err)
	defer arr.Close()
	sample.Check(arr.CopyFrom(hData))
	tex, err := arr.Texture(cuda.TextureOptions{
		Address:          [3]cuda.AddressMode{cuda.AddressWrap, cuda.AddressWrap},
		Filter:           cuda.FilterLinear,
		NormalizedCoords: true,
	})
	sample.Check(err)
	defer tex.Close()

	cfg := cuda.Config{
		Grid:  cuda.Dim3{X: width / 8, Y: height / 8, Z: 1},
		Block: cuda.Dim3{X: 8, Y: 8, Z: 1},
	}
	args := []any{dData, int32(width), int32(height), float32(angle), tex}
	// Warmup
	sample.Check(transform.Launch(cfg, args...))
	sample.Check(ctx.Synchronize())

	stream, err := ctx.DefaultStream()
	sample.Check(err)
	start, err := ctx.NewEvent()
	sample.Check(err)
	defer start.Close()
	stop, err := ctx.NewEvent()
	sample.Check(err)
	defer stop.Close()
	sample.Check(start.Record(stream))
	sample.Check(transform.Launch(cfg, args...))
	sample.Check(stop.Record(stream))
	sample.Check(stop.Synchronize())
	d, err := cuda.Elapsed(start, stop)
	sample.Check(err)
	ms := float64(d) / float64(time.Millisecond)
	fmt.Printf("Processing time: %f (ms)\n", ms)
	fmt.Printf("%.2f Mpixels/sec\n", width*height/(ms/1000)/1e6)

	hOutputData := make([]float32, width*height)
	sample.Check(dData.CopyTo(hOutputData))
	if outFile != "" {
		if err := sample.WritePGM(outFile, hOutputData, width, height); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return false
		}
		fmt.Printf("Wrote '%s'\n", outFile)
	}

	fmt.Println("Comparing with the Go reference (bilinear, wrap, 8-bit weights)")
	return sample.CompareImages(hOutputData, rotate(hData, width, height, angle), maxEpsilonError)
}

// rotate is transformKernel on the host: each output pixel samples the
// image, rotated by theta about its centre, with sample.BilinearWrap.
func rotate(img []float32, w, h int, theta float32) []float32 {
	out := make([]float32, w*h)
	c, s := float32(math.Cos(float64(theta))), float32(math.Sin(float64(theta)))
	for y := range h {
		for x := range w {
			u := float32(x) - float32(w)/2
			v := float32(y) - float32(h)/2
			tu := u*c - v*s
			tv := v*c + u*s
			tu /= float32(w)
			tv /= float32(h)
			out[y*w+x] = sample.BilinearWrap(img, w, h, tu+0.5, tv+0.5)
		}
	}
	return out
}
