//go:build linux && (amd64 || arm64)

package abitest_test

import (
	"errors"
	"syscall"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/emit/internal/abitest/cu"
)

// TestAlignedValueUnreadable: a misaligned pointer the host cannot read (a
// device address is one) is passed to C as it is, never dereferenced by Go:
// the fixture refuses it with its own error, and nothing faults.
func TestAlignedValueUnreadable(t *testing.T) {
	need(t)
	mem, err := syscall.Mmap(-1, 0, 2*4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[4096:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	p := (*cu.AbiAligned)(unsafe.Pointer(&mem[4096+8]))
	err = cu.AbiAlignedInOut(p, 1)
	if !errors.Is(err, cu.ErrorInvalidValue) {
		t.Fatalf("AbiAlignedInOut(unreadable, misaligned) = %v, want the fixture's CUDA_ERROR_INVALID_VALUE", err)
	}
}
