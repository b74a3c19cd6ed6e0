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
	return LibraryMajor("CUDA runtime", "cudaRuntimeGetVersion", false, major)
}

// LibraryMajor returns a LibraryDesc.Validate that accepts a library only
// if its version function reports major version major, for every library
// whose ABI changes between majors (NVRTC, nvJitLink, the CUDA runtime).
// The function is symbol: f(int *v) writing 1000*major + 10*minor
// (cudaRuntimeGetVersion), or, when twoInts, f(int *major, int *minor)
// (nvrtcVersion, nvJitLinkVersion); it returns 0 on success. title names
// the library in the error ("NVRTC").
func LibraryMajor(title, symbol string, twoInts bool, major int) func(lookup func(string) (uintptr, error)) error {
	return func(lookup func(string) (uintptr, error)) error {
		fn, err := lookup(symbol)
		if err != nil {
			return fmt.Errorf("not a %s library (no %s)", title, symbol)
		}
		var v, minor int32
		var f Frame
		f.Int(uintptr(unsafe.Pointer(&v)))
		if twoInts {
			f.Int(uintptr(unsafe.Pointer(&minor)))
		}
		Call(fn, &f)
		if r := int32(f.Ret()); r != 0 || f.Err() != nil {
			return fmt.Errorf("%s failed (%d)", symbol, r)
		}
		if !twoInts {
			v, minor = v/1000, v%1000/10
		}
		if int(v) != major {
			return fmt.Errorf("%s %d.%d, this package needs %s %d.x", title, v, minor, title, major)
		}
		return nil
	}
}

// PropertyMajor returns a LibraryDesc.Validate that accepts a library only
// if symbol, f(libraryPropertyType type, int *value) (cublasGetProperty,
// curandGetProperty, cufftGetProperty, ...), reports major for
// MAJOR_VERSION (0). The major is the library's own (cuFFT 11 ships with
// CUDA 12), the one its soname carries.
func PropertyMajor(title, symbol string, major int) func(lookup func(string) (uintptr, error)) error {
	return func(lookup func(string) (uintptr, error)) error {
		fn, err := lookup(symbol)
		if err != nil {
			return fmt.Errorf("not a %s library (no %s)", title, symbol)
		}
		var v int32
		var f Frame
		f.Int(0) // MAJOR_VERSION
		f.Int(uintptr(unsafe.Pointer(&v)))
		Call(fn, &f)
		if r := int32(f.Ret()); r != 0 || f.Err() != nil {
			return fmt.Errorf("%s failed (%d)", symbol, r)
		}
		if int(v) != major {
			return fmt.Errorf("%s %d, this package needs %s %d", title, v, title, major)
		}
		return nil
	}
}
