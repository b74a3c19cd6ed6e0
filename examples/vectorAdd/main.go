// Command vectorAdd is NVIDIA's cuda-samples vectorAdd
// (Samples/0_Introduction/vectorAdd) in Go with cuda/sys/cudart:
// the runtime API adds two vectors of 50,000 floats on the GPU and checks
// every element on the host.
//
// What differs from the C++ sample: a Go program has no nvcc-compiled
// kernel for vectorAdd<<<blocks, threads>>>, so the kernel is PTX we wrote
// by hand (vectorAdd_kernel.ptx, embedded with go:embed), loaded with
// cudaLibraryLoadData, found with cudaLibraryGetKernel and launched with
// cudaLaunchKernel, all runtime API calls; the runtime JIT-compiles it for
// the device. The sample's error messages ("Failed to allocate device
// vector A (error code ...)!") are one message naming the failed call.
//
// It prints what the sample prints and exits with status 1 when an element
// is wrong or a call fails. It needs an NVIDIA GPU and the CUDA 13 runtime
// (libcudart.so.13; or set CUGEN_LIBCUDART=/path/to/libcudart.so.13):
//
//	go run ./examples/vectorAdd
package main

import (
	_ "embed"
	"fmt"
	"math"
	"os"
	"runtime"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/examples/internal/sample"
)

// kernelPTX is vectorAdd(A, B, C, numElements) in PTX text;
// cudaLibraryLoadData reads PTX as a C string, so it is copied with a NUL
// appended before loading.
//
//go:embed vectorAdd_kernel.ptx
var kernelPTX string

func main() {
	// The runtime's current device belongs to the OS thread.
	runtime.LockOSThread()
	os.Exit(run())
}

func run() int {
	const numElements = 50000
	const size = numElements * 4 // bytes of numElements float32
	fmt.Printf("[Vector addition of %d elements]\n", numElements)

	hA, hB, hC := make([]float32, numElements), make([]float32, numElements), make([]float32, numElements)
	rng := sample.NewCRand(1) // the sample's rand() values, A and B interleaved
	for i := range hA {
		hA[i] = rng.Float32()
		hB[i] = rng.Float32()
	}

	image := append([]byte(kernelPTX), 0) // NUL-terminated for the runtime
	lib, err := sample.LoadLibrary(image)
	sample.Check(err)
	defer func() { sample.Check(lib.Unload()) }()
	vectorAdd, err := lib.Kernel("vectorAdd")
	sample.Check(err)

	dA, err := cudart.Malloc(size)
	sample.Check(err)
	dB, err := cudart.Malloc(size)
	sample.Check(err)
	dC, err := cudart.Malloc(size)
	sample.Check(err)

	fmt.Println("Copy input data from the host memory to the CUDA device")
	sample.Check(cudart.Memcpy(dA, unsafe.Pointer(&hA[0]), size, cudart.MemcpyHostToDevice))
	sample.Check(cudart.Memcpy(dB, unsafe.Pointer(&hB[0]), size, cudart.MemcpyHostToDevice))

	const threadsPerBlock = 256
	const blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock
	fmt.Printf("CUDA kernel launch with %d blocks of %d threads\n", blocksPerGrid, threadsPerBlock)
	n := int32(numElements)
	args := []unsafe.Pointer{unsafe.Pointer(&dA), unsafe.Pointer(&dB), unsafe.Pointer(&dC), unsafe.Pointer(&n)}
	sample.Check(cudart.LaunchKernel(vectorAdd, cudart.Dim1(blocksPerGrid), cudart.Dim1(threadsPerBlock), args, 0, 0))
	sample.Check(cudart.GetLastError())

	fmt.Println("Copy output data from the CUDA device to the host memory")
	sample.Check(cudart.Memcpy(unsafe.Pointer(&hC[0]), dC, size, cudart.MemcpyDeviceToHost))

	for i := range hC {
		if math.Abs(float64(hA[i]+hB[i]-hC[i])) > 1e-5 {
			fmt.Fprintf(os.Stderr, "Result verification failed at element %d!\n", i)
			return 1
		}
	}
	fmt.Println("Test PASSED")

	sample.Check(cudart.Free(dA))
	sample.Check(cudart.Free(dB))
	sample.Check(cudart.Free(dC))
	fmt.Println("Done")
	return 0
}
