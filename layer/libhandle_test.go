package cuda

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cugen/cugen/generated/cuda12/cu"
)

// fakeLib is a library's handle table for the LibHandle tests: it counts
// the handles destroyed and fails the test on a double destroy or one
// after the context's release.
type fakeLib struct {
	t         *testing.T
	f         *fakeDriver
	next      uint64
	destroyed map[uint64]int
}

func newFakeLib(t *testing.T, f *fakeDriver) *fakeLib {
	return &fakeLib{t: t, f: f, next: 7, destroyed: map[uint64]int{}}
}

func (l *fakeLib) create() (uint64, error) { l.next++; return l.next, nil }

// destroy runs with the fake's lock held (fakeDriver.destroy).
func (l *fakeLib) destroy(h uint64) error {
	l.destroyed[h]++
	if l.destroyed[h] > 1 {
		l.t.Errorf("handle %d destroyed %d times", h, l.destroyed[h])
	}
	if l.f.released > 0 {
		l.t.Errorf("handle %d destroyed after the context's release", h)
	}
	return nil
}

func TestLibHandleLifetime(t *testing.T) {
	f, c := newFake(t)
	lib := newFakeLib(t, f)
	h, err := c.NewLibHandle(lib.create, lib.destroy)
	if err != nil {
		t.Fatal(err)
	}
	// The context's Close comes first: the handle keeps it.
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, released := f.state(); released != 0 {
		t.Fatal("context released under a live library handle")
	}
	called := false
	if err := h.Do(func() error { called = true; return nil }); err != nil || !called {
		t.Fatalf("Do after the Context's Close: %v (called %v)", err, called)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if lib.destroyed[h.Raw()] != 1 {
		t.Fatalf("destroyed %d times", lib.destroyed[h.Raw()])
	}
	if _, _, released := f.state(); released != 1 {
		t.Fatal("context not released after its last resource")
	}
	if err := h.Close(); !errors.Is(err, ErrFreed) {
		t.Fatalf("second Close: %v", err)
	}
	if err := h.Do(func() error { t.Error("fn called after Close"); return nil }); !errors.Is(err, ErrFreed) {
		t.Fatalf("Do after Close: %v", err)
	}
}

func TestLibHandleOperands(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	lib := newFakeLib(t, f)
	h, err := c.NewLibHandle(lib.create, lib.destroy)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	a, _ := Alloc[float32](c, 4)
	b, _ := Alloc[complex64](c, 4)
	s, _ := c.DefaultStream()
	var got cu.Stream = 99
	if err := h.DoOn(s, func(st cu.Stream) error { got = st; return nil }, a, b); err != nil || got != s.Raw() {
		t.Fatalf("DoOn: %v, stream %v", err, got)
	}
	// A closed operand: fn is not called, and the operands held before it
	// are released (their Close does not wait forever).
	b.Close()
	never := func() error { t.Error("fn called with a closed operand"); return nil }
	if err := h.Do(never, a, b); !errors.Is(err, ErrFreed) {
		t.Fatalf("closed operand: %v", err)
	}
	done := make(chan error)
	go func() { done <- a.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a.Close hangs: Do kept a use of it")
	}

	// Another context's buffer and stream are refused.
	_, c2 := newFake(t)
	c2.ref.s.ctx = 2
	defer c2.Close()
	x, _ := Alloc[float32](c2, 4)
	defer x.Close()
	if err := h.Do(never, x); !errors.Is(err, errOtherLibContext) {
		t.Fatalf("other context's buffer: %v", err)
	}
	s2, _ := c2.DefaultStream()
	if err := h.DoOn(s2, func(cu.Stream) error { return never() }); !errors.Is(err, errOtherLibContext) {
		t.Fatalf("other context's stream: %v", err)
	}
	s2.Close()
	if err := h.DoOn(s2, func(cu.Stream) error { return never() }); !errors.Is(err, ErrFreed) {
		t.Fatalf("closed stream: %v", err)
	}
	if err := h.DoOn(nil, func(cu.Stream) error { return never() }); err == nil {
		t.Fatal("nil stream accepted")
	}
}

// TestLibHandleCloseWaits closes a handle while a call through it runs:
// the destroy comes after the call returns.
func TestLibHandleCloseWaits(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	lib := newFakeLib(t, f)
	h, err := c.NewLibHandle(lib.create, lib.destroy)
	if err != nil {
		t.Fatal(err)
	}
	var inCall atomic.Bool
	f.onDestroy = func(r *resource) {
		if r.kind == kindLib && inCall.Load() {
			t.Error("handle destroyed during a call through it")
		}
	}
	entered, leave := make(chan struct{}), make(chan struct{})
	go h.Do(func() error {
		inCall.Store(true)
		close(entered)
		<-leave
		inCall.Store(false)
		return nil
	})
	<-entered
	closed := make(chan error)
	go func() { closed <- h.Close() }()
	select {
	case <-closed:
		t.Fatal("Close returned during the call")
	case <-time.After(50 * time.Millisecond):
	}
	close(leave)
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
}

// TestLibHandleUnreachable drops a handle: its cleanup destroys it.
func TestLibHandleUnreachable(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	lib := newFakeLib(t, f)
	h, err := c.NewLibHandle(lib.create, lib.destroy)
	if err != nil {
		t.Fatal(err)
	}
	raw := h.Raw()
	h = nil
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		f.mu.Lock()
		n := lib.destroyed[raw]
		f.mu.Unlock()
		if n == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("unreachable handle never destroyed")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestLibHandleAllocs: a call through DoOn with two operands allocates
// nothing.
func TestLibHandleAllocs(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	lib := newFakeLib(t, f)
	h, _ := c.NewLibHandle(lib.create, lib.destroy)
	defer h.Close()
	a, _ := Alloc[float32](c, 4)
	defer a.Close()
	b, _ := Alloc[complex64](c, 4)
	defer b.Close()
	s, _ := c.DefaultStream()
	var sink cu.Stream
	n := testing.AllocsPerRun(1000, func() {
		if err := h.DoOn(s, func(st cu.Stream) error { sink = st; return nil }, a, b); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("DoOn allocates %v times a call", n)
	}
	_ = sink
}
