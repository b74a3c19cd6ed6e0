//go:build linux

package ffiimpl

import "unsafe"

// System V AMD64 ABI (https://gitlab.com/x86-psABIs/x86-64-ABI), as gcc and
// clang implement it for the types CUDA passes: integers, pointers, float,
// double, and structs/unions of those.

const (
	numIntRegs    = 6  // rdi rsi rdx rcx r8 r9
	numFloatRegs  = 8  // xmm0-xmm7 (low 64 bits)
	numStackWords = 32 // outgoing stack arguments, 8 bytes each

	// trampolineFrame is the frame size written in call_amd64.s: the
	// outgoing words, the saved *Frame, and padding for alignment.
	trampolineFrame = 272
)

// The assembly frame must match numStackWords exactly.
const _ = uint(trampolineFrame - (numStackWords*8 + 16))
const _ = uint((numStackWords*8 + 16) - trampolineFrame)

// count is the type of Frame's counters. Each argument costs a
// load-increment-store of one (about 1.5 ns: one store-to-load forwarding,
// the compiler cannot keep a field of an address-taken Frame in a
// register); 32-bit counters measured up to 10% faster than bytes on a
// 6-argument call.
type count = uint32

// frame is Frame's layout; call_amd64.s reads it through go_asm.h.
type frame struct {
	fn     uintptr
	ints   [numIntRegs]uintptr // after the call: [0] rax, [1] rdx
	floats [numFloatRegs]uint64
	stack  [numStackWords]uintptr
	nint   count // integer registers used
	nfloat count // SSE registers used; also passed in AL for variadic callees
	nstack count // stack words used
	flags  count
}

// stackRoom is the number of usable stack words.
//
//go:nosplit
func (f *Frame) stackRoom() int { return numStackWords }

// Eightbyte classes of an aggregate of at most 16 bytes.
const (
	classNone = iota // only padding: takes no register
	classInt
	classSSE
)

// classify returns the class of each eightbyte of an aggregate of at most
// 16 bytes, or ok == false if it is passed in memory: larger than 16 bytes,
// or with a scalar that straddles an eightbyte (an unaligned, packed field).
//
//go:nosplit
func classify(l *Layout) (c [2]uint8, ok bool) {
	if l.Size > 16 || l.Size == 0 {
		return c, false
	}
	for _, s := range l.Scalars {
		for k := range s.leaves() {
			off := s.Offset + k*s.Size
			i := off / 8
			if i > 1 || off%8+s.Size > 8 {
				return c, false
			}
			switch {
			case !s.Float:
				c[i] = classInt // INTEGER wins over SSE in an eightbyte
			case c[i] == classNone:
				c[i] = classSSE
			}
		}
	}
	return c, true
}

// Struct adds a struct or union argument passed by value, copying *p.
// Up to 16 bytes it travels in registers per eightbyte class if all of them
// fit, else wholly on the stack; larger ones are copied onto the stack.
//
//go:nosplit
func (f *Frame) Struct(p unsafe.Pointer, l *Layout) {
	c, ok := classify(l)
	if !ok {
		f.pushBytes(p, l.Size, l.Align)
		return
	}
	var needInt, needSSE count
	for _, k := range c {
		switch k {
		case classInt:
			needInt++
		case classSSE:
			needSSE++
		}
	}
	if f.nint+needInt > numIntRegs || f.nfloat+needSSE > numFloatRegs {
		// The psABI passes the whole argument in memory; later, smaller
		// arguments may still take the remaining registers.
		f.pushBytes(p, l.Size, l.Align)
		return
	}
	for i, k := range c {
		off := uintptr(i) * 8
		if off >= l.Size {
			break
		}
		w := load64(unsafe.Add(p, off), min(8, l.Size-off))
		switch k {
		case classInt:
			f.ints[f.nint] = uintptr(w)
			f.nint++
		case classSSE:
			f.floats[f.nfloat] = w
			f.nfloat++
		}
	}
}

// StructResult declares that the function returns a struct or union by
// value into *dst. It must be called before any argument is added. If the
// type is returned in memory (larger than 16 bytes), dst is passed as the
// hidden first argument (rdi) and the callee writes it directly; otherwise
// the result comes back in registers and [Frame.RetStruct] copies it out.
// Generated code always pairs StructResult with RetStruct on the same dst.
//
//go:nosplit
func (f *Frame) StructResult(dst unsafe.Pointer, l *Layout) {
	if f.nint != 0 || f.nfloat != 0 || f.nstack != 0 {
		f.flags |= flagOrder
		return
	}
	if _, ok := classify(l); !ok {
		f.flags |= flagMemResult
		f.Int(uintptr(dst))
	}
}

// RetStruct copies a struct result returned in registers into *dst. For a
// result returned in memory it does nothing: the callee already wrote *dst.
func (f *Frame) RetStruct(dst unsafe.Pointer, l *Layout) {
	if f.flags&flagMemResult != 0 {
		return
	}
	c, ok := classify(l)
	if !ok {
		return
	}
	// INTEGER eightbytes come back in rax then rdx, SSE ones in xmm0 then
	// xmm1, each in order.
	var w [2]uint64
	var ni, nf int
	for i, k := range c {
		switch k {
		case classInt:
			w[i] = uint64(f.ints[ni])
			ni++
		case classSSE:
			w[i] = f.floats[nf]
			nf++
		}
	}
	copyBytes(dst, unsafe.Pointer(&w), l.Size)
}
