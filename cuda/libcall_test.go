package cuda

import (
	"errors"
	"strings"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// TestHandle: a library handle is created with its context current,
// destroyed once by Close (a second Close is ErrFreed), and its context
// released after it; a create error owns nothing.
func TestHandle(t *testing.T) {
	f, c := newFake(t)
	var destroyed []uint64
	h, err := NewHandle(c, func() (uint64, error) { return 0xb1a5, nil }, func(h uint64) error {
		destroyed = append(destroyed, h)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if h.Raw() != 0xb1a5 {
		t.Errorf("Raw = %#x", h.Raw())
	}
	c.Close()
	if _, _, released := f.state(); released != 0 {
		t.Fatalf("the context was released with a handle live")
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); !errors.Is(err, ErrFreed) {
		t.Errorf("second Close: %v, want ErrFreed", err)
	}
	if len(destroyed) != 1 || destroyed[0] != 0xb1a5 {
		t.Errorf("destroyed %#x, want 0xb1a5 once", destroyed)
	}
	if _, _, released := f.state(); released != 1 {
		t.Errorf("context released %d times after the handle's Close", released)
	}

	_, c2 := newFake(t)
	defer c2.Close()
	boom := errors.New("boom")
	if h, err := NewHandle(c2, func() (uint64, error) { return 0, boom }, func(uint64) error { return nil }); h != nil || !errors.Is(err, boom) {
		t.Errorf("a failing create: %v, %v", h, err)
	}
	if _, err := NewHandle(c2, nil, nil); err == nil {
		t.Errorf("NewHandle with nil functions: no error")
	}
}

// TestStreamCall: Call holds the stream and every operand for the length
// of fn (a Close of one waits for it), hands fn the stream's handle, and
// refuses before fn a closed operand, a nil one (a nil *Buffer included)
// and one of another context.
func TestStreamCall(t *testing.T) {
	_, c, s := fakeContextStream(t, 0x51)
	a, _ := Alloc[float32](c, 4)
	b, _ := Alloc[complex64](c, 4)
	h, _ := NewHandle(c, func() (uint64, error) { return 1, nil }, func(uint64) error { return nil })
	defer h.Close()
	err := s.Call(func(st cu.Stream) error {
		if st != 0x51 {
			t.Errorf("fn got stream %#x", st)
		}
		if usesOf(a) != 1 || usesOf(b) != 1 || h.r.uses.state.Load() != 1 {
			t.Errorf("operands not in use during the call: %d %d", usesOf(a), usesOf(b))
		}
		return nil
	}, a, b, h)
	if err != nil {
		t.Fatal(err)
	}
	if usesOf(a) != 0 || usesOf(b) != 0 {
		t.Errorf("uses left after the call: %d %d", usesOf(a), usesOf(b))
	}

	called := false
	fn := func(cu.Stream) error { called = true; return nil }
	var nilBuf *Buffer[float32]
	_, other := newFake(t)
	defer other.Close()
	o, _ := Alloc[float32](other, 4)
	defer o.Close()
	closed, _ := Alloc[float32](c, 4)
	closed.Close()
	for _, tc := range []struct {
		name string
		ops  []Operand
		want string
	}{
		{"closed", []Operand{a, closed}, ErrFreed.Error()},
		{"nil buffer", []Operand{a, nilBuf}, "nil operand"},
		{"nil", []Operand{nil}, "nil operand"},
		{"other context", []Operand{a, o}, "another context"},
	} {
		if err := s.Call(fn, tc.ops...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if called {
			t.Errorf("%s: fn was called", tc.name)
		}
		if usesOf(a) != 0 {
			t.Errorf("%s: a left in use", tc.name)
		}
	}
	var nilStream *Stream
	if err := nilStream.Call(fn); !errors.Is(err, errNilStream) {
		t.Errorf("nil stream: %v", err)
	}
	a.Close()
	b.Close()
}

// TestStreamCallAllocs: a library call through Call, with three buffer
// operands and a handle, allocates nothing.
func TestStreamCallAllocs(t *testing.T) {
	_, c, s := fakeContextStream(t, 0x51)
	a, _ := Alloc[float32](c, 4)
	b, _ := Alloc[float32](c, 4)
	d, _ := Alloc[float32](c, 4)
	h, _ := NewHandle(c, func() (uint64, error) { return 1, nil }, func(uint64) error { return nil })
	defer func() { a.Close(); b.Close(); d.Close(); h.Close() }()
	var sink cu.Deviceptr
	allocs := testing.AllocsPerRun(1000, func() {
		if err := s.Call(func(cu.Stream) error { sink = a.Ptr() + b.Ptr() + d.Ptr() + cu.Deviceptr(h.Raw()); return nil }, h, a, b, d); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Stream.Call, want 0", allocs)
	}
	_ = sink
}

// BenchmarkStreamCall: what Stream.Call adds to a library call on the
// fake driver (no driver call): the uses of the stream and four operands,
// the locked thread. The GPU side adds the context check (cuCtxGetCurrent).
func BenchmarkStreamCall(b *testing.B) {
	_, c := newFake(b)
	defer c.Close()
	s, closeS := fakeStream(c, 0x51)
	defer closeS()
	x, _ := Alloc[float32](c, 4)
	y, _ := Alloc[float32](c, 4)
	z, _ := Alloc[float32](c, 4)
	h, _ := NewHandle(c, func() (uint64, error) { return 1, nil }, func(uint64) error { return nil })
	defer func() { x.Close(); y.Close(); z.Close(); h.Close() }()
	b.ReportAllocs()
	for range b.N {
		if err := s.Call(func(cu.Stream) error { return nil }, h, x, y, z); err != nil {
			b.Fatal(err)
		}
	}
}
