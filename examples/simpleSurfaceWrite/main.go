// Command simpleSurfaceWrite is NVIDIA's cuda-samples simpleSurfaceWrite
// (Samples/0_Introduction/simpleSurfaceWrite) in Go with the layer, package
// cuda: a kernel writes a 512 × 512 image into a CUDA array through a
// surface object, and a second kernel rotates it by 0.5 radians, sampling
// a texture over the same array (bilinear, normalized coordinates,
// wrapping). It checks the result and prints what the sample prints,
// "simpleSurfaceWrite completed, returned OK" (exit status 0) or
// "... ERROR!" (exit status 1).
//
// What differs from the C++ sample:
//   - The image is made here (examples/internal/sample.RingImage) instead
//     of read from teapot512.pgm, and the reference is computed here: the
//     sample's rotation in Go, sampled with sample.BilinearWrap (the
//     texture unit's bilinear filtering in Go). Every pixel must be within
//     the sample's MIN_EPSILON_ERROR (5e-3) of it.
//   - The kernels are the sample's, compiled at run time by NVRTC
//     (extern "C"); the array (cuda.ArrayDesc{Surface: true}), surface,
//     texture and launches go through the layer, the *cuda.Surface and
//     *cuda.Texture passed to Launch as the kernels'
//     cudaSurfaceObject_t and cudaTextureObject_t arguments.
//   - The time is measured with CUDA events around the second launch.
//   - -o FILE writes the rotated image as a PGM (the sample always writes
//     output.pgm).
//   - It uses device 0.
//
// It needs an NVIDIA GPU, its driver and NVRTC 13 (libnvrtc.so.13; or set
// CUGEN_LIBNVRTC):
//
//	go run ./examples/simpleSurfaceWrite
//
// c/simpleSurfaceWrite.cu is the same program in CUDA C++ with the runtime
// API, to run beside it:
//
//	nvcc -O2 -o simpleSurfaceWrite c/simpleSurfaceWrite.cu && ./simpleSurfaceWrite
//
// The original, from a cuda-samples checkout, runs from its directory:
//
//	cd Samples/0_Introduction/simpleSurfaceWrite
//	nvcc -O2 -I../../../Common -o simpleSurfaceWrite simpleSurfaceWrite.cu && ./simpleSurfaceWrite
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
	sampleName      = "simpleSurfaceWrite"
	angle           = 0.5 // radians
	minEpsilonError = 5e-3
	width, height   = 512, 512
)

// source is the sample's two kernels.
const source = `
// Write to a cuArray (texture data source) using surface writes
extern "C" __global__ void surfaceWriteKernel(float *gIData, int width, int height, cudaSurfaceObject_t outputSurface)
{
    // calculate surface coordinates
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;

    // read from global memory and write to cuarray (via surface reference)
    surf2Dwrite(gIData[y * width + x], outputSurface, x * 4, y, cudaBoundaryModeTrap);
}

// Transform an image using texture lookups
extern "C" __global__ void transformKernel(float *gOData, int width, int height, float theta, cudaTextureObject_t tex)
{
    // calculate normalized texture coordinates
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;

    float u = x / (float)width;
    float v = y / (float)height;

    // transform coordinates
    u -= 0.5f;
    v -= 0.5f;
    float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
    float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;

    // read from texture and write to global memory
    gOData[y * width + x] = tex2D<float>(tex, tu, tv);
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
	dev := ctx.Device()
	major, minor, err := dev.ComputeCapability()
	sample.Check(err)
	fmt.Printf("GPU Device 0: %q with compute capability %d.%d\n\n", sample.ArchName(int32(major), int32(minor)), major, minor)
	name, err := dev.Name()
	sample.Check(err)
	props, err := dev.Properties()
	sample.Check(err)
	fmt.Printf("CUDA device [%s] has %d Multi-Processors, SM %d.%d\n", name, props.MultiprocessorCount, major, minor)

	hData := sample.RingImage(width, height)
	fmt.Printf("Generated 'rings', %d x %d pixels\n", width, height)

	mod, err := ctx.ModuleFromSource(cuda.Source{Code: source})
	sample.Check(err)
	defer mod.Close()
	surfaceWrite, err := mod.Kernel("surfaceWriteKernel")
	sample.Check(err)
	transform, err := mod.Kernel("transformKernel")
	sample.Check(err)

	dData, err := cuda.AllocFrom(ctx, hData)
	sample.Check(err)
	defer dData.Close()

	// The array, written by a kernel through a surface: what differs from
	// simpleTexture, which copies the image into the array.
	arr, err := cuda.AllocArray[float32](ctx, cuda.ArrayDesc{Width: width, Height: height, Surface: true})
	sample.Check(err)
	defer arr.Close()
	surf, err := arr.Surface()
	sample.Check(err)
	defer surf.Close()
	cfg := cuda.Config{
		Grid:  cuda.Dim3{X: width / 8, Y: height / 8, Z: 1},
		Block: cuda.Dim3{X: 8, Y: 8, Z: 1},
	}
	sample.Check(surfaceWrite.Launch(cfg, dData, int32(width), int32(height), surf))

	tex, err := arr.Texture(cuda.TextureOptions{
		Address:          [3]cuda.AddressMode{cuda.AddressWrap, cuda.AddressWrap},
		Filter:           cuda.FilterLinear,
		NormalizedCoords: true,
	})
	sample.Check(err)
	defer tex.Close()

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

	hOData := make([]float32, width*height)
	sample.Check(dData.CopyTo(hOData))
	if outFile != "" {
		if err := sample.WritePGM(outFile, hOData, width, height); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return false
		}
		fmt.Printf("Wrote '%s'\n", outFile)
	}

	fmt.Println("Comparing with the Go reference (bilinear, wrap, 8-bit weights)")
	return sample.CompareImages(hOData, rotate(hData, width, height, angle), minEpsilonError)
}

// rotate is transformKernel on the host: each output pixel samples the
// image, rotated by theta about its centre in normalized coordinates.
func rotate(img []float32, w, h int, theta float32) []float32 {
	out := make([]float32, w*h)
	c, s := float32(math.Cos(float64(theta))), float32(math.Sin(float64(theta)))
	for y := range h {
		for x := range w {
			u := float32(x)/float32(w) - 0.5
			v := float32(y)/float32(h) - 0.5
			tu := u*c - v*s + 0.5
			tv := v*c + u*s + 0.5
			out[y*w+x] = sample.BilinearWrap(img, w, h, tu, tv)
		}
	}
	return out
}
