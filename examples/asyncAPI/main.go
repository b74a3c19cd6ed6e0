// Command asyncAPI is NVIDIA's cuda-samples asyncAPI
// (Samples/0_Introduction/asyncAPI) in Go with cuda/sys/cudart: it
// issues a copy to the device, a kernel and a copy back on the default
// stream between two events, all asynchronous, then counts how often the
// CPU can ask cudaEventQuery before the GPU is done, reads the GPU time
// between the events with cudaEventElapsedTime, and checks all 16M results.
//
// What differs from the C++ sample:
//   - The kernel increment_kernel is PTX we wrote by hand
//     (increment_kernel.ptx, embedded with go:embed), loaded with
//     cudaLibraryLoadData and launched with cudaLaunchKernel.
//   - It uses device 0 (see examples/internal/sample.FindCudaDevice).
//
// The times and the iteration count vary from run to run, in C as in Go.
// It exits with status 1 when a result is wrong or a call fails. It needs
// an NVIDIA GPU and the CUDA 13 runtime (libcudart.so.13; or set
// CUGEN_LIBCUDART=/path/to/libcudart.so.13):
//
//	go run ./examples/asyncAPI
package main

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"runtime"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/examples/internal/sample"
)

// kernelPTX is increment_kernel(g_data, inc_value) in PTX text;
// cudaLibraryLoadData reads PTX as a C string, so it is copied with a NUL
// appended.
//
//go:embed increment_kernel.ptx
var kernelPTX string

func main() {
	// The runtime's current device belongs to the OS thread.
	runtime.LockOSThread()
	os.Exit(run())
}

// correctOutput is the sample's correct_output.
func correctOutput(data []int32, x int32) bool {
	for i, v := range data {
		if v != x {
			fmt.Printf("Error! data[%d] = %d, ref = %d\n", i, v, x)
			return false
		}
	}
	return true
}

func run() int {
	fmt.Printf("[%s] - Starting...\n", os.Args[0])
	devID := sample.FindCudaDevice()
	props, err := cudart.GetDeviceProperties(devID)
	sample.Check(err)
	name := props.Name[:]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i] // a C string in a char array
	}
	fmt.Printf("CUDA device [%s]\n", name)

	const n = 16 * 1024 * 1024
	const nbytes = n * 4
	value := int32(26)

	image := append([]byte(kernelPTX), 0) // NUL-terminated for the runtime
	lib, err := sample.LoadLibrary(image)
	sample.Check(err)
	defer func() { sample.Check(lib.Unload()) }()
	incrementKernel, err := lib.Kernel("increment_kernel")
	sample.Check(err)

	// Pinned host memory: the copies are asynchronous only from and to it.
	hostA, err := cudart.MallocHost(nbytes)
	sample.Check(err)
	a := unsafe.Slice((*int32)(hostA), n)
	clear(a)

	dA, err := cudart.Malloc(nbytes)
	sample.Check(err)
	sample.Check(cudart.Memset(dA, 255, nbytes))

	threads := cudart.Dim1(512)
	blocks := cudart.Dim1(n / threads.X)

	start, err := cudart.EventCreate()
	sample.Check(err)
	stop, err := cudart.EventCreate()
	sample.Check(err)

	sample.Check(cudart.DeviceSynchronize())

	// Asynchronously issue work to the GPU, all to stream 0. The sample
	// checks none of these four calls' errors; a Go program may as well.
	// cudaProfilerStart/Stop mark them for a profiler (Nsight Systems);
	// outside one they do nothing.
	sample.Check(cudart.ProfilerStart())
	began := time.Now()
	sample.Check(cudart.EventRecord(start, 0))
	sample.Check(cudart.MemcpyAsync(dA, hostA, nbytes, cudart.MemcpyHostToDevice, 0))
	args := []unsafe.Pointer{unsafe.Pointer(&dA), unsafe.Pointer(&value)}
	sample.Check(cudart.LaunchKernel(incrementKernel, blocks, threads, args, 0, 0))
	sample.Check(cudart.MemcpyAsync(hostA, dA, nbytes, cudart.MemcpyDeviceToHost, 0))
	sample.Check(cudart.EventRecord(stop, 0))
	cpuTime := time.Since(began)
	sample.Check(cudart.ProfilerStop())

	// Have the CPU do some work while waiting for the GPU to finish.
	var counter uint64
	for errors.Is(cudart.EventQuery(stop), cudart.ErrorNotReady) {
		counter++
	}

	gpuTime, err := cudart.EventElapsedTime(start, stop)
	sample.Check(err)

	fmt.Printf("time spent executing by the GPU: %.2f\n", gpuTime)
	fmt.Printf("time spent by CPU in CUDA calls: %.2f\n", float64(cpuTime)/float64(time.Millisecond))
	fmt.Printf("CPU executed %d iterations while waiting for GPU to finish\n", counter)

	finalResults := correctOutput(a, value)

	sample.Check(cudart.EventDestroy(start))
	sample.Check(cudart.EventDestroy(stop))
	sample.Check(cudart.FreeHost(hostA))
	sample.Check(cudart.Free(dA))
	if !finalResults {
		return 1
	}
	return 0
}
