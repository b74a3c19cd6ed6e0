//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffi

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/ebitengine/purego"
)

// maxCallArgs is the most arguments [Call] passes: the integer argument
// registers of amd64 (six) and arm64 (eight) hold them all.
const maxCallArgs = 6

// errNilCall is Call's error for a zero function address.
var errNilCall = errors.New("ffi.Call: nil function pointer")

// Call calls the C function at address fn (from [Library.Lookup]), which
// takes at most six integer or pointer arguments and returns an integer
// or nothing, and returns its integer result register. The bits above the
// C result type's width are unspecified: convert the result to that width
// (int32(r) for an int or an enum). It is for tools that call a few
// functions by hand, such as cugen doctor and the version checks of
// [LibraryMajor] and [PropertyMajor]; the generated packages call through
// their own trampolines.
//
// Each argument is one of:
//
//   - an integer (int, int8 to int64, uint, uint8 to uint64, uintptr),
//     passed by value, a signed one sign-extended;
//   - a *int32, *uint32, *int64, *uint64 or *uintptr, or a []byte: C is
//     given the address of a copy in memory of ffi's on the heap (never on
//     a goroutine stack, which may move), and the copy is written back
//     once C returns; a nil pointer or an empty slice is passed as NULL.
//
// C must not keep such an address past the call. A zero fn, more than six
// arguments or an argument of another type is an error, and nothing is
// called.
func Call(fn uintptr, args ...any) (uintptr, error) {
	if fn == 0 {
		return 0, errNilCall
	}
	if len(args) > maxCallArgs {
		return 0, fmt.Errorf("ffi.Call: %d arguments, at most %d", len(args), maxCallArgs)
	}
	words := 0 // 8-byte words of the copies
	for i, a := range args {
		switch a := a.(type) {
		case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr:
		case *int32, *uint32, *int64, *uint64, *uintptr:
			words++
		case []byte:
			words += (len(a) + 7) / 8
		default:
			return 0, fmt.Errorf("ffi.Call: argument %d: %T is not an integer, a pointer to one or a []byte", i, a)
		}
	}
	var mem []uint64
	if words > 0 {
		mem = make([]uint64, words)
		callSink.Store(&mem[0]) // keep it on the heap, where nothing moves
		callSink.Store(nil)
	}
	var regs [maxCallArgs]uintptr
	w := 0
	word := func() unsafe.Pointer { w++; return unsafe.Pointer(&mem[w-1]) }
	for i, a := range args {
		var p unsafe.Pointer
		switch a := a.(type) {
		case int:
			regs[i] = uintptr(a)
		case int8:
			regs[i] = uintptr(a)
		case int16:
			regs[i] = uintptr(a)
		case int32:
			regs[i] = uintptr(a)
		case int64:
			regs[i] = uintptr(a)
		case uint:
			regs[i] = uintptr(a)
		case uint8:
			regs[i] = uintptr(a)
		case uint16:
			regs[i] = uintptr(a)
		case uint32:
			regs[i] = uintptr(a)
		case uint64:
			regs[i] = uintptr(a)
		case uintptr:
			regs[i] = a
		case *int32:
			if p = word(); a != nil {
				*(*int32)(p) = *a
			}
		case *uint32:
			if p = word(); a != nil {
				*(*uint32)(p) = *a
			}
		case *int64:
			if p = word(); a != nil {
				*(*int64)(p) = *a
			}
		case *uint64:
			if p = word(); a != nil {
				*(*uint64)(p) = *a
			}
		case *uintptr:
			if p = word(); a != nil {
				*(*uintptr)(p) = *a
			}
		case []byte:
			if len(a) > 0 {
				p = unsafe.Pointer(&mem[w])
				copy(unsafe.Slice((*byte)(p), len(a)), a)
				w += (len(a) + 7) / 8
			}
		}
		if p != nil && !isNilArg(a) {
			regs[i] = uintptr(p)
		}
	}
	r, _, _ := purego.SyscallN(fn, regs[:len(args)]...)
	runtime.KeepAlive(mem)
	w = 0
	for _, a := range args {
		switch a := a.(type) {
		case *int32:
			if p := word(); a != nil {
				*a = *(*int32)(p)
			}
		case *uint32:
			if p := word(); a != nil {
				*a = *(*uint32)(p)
			}
		case *int64:
			if p := word(); a != nil {
				*a = *(*int64)(p)
			}
		case *uint64:
			if p := word(); a != nil {
				*a = *(*uint64)(p)
			}
		case *uintptr:
			if p := word(); a != nil {
				*a = *(*uintptr)(p)
			}
		case []byte:
			if len(a) > 0 {
				copy(a, unsafe.Slice((*byte)(unsafe.Pointer(&mem[w])), len(a)))
				w += (len(a) + 7) / 8
			}
		}
	}
	return r, nil
}

// isNilArg reports whether a is a nil pointer argument of Call.
func isNilArg(a any) bool {
	switch a := a.(type) {
	case *int32:
		return a == nil
	case *uint32:
		return a == nil
	case *int64:
		return a == nil
	case *uint64:
		return a == nil
	case *uintptr:
		return a == nil
	}
	return false
}

// callSink makes Call's copies escape to the heap.
var callSink atomic.Pointer[uint64]
