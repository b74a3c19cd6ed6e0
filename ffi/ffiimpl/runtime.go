package ffiimpl

import (
	"fmt"
	"unsafe"
)

// RuntimeMajor returns a LibraryDesc.Validate that accepts a CUDA runtime
// library only if cudaRuntimeGetVersion reports major version major: the
// runtime's ABI changes between majors (struct layouts such as
// cudaDeviceProp, removed functions), so package cuda12/cudart must never
// call into libcudart.so.13 or .11, even when a path or environment variable
// points there.
func RuntimeMajor(major int) func(lookup func(string) (uintptr, error)) error {
	return func(lookup func(string) (uintptr, error)) error {
		fn, err := lookup("cudaRuntimeGetVersion")
		if err != nil {
			return fmt.Errorf("not a CUDA runtime library (no cudaRuntimeGetVersion)")
		}
		var v int32
		var f Frame
		f.Int(uintptr(unsafe.Pointer(&v)))
		Call(fn, &f)
		if r := int32(f.Ret()); r != 0 || f.Err() != nil {
			return fmt.Errorf("cudaRuntimeGetVersion failed (%d)", r)
		}
		if int(v)/1000 != major {
			return fmt.Errorf("CUDA runtime %d.%d, this package needs CUDA %d.x", v/1000, v%1000/10, major)
		}
		return nil
	}
}
