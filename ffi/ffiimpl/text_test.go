//go:build linux

package ffiimpl

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// cString stands in for C memory: a global, so it never moves.
var cString [64]byte

func TestGoStringCacheNeverStale(t *testing.T) {
	buf := cString[:]
	copy(buf, "cudaErrorInvalidDevice\x00")
	p := uintptr(unsafe.Pointer(&buf[0]))
	if s := GoString(p); s != "cudaErrorInvalidDevice" {
		t.Fatalf("GoString = %q", s)
	}
	if n := testing.AllocsPerRun(100, func() { GoString(p) }); n != 0 {
		t.Errorf("repeated GoString of an unchanged C string: %v allocs, want 0", n)
	}
	copy(buf, "cudaSuccess\x00")
	if s := GoString(p); s != "cudaSuccess" {
		t.Fatalf("GoString after the C string changed = %q, want cudaSuccess", s)
	}
	if GoString(0) != "" {
		t.Fatal("GoString(NULL) is not empty")
	}
}

func TestGoStringN(t *testing.T) {
	if s := GoStringN([]byte("NVIDIA H200\x00garbage")); s != "NVIDIA H200" {
		t.Fatalf("GoStringN = %q", s)
	}
	if s := GoStringN([]byte("abc")); s != "abc" {
		t.Fatalf("GoStringN without NUL = %q", s)
	}
}

// TestGoStringAtUnreadablePage: the C string a library returns (a
// cuGetErrorString text, through the generated GetErrorString and
// Result.Error) with no NUL before an unreadable (PROT_NONE) or unmapped
// page is read up to that page. Before, GoString read on into it: the
// process died with "unexpected fault address" in cStrlen.
func TestGoStringAtUnreadablePage(t *testing.T) {
	page := os.Getpagesize()
	for _, unmap := range []bool{false, true} {
		m, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			t.Fatal(err)
		}
		defer syscall.Munmap(m)
		for i := range page {
			m[i] = 'e'
		}
		if unmap {
			if _, _, errno := syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(&m[page])), uintptr(page), 0); errno != 0 {
				t.Fatal(errno)
			}
		} else if err := syscall.Mprotect(m[page:], syscall.PROT_NONE); err != nil {
			t.Fatal(err)
		}
		if s := GoString(uintptr(unsafe.Pointer(&m[page-20]))); s != strings.Repeat("e", 20) {
			t.Errorf("unmap %v: %q, want the 20 bytes before the page", unmap, s)
		}
		if s := GoString(uintptr(unsafe.Pointer(&m[0]))); len(s) != min(page, MaxString) {
			t.Errorf("unmap %v: a page without a NUL: %d bytes, want %d", unmap, len(s), min(page, MaxString))
		}
	}
}

// BenchmarkGoString: an unchanged error text read again, as Result.Error
// does. The text lies within one page, as CUDA's do, so no page is probed
// (no system call): about 12 ns on the 2-core build machine.
func BenchmarkGoString(b *testing.B) {
	copy(cString[:], "cudaErrorInvalidDevice\x00")
	p := uintptr(unsafe.Pointer(&cString[0]))
	for b.Loop() {
		GoString(p)
	}
}
