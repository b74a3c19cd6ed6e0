//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffiimpl

import "github.com/cugen/cugen/ffi"

// The version checks and reads of a generated load.go. They are package
// ffi's (where cugen doctor, which must not import this package, builds
// the same descriptions): these names are the ones generated code calls.

// RuntimeMajor returns a LibraryDesc.Validate that accepts a CUDA runtime
// library only if cudaRuntimeGetVersion reports major version major: the
// runtime's ABI changes between majors (struct layouts such as
// cudaDeviceProp, removed functions), so package cuda12/cudart must never
// call into libcudart.so.13 or .11, even when a path or environment variable
// points there.
func RuntimeMajor(major int) func(lookup func(string) (uintptr, error)) error {
	return ffi.LibraryMajor("CUDA runtime", "cudaRuntimeGetVersion", false, major)
}

// LibraryMajor is [ffi.LibraryMajor].
func LibraryMajor(title, symbol string, twoInts bool, major int) func(lookup func(string) (uintptr, error)) error {
	return ffi.LibraryMajor(title, symbol, twoInts, major)
}

// PropertyMajor is [ffi.PropertyMajor].
func PropertyMajor(title, symbol string, major int) func(lookup func(string) (uintptr, error)) error {
	return ffi.PropertyMajor(title, symbol, major)
}

// StructMajor is [ffi.StructMajor].
func StructMajor(title, symbol string, major int) func(lookup func(string) (uintptr, error)) error {
	return ffi.StructMajor(title, symbol, major)
}

// InDependency is [ffi.InDependency].
func InDependency(symbol string, validate func(lookup func(string) (uintptr, error)) error) func(lookup func(string) (uintptr, error)) error {
	return ffi.InDependency(symbol, validate)
}

// The forms of a version function: [ffi.VersionEncoded] and the others.
const (
	VersionEncoded    = ffi.VersionEncoded
	VersionMajorMinor = ffi.VersionMajorMinor
	VersionProperty   = ffi.VersionProperty
	VersionStruct     = ffi.VersionStruct
)

// ReadVersion is [ffi.ReadVersion].
func ReadVersion(lookup func(string) (uintptr, error), symbol string, form int) (v [3]int, err error) {
	return ffi.ReadVersion(lookup, symbol, form)
}

// VersionText is [ffi.VersionText].
func VersionText(prefix, symbol string, form int) func(lookup func(string) (uintptr, error)) string {
	return ffi.VersionText(prefix, symbol, form)
}
