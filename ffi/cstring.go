package ffi

import (
	"bytes"
	"unsafe"
)

// GoString returns the NUL-terminated C string at p ("" for NULL) as a Go
// string, read with [CStringLen]'s bounds: at most max bytes, and never
// past readable memory. A string that has no NUL within them is cut
// there. Every C string cugen reads from a library goes through here (the
// generated packages through package ffiimpl's GoString).
func GoString(p uintptr, max int) string {
	n := CStringLen(p, max)
	if n == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(nil), p)), n))
}

// CStringLen returns the length of the NUL-terminated C string at p (0 for
// NULL), reading at most max bytes: with no NUL among them it returns max.
// It reads no byte of a page before it knows the page readable, the first
// page included: a library hands out any pointer (a driver's error-string
// function returned 0x10, issue 37), so each page the string reaches is
// probed first ([Readable]: a write of one byte of it to a pipe, which
// fails with EFAULT for memory that is unmapped or unreadable instead of
// faulting the process). A string that starts in such a page is ""; one
// that runs into one ends where the page starts. A string within one page,
// as CUDA's error texts are, costs one probe. Where there is no probe
// (neither Linux nor Windows) every string is "".
func CStringLen(p uintptr, max int) int {
	if p == 0 {
		return 0
	}
	n := 0
	for n < max {
		a := p + uintptr(n)
		if a < p { // wrapped around the address space
			return n
		}
		if !readable(a) {
			return n
		}
		// The rest of a's page, at most what max leaves, is readable.
		chunk := min(probePage-int(a%probePage), max-n)
		if i := bytes.IndexByte(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(nil), a)), chunk), 0); i >= 0 {
			return n + i
		}
		n += chunk
	}
	return n
}

// probePage is the granule readable is asked at: 4 KiB, no larger than
// any page of linux/amd64 or linux/arm64 (4, 16 or 64 KiB), so that every
// page boundary is one of its multiples.
const probePage = 4096
