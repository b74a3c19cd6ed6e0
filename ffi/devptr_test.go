package ffi_test

import (
	"testing"
	"unsafe"

	"github.com/cugen/cugen/ffi"
)

// TestDevicePtr: a DevicePtr is one 64-bit word (what the wrappers pass
// C), Add steps by whole elements, and Addr and Pointer keep the address.
func TestDevicePtr(t *testing.T) {
	if s := unsafe.Sizeof(ffi.DevicePtr[complex128](0)); s != 8 {
		t.Fatalf("DevicePtr is %d bytes, want 8", s)
	}
	p := ffi.DevicePtr[float64](0x7f0000001000)
	if q := p.Add(3); q != 0x7f0000001018 {
		t.Errorf("Add(3) = %#x, want %#x", uint64(q), 0x7f0000001018)
	}
	if q := p.Add(-2); q != 0x7f0000000ff0 {
		t.Errorf("Add(-2) = %#x, want %#x", uint64(q), 0x7f0000000ff0)
	}
	if q := ffi.DevicePtr[ffi.DevicePtr[float32]](p).Add(1); q != 0x7f0000001008 {
		t.Errorf("an array of device pointers steps by 8: Add(1) = %#x", uint64(q))
	}
	if a := p.Addr(); a != 0x7f0000001000 || uintptr(a.Pointer()) != 0x7f0000001000 || uintptr(p.Pointer()) != 0x7f0000001000 {
		t.Errorf("Addr %#x, Pointer %p, %p: want the address unchanged", uint64(a), a.Pointer(), p.Pointer())
	}
}

// TestHostOrDevice: Host passes the Go variable's address, Device the
// device address, the zero value NULL; Untyped keeps each.
func TestHostOrDevice(t *testing.T) {
	x := float32(2)
	h := ffi.Host(&x)
	if h.Pointer() != unsafe.Pointer(&x) || h.Untyped().Pointer() != unsafe.Pointer(&x) {
		t.Errorf("Host(&x).Pointer() = %p, want %p", h.Pointer(), &x)
	}
	d := ffi.Device(ffi.DevicePtr[float32](0x7f0000002000))
	if uintptr(d.Pointer()) != 0x7f0000002000 || uintptr(d.Untyped().Pointer()) != 0x7f0000002000 {
		t.Errorf("Device(p).Pointer() = %p, want 0x7f0000002000", d.Pointer())
	}
	var z ffi.HostOrDevice[float64]
	var za ffi.HostOrDeviceAddr
	if z.Pointer() != nil || za.Pointer() != nil || z.Untyped().Pointer() != nil {
		t.Errorf("the zero value is not NULL: %p, %p", z.Pointer(), za.Pointer())
	}
}
