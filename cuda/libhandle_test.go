package cuda

import (
	"errors"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// TestStreamHandle: a handle of NewStreamHandle is bound to its stream
// once; a Call runs on it with the handle in use and calls no set; a
// SetStream to the same stream calls no set, one to another calls it
// once and moves the later Calls; a set error closes the handle.
func TestStreamHandle(t *testing.T) {
	_, c := newFake(t)
	defer c.Close()
	s1, close1 := fakeStream(c, 0x51)
	defer close1()
	s2, close2 := fakeStream(c, 0x52)
	defer close2()
	var sets []cu.Stream
	destroyed := 0
	h, err := NewStreamHandle(c, s1, func() (uint64, error) { return 7, nil },
		func(uint64) error { destroyed++; return nil },
		func(h uint64, st cu.Stream) error {
			if h != 7 {
				t.Errorf("set got handle %d", h)
			}
			sets = append(sets, st)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Alloc[float32](c, 4)
	defer a.Close()
	for range 3 {
		err := h.Call(func(st cu.Stream) error {
			if st != 0x51 {
				t.Errorf("Call ran on %#x, want 0x51", st)
			}
			if h.r.uses.state.Load() != 1 || usesOf(a) != 1 {
				t.Errorf("the handle or the buffer not in use during the call")
			}
			return nil
		}, a)
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := h.SetStream(s1); err != nil {
		t.Fatal(err)
	}
	if len(sets) != 1 || sets[0] != 0x51 {
		t.Fatalf("after New, 3 Calls and SetStream(the same): set calls %#x, want [0x51]", sets)
	}
	if err := h.SetStream(s2); err != nil {
		t.Fatal(err)
	}
	if h.Stream() != s2 {
		t.Errorf("Stream() is not the stream set")
	}
	h.Call(func(st cu.Stream) error {
		if st != 0x52 {
			t.Errorf("Call after SetStream ran on %#x, want 0x52", st)
		}
		return nil
	})
	if len(sets) != 2 || sets[1] != 0x52 {
		t.Errorf("after SetStream(another): set calls %#x, want [0x51 0x52]", sets)
	}
	if h.r.uses.state.Load() != 0 || usesOf(a) != 0 {
		t.Errorf("uses left after the calls")
	}
	if err := h.Close(); err != nil || destroyed != 1 {
		t.Errorf("Close: %v, %d destroys", err, destroyed)
	}
	if err := h.Call(func(cu.Stream) error { return nil }); !errors.Is(err, ErrFreed) {
		t.Errorf("Call after Close: %v, want ErrFreed", err)
	}

	boom := errors.New("boom")
	destroyed = 0
	h2, err := NewStreamHandle(c, s1, func() (uint64, error) { return 8, nil },
		func(uint64) error { destroyed++; return nil },
		func(uint64, cu.Stream) error { return boom })
	if h2 != nil || !errors.Is(err, boom) || destroyed != 1 {
		t.Errorf("a failing set: %v, %v, %d destroys; want nil, boom, 1", h2, err, destroyed)
	}
	plain, _ := NewHandle(c, func() (uint64, error) { return 9, nil }, func(uint64) error { return nil })
	defer plain.Close()
	if plain.Stream() != nil || plain.Call(func(cu.Stream) error { return nil }) == nil || plain.SetStream(s1) == nil {
		t.Errorf("a handle of NewHandle has a stream")
	}
}

// TestStreamHandleCallAllocs: Handle.Call with three buffers allocates
// nothing.
func TestStreamHandleCallAllocs(t *testing.T) {
	_, c, s := fakeContextStream(t, 0x51)
	h := nopStreamHandle(t, c, s)
	a, _ := Alloc[float32](c, 4)
	b, _ := Alloc[float32](c, 4)
	d, _ := Alloc[float32](c, 4)
	defer func() { a.Close(); b.Close(); d.Close() }()
	var sink cu.Deviceptr
	allocs := testing.AllocsPerRun(1000, func() {
		if err := h.Call(func(cu.Stream) error { sink = a.Ptr() + b.Ptr() + d.Ptr(); return nil }, a, b, d); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Handle.Call, want 0", allocs)
	}
	_ = sink
}

// TestWorkspace: a workspace grows to the largest size asked, keeps its
// buffer for smaller ones, and Close frees it and drops its context
// reference, after which the context is released.
func TestWorkspace(t *testing.T) {
	f, c := newFake(t)
	w, err := NewWorkspace(c)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if b, err := w.Get(0); b != nil || err != nil {
		t.Errorf("Get(0) = %v, %v", b, err)
	}
	b1, err := w.Get(64)
	if err != nil || b1.Len() < 64 {
		t.Fatalf("Get(64) = %v, %v", b1, err)
	}
	if b, _ := w.Get(32); b != b1 {
		t.Errorf("Get(32) after Get(64) made a new buffer")
	}
	b2, err := w.Get(128)
	if err != nil || b2 == b1 || w.Len() != 128 {
		t.Fatalf("Get(128): %v, %v, Len %d", b2, err, w.Len())
	}
	if b1.Close() == nil {
		t.Errorf("the outgrown buffer was not freed")
	}
	if _, _, released := f.state(); released != 0 {
		t.Fatalf("the context was released while the workspace holds it")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, released := f.state(); released != 1 {
		t.Errorf("the context was not released after the workspace's Close")
	}
	if _, err := w.Get(8); !errors.Is(err, ErrClosed) {
		t.Errorf("Get after Close: %v, want ErrClosed", err)
	}
}

// TestCallManyOperands: a call with more operands than Call keeps at hand
// holds every one during fn and releases every one after it, and after a
// refusal part way (a closed operand late in the list).
func TestCallManyOperands(t *testing.T) {
	_, c, s := fakeContextStream(t, 0x51)
	h := nopStreamHandle(t, c, s)
	var bufs []*Buffer[float32]
	var ops []Operand
	for range 10 {
		b, _ := Alloc[float32](c, 4)
		defer b.Close()
		bufs = append(bufs, b)
		ops = append(ops, b)
	}
	inUse := func() (n int) {
		for _, b := range bufs {
			n += int(usesOf(b))
		}
		return n + int(h.r.uses.state.Load())
	}
	err := h.Call(func(cu.Stream) error {
		if n := inUse(); n != 11 {
			t.Errorf("%d uses during the call, want 11 (10 buffers and the handle)", n)
		}
		return nil
	}, ops...)
	if err != nil {
		t.Fatal(err)
	}
	if n := inUse(); n != 0 {
		t.Errorf("%d uses left after the call", n)
	}
	closed, _ := Alloc[float32](c, 4)
	closed.Close()
	if err := h.Call(func(cu.Stream) error { t.Error("fn ran"); return nil }, append(ops[:9:9], closed)...); !errors.Is(err, ErrFreed) {
		t.Errorf("a closed 10th operand: %v, want ErrFreed", err)
	}
	if n := inUse(); n != 0 {
		t.Errorf("%d uses left after a refused call", n)
	}
}
