package ffiimpl

import "unsafe"

// The Microsoft x64 calling convention
// (https://learn.microsoft.com/cpp/build/x64-calling-convention), as MSVC
// and mingw-w64's gcc implement it for the types CUDA passes:
//
//   - The first four arguments go by position: the i-th in RCX, RDX, R8 or
//     R9 if it is an integer, a pointer or a small struct, in XMM0-XMM3 if
//     it is a float or double; the rest go on the stack, one 8-byte slot
//     each, above 32 bytes of shadow space the caller reserves.
//   - A struct or union of 1, 2, 4 or 8 bytes is passed as an integer of
//     that size, floats inside it or not; any other is copied by the caller
//     to 16-byte aligned memory and passed as a pointer to the copy.
//   - Results come back in RAX or XMM0; a struct of 1, 2, 4 or 8 bytes in
//     RAX, any other through a pointer the caller passes as a hidden first
//     argument.
//   - A variadic callee reads a floating-point argument among the first
//     four from the integer register too, so a float is loaded into both.

const (
	numIntRegs    = 4  // rcx rdx r8 r9, by argument position
	numFloatRegs  = 4  // xmm0-xmm3, the same positions
	numStackWords = 32 // outgoing stack arguments plus by-reference copies

	// trampolineFrame is the frame size written in call_windows_amd64.s:
	// 32 bytes of shadow space, the outgoing words, the saved *Frame and
	// padding for alignment.
	trampolineFrame = 304
)

// The assembly frame must match numStackWords exactly.
const _ = uint(trampolineFrame - (32 + numStackWords*8 + 16))
const _ = uint((32 + numStackWords*8 + 16) - trampolineFrame)

// count is the type of Frame's counters (see frame_amd64.go).
type count = uint32

// frame is Frame's layout; call_windows_amd64.s reads it through go_asm.h.
type frame struct {
	fn     uintptr
	ints   [numIntRegs]uintptr  // after the call: [0] rax
	floats [numFloatRegs]uint64 // after the call: [0] xmm0
	// stack holds the outgoing stack words from the bottom up and, from the
	// top down, the caller-made copies of aggregates passed by reference
	// (the callee gets a pointer into this Frame).
	stack  [numStackWords]uintptr
	nint   count // argument positions used, integer and floating alike
	nfloat count // unused: positions are shared (kept for the field names)
	nstack count // stack words used, from the bottom
	ncopy  count // stack words used by copies, from the top
	flags  count
}

// stackRoom is the number of stack words left for arguments.
//
//go:nosplit
func (f *Frame) stackRoom() int { return numStackWords - int(f.ncopy) }

// float adds a floating-point argument at the next position: XMMn, and
// the integer register of the same position for a variadic callee, or a
// stack word after the fourth argument.
//
//go:nosplit
func (f *Frame) float(bits uint64) {
	if n := f.nint; n < numIntRegs {
		f.floats[n] = bits
		f.ints[n] = uintptr(bits)
		f.nint = n + 1
		return
	}
	f.push(uintptr(bits))
}

// inRegister reports whether a struct or union of size bytes travels as an
// integer (arguments and results alike).
//
//go:nosplit
func inRegister(size uintptr) bool {
	return size == 1 || size == 2 || size == 4 || size == 8
}

// Struct adds a struct or union argument passed by value, copying *p: as an
// integer if it has 1, 2, 4 or 8 bytes, else as a pointer to a copy in the
// Frame.
//
//go:nosplit
func (f *Frame) Struct(p unsafe.Pointer, l *Layout) {
	if inRegister(l.Size) {
		f.Int(uintptr(load64(p, l.Size)))
		return
	}
	if q, ok := f.copyArg(p, l.Size); ok {
		f.Int(q)
	}
}

// copyArg copies an aggregate into the top of the Frame's stack area,
// 16-byte aligned, and returns its address, a pointer into the caller's
// stack kept as a uintptr (see the stack invariant on Frame).
//
//go:nosplit
func (f *Frame) copyArg(p unsafe.Pointer, size uintptr) (uintptr, bool) {
	n := (size+7)/8 + 1 // room to round the address up to 16
	if uintptr(f.nstack)+uintptr(f.ncopy)+n > numStackWords {
		f.flags |= flagOverflow
		return 0, false
	}
	f.ncopy += count(n)
	q := unsafe.Pointer(&f.stack[numStackWords-int(f.ncopy)])
	q = unsafe.Add(q, uintptr(q)&8) // 8 -> 16-byte alignment
	copyBytes(q, p, size)
	return uintptr(q), true
}

// StructResult declares that the function returns a struct or union by
// value into *dst. It must be called before any argument is added. A result
// of 1, 2, 4 or 8 bytes comes back in RAX and [Frame.RetStruct] copies it
// out; any other is written by the callee through dst, passed as the hidden
// first argument (RCX). Generated code always pairs StructResult with
// RetStruct on the same dst.
//
//go:nosplit
func (f *Frame) StructResult(dst unsafe.Pointer, l *Layout) {
	if f.nint != 0 || f.nstack != 0 || f.ncopy != 0 {
		f.flags |= flagOrder
		return
	}
	if !inRegister(l.Size) {
		f.flags |= flagMemResult
		f.Int(uintptr(dst))
	}
}

// RetStruct copies a struct result returned in RAX into *dst. For a result
// returned in memory it does nothing: the callee already wrote *dst.
func (f *Frame) RetStruct(dst unsafe.Pointer, l *Layout) {
	if f.flags&flagMemResult != 0 || !inRegister(l.Size) {
		return
	}
	copyBytes(dst, unsafe.Pointer(&f.ints[0]), l.Size)
}
