package ffi

import "unsafe"

// Device memory in the generated math packages (cuBLAS first): a parameter
// the library documents as device memory is a DevicePtr (or a DeviceAddr
// for C's `void *`), one the library reads or writes in host or device
// memory by the handle's pointer mode is a HostOrDevice (HostOrDeviceAddr),
// and a host value stays a Go pointer. The audit file of each package lists
// which memory each parameter is, with the reason.
//
// Both device types are plain 64-bit integers, as CUdeviceptr is: the
// wrapper passes them as one integer argument, the collector never sees
// them as Go pointers, and go vet and checkptr have nothing to distrust. A
// cu.Deviceptr converts to either with no unsafe:
//
//	a := ffi.DevicePtr[float32](d) // d a cu.Deviceptr from cu.MemAlloc
//	v := ffi.DeviceAddr(d)
//
// and a runtime allocation (cudart.Malloc's unsafe.Pointer p) with
// ffi.DevicePtr[float32](uintptr(p)).

// DevicePtr is the address of device memory holding values of type T: the
// typed form of C's `T *` where the library documents device memory. Its
// zero value is NULL. T is only a label for the compiler (a *float32's
// device twin is DevicePtr[float32], a `float **` array of device pointers
// in device memory is DevicePtr[DevicePtr[float32]]); nothing reads
// through a DevicePtr on the host.
type DevicePtr[T any] uint64

// Add returns the address n elements of T past p (n may be negative), as C
// computes p + n for a T *.
func (p DevicePtr[T]) Add(n int) DevicePtr[T] {
	var zero T
	return p + DevicePtr[T](int64(n)*int64(unsafe.Sizeof(zero)))
}

// Addr returns p untyped, for a `void *` device parameter (GemmEx's a).
func (p DevicePtr[T]) Addr() DeviceAddr { return DeviceAddr(p) }

// Pointer returns p as an unsafe.Pointer, for the runtime API's `void *`
// parameters (cudart.Memcpy): the vet-clean form of
// unsafe.Pointer(uintptr(p)), as cu.Deviceptr's Pointer method is.
func (p DevicePtr[T]) Pointer() unsafe.Pointer { return unsafe.Add(nil, uintptr(p)) }

// DeviceAddr is the address of device memory of no particular type: C's
// `void *` where the library documents device memory (the matrices of
// cublasGemmEx, whose types are cudaDataType arguments).
type DeviceAddr uint64

// Pointer returns a as an unsafe.Pointer, as DevicePtr.Pointer does.
func (a DeviceAddr) Pointer() unsafe.Pointer { return unsafe.Add(nil, uintptr(a)) }

// HostOrDevice is a value (or the first of an array) of type T that the
// library reads or writes in host memory or in device memory, as a setting
// of the call's handle says: cuBLAS's pointer mode (cublasSetPointerMode)
// for the scalars alpha and beta and the result of a reduction (Sdot,
// Snrm2, Isamax); the kind of a cuRAND generator for its output; for
// cuBLASXt's matrices, where the caller allocated them. Make one
// with Host for a Go variable, or with Device for a device address; the
// setting must match (PointerModeHost, the default, for Host; a host
// generator for Host). Its zero value is NULL.
//
// It is a struct, not a pointer or an integer, so that one parameter takes
// either memory with no unsafe conversion at the call and the signature
// says which parameters the pointer mode governs. At the C boundary it is
// the one address it holds.
type HostOrDevice[T any] struct {
	host *T
	dev  DevicePtr[T]
}

// Host is the host value *p (or the array p points into). With
// PointerModeHost, or a host generator, the library reads *p during the
// call, or writes it before the call returns (a reduction's result, a
// host generator's output), so p need only live through the call.
func Host[T any](p *T) HostOrDevice[T] { return HostOrDevice[T]{host: p} }

// Device is the value at the device address p. With PointerModeDevice a
// result is written when the stream reaches the call.
func Device[T any](p DevicePtr[T]) HostOrDevice[T] { return HostOrDevice[T]{dev: p} }

// Pointer returns the address v holds, for the generated wrapper: the Go
// pointer given to Host, else the device address given to Device.
func (v HostOrDevice[T]) Pointer() unsafe.Pointer {
	if v.host != nil {
		return unsafe.Pointer(v.host)
	}
	return unsafe.Add(nil, uintptr(v.dev))
}

// Untyped returns v for a `void *` parameter of the same kind (the alpha
// of cublasGemmEx, whose type its computeType argument gives).
func (v HostOrDevice[T]) Untyped() HostOrDeviceAddr {
	return HostOrDeviceAddr{host: unsafe.Pointer(v.host), dev: DeviceAddr(v.dev)}
}

// HostOrDeviceAddr is a HostOrDevice of no particular type: C's `void *`
// where the pointer mode decides the memory. Make one with
// Host(&x).Untyped() or Device(p).Untyped().
type HostOrDeviceAddr struct {
	host unsafe.Pointer
	dev  DeviceAddr
}

// Pointer returns the address v holds, as HostOrDevice.Pointer does.
func (v HostOrDeviceAddr) Pointer() unsafe.Pointer {
	if v.host != nil {
		return v.host
	}
	return unsafe.Add(nil, uintptr(v.dev))
}
