// Command vetgenerated passes CUDA 13's handles to the calls that take them
// the way a user would; TestVetClean runs go vet on it (it is never run).
package main

import (
	"unsafe"

	"github.com/cugen/cugen/generated/cuda13/cu"
	"github.com/cugen/cugen/generated/cuda13/cudart"
)

func main() {
	// A kernel from either API into every runtime call that takes one.
	var lib cudart.Library
	k, _ := cudart.LibraryGetKernel(lib, "vecAdd")
	var ck cu.Kernel
	k = cudart.Kernel(ck)
	_, _ = cudart.FuncGetAttributes(k)
	_ = cudart.FuncSetAttribute(k, cudart.FuncAttributeMaxDynamicSharedMemorySize, 1<<16)
	_, _, _ = cudart.FuncGetParamInfo(k, 0)
	_, _ = cudart.OccupancyMaxActiveBlocksPerMultiprocessor(k, 256, 0)
	cfg := cudart.LaunchConfig{GridDim: cudart.Dim1(1024), BlockDim: cudart.Dim1(256)}
	_, _ = cudart.OccupancyMaxActiveClusters(k, &cfg)
	node := cudart.KernelNodeParams{Func: k, GridDim: cudart.Dim2(4, 4), BlockDim: cudart.Dim1(256)}
	_ = node

	// Streams and events cross between the APIs by conversion.
	var s cu.Stream
	var e cudart.Event
	_ = cudart.StreamWaitEvent(cudart.Stream(s), e, 0)
	_ = cu.StreamWaitEvent(s, cu.Event(e), 0)

	// Device memory of the driver API in runtime calls, and back.
	d, _ := cu.MemAlloc(1 << 20)
	host := make([]float32, 256)
	_ = cudart.MemcpyAsync(d.Pointer(), unsafe.Pointer(&host[0]), 1024, cudart.MemcpyHostToDevice, cudart.Stream(s))
	p, _ := cudart.Malloc(1 << 20)
	_ = cu.MemFree(cu.Deviceptr(uintptr(p)))

	// Kernel arguments and the packed buffer.
	n := int32(len(host))
	args := []unsafe.Pointer{unsafe.Pointer(&d), unsafe.Pointer(&n)}
	_ = cudart.LaunchKernel(k, cudart.Dim1(1), cudart.Dim1(256), args, 0, cudart.Stream(s))
	var fn cu.Function
	_ = cu.LaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, s, args, nil)
	_ = cu.LaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, s, nil, make([]byte, 12))
	node2 := cu.KernelNodeParams{Func: fn, GridDimX: 1, GridDimY: 1, GridDimZ: 1, Extra: cu.LaunchExtra(make([]byte, 12))}
	_ = node2
}
