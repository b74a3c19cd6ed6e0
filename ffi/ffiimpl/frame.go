//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffiimpl

import (
	"errors"
	"math"
	"unsafe"
)

// A Frame is the register image of one C call: integer registers, floating
// point registers and outgoing stack words, plus counters. For a signature
// [CallInts] cannot take (a float or a struct by value, more than six
// arguments, a float or struct result) generated code declares one on its
// stack, adds the arguments in C declaration order and calls [Call]:
//
//	var f ffiimpl.Frame
//	f.Int(uintptr(unsafe.Pointer(&out))) // pointers, integers of any width
//	f.Float64(x)
//	f.Struct(unsafe.Pointer(&s), &layoutS) // struct or union by value
//	ffiimpl.Call(fn, &f)
//	r := int32(f.Ret())
//
// Integer arguments narrower than 64 bits are passed as the caller extends
// them: uintptr(int32(v)) sign-extends, uintptr(uint32(v)) zero-extends.
// Results are raw registers: the bits above the C result type's width are
// unspecified, so convert Ret to the C type's width (int32(f.Ret())).
//
// # Stack invariant
//
// A pointer to an object on the goroutine stack (an out-parameter, a struct
// result, on arm64 the Frame itself for a by-reference struct copy) is
// stored in the Frame as a uintptr, which the runtime does not update if it
// moves the stack. That is safe because nothing between the store and the C
// call can move it: the Frame methods and Call are go:nosplit and call only
// nosplit code (memmove, runtime.cgocall), and the runtime does not shrink
// a stack while its goroutine is in a C call or stopped at an asynchronous
// safe point. Hence the rules for generated code:
//
//   - Compute everything first (the function address from [Proc.Addr],
//     converted arguments, anything that calls a function), then add the
//     arguments and Call with nothing but Frame methods in between. A call
//     in between, even the fn argument of Call itself, may grow the stack
//     and leave a stale address in the Frame: C then reads or writes a
//     dead copy of the object.
//   - After Call, runtime.KeepAlive every object whose address was added:
//     heap objects so the collector keeps them, stack objects so the
//     compiler does not reuse their slots while C uses them.
//
// The invariant fails if C runs Go code on the calling goroutine during the
// call: a callback made on the calling thread (cuOccupancyMaxPotentialBlockSize
// calls its block-size function before it returns) runs on the goroutine's
// stack and may grow it, moving everything on it. Wrappers that pass a Go
// callback therefore use [NewHeapFrame] and heap outputs ([Escape]).
//
// # Capacity
//
// A Frame has room for every CUDA signature: 32 stack words, where the
// hungriest generated call needs 20 (cusolverDnXgesvdr's 26 arguments on
// amd64; TestGeneratedSignaturesFit replays every generated call), and
// by-value structs up to the 64-byte IPC handles. An argument that does not
// fit is not added: the Frame records the overflow, Call returns without
// calling the function, and [Frame.Err] reports [ErrFrameOverflow]. Nothing
// panics. Generated code checks Err after Call.
//
// A Frame is used for one call; its zero value is ready to use.
type Frame frame

// ErrFrameOverflow is returned by [Frame.Err] when the arguments did not fit
// in a Frame; the C function was not called.
var ErrFrameOverflow = errors.New("ffi: arguments do not fit in a Frame; the function was not called")

// ErrFrameOrder is returned by [Frame.Err] when StructResult was called after
// an argument was added; the C function was not called.
var ErrFrameOrder = errors.New("ffi: Frame.StructResult must come before the arguments; the function was not called")

// ErrNilFunc is returned by [Frame.Err] when Call was given a zero function
// address, and is the value [CallInts] panics with for one; nothing was
// called.
var ErrNilFunc = errors.New("ffi: Call of a nil function pointer")

// Frame.flags bits.
const (
	flagOverflow  = 1 << iota // an argument did not fit
	flagOrder                 // StructResult after arguments
	flagNilFunc               // Call with fn == 0
	flagMemResult             // the struct result is written through a pointer

	flagsFailed = flagOverflow | flagOrder | flagNilFunc
)

