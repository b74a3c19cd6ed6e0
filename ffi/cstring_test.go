//go:build linux && (amd64 || arm64)

package ffi

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// edgePages maps two pages: the first readable and filled with fill, the
// second made unreadable (PROT_NONE), or unmapped when unmap. It returns
// the first page; the mapping is removed at the end of the test.
func edgePages(t testing.TB, fill byte, unmap bool) []byte {
	t.Helper()
	page := os.Getpagesize()
	m, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	for i := range page {
		m[i] = fill
	}
	if unmap {
		_, _, errno := syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(&m[page])), uintptr(page), 0)
		if errno != 0 {
			t.Fatal(errno)
		}
	} else if err := syscall.Mprotect(m[page:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	return m[:page]
}

// TestGoStringBounded: a C string with no NUL before an unreadable page
// (PROT_NONE) or an unmapped one is read up to the page and no further,
// without a fault; a string longer than the bound is cut at it; NULL is
// "".
func TestGoStringBounded(t *testing.T) {
	for _, unmap := range []bool{false, true} {
		b := edgePages(t, 'x', unmap)
		end := uintptr(unsafe.Pointer(&b[0])) + uintptr(len(b))
		if s := GoString(end-10, 1<<20); s != strings.Repeat("x", 10) {
			t.Errorf("unmap %v: the last 10 bytes of the page: %q", unmap, s)
		}
		// From the page's start: the whole page, and not a byte more.
		if n := CStringLen(end-uintptr(len(b)), len(b)+500); n != len(b) {
			t.Errorf("unmap %v: the whole page: %d bytes, want %d", unmap, n, len(b))
		}
		if s := GoString(end-uintptr(len(b)), 7); s != "xxxxxxx" {
			t.Errorf("bound 7: %q", s)
		}
	}
	b := edgePages(t, 'y', false)
	copy(b[len(b)-8:], "tail\x00")
	if s := GoString(uintptr(unsafe.Pointer(&b[len(b)-8])), 4096); s != "tail" {
		t.Errorf("a NUL-terminated string at the page end: %q", s)
	}
	if GoString(0, 10) != "" || CStringLen(0, 10) != 0 {
		t.Error("NULL is not empty")
	}
}

// TestGoStringAcrossPages: a string that crosses into a readable page is
// read on (the probe is consulted there, not a stop).
func TestGoStringAcrossPages(t *testing.T) {
	page := os.Getpagesize()
	m, err := syscall.Mmap(-1, 0, 3*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(m)
	for i := range 2 * page {
		m[i] = 'a'
	}
	m[page+100] = 0
	syscall.Mprotect(m[2*page:], syscall.PROT_NONE)
	if n := CStringLen(uintptr(unsafe.Pointer(&m[page-50])), 1<<20); n != 150 {
		t.Errorf("across the boundary: %d, want 150", n)
	}
	m[page+100] = 'a'
	if n := CStringLen(uintptr(unsafe.Pointer(&m[10])), 1<<20); n != 2*page-10 {
		t.Errorf("two pages without a NUL: %d, want %d", n, 2*page-10)
	}
}

// TestCStringFirstPageProbed: a C string that starts in memory that cannot
// be read (the pointer 0x10, a PROT_NONE page, an unmapped one) is "",
// with no fault: the first page is probed like the others. Was (issue
// 37): the page a string starts in was trusted, so a driver whose
// error-string function returned 0x10 made cu.Result.Error() panic (a nil
// dereference in CStringLen), and an unmapped page killed the process.
func TestCStringFirstPageProbed(t *testing.T) {
	for _, unmap := range []bool{false, true} {
		b := edgePages(t, 'x', unmap)
		bad := uintptr(unsafe.Pointer(&b[0])) + uintptr(len(b)) // the second page
		if n := CStringLen(bad, 100); n != 0 {
			t.Errorf("unmap %v: CStringLen at an unreadable page's start = %d", unmap, n)
		}
		if s := GoString(bad+5, 100); s != "" {
			t.Errorf("unmap %v: GoString inside an unreadable page = %q", unmap, s)
		}
	}
	for _, p := range []uintptr{0x10, 0xfff, 1 << 47} {
		if n := CStringLen(p, 100); n != 0 {
			t.Errorf("CStringLen(%#x) = %d, want 0", p, n)
		}
	}
}
