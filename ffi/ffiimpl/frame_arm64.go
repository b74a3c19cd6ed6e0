//go:build linux

package ffiimpl

import "unsafe"

// AAPCS64 (https://github.com/ARM-software/abi-aa, procedure call standard,
// section "Parameter passing"), Linux flavour: every stack argument takes
// whole 8-byte slots (Apple packs them; we do not run there).

const (
	numIntRegs    = 8  // x0-x7
	numFloatRegs  = 8  // v0-v7: d-registers, s-registers for float
	numStackWords = 32 // outgoing stack arguments plus by-reference copies
)

// count is the type of Frame's counters (see frame_amd64.go).
type count = uint32

// frame is Frame's layout; call_arm64.s reads it through go_asm.h.
type frame struct {
	fn     uintptr
	ints   [numIntRegs]uintptr  // after the call: [0] x0, [1] x1
	floats [numFloatRegs]uint64 // after the call: [0..3] d0-d3 (HFA results)
	// stack holds the outgoing stack words from the bottom up and, from the
	// top down, the caller-made copies of aggregates larger than 16 bytes
	// (passed by reference: the callee gets a pointer into this Frame).
	stack  [numStackWords]uintptr
	x8     uintptr // indirect result location register
	nint   count   // NGRN: next general-purpose register
	nfloat count   // NSRN: next SIMD/FP register
	nstack count   // stack words used, from the bottom
	ncopy  count   // stack words used by copies, from the top
	flags  count
}

// stackRoom is the number of stack words left for arguments.
//
//go:nosplit
func (f *Frame) stackRoom() int { return numStackWords - int(f.ncopy) }

// hfa reports whether l is a homogeneous floating-point aggregate: one to
// four members, all float or all double. n is the member count, size the
// member size.
//
//go:nosplit
func hfa(l *Layout) (n int, size uintptr) {
	if len(l.Scalars) == 0 {
		return 0, 0
	}
	size = l.Scalars[0].Size
	if size != 4 && size != 8 {
		return 0, 0
	}
	// A run of leaves (Count > 1) is aligned throughout if its first is:
	// its leaves are size apart.
	for _, s := range l.Scalars {
		if !s.Float || s.Size != size || s.Offset%size != 0 {
			return 0, 0
		}
	}
	if l.Size%size != 0 || l.Size/size > 4 {
		return 0, 0
	}
	return int(l.Size / size), size
}

// Struct adds a struct or union argument passed by value, copying *p.
//
//go:nosplit
func (f *Frame) Struct(p unsafe.Pointer, l *Layout) {
	if n, size := hfa(l); n > 0 {
		// C.2: an HFA goes to consecutive SIMD registers, one member each.
		if int(f.nfloat)+n <= numFloatRegs {
			for i := range n {
				f.floats[f.nfloat] = load64(unsafe.Add(p, uintptr(i)*size), size)
				f.nfloat++
			}
			return
		}
		// C.3: if they do not all fit, no later argument uses them either.
		f.nfloat = numFloatRegs
		f.pushBytes(p, l.Size, l.Align)
		return
	}
	if l.Size > 16 {
		// Stage B: replaced by a pointer to a copy made by the caller.
		if q, ok := f.copyArg(p, l.Size, l.Align); ok {
			f.Int(q)
		}
		return
	}
	n := count((l.Size + 7) / 8)
	nint := f.nint
	if l.Align >= 16 {
		nint = (nint + 1) &^ 1 // C.8: 16-byte aligned starts at an even register
	}
	if nint+n <= numIntRegs {
		f.nint = nint
		for i := range uintptr(n) {
			f.ints[f.nint] = uintptr(load64(unsafe.Add(p, i*8), min(8, l.Size-i*8)))
			f.nint++
		}
		return
	}
	// C.11-C.13: not enough registers: the whole aggregate goes on the stack and
	// no later argument uses general-purpose registers.
	f.nint = numIntRegs
	f.pushBytes(p, l.Size, l.Align)
}

// copyArg copies an aggregate into the top of the Frame's stack area and
// returns its address, a pointer into the caller's stack kept as a uintptr
// (see the stack invariant on Frame).
//
//go:nosplit
func (f *Frame) copyArg(p unsafe.Pointer, size, align uintptr) (uintptr, bool) {
	n := (size + 7) / 8
	if align > 8 {
		n++ // room to round the address up to 16
	}
	if uintptr(f.nstack)+uintptr(f.ncopy)+n > numStackWords {
		f.flags |= flagOverflow
		return 0, false
	}
	f.ncopy += count(n)
	q := unsafe.Pointer(&f.stack[numStackWords-int(f.ncopy)])
	if align > 8 {
		q = unsafe.Add(q, uintptr(q)&8) // 8 -> 16-byte alignment
	}
	copyBytes(q, p, size)
	return uintptr(q), true
}

// StructResult declares that the function returns a struct or union by
// value into *dst. It must be called before any argument is added. A result
// larger than 16 bytes that is not an HFA is written by the callee through
// x8 = dst; smaller ones and HFAs come back in registers and
// [Frame.RetStruct] copies them out. Generated code always pairs
// StructResult with RetStruct on the same dst.
//
//go:nosplit
func (f *Frame) StructResult(dst unsafe.Pointer, l *Layout) {
	if f.nint != 0 || f.nfloat != 0 || f.nstack != 0 || f.ncopy != 0 {
		f.flags |= flagOrder
		return
	}
	if n, _ := hfa(l); n == 0 && l.Size > 16 {
		f.flags |= flagMemResult
		f.x8 = uintptr(dst)
	}
}

// RetStruct copies a struct result returned in registers into *dst. For a
// result returned in memory it does nothing: the callee already wrote *dst.
func (f *Frame) RetStruct(dst unsafe.Pointer, l *Layout) {
	if f.flags&flagMemResult != 0 {
		return
	}
	if n, size := hfa(l); n > 0 {
		// One member per register: s0-s3 or d0-d3.
		for i := range n {
			copyBytes(unsafe.Add(dst, uintptr(i)*size), unsafe.Pointer(&f.floats[i]), size)
		}
		return
	}
	if l.Size > 16 {
		return
	}
	copyBytes(dst, unsafe.Pointer(&f.ints[0]), l.Size) // x0, x1 are adjacent
}
