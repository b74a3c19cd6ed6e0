package cuda

import (
	"errors"
	"slices"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// The fake driver's copies, fills and events (copyDriver, streamDriver):
// device memory is Go memory behind the fake's addresses, made on the
// first copy into an allocation, and each call checks that the bytes it
// touches lie in one live allocation.

// fakeCopies is the fake's device memory.
type fakeCopies struct {
	size  map[uint64]uint64 // memAlloc's allocations: base -> bytes
	bytes map[uint64][]byte // their contents, once copied to
	calls int               // copies and fills
}

// dev returns the n bytes at p, in the live allocation that holds them;
// nil after failing the test if none does. f.mu is held.
func (f *fakeDriver) dev(call string, p cu.Deviceptr, n uint64) []byte {
	f.cp.calls++
	for base, size := range f.cp.size {
		if uint64(p) < base || uint64(p)+n > base+size {
			continue
		}
		if !f.live[base] {
			break
		}
		if f.cp.bytes == nil {
			f.cp.bytes = map[uint64][]byte{}
		}
		b := f.cp.bytes[base]
		if b == nil {
			b = make([]byte, size)
			f.cp.bytes[base] = b
		}
		off := uint64(p) - base
		return b[off : off+n]
	}
	f.t.Errorf("%s of %d bytes at %#x: no live allocation holds them", call, n, uint64(p))
	return nil
}

func host(p unsafe.Pointer, n uint64) []byte { return unsafe.Slice((*byte)(p), n) }

func (f *fakeDriver) copyDev(call string, dst, src cu.Deviceptr, n uint64) error {
	f.checkLive(call)
	f.mu.Lock()
	defer f.mu.Unlock()
	d, s := f.dev(call, dst, n), f.dev(call, src, n)
	if d == nil || s == nil {
		return cu.ErrorInvalidValue
	}
	copy(d, s)
	return nil
}

func (f *fakeDriver) memcpyHtoD(dst cu.Deviceptr, src unsafe.Pointer, n uint64, _ cu.Stream, _ bool) error {
	f.checkLive("cuMemcpyHtoD")
	f.mu.Lock()
	defer f.mu.Unlock()
	d := f.dev("cuMemcpyHtoD", dst, n)
	if d == nil {
		return cu.ErrorInvalidValue
	}
	copy(d, host(src, n))
	return nil
}

func (f *fakeDriver) memcpyDtoH(dst unsafe.Pointer, src cu.Deviceptr, n uint64, _ cu.Stream, _ bool) error {
	f.checkLive("cuMemcpyDtoH")
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.dev("cuMemcpyDtoH", src, n)
	if s == nil {
		return cu.ErrorInvalidValue
	}
	copy(host(dst, n), s)
	return nil
}

func (f *fakeDriver) memcpyDtoD(dst, src cu.Deviceptr, n uint64, _ cu.Stream, _ bool) error {
	return f.copyDev("cuMemcpyDtoD", dst, src, n)
}

// memcpyPeer: the fake has one context's memory; a copy between two
// fakes is refused.
func (f *fakeDriver) memcpyPeer(cu.Deviceptr, cu.Context, cu.Deviceptr, cu.Context, uint64, cu.Stream, bool) error {
	return errors.New("fake driver: no copies between contexts")
}

func (f *fakeDriver) memset(dst cu.Deviceptr, x uint32, w int, n uint64, _ cu.Stream, _ bool) error {
	f.checkLive("cuMemset")
	f.mu.Lock()
	defer f.mu.Unlock()
	d := f.dev("cuMemset", dst, n*uint64(w))
	if d == nil {
		return cu.ErrorInvalidValue
	}
	for i := range d {
		d[i] = byte(x >> (8 * (i % w)))
	}
	return nil
}

// event checks that e is an event the fake made and has not destroyed.
func (f *fakeDriver) event(call string, e cu.Event) error {
	f.checkLive(call)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.vm.init()
	if _, ok := f.vm.events[e]; !ok {
		f.t.Errorf("%s of event %#x: not created or destroyed before", call, uint64(e))
		return cu.ErrorInvalidHandle
	}
	return nil
}

func (f *fakeDriver) eventRecord(e cu.Event, _ cu.Stream) error { return f.event("cuEventRecord", e) }
func (f *fakeDriver) eventQuery(e cu.Event) error               { return f.event("cuEventQuery", e) }
func (f *fakeDriver) eventSynchronize(e cu.Event) error         { return f.event("cuEventSynchronize", e) }
func (f *fakeDriver) streamQuery(cu.Stream) error               { return nil }

func (f *fakeDriver) streamWaitEvent(_ cu.Stream, e cu.Event) error {
	return f.event("cuStreamWaitEvent", e)
}

// eventElapsed answers 1.5 ms between any two events.
func (f *fakeDriver) eventElapsed(start, end cu.Event) (float32, error) {
	if err := f.event("cuEventElapsedTime", start); err != nil {
		return 0, err
	}
	return 1.5, f.event("cuEventElapsedTime", end)
}

func (f *fakeDriver) eventDestroy(e cu.Event) error {
	if err := f.event("cuEventDestroy", e); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.vm.events, e)
	return nil
}

