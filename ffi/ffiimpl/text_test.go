package ffiimpl

import (
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
