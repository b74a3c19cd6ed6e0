package cuda

import (
	"errors"
	"strings"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

func (f *fakeDriver) memAllocPitch(width, height uint64, elem uint32) (cu.Deviceptr, uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if elem != 4 && elem != 8 && elem != 16 {
		f.t.Errorf("cuMemAllocPitch with ElementSizeBytes %d", elem)
	}
	pitch := (width + 511) &^ 511
	p := f.next
	f.next += pitch * height
	f.live[p] = true
	return cu.Deviceptr(p), pitch, nil
}

// TestPitched: the allocation's shape and pitch, the copy descriptors in
// both directions, misuse and the lifetimes.
func TestPitched(t *testing.T) {
	f, c := newFake(t)
	type rgb struct{ R, G, B float32 }
	p, err := AllocPitched[rgb](c, 100, 3)
	if err != nil {
		t.Fatal(err)
	}
	if p.Width() != 100 || p.Height() != 3 || p.Pitch() != 1536 || p.Ptr() == 0 {
		t.Errorf("%d × %d, pitch %d at %#x", p.Width(), p.Height(), p.Pitch(), p.Ptr())
	}
	host := make([]rgb, 300)
	hp := unsafe.Pointer(&host[0])
	up := p.copy2D(hp, true)
	want := cu.CudaMemcpy2D{
		SrcMemoryType: cu.MemorytypeHost, SrcHost: hp, SrcPitch: 1200,
		DstMemoryType: cu.MemorytypeDevice, DstDevice: p.Ptr(), DstPitch: 1536,
		WidthInBytes: 1200, Height: 3,
	}
	if up != want {
		t.Errorf("to the device: %+v, want %+v", up, want)
	}
	down := p.copy2D(hp, false)
	want = cu.CudaMemcpy2D{
		SrcMemoryType: cu.MemorytypeDevice, SrcDevice: p.Ptr(), SrcPitch: 1536,
		DstMemoryType: cu.MemorytypeHost, DstHost: hp, DstPitch: 1200,
		WidthInBytes: 1200, Height: 3,
	}
	if down != want {
		t.Errorf("to the host: %+v, want %+v", down, want)
	}
	for _, c := range []struct {
		size uint64
		want uint32
	}{{1, 4}, {2, 4}, {4, 4}, {12, 4}, {8, 8}, {24, 8}, {16, 16}, {48, 16}} {
		if got := pitchElem(c.size); got != c.want {
			t.Errorf("pitchElem(%d) = %d, want %d", c.size, got, c.want)
		}
	}
	if err := p.CopyFrom(make([]rgb, 299)); err == nil || !strings.Contains(err.Error(), "299 elements for a 100 × 3 array") {
		t.Errorf("CopyFrom of 299: %v", err)
	}
	if err := p.CopyToAsync(nil, make([]rgb, 300)); !errors.Is(err, errNilStream) {
		t.Errorf("CopyToAsync on a nil stream: %v", err)
	}
	if _, err := AllocPitched[float32](c, -1, 2); err == nil {
		t.Error("negative width: no error")
	}
	if _, err := AllocPitched[float64](c, 1<<40, 1<<40); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("2^80 elements: %v", err)
	}
	if _, err := AllocPitched[[]int](c, 1, 1); err == nil {
		t.Error("AllocPitched[[]int]: no error")
	}
	empty, err := AllocPitched[byte](c, 0, 10)
	if err != nil || empty.Ptr() != 0 {
		t.Fatalf("0 × 10: %#x, %v", empty.Ptr(), err)
	}
	if err := empty.CopyFrom(nil); err != nil {
		t.Errorf("CopyFrom nil into 0 × 10: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.CopyFrom(host); !errors.Is(err, ErrFreed) {
		t.Errorf("CopyFrom after Close: %v", err)
	}
	if err := p.Close(); !errors.Is(err, ErrFreed) {
		t.Errorf("second Close: %v", err)
	}
	empty.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}
