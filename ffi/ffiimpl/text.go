package ffiimpl

import (
	"fmt"
	"strconv"
	"sync/atomic"
	"unsafe"

	"github.com/cugen/cugen/ffi"
)

// CString returns s as a NUL-terminated C string. The result is Go memory:
// pass it to C only for the duration of a call (runtime.KeepAlive it).
func CString(s string) *byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return &b[0]
}

// OptCString is CString for a C string the callee allows to be NULL: nil
// for a nil s, which C receives as NULL ("" is a string, not NULL).
func OptCString(s *string) *byte {
	if s == nil {
		return nil
	}
	return CString(*s)
}

// MaxString is the most bytes GoString reads of a C string: a string
// without a NUL within them is cut there. It is far above any CUDA string
// (error texts are a line; a kernel's mangled name of heavy template
// code may run to a few KiB).
const MaxString = 64 << 10

// GoString returns the NUL-terminated C string at p ("" for NULL) as a Go
// string, read as [ffi.GoString] reads it: at most [MaxString] bytes, and
// never past readable memory, so a string without a NUL before an
// unmapped page is cut there instead of faulting. CUDA's strings are
// mostly static (error names and messages), so the last string seen at
// each address is kept in a small cache and reused when the bytes at p
// still equal it: the steady state allocates nothing, and a changed string
// is never returned stale.
func GoString(p uintptr) string {
	if p == 0 {
		return ""
	}
	c := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(nil), p)), ffi.CStringLen(p, MaxString))
	slot := &stringCache[(p>>3)%uintptr(len(stringCache))]
	if e := slot.Load(); e != nil && e.addr == p && e.s == unsafe.String(unsafe.SliceData(c), len(c)) {
		return e.s
	}
	s := string(c)
	slot.Store(&cachedString{addr: p, s: s})
	return s
}

type cachedString struct {
	addr uintptr
	s    string
}

// stringCache maps a C string's address to the Go string last made from it.
var stringCache [512]atomic.Pointer[cachedString]

// GoStringN returns the NUL-terminated string at the start of b (all of b
// if it has no NUL).
func GoStringN(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// UnknownName is the String of an enum value the header does not name:
// "CUresult(999)".
func UnknownName(ctype string, v int64) string {
	return ctype + "(" + strconv.FormatInt(v, 10) + ")"
}

// CStrings returns NUL-terminated copies of ss as the array of char
// pointers a C `const char **` with a count takes (nil for no strings).
// The caller keeps the slice alive through the call: it holds the copies.
func CStrings(ss []string) []*byte {
	if len(ss) == 0 {
		return nil
	}
	out := make([]*byte, len(ss))
	for i, s := range ss {
		out[i] = CString(s)
	}
	return out
}

// LengthMismatch is the error of a wrapper whose two slice parameters
// share one C count (nvrtcCreateProgram's headers and includeNames) but
// differ in length: the C function would read past the shorter one.
func LengthMismatch(fn, a string, na int, b string, nb int) error {
	return fmt.Errorf("%s: len(%s) = %d but len(%s) = %d: they share one count", fn, a, na, b, nb)
}

// CopyOut returns a copy of the C struct of Go type T at p, or nil if p is
// 0: the const struct a function returns a pointer to (nppGetLibVersion's
// static NppLibraryVersion), read once, so that no Go value aliases C
// memory. T's layout is the C struct's (emit checks it).
func CopyOut[T any](p uintptr) *T {
	if p == 0 {
		return nil
	}
	v := *(*T)(unsafe.Add(unsafe.Pointer(nil), p))
	return &v
}
