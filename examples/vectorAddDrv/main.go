// Command vectorAddDrv is NVIDIA's cuda-samples vectorAddDrv
// (Samples/0_Introduction/vectorAddDrv) in Go with cuda/sys/cu: the
// driver API alone adds two vectors of 50,000 floats on the GPU. It creates
// a context, loads a module from memory with cuModuleLoadData, launches the
// kernel with cuLaunchKernel and checks every element on the host.
//
// What differs from the C++ sample:
//   - The kernel is PTX we wrote by hand (vectorAdd_kernel.ptx), embedded in
//     the binary with go:embed and JIT-compiled by the driver; the sample
//     loads a fatbin that nvcc built and finds it beside the executable. So
//     the sample's two "findModulePath"/"initCUDA loading module" lines are
//     one line naming the embedded file.
//   - It uses device 0 and has no -device flag (the sample picks the device
//     of most GFLOP/s, the same one on a machine of one GPU).
//
// It prints the sample's other lines and exits with status 1 when an
// element is wrong or a call fails. It needs an NVIDIA GPU and its driver
// (libcuda.so.1):
//
//	go run ./examples/vectorAddDrv
package main

import (
	_ "embed"
	"fmt"
	"math"
	"os"
	"runtime"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/examples/internal/sample"
)

// kernelPTX is VecAdd_kernel(A, B, C, N) in PTX text. cuModuleLoadData reads
// PTX as a C string, so it is copied with a NUL appended before loading.
//
//go:embed vectorAdd_kernel.ptx
var kernelPTX string

func main() {
	// The context cuCtxCreate makes current belongs to this OS thread.
	runtime.LockOSThread()
	os.Exit(run())
}

func run() int {
	fmt.Println("Vector Addition (Driver API)")
	const n = 50000
	const size = n * 4 // bytes of n float32

	sample.Check(cu.Init(0))
	dev := sample.FindCudaDeviceDrv()
	ctx, err := sample.CtxCreate(dev)
	sample.Check(err)
	defer func() { sample.Check(cu.CtxDestroy(ctx)) }()

	fmt.Println("> initCUDA loading module: <vectorAdd_kernel.ptx> (embedded)")
	image := append([]byte(kernelPTX), 0) // NUL-terminated for the driver
	mod, err := cu.ModuleLoadData(unsafe.Pointer(&image[0]))
	sample.Check(err)
	defer func() { sample.Check(cu.ModuleUnload(mod)) }()
	vecAdd, err := cu.ModuleGetFunction(mod, "VecAdd_kernel")
	sample.Check(err)

	// The sample's inputs: rand() / RAND_MAX, A then B.
	hA, hB, hC := make([]float32, n), make([]float32, n), make([]float32, n)
	rng := sample.NewCRand(1)
	for i := range hA {
		hA[i] = rng.Float32()
	}
	for i := range hB {
		hB[i] = rng.Float32()
	}

	dA, err := cu.MemAlloc(size)
	sample.Check(err)
	defer func() { sample.Check(cu.MemFree(dA)) }()
	dB, err := cu.MemAlloc(size)
	sample.Check(err)
	defer func() { sample.Check(cu.MemFree(dB)) }()
	dC, err := cu.MemAlloc(size)
	sample.Check(err)
	defer func() { sample.Check(cu.MemFree(dC)) }()

	sample.Check(cu.MemcpyHtoD(dA, unsafe.Pointer(&hA[0]), size))
	sample.Check(cu.MemcpyHtoD(dB, unsafe.Pointer(&hB[0]), size))

	const threadsPerBlock = 256
	const blocksPerGrid = (n + threadsPerBlock - 1) / threadsPerBlock
	count := int32(n)
	// kernelParams: one pointer per kernel parameter, to its value.
	args := []unsafe.Pointer{unsafe.Pointer(&dA), unsafe.Pointer(&dB), unsafe.Pointer(&dC), unsafe.Pointer(&count)}
	// extra (the packed-buffer form of the arguments) is nil: NULL.
	sample.Check(cu.LaunchKernel(vecAdd, blocksPerGrid, 1, 1, threadsPerBlock, 1, 1, 0, 0, args, nil))

	// cuMemcpyDtoH waits for the kernel (the NULL stream orders them).
	sample.Check(cu.MemcpyDtoH(unsafe.Pointer(&hC[0]), dC, size))

	i := 0
	for ; i < n; i++ {
		if math.Abs(float64(hC[i]-(hA[i]+hB[i]))) > 1e-7 {
			break
		}
	}
	if i != n {
		fmt.Println("Result = FAIL")
		fmt.Fprintf(os.Stderr, "element %d: %v + %v = %v on the GPU\n", i, hA[i], hB[i], hC[i])
		return 1
	}
	fmt.Println("Result = PASS")
	return 0
}
