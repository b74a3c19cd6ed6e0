package cuda

import (
	"testing"
	"unsafe"
)

// TestAlignScalar: whatever the HostScalar's own address (all 16 residues
// are tried), AlignScalar's copy is 16-byte aligned, inside the HostScalar,
// and holds the value; nothing is allocated. A complex128 is only 8-byte
// aligned in Go, and cublasZaxpy faulted on one at 8 mod 16.
func TestAlignScalar(t *testing.T) {
	var buf [16 + unsafe.Sizeof(HostScalar{})]byte
	for off := range 16 {
		s := (*HostScalar)(unsafe.Pointer(&buf[off]))
		want := complex(1.5, -2.25)
		p := AlignScalar(s, want)
		lo, hi := uintptr(unsafe.Pointer(s)), uintptr(unsafe.Pointer(s))+unsafe.Sizeof(*s)
		if a := uintptr(p); a%16 != 0 || a < lo || a+16 > hi {
			t.Fatalf("offset %d: copy at %#x, want 16-byte aligned in [%#x, %#x)", off, a, lo, hi)
		}
		if got := *(*complex128)(p); got != want {
			t.Errorf("offset %d: copy holds %v, want %v", off, got, want)
		}
		if AlignedIn(s) != p {
			t.Errorf("offset %d: AlignedIn %p, AlignScalar %p", off, AlignedIn(s), p)
		}
		if f := AlignScalar(s, float32(3)); uintptr(f)%16 != 0 || *(*float32)(f) != 3 {
			t.Errorf("offset %d: float32 copy at %p holds %v", off, f, *(*float32)(f))
		}
	}
	var sink uintptr
	allocs := testing.AllocsPerRun(100, func() {
		var s HostScalar
		sink += uintptr(AlignScalar(&s, complex(1, 2))) % 16
	})
	if allocs != 0 || sink != 0 {
		t.Errorf("AlignScalar on the stack: %v allocations, misaligned sum %d; want 0, 0", allocs, sink)
	}
	defer func() {
		if recover() == nil {
			t.Error("AlignScalar of a 24-byte value did not panic")
		}
	}()
	var s HostScalar
	AlignScalar(&s, [3]float64{})
}