// Layout describes a C struct or union type passed or returned by value.
// The generator emits one per such type as a package-level variable; it must
// not be modified while calls use it.
type Layout struct {
	Size, Align uintptr
	// Scalars lists every scalar leaf, flattened through nested structs,
	// arrays and unions, in offset order. Pointers, enums and integers of
	// every width have Float false; float and double have Float true.
	// Equal leaves laid end to end (an array) may be one Scalar with a
	// Count.
	Scalars []Scalar
}

// Scalar is one scalar leaf of a [Layout], or with Count > 1 a run of Count
// equal leaves, each Size bytes after the one before.
type Scalar struct {
	Offset, Size uintptr
	Float        bool
	Count        uintptr // leaves in the run; 0 means 1
}

// leaves returns the number of leaves s stands for.
//
//go:nosplit
func (s Scalar) leaves() uintptr { return max(s.Count, 1) }

// Call calls the C function at fn with the arguments in f and leaves the
// results in f. If f recorded an error (see [Frame.Err]) or fn is zero, Call
// returns without calling anything.
//
// Call does not retain f: the Frame stays on the caller's stack (the
// compiler infers this from runtime_cgocall's go:noescape; the tests check
// it). It is go:nosplit for the stack invariant described on [Frame].
//
//go:nosplit
func Call(fn uintptr, f *Frame) {
	if fn == 0 {
		f.flags |= flagNilFunc
	}
	if f.flags&flagsFailed != 0 {
		return
	}
	f.fn = fn
	runtime_cgocall(trampolineABI0, unsafe.Pointer(f))
}

// Err returns nil if the Frame is well formed, which after Call means the
// function was called; otherwise it says why Call did not call it:
// [ErrFrameOverflow], [ErrFrameOrder] or [ErrNilFunc].
func (f *Frame) Err() error {
	switch {
	case f.flags&flagOverflow != 0:
		return ErrFrameOverflow
	case f.flags&flagOrder != 0:
		return ErrFrameOrder
	case f.flags&flagNilFunc != 0:
		return ErrNilFunc
	}
	return nil
}

// Int adds an integer or pointer argument. Narrower C integer types are
// passed sign- or zero-extended by the caller.
//
//go:nosplit
func (f *Frame) Int(v uintptr) {
	// n is read once: re-reading f.nint after the indexed store would put a
	// second store-to-load round trip on the chain through every argument.
	if n := f.nint; n < numIntRegs {
		f.ints[n] = v
		f.nint = n + 1
		return
	}
	f.push(v)
}

// Float64 adds a double argument.
//
//go:nosplit
func (f *Frame) Float64(v float64) {
	f.float(math.Float64bits(v))
}

// Float32 adds a float argument (in the low 32 bits of its register or
// stack slot, as both ABIs want it).
//
//go:nosplit
func (f *Frame) Float32(v float32) {
	f.float(uint64(math.Float32bits(v)))
}

// Ret returns the integer result register (rax on amd64, x0 on arm64).
func (f *Frame) Ret() uintptr { return f.ints[0] }

// RetFloat64 returns a double result.
func (f *Frame) RetFloat64() float64 { return math.Float64frombits(f.floats[0]) }

// RetFloat32 returns a float result.
func (f *Frame) RetFloat32() float32 { return math.Float32frombits(uint32(f.floats[0])) }

// push adds one word to the outgoing stack area.
//
//go:nosplit
func (f *Frame) push(v uintptr) {
	n := f.nstack
	if int(n) >= f.stackRoom() {
		f.flags |= flagOverflow
		return
	}
	f.stack[n] = v
	f.nstack = n + 1
}

