// Command vetclean passes every kind of CUDA handle the way a user would,
// with no conversion go vet flags; TestVetClean runs go vet on it.
package main

import (
	"encoding/binary"
	"unsafe"

	"github.com/cugen/cugen/emit/internal/abitest/cu"
	"github.com/cugen/cugen/emit/internal/abitest/cudart"
)

func main() {
	// A kernel handle, from either API, into the runtime's kernel calls
	// and kernel node parameters.
	var k cu.Kernel
	rk := cudart.Kernel(k)
	_, _, _ = cudart.FuncGetParamInfo(rk, 0)
	kp := cudart.KernelNodeParams{Func: rk, GridDim: cudart.Dim1(512), BlockDim: cudart.Dim2(16, 16)}

	// Kernel arguments as []unsafe.Pointer; extra as the packed buffer.
	n := int32(1 << 20)
	args := []unsafe.Pointer{unsafe.Pointer(&n)}
	_ = cudart.LaunchKernel(kp.Func, kp.GridDim, kp.BlockDim, args, 0, cudart.Stream(cu.Stream(0)))
	buf := binary.LittleEndian.AppendUint32(nil, uint32(n))
	_ = cu.LaunchKernel(cu.Function(k), 1, 1, 1, 1, 1, 1, 0, cu.Stream(cudart.Stream(0)), nil, buf)

	// A driver device pointer into a runtime void * parameter, and back.
	var d cu.Deviceptr
	_ = cudart.Free(d.Pointer())
	d = cu.Deviceptr(uintptr(d.Pointer()))
	_ = d
}
