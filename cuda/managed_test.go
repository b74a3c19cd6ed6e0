package cuda

import (
	"errors"
	"testing"

	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// fakeCall is a managed-memory call the fake driver saw.
type fakeCall struct {
	op    string
	p     cu.Deviceptr
	bytes uint64
	dev   cu.Device
	st    cu.Stream
	arg   uint32
}

func (f *fakeDriver) memAllocManaged(bytes uint64, flags uint32) (cu.Deviceptr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mem.init()
	b := make([]byte, bytes) // host memory: Buffer.Host reads and writes it
	p := uint64(uintptr(unsafe.Pointer(&b[0])))
	f.mem.managed[p] = b
	f.live[p] = true
	f.mem.calls = append(f.mem.calls, fakeCall{op: "alloc", p: cu.Deviceptr(p), bytes: bytes, arg: flags})
	return cu.Deviceptr(p), nil
}

func (f *fakeDriver) memPrefetch(p cu.Deviceptr, bytes uint64, dev cu.Device, st cu.Stream) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mem.calls = append(f.mem.calls, fakeCall{op: "prefetch", p: p, bytes: bytes, dev: dev, st: st})
	return nil
}

func (f *fakeDriver) memAdvise(p cu.Deviceptr, bytes uint64, advice cu.CUmemAdvise, dev cu.Device) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mem.calls = append(f.mem.calls, fakeCall{op: "advise", p: p, bytes: bytes, dev: dev, arg: uint32(advice)})
	return nil
}

func (f *fakeDriver) attachMem(st cu.Stream, p cu.Deviceptr, flags uint32) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mem.calls = append(f.mem.calls, fakeCall{op: "attach", p: p, st: st, arg: flags})
	return nil
}

// TestManaged: AllocManaged's buffer is host-visible through Host, and
// Prefetch, Advise and AttachToStream reach the driver with the right
// address, size, location and stream.
func TestManaged(t *testing.T) {
	f, c := newFake(t)
	s, closeS := fakeStream(c, 0x51)
	b, err := AllocManaged[int32](c, 10)
	if err != nil {
		t.Fatal(err)
	}
	h, err := b.Host()
	if err != nil || len(h) != 10 {
		t.Fatalf("Host: %d elements, %v", len(h), err)
	}
	for i := range h {
		h[i] = int32(i * i)
	}
	if h2, _ := b.Host(); h2[9] != 81 {
		t.Errorf("Host()[9] = %d after writing 81", h2[9])
	}
	v := b.Slice(2, 6)
	if hv, err := v.Host(); err != nil || len(hv) != 4 || hv[0] != 4 {
		t.Errorf("a view's Host: %v, %v", hv, err)
	}
	dev := Device{dev: 3, ordinal: 3}
	for _, fn := range []func() error{
		func() error { return b.Prefetch(s, dev) },
		func() error { return v.PrefetchToHost(s) },
		func() error { return b.Advise(cu.MemAdviseSetReadMostly, dev) },
		func() error { return b.AdviseHost(cu.MemAdviseSetPreferredLocation) },
		func() error { return v.AttachToStream(s, cu.MemAttachSingle) },
	} {
		if err := fn(); err != nil {
			t.Fatal(err)
		}
	}
	f.mu.Lock()
	calls := f.mem.calls
	f.mu.Unlock()
	p := b.Ptr()
	want := []fakeCall{
		{op: "alloc", p: p, bytes: 40, arg: uint32(cu.MemAttachGlobal)},
		{op: "prefetch", p: p, bytes: 40, dev: 3, st: 0x51},
		{op: "prefetch", p: p + 8, bytes: 16, dev: cu.DeviceCpu, st: 0x51},
		{op: "advise", p: p, bytes: 40, dev: 3, arg: uint32(cu.MemAdviseSetReadMostly)},
		{op: "advise", p: p, bytes: 40, dev: cu.DeviceCpu, arg: uint32(cu.MemAdviseSetPreferredLocation)},
		{op: "attach", p: p, st: 0x51, arg: uint32(cu.MemAttachSingle)}, // the whole allocation
	}
	if len(calls) != len(want) {
		t.Fatalf("calls %+v, want %+v", calls, want)
	}
	for i := range want {
		if calls[i] != want[i] {
			t.Errorf("call %d: %+v, want %+v", i, calls[i], want[i])
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Host(); !errors.Is(err, ErrFreed) {
		t.Errorf("Host after Close: %v", err)
	}
	if err := v.Prefetch(s, dev); !errors.Is(err, ErrFreed) {
		t.Errorf("a view's Prefetch after Close: %v", err)
	}
	plain, err := Alloc[int32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Host(); !errors.Is(err, ErrNotManaged) {
		t.Errorf("Host of cuMemAlloc memory: %v", err)
	}
	if err := plain.PrefetchToHost(s); !errors.Is(err, ErrNotManaged) {
		t.Errorf("PrefetchToHost of cuMemAlloc memory: %v", err)
	}
	if err := plain.Close(); err != nil {
		t.Fatal(err)
	}
	_, c2 := newFake(t)
	c2.ref.s.ctx = 2
	s2, close2 := fakeStream(c2, 0x61)
	m, err := AllocManaged[byte](c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Prefetch(s2, dev); !errors.Is(err, errOtherContext) {
		t.Errorf("Prefetch on another context's stream: %v", err)
	}
	m.Close()
	close2()
	c2.Close()
	closeS()
	c.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// TestManagedSignatures: this major's cuMemPrefetchAsync and cuMemAdvise
// have one of the Go signatures realDriver's type switches know.
func TestManagedSignatures(t *testing.T) {
	switch any(cu.MemPrefetchAsync).(type) {
	case func(cu.Deviceptr, uint64, cu.Device, cu.Stream) error,
		func(cu.Deviceptr, uint64, cu.MemLocation, uint32, cu.Stream) error:
	default:
		t.Errorf("cu.MemPrefetchAsync is a %T", cu.MemPrefetchAsync)
	}
	switch any(cu.MemAdvise).(type) {
	case func(cu.Deviceptr, uint64, cu.CUmemAdvise, cu.Device) error,
		func(cu.Deviceptr, uint64, cu.CUmemAdvise, cu.MemLocation) error:
	default:
		t.Errorf("cu.MemAdvise is a %T", cu.MemAdvise)
	}
}
