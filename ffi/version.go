//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffi

import (
	"fmt"
	"unsafe"
)

// LibraryMajor returns a [LibraryDesc].Validate that accepts a library only
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
		args := []any{&v}
		if twoInts {
			args = append(args, &minor)
		}
		r, err := Call(fn, args...)
		if err != nil || int32(r) != 0 {
			return fmt.Errorf("%s failed (%d)", symbol, int32(r))
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

// PropertyMajor returns a [LibraryDesc].Validate that accepts a library
// only if symbol, f(libraryPropertyType type, int *value)
// (cublasGetProperty, curandGetProperty, cufftGetProperty, ...), reports
// major for MAJOR_VERSION (0). The major is the library's own (cuFFT 11
// ships with CUDA 12), the one its soname carries.
func PropertyMajor(title, symbol string, major int) func(lookup func(string) (uintptr, error)) error {
	return func(lookup func(string) (uintptr, error)) error {
		fn, err := lookup(symbol)
		if err != nil {
			return fmt.Errorf("not a %s library (no %s)", title, symbol)
		}
		var v int32
		r, err := Call(fn, 0, &v) // MAJOR_VERSION
		if err != nil || int32(r) != 0 {
			return fmt.Errorf("%s failed (%d)", symbol, int32(r))
		}
		if int(v) != major {
			return fmt.Errorf("%s %d, this package needs %s %d", title, v, title, major)
		}
		return nil
	}
}

// StructMajor returns a [LibraryDesc].Validate that accepts a library only
// if symbol, f(void) returning a pointer to {int major, minor, build}
// (NPP's nppGetLibVersion), reports major version major.
func StructMajor(title, symbol string, major int) func(lookup func(string) (uintptr, error)) error {
	return func(lookup func(string) (uintptr, error)) error {
		if _, err := lookup(symbol); err != nil {
			return fmt.Errorf("not a %s library (no %s)", title, symbol)
		}
		v, err := ReadVersion(lookup, symbol, VersionStruct)
		if err != nil {
			return err
		}
		if v[0] != major {
			return fmt.Errorf("%s %d.%d, this package needs %s %d.x", title, v[0], v[1], title, major)
		}
		return nil
	}
}

// InDependency returns a [LibraryDesc].Validate for a library whose
// version function symbol is a library's it depends on (NPP's image and
// signal libraries are versioned by libnppc's nppGetLibVersion,
// cuSOLVERMg by libcusolver's cusolverGetProperty): on linux the lookup
// finds it there (dlsym searches a library's dependencies) and validate
// checks it; where it is not found (windows' GetProcAddress searches one
// DLL) the library is accepted unchecked.
func InDependency(symbol string, validate func(lookup func(string) (uintptr, error)) error) func(lookup func(string) (uintptr, error)) error {
	return func(lookup func(string) (uintptr, error)) error {
		if _, err := lookup(symbol); err != nil {
			return nil
		}
		return validate(lookup)
	}
}

// The forms of a version function, for [ReadVersion] and [VersionText].
const (
	// VersionEncoded: f(int *v) writes 1000*major + 10*minor
	// (cuDriverGetVersion, cudaRuntimeGetVersion).
	VersionEncoded = 1
	// VersionMajorMinor: f(int *major, int *minor) (nvrtcVersion).
	VersionMajorMinor = 2
	// VersionProperty: f(libraryPropertyType type, int *value) for
	// MAJOR_VERSION, MINOR_VERSION and PATCH_LEVEL (cublasGetProperty).
	VersionProperty = 3
	// VersionStruct: f(void) returns a pointer to {int major, minor,
	// build} (nppGetLibVersion), NULL on failure.
	VersionStruct = 4
)

// ReadVersion calls the version function symbol of the given form and
// returns the version it reports: major, minor and, for VersionProperty,
// the patch level (else 0).
func ReadVersion(lookup func(string) (uintptr, error), symbol string, form int) (v [3]int, err error) {
	fn, err := lookup(symbol)
	if err != nil {
		return v, err
	}
	call := func(args ...any) error {
		r, err := Call(fn, args...)
		if err != nil || int32(r) != 0 {
			return fmt.Errorf("%s failed (%d)", symbol, int32(r))
		}
		return nil
	}
	var a, b int32
	switch form {
	case VersionEncoded:
		err = call(&a)
		v = [3]int{int(a) / 1000, int(a) % 1000 / 10}
	case VersionMajorMinor:
		err = call(&a, &b)
		v = [3]int{int(a), int(b)}
	case VersionProperty:
		for i := range v {
			if err = call(i, &a); err != nil {
				break
			}
			v[i] = int(a)
		}
	case VersionStruct:
		v, err = readVersionStruct(fn, symbol)
	default:
		err = fmt.Errorf("%s: unknown version form %d", symbol, form)
	}
	return v, err
}

// VersionText returns a [LibraryDesc].Version: the loaded library's version
// as prefix and the numbers ("driver CUDA 12.2", "NVRTC 12.4", "cuBLAS
// 12.4.5"), read through symbol of the given form; "" if that fails.
func VersionText(prefix, symbol string, form int) func(lookup func(string) (uintptr, error)) string {
	return func(lookup func(string) (uintptr, error)) string {
		v, err := ReadVersion(lookup, symbol, form)
		if err != nil {
			return ""
		}
		s := fmt.Sprintf("%s %d.%d", prefix, v[0], v[1])
		if form == VersionProperty || form == VersionStruct {
			s += fmt.Sprintf(".%d", v[2])
		}
		return s
	}
}

// readVersionStruct calls fn, f(void) returning a pointer to three ints,
// and reads them only where [Readable] says they can be read, as a C
// string is read: a NULL or unreadable pointer is an error.
func readVersionStruct(fn uintptr, symbol string) (v [3]int, err error) {
	p, err := Call(fn)
	if err != nil {
		return v, err
	}
	const size = 3 * 4
	if p == 0 || p%4 != 0 || !Readable(p, size) {
		return v, fmt.Errorf("%s returned %#x, no version it can be read from", symbol, p)
	}
	ints := (*[3]int32)(unsafe.Add(unsafe.Pointer(nil), p))
	return [3]int{int(ints[0]), int(ints[1]), int(ints[2])}, nil
}
