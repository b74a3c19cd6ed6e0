package cuda

import "unsafe"

// HostScalar is room for one host scalar of up to 16 bytes at a 16-byte
// aligned address, for the math libraries' alpha and beta. C aligns
// cuDoubleComplex (double2) to 16 bytes and cuBLAS and cuSPARSE read it
// with aligned vector loads; Go aligns a complex128 to 8 only, so the
// address of a Go complex128 on the stack may be 8 mod 16, and
// cublasZaxpy faulted on it (a general-protection fault, SIGSEGV). Declare
// a HostScalar next to the call, on the stack (its zero value is ready),
// and pass [AlignScalar]'s pointer instead of the value's address:
//
//	var s cuda.HostScalar
//	a := cuda.AlignScalar(&s, alpha) // 16-byte aligned copy of alpha
//	cublas.Zaxpy(h, n, ffi.Host((*cudart.DoubleComplex)(a)), x, 1, y, 1)
//
// The copy lives as long as s; nothing is allocated.
type HostScalar struct {
	b [32]byte // 16 bytes of value plus up to 15 of rounding
}

// AlignScalar copies v into s at the first 16-byte-aligned address in it
// and returns that address. T must be at most 16 bytes (every CUDA scalar
// is); a larger T panics, a programming error.
func AlignScalar[T any](s *HostScalar, v T) unsafe.Pointer {
	p := AlignedIn(s)
	if unsafe.Sizeof(v) > 16 {
		panic("cuda: AlignScalar of a type larger than 16 bytes")
	}
	*(*T)(p) = v
	return p
}

// AlignedIn returns the first 16-byte-aligned address in s, where a C
// library can write a result of up to 16 bytes (a cuDoubleComplex dot
// product); read it back with *(*T)(p) while s is alive.
func AlignedIn(s *HostScalar) unsafe.Pointer {
	base := unsafe.Pointer(&s.b[0])
	return unsafe.Add(base, (16-uintptr(base)%16)%16)
}
