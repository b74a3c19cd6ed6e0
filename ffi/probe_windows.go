//go:build windows && amd64

package ffi

import (
	"unsafe"
)

var procVirtualQuery = kernel32.NewProc("VirtualQuery")

// memoryBasicInformation is MEMORY_BASIC_INFORMATION of 64-bit Windows.
type memoryBasicInformation struct {
	BaseAddress       uintptr
	AllocationBase    uintptr
	AllocationProtect uint32
	PartitionID       uint16
	_                 uint16
	RegionSize        uintptr
	State             uint32
	Protect           uint32
	Type              uint32
	_                 uint32
}

const (
	memCommit = 0x1000
	pageGuard = 0x100
	// The protections that allow a read: PAGE_READONLY, PAGE_READWRITE,
	// PAGE_WRITECOPY and their PAGE_EXECUTE_ forms.
	pageReadable = 0x02 | 0x04 | 0x08 | 0x20 | 0x40 | 0x80
)

// readable reports whether the byte at a can be read.
func readable(a uintptr) bool { return Readable(a, 1) }

// Readable reports whether the n bytes at a can be read without a fault:
// VirtualQuery says, region by region, whether the memory is committed
// and readable (not PAGE_NOACCESS, PAGE_EXECUTE or a guard page).
// Generated wrappers ask it before they copy a value that C must see at
// an alignment Go does not give (see ffiimpl.AlignedIn).
func Readable(a, n uintptr) bool {
	for n > 0 {
		var m memoryBasicInformation
		r, _, _ := procVirtualQuery.Call(a, uintptr(unsafe.Pointer(&m)), unsafe.Sizeof(m))
		if r == 0 || m.State != memCommit || m.Protect&pageGuard != 0 || m.Protect&pageReadable == 0 {
			return false
		}
		end := m.BaseAddress + m.RegionSize
		if end <= a { // no progress: not a region VirtualQuery should give
			return false
		}
		if end-a >= n {
			return true
		}
		n -= end - a
		a = end
	}
	return true
}
