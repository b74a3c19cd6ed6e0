//go:build cgo && linux

// Package cgoshim calls the same CUDA functions as the generated packages,
// through cgo, for the benchmarks' cgo column. It dlopens the libraries
// (no link-time dependency) so a test binary built without a toolkit runs
// on any GPU machine. Test-only: nothing else imports it.
package cgoshim

/*
#cgo LDFLAGS: -ldl
#cgo noescape shim_cuDriverGetVersion_noescape
#cgo nocallback shim_cuDriverGetVersion_noescape
#cgo noescape shim_cuCtxGetCurrent_noescape
#cgo nocallback shim_cuCtxGetCurrent_noescape
#cgo noescape shim_cuDeviceGet_noescape
#cgo nocallback shim_cuDeviceGet_noescape
#cgo noescape shim_cudaGetDevice_noescape
#cgo nocallback shim_cudaGetDevice_noescape
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

static int (*p_cuCtxGetCurrent)(void **);
static int (*p_cuDriverGetVersion)(int *);
static int (*p_cuDeviceGet)(int *, int);
static int (*p_cuMemcpyHtoD)(unsigned long long, const void *, size_t);
static int (*p_cuLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **, void **);
static int (*p_cuGraphLaunch)(void *, void *);
static int (*p_cudaGetDevice)(int *);
static int (*p_cudaMemcpy)(void *, const void *, size_t, int);

static int shim_open(const char *cuda, const char *cudart) {
	void *d = dlopen(cuda, RTLD_NOW | RTLD_LOCAL);
	void *r = dlopen(cudart, RTLD_NOW | RTLD_LOCAL);
	if (!d || !r) return -1;
	p_cuCtxGetCurrent = dlsym(d, "cuCtxGetCurrent");
	p_cuDriverGetVersion = dlsym(d, "cuDriverGetVersion");
	p_cuDeviceGet = dlsym(d, "cuDeviceGet");
	p_cuMemcpyHtoD = dlsym(d, "cuMemcpyHtoD_v2");
	p_cuLaunchKernel = dlsym(d, "cuLaunchKernel");
	p_cuGraphLaunch = dlsym(d, "cuGraphLaunch");
	p_cudaGetDevice = dlsym(r, "cudaGetDevice");
	p_cudaMemcpy = dlsym(r, "cudaMemcpy");
	return p_cuCtxGetCurrent && p_cuDriverGetVersion && p_cuDeviceGet && p_cuMemcpyHtoD && p_cuLaunchKernel && p_cuGraphLaunch && p_cudaGetDevice && p_cudaMemcpy ? 0 : -2;
}
static int shim_cuCtxGetCurrent(void **c) { return p_cuCtxGetCurrent(c); }
static int shim_cuDriverGetVersion(int *v) { return p_cuDriverGetVersion(v); }
// The _noescape functions are the same calls, declared noescape and
// nocallback above: cgo then keeps the out variable on the Go stack, the
// best a cgo call can do.
static int shim_cuDriverGetVersion_noescape(int *v) { return p_cuDriverGetVersion(v); }
static int shim_cuCtxGetCurrent_noescape(void **c) { return p_cuCtxGetCurrent(c); }
static int shim_cuDeviceGet_noescape(int *d, int o) { return p_cuDeviceGet(d, o); }
static int shim_cudaGetDevice_noescape(int *d) { return p_cudaGetDevice(d); }
static int shim_cuDeviceGet(int *d, int o) { return p_cuDeviceGet(d, o); }
static int shim_cuMemcpyHtoD(unsigned long long dst, const void *src, size_t n) { return p_cuMemcpyHtoD(dst, src, n); }
static int shim_cuLaunchKernel(void *f, void *stream) {
	return p_cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, stream, NULL, NULL);
}
static int shim_cuGraphLaunch(void *exec, void *stream) { return p_cuGraphLaunch(exec, stream); }
static int shim_cudaGetDevice(int *d) { return p_cudaGetDevice(d); }
static int shim_launch_loop(void *f, long n) {
	for (long i = 0; i < n; i++) {
		int r = p_cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL);
		if (r) return r;
	}
	return 0;
}
static int shim_cudaMemcpy(void *dst, const void *src, size_t n, int kind) { return p_cudaMemcpy(dst, src, n, kind); }
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Available reports whether this build has the cgo shim.
const Available = true

// Open dlopens the two libraries.
func Open(cuda, cudart string) error {
	cs, rs := C.CString(cuda), C.CString(cudart)
	defer C.free(unsafe.Pointer(cs))
	defer C.free(unsafe.Pointer(rs))
	if C.shim_open(cs, rs) != 0 {
		return errors.New("cgoshim: cannot open " + cuda + " and " + cudart)
	}
	return nil
}

// CtxGetCurrent is cuCtxGetCurrent through cgo.
func CtxGetCurrent() (uintptr, int32) {
	var c unsafe.Pointer
	r := C.shim_cuCtxGetCurrent(&c)
	return uintptr(c), int32(r)
}

// DriverGetVersion is cuDriverGetVersion through cgo.
func DriverGetVersion() (int32, int32) {
	var v C.int
	r := C.shim_cuDriverGetVersion(&v)
	return int32(v), int32(r)
}

// DriverGetVersionNoEscape is cuDriverGetVersion through cgo with the
// noescape and nocallback annotations: no allocation.
func DriverGetVersionNoEscape() (int32, int32) {
	var v C.int
	r := C.shim_cuDriverGetVersion_noescape(&v)
	return int32(v), int32(r)
}

// CtxGetCurrentNoEscape is CtxGetCurrent with #cgo noescape.
func CtxGetCurrentNoEscape() (uintptr, int32) {
	var c unsafe.Pointer
	r := C.shim_cuCtxGetCurrent_noescape(&c)
	return uintptr(c), int32(r)
}

// DeviceGetNoEscape is DeviceGet with #cgo noescape.
func DeviceGetNoEscape(ordinal int32) (int32, int32) {
	var d C.int
	r := C.shim_cuDeviceGet_noescape(&d, C.int(ordinal))
	return int32(d), int32(r)
}

// GetDeviceNoEscape is GetDevice with #cgo noescape.
func GetDeviceNoEscape() (int32, int32) {
	var d C.int
	r := C.shim_cudaGetDevice_noescape(&d)
	return int32(d), int32(r)
}

// DeviceGet is cuDeviceGet through cgo.
func DeviceGet(ordinal int32) (int32, int32) {
	var d C.int
	r := C.shim_cuDeviceGet(&d, C.int(ordinal))
	return int32(d), int32(r)
}

// MemcpyHtoD is cuMemcpyHtoD through cgo.
func MemcpyHtoD(dst uint64, src unsafe.Pointer, n uint64) int32 {
	return int32(C.shim_cuMemcpyHtoD(C.ulonglong(dst), src, C.size_t(n)))
}

// LaunchEmpty launches a parameterless kernel on one thread through cgo.
func LaunchEmpty(f uintptr) int32 {
	// f is a C pointer (a CUfunction), never Go memory.
	return int32(C.shim_cuLaunchKernel(*(*unsafe.Pointer)(unsafe.Pointer(&f)), nil))
}

// LaunchLoop launches a parameterless kernel n times from one C loop, so a
// Go process's launch rate can be measured without a Go-to-C transition per
// launch.
func LaunchLoop(f uintptr, n int) int32 {
	return int32(C.shim_launch_loop(*(*unsafe.Pointer)(unsafe.Pointer(&f)), C.long(n)))
}

// GraphLaunch is cuGraphLaunch through cgo; exec and stream are C handles.
func GraphLaunch(exec, stream uintptr) int32 {
	return int32(C.shim_cuGraphLaunch(*(*unsafe.Pointer)(unsafe.Pointer(&exec)), *(*unsafe.Pointer)(unsafe.Pointer(&stream))))
}

// GetDevice is cudaGetDevice through cgo.
func GetDevice() (int32, int32) {
	var d C.int
	r := C.shim_cudaGetDevice(&d)
	return int32(d), int32(r)
}

// Memcpy is cudaMemcpy through cgo.
func Memcpy(dst, src unsafe.Pointer, n uint64, kind int32) int32 {
	return int32(C.shim_cudaMemcpy(dst, src, C.size_t(n), C.int(kind)))
}