// TestFakeCopies: the copies and fills of a Buffer reach the driver
// through the seam, with their addresses, sizes and fill patterns, and
// none after the buffer's Close.
func TestFakeCopies(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := Alloc[int32](c, 64)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Alloc[int32](c, 64)
	if err != nil {
		t.Fatal(err)
	}
	src := make([]int32, 64)
	for i := range src {
		src[i] = int32(i)
	}
	want := slices.Clone(src)
	if err := a.CopyFrom(src); err != nil {
		t.Fatal(err)
	}
	if err := a.Slice(8, 16).Fill(-1); err != nil { // 4 bytes wide
		t.Fatal(err)
	}
	for i := 8; i < 16; i++ {
		want[i] = -1
	}
	if err := a.Slice(16, 20).FillAsync(s, 0x00070007); err != nil { // 2 bytes wide
		t.Fatal(err)
	}
	for i := 16; i < 20; i++ {
		want[i] = 0x00070007
	}
	if err := a.Slice(20, 24).Zero(); err != nil {
		t.Fatal(err)
	}
	for i := 20; i < 24; i++ {
		want[i] = 0
	}
	u8, err := Alloc[uint8](c, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer u8.Close()
	if err := u8.Fill(0xa5); err != nil { // 1 byte wide
		t.Fatal(err)
	}
	b8 := make([]uint8, 5)
	if err := u8.CopyTo(b8); err != nil || !slices.Equal(b8, []uint8{0xa5, 0xa5, 0xa5, 0xa5, 0xa5}) {
		t.Errorf("uint8 Fill: %x, %v", b8, err)
	}
	if err := b.CopyFromBufferAsync(s, a); err != nil {
		t.Fatal(err)
	}
	got := make([]int32, 64)
	if err := b.CopyToAsync(s, got); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("copied back %v\nwant %v", got, want)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	calls := f.cp.calls
	f.mu.Unlock()
	if err := b.CopyFrom(src); !errors.Is(err, ErrFreed) {
		t.Errorf("CopyFrom after Close: %v, want ErrFreed", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cp.calls != calls {
		t.Errorf("CopyFrom after Close reached the driver")
	}
}

// TestFakeEvents: an event's record, waits, queries and timing reach the
// driver through the seam with the event's handle, and the stream's
// Close destroys the events its copies used.
func TestFakeEvents(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	e0, err := c.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	e1, err := c.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	x, err := Alloc[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if err := e0.Record(s); err != nil {
		t.Fatal(err)
	}
	// A copy from Go memory: the stream records an event of its own to
	// unpin the memory after the copy.
	if err := x.CopyFromAsync(s, []float32{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	if err := e1.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitEvent(e1); err != nil {
		t.Fatal(err)
	}
	if err := e1.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if done, err := e1.Done(); !done || err != nil {
		t.Errorf("Done = %v, %v; want true", done, err)
	}
	if idle, err := s.Query(); !idle || err != nil {
		t.Errorf("Query = %v, %v; want true", idle, err)
	}
	if d, err := Elapsed(e0, e1); err != nil || d.Microseconds() != 1500 {
		t.Errorf("Elapsed = %v, %v; want 1.5ms", d, err)
	}
	for _, e := range []*Event{e0, e1} {
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := len(f.vm.events); n != 0 {
		t.Errorf("%d events live after the events' and the stream's Close, want 0", n)
	}
}

// TestCopyNoAllocs: a synchronous copy from or to Go memory on the stack
// leaves it there: the driver's interface call does not move it to the
// heap (noescape, driver.go).
func TestCopyNoAllocs(t *testing.T) {
	_, c := newFake(t)
	defer c.Close()
	b, err := Alloc[int32](c, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	allocs := testing.AllocsPerRun(100, func() {
		var h [16]int32
		h[3] = 3
		if err := b.CopyFrom(h[:]); err != nil {
			t.Fatal(err)
		}
		if err := b.CopyTo(h[:]); err != nil || h[3] != 3 {
			t.Fatal(h[3], err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations a pair of copies from and to the stack, want 0", allocs)
	}
}
