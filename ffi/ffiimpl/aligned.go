package ffiimpl

import (
	"unsafe"

	"github.com/cugen/cugen/ffi"
)

// AlignedIn returns the pointer a wrapper passes C for p, a pointer to a
// value of size bytes whose C type is aligned to align (16 for
// cuDoubleComplex, float4 and the other 16-byte vector types) while its Go
// type is aligned to 8. A Go variable of such a type can sit at an address
// that is 8 mod 16, and a library's host code may load it with an aligned
// instruction (movapd), which faults there.
//
// p itself is returned when it is nil, aligned, or unreadable on the host.
// Every device pointer to such a type is aligned (a misaligned one is a
// fault on the device either way), and so is every Go heap object of the
// type; what remains is a host value at an odd address: a Go local, a field
// of a struct, a global. AlignedIn copies that value into buf, which has
// size+align bytes, at the alignment C needs, and returns the copy.
//
// The returned pointer points into buf: a wrapper keeps it as an
// unsafe.Pointer until the Frame takes it, so a stack copy updates it
// (stacks move by a multiple of their page-aligned size, so its alignment
// survives), and keeps buf alive through the call.
func AlignedIn(p, buf unsafe.Pointer, size, align uintptr) unsafe.Pointer {
	if p == nil || uintptr(p)%align == 0 || !ffi.Readable(uintptr(p), size) {
		return p
	}
	q := unsafe.Add(buf, (align-uintptr(buf)%align)%align)
	copy(unsafe.Slice((*byte)(q), size), unsafe.Slice((*byte)(p), size))
	return q
}

// AlignedOut copies back what C wrote to the aligned copy q that
// AlignedIn made of p, after the call; it does nothing when AlignedIn
// passed p itself.
func AlignedOut(p, q unsafe.Pointer, size uintptr) {
	if p != q {
		copy(unsafe.Slice((*byte)(p), size), unsafe.Slice((*byte)(q), size))
	}
}
