package ffi

import (
	"strconv"
	"unsafe"
)

// CString returns s as a NUL-terminated C string. The result is Go memory:
// pass it to C only for the duration of a call (runtime.KeepAlive it).
func CString(s string) *byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return &b[0]
}

// GoString copies the NUL-terminated C string at p ("" for NULL).
func GoString(p uintptr) string {
	if p == 0 {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(nil), p+uintptr(n))) != 0 {
		n++
	}
	return string(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(nil), p)), n))
}

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
