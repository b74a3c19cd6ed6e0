package cuda

import (
	"testing"
	"unsafe"
)

type float4Arg struct {
	_          Align16
	X, Y, Z, W float32
}

type float4Go struct{ X, Y, Z, W float32 }

// A struct led by Align16 packs at a 16-byte boundary, as CUDA's float4
// does; the same fields without it pack at Go's 4.
func TestPackAlign16(t *testing.T) {
	if unsafe.Sizeof(float4Arg{}) != 16 {
		t.Fatalf("Align16 takes space: size %d", unsafe.Sizeof(float4Arg{}))
	}
	k := &Kernel{name: "k"}
	buf := make([]uint64, 8)
	offs := make([]int, 2)
	_, end, err := k.pack([]any{int32(7), float4Arg{X: 1, Y: 2, Z: 3, W: 4}}, buf, offs)
	if err != nil {
		t.Fatal(err)
	}
	if offs[1] != 16 || end != 32 {
		t.Errorf("float4 with Align16 at %d (end %d), want 16 (end 32)", offs[1], end)
	}
	if got := *(*float32)(unsafe.Pointer(uintptr(unsafe.Pointer(&buf[0])) + 28)); got != 4 {
		t.Errorf("W packed as %v", got)
	}
	_, _, err = k.pack([]any{int32(7), float4Go{}}, buf, offs)
	if err != nil {
		t.Fatal(err)
	}
	if offs[1] != 4 {
		t.Errorf("float4 without Align16 at %d, want Go's 4", offs[1])
	}
}