// pushBytes copies a by-value aggregate onto the outgoing stack area, in
// whole 8-byte words (the tail of the last word stays zero), aligned to 16
// bytes when the type is.
//
//go:nosplit
func (f *Frame) pushBytes(p unsafe.Pointer, size, align uintptr) {
	i := uintptr(f.nstack)
	if align > 8 {
		i = (i + 1) &^ 1
	}
	n := (size + 7) / 8
	if i+n > uintptr(f.stackRoom()) {
		f.flags |= flagOverflow
		return
	}
	copyBytes(unsafe.Pointer(&f.stack[i]), p, size)
	f.nstack = count(i + n)
}

// copyBytes is memmove; unsafe.Slice+copy compiles to runtime.memmove,
// which is nosplit.
//
//go:nosplit
func copyBytes(dst, src unsafe.Pointer, n uintptr) {
	copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
}

// load64 reads n <= 8 bytes at p as a little-endian word, zero-filled.
//
//go:nosplit
func load64(p unsafe.Pointer, n uintptr) uint64 {
	var w uint64
	copyBytes(unsafe.Pointer(&w), p, n)
	return w
}

// CallInts calls the C function at fn with up to six integer or pointer
// arguments (unused ones zero) and returns its integer result register:
// [Call] for the signatures most CUDA functions have, without a Frame. The
// arguments are loaded straight into registers (six is the number amd64
// passes in registers; arm64 passes eight), so there is no Frame to zero and
// no stack words or vector registers to load (BenchmarkCallIntsVsFrame:
// about 3 ns a call less), and a wrapper is a few lines shorter. The
// generator uses it for every function whose parameters are all integers
// and pointers, at most six, with an integer or void result and no Go
// callback.
//
// Arguments and result follow [Frame]'s conventions (callers extend narrow
// integers; convert the result to the C type's width), and the stack
// invariant described on [Frame] holds the same way: the arguments are
// evaluated with nothing that calls a function between them and the call,
// CallInts is go:nosplit and calls only nosplit code, and the caller keeps
// every object whose address it passed alive after the call.
//
// Nothing about the call can fail once fn is known: the arguments are
// registers, so unlike a Frame there is no capacity to exceed, and there is
// no error result. fn must be non-zero, as [Proc.Addr] returns it whenever
// its error is nil; a zero fn panics with [ErrNilFunc], as a call of a nil
// func value panics in Go, and calls nothing.
//
//go:nosplit
func CallInts(fn, a0, a1, a2, a3, a4, a5 uintptr) uintptr {
	if fn == 0 {
		panic(ErrNilFunc)
	}
	// Field by field: a composite literal is built in a temporary and
	// copied with 16-byte moves that read back the 8-byte stores just
	// made, a store-forwarding stall on every call (about 5 ns on the
	// H200 machine's Xeon).
	var c intsCall
	c.fn = fn
	c.args[0], c.args[1], c.args[2] = a0, a1, a2
	c.args[3], c.args[4], c.args[5] = a3, a4, a5
	runtime_cgocall(trampolineIntsABI0, unsafe.Pointer(&c))
	return c.ret
}

// intsCall is CallInts's argument block; call_GOARCH.s reads it through
// go_asm.h.
type intsCall struct {
	fn   uintptr
	args [6]uintptr
	ret  uintptr
}

//go:linkname runtime_cgocall runtime.cgocall
//go:noescape
func runtime_cgocall(fn uintptr, arg unsafe.Pointer) int32

// trampolineABI0 is the address of the assembly trampoline (ABI0 entry),
// set by a DATA directive in call_GOARCH.s.
var trampolineABI0 uintptr

// trampolineIntsABI0 is the address of CallInts's trampoline (ABI0 entry).
var trampolineIntsABI0 uintptr

// trampolineInts is CallInts's trampoline, implemented in call_GOARCH.s
// and entered like trampoline with the *intsCall as its one argument.
func trampolineInts()

// trampoline is implemented in call_GOARCH.s. It is never called from Go:
// runtime.cgocall (asmcgocall) calls it on the system stack with the C
// calling convention and the *Frame as its one argument.
func trampoline()
