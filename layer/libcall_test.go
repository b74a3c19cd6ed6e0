package cuda

import (
	"errors"
	"testing"

	"github.com/cugen/cugen/generated/cuda12/cu"
)

// TestStreamCall: Call runs fn with the stream's handle and every operand
// in use, and refuses a closed operand or one of another context before
// fn runs.
func TestStreamCall(t *testing.T) {
	_, c := newFake(t)
	s, err := c.DefaultStream()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Alloc[float32](c, 4)
	b, _ := Alloc[int32](c, 4)
	ran := 0
	err = s.Call(func(st cu.Stream) error {
		ran++
		if st != s.Raw() {
			t.Errorf("fn got stream %v, want %v", st, s.Raw())
		}
		for _, r := range []*resource{a.res(), b.res()} {
			if r.uses.state.Load() == 0 {
				t.Errorf("%v not in use during the call", r.kind)
			}
		}
		return nil
	}, a, b.Slice(1, 3))
	if err != nil || ran != 1 {
		t.Fatalf("Call: err %v, fn ran %d times", err, ran)
	}
	if a.res().uses.state.Load() != 0 || b.res().uses.state.Load() != 0 {
		t.Errorf("operands still in use after the call")
	}

	// A Close racing the call waits for it.
	closed := make(chan error)
	err = s.Call(func(cu.Stream) error {
		go func() { closed <- b.Close() }()
		select {
		case err := <-closed:
			t.Errorf("Close returned %v during the call", err)
		default:
		}
		return nil
	}, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}

	fnErr := errors.New("fn")
	if err := s.Call(func(cu.Stream) error { return fnErr }, a); err != fnErr {
		t.Errorf("Call returned %v, want fn's error", err)
	}
	if err := s.Call(func(cu.Stream) error { ran++; return nil }, a, b); !errors.Is(err, ErrFreed) || ran != 1 {
		t.Errorf("Call with a closed operand: %v (fn ran %d times), want ErrFreed before fn", err, ran)
	}
	if a.res().uses.state.Load() != 0 {
		t.Errorf("a left in use after a refused call")
	}
	_, c2 := newFake(t)
	c2.ref.s.ctx = 1 // another CUcontext than c's
	other, _ := Alloc[float32](c2, 4)
	if err := s.Call(func(cu.Stream) error { ran++; return nil }, a, other); err == nil || ran != 1 {
		t.Errorf("Call with another context's operand: %v (fn ran %d times), want an error before fn", err, ran)
	}
	if err := s.Call(func(cu.Stream) error { return nil }, nil); err == nil {
		t.Errorf("Call with a nil operand: %v", err)
	}
	var ns *Stream
	if err := ns.Call(func(cu.Stream) error { return nil }); err == nil {
		t.Errorf("Call on a nil stream: %v", err)
	}
}

// TestStreamCallAllocs: a library call through Call allocates nothing.
func TestStreamCallAllocs(t *testing.T) {
	_, c := newFake(t)
	s, _ := c.DefaultStream()
	a, _ := Alloc[float32](c, 4)
	b, _ := Alloc[float64](c, 4)
	var x float32 = 2
	n := testing.AllocsPerRun(100, func() {
		if err := s.Call(func(cu.Stream) error { x++; return nil }, a, b, a); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("Call: %v allocations, want 0", n)
	}
}
