package cuda

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// scopeCalls makes n rounds of the calls a scope speeds up: a launch of
// saxpy on s, an AllocAsync and its Close, and a library call on h with x
// (Handle.Call: what cuda/blas and the others call).
func scopeCalls(t *testing.T, n int, k *Kernel, s *Stream, h *Handle, x *Buffer[float32]) {
	t.Helper()
	for range n {
		if err := k.Launch(Config{Stream: s}, float32(1), x, x, int32(4)); err != nil {
			t.Fatal(err)
		}
		y, err := AllocAsync[float32](s, 16)
		if err != nil {
			t.Fatal(err)
		}
		if err := y.Close(); err != nil {
			t.Fatal(err)
		}
		if err := h.Call(func(cu.Stream) error { return nil }, x); err != nil {
			t.Fatal(err)
		}
	}
}

// TestScopeBindsOnce: outside a scope every call binds the context to its
// thread (and locks the thread) itself; inside Context.Run the scope
// binds once and the launches, AllocAsync/Close and library calls bind
// nothing. Foreign code in flight makes each bind ask the driver (the
// layer remembers nothing then), so the fake's cuCtxGetCurrent counts the
// binds.
func TestScopeBindsOnce(t *testing.T) {
	f, c, s := fakeContextStream(t, 0x51)
	m, k, x := fakeKernel(t, f, c)
	defer m.Close()
	defer x.Close()
	h := nopStreamHandle(t, c, s)
	foreign.Add(1)
	defer foreign.Add(-1)
	const n = 10
	b0 := f.gets.Load()
	scopeCalls(t, n, k, s, h, x)
	outside := f.gets.Load() - b0
	if outside < 3*n {
		t.Errorf("outside a scope: %d binds for %d calls, want one a call at least", outside, 4*n)
	}
	b0 = f.gets.Load()
	if err := c.Run(func(b *Bound) error {
		scopeCalls(t, n, k, s, h, x)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if inside := f.gets.Load() - b0; inside != 1 {
		t.Errorf("inside a scope: %d binds for %d calls, want 1 (the scope's)", inside, 4*n)
	}
	if f.launches.Load() != 2*n {
		t.Errorf("%d launches, want %d", f.launches.Load(), 2*n)
	}
	if activeScopes.Load() != 0 {
		t.Errorf("%d scopes left in the table", activeScopes.Load())
	}
}

// TestScopeMisuse: a *Bound kept after its Run returned, or used on
// another goroutine, refuses with ErrScope and launches nothing; a Run
// inside a Run of another context is refused, one of the same context
// runs in the enclosing scope.
func TestScopeMisuse(t *testing.T) {
	f, ka, kb, xa, xb, done := twoFakeContexts(t)
	defer done()
	ca := ka.mod.r.ctx
	c := &Context{ref: &ctxRef{s: ca}}
	ca.retain()
	defer ca.release()
	var kept *Bound
	var fromOther, nestedOther, nestedSame error
	var same bool
	err := c.Run(func(b *Bound) error {
		kept = b
		if err := b.Launch(ka, Config{}, float32(1), xa, xa, int32(1)); err != nil {
			return err
		}
		ch := make(chan error)
		go func() { ch <- b.Launch(ka, Config{}, float32(1), xa, xa, int32(1)) }()
		fromOther = <-ch
		cb := &Context{ref: &ctxRef{s: kb.mod.r.ctx}, dev: Device{ordinal: 1}}
		kb.mod.r.ctx.retain()
		defer kb.mod.r.ctx.release()
		nestedOther = cb.Run(func(*Bound) error { return nil })
		nestedSame = c.Run(func(inner *Bound) error {
			same = inner == b
			return nil
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	launches := f.launches.Load()
	if !errors.Is(fromOther, ErrScope) || !strings.Contains(fromOther.Error(), "another goroutine") {
		t.Errorf("a *Bound used on another goroutine: %v", fromOther)
	}
	if !errors.Is(nestedOther, ErrScope) || !strings.Contains(nestedOther.Error(), "inside a Run of another context") {
		t.Errorf("a Run inside a Run of another context: %v", nestedOther)
	}
	if nestedSame != nil || !same {
		t.Errorf("a Run inside a Run of the same context: %v, same *Bound %v", nestedSame, same)
	}
	err = kept.Launch(ka, Config{}, float32(1), xa, xa, int32(1))
	if !errors.Is(err, ErrScope) || !strings.Contains(err.Error(), "after its Context.Run returned") {
		t.Errorf("a *Bound used after its scope: %v", err)
	}
	if kept.Err() == nil || kept.Hold(xa) == nil || kept.HoldStream(nil) == nil {
		t.Errorf("Err, Hold, HoldStream of an escaped *Bound: no error")
	}
	if f.launches.Load() != 1 || launches != 1 {
		t.Errorf("%d launches, want the one inside the scope", f.launches.Load())
	}
	var nb *Bound
	if err := nb.Err(); !errors.Is(err, ErrScope) {
		t.Errorf("nil *Bound: %v", err)
	}
	if err := c.Run(nil); err == nil {
		t.Errorf("Run(nil): no error")
	}
	_ = xb
}

// TestScopeOtherContext: a call on another context inside a scope works,
// and leaves the scope's context current for the scope's next calls; so
// does Context.Do, whose code may change the current context itself.
func TestScopeOtherContext(t *testing.T) {
	f, ka, kb, xa, xb, done := twoFakeContexts(t)
	defer done()
	f.needCtx = true // a launch fails with no context current
	c := &Context{ref: &ctxRef{s: ka.mod.r.ctx}}
	c.ref.s.retain()
	defer c.ref.s.release()
	err := c.Run(func(b *Bound) error {
		if cur := fakeCurrent(); cur != 0xa1 {
			t.Errorf("in the scope: %#x current, want 0xa1", cur)
		}
		if err := kb.Launch(Config{}, float32(1), xb, xb, int32(1)); err != nil {
			return err
		}
		if cur := fakeCurrent(); cur != 0xa1 {
			t.Errorf("after a launch of another context: %#x current, want 0xa1", cur)
		}
		if err := c.Do(func() error { setFakeCurrent(0); return nil }); err != nil {
			return err
		}
		if cur := fakeCurrent(); cur != 0xa1 {
			t.Errorf("after Do: %#x current, want 0xa1", cur)
		}
		// user code that clears the context behind the scope's back: the
		// launch that fails for it binds again and runs once more
		setFakeCurrent(0)
		return ka.Launch(Config{}, float32(1), xa, xa, int32(1))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestScopeHold: operands held by the scope count no use per call (a
// library call sees only the scope's); a Close of one inside the scope
// ends the hold first (no wait for itself), one on another goroutine
// waits for the scope's end.
func TestScopeHold(t *testing.T) {
	_, c, s := fakeContextStream(t, 0x51)
	h := nopStreamHandle(t, c, s)
	x, err := Alloc[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	y, err := Alloc[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	// a Close inside the scope that waited for the scope's own hold would
	// hang: fail instead
	watchdog := time.AfterFunc(time.Minute, func() { panic("TestScopeHold: hung (a held buffer's Close inside the scope waits for itself)") })
	defer watchdog.Stop()
	err = c.Run(func(b *Bound) error {
		var in [2]uint64
		call := func() error {
			return h.Call(func(cu.Stream) error {
				in = [2]uint64{x.a.r.uses.state.Load() & usesCount, h.r.uses.state.Load() & usesCount}
				return nil
			}, x)
		}
		if err := call(); err != nil {
			return err
		}
		if in != [2]uint64{1, 1} {
			t.Errorf("uses in a call before Hold: %v, want 1 each (the call's)", in)
		}
		if err := b.Hold(x, h, x); err != nil {
			return err
		}
		if err := b.HoldStream(s); err != nil {
			return err
		}
		if err := call(); err != nil {
			return err
		}
		if in != [2]uint64{1, 1} {
			t.Errorf("uses in a call of held operands: %v, want 1 each (the scope's)", in)
		}
		if err := b.Hold(y); err != nil {
			return err
		}
		go func() { closed <- y.Close() }()
		select {
		case err := <-closed:
			t.Errorf("a held buffer's Close on another goroutine returned during the scope: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
		if err := x.Close(); err != nil { // held: must not wait for itself
			return err
		}
		if err := call(); !errors.Is(err, ErrFreed) {
			t.Errorf("a call with the closed buffer: %v, want ErrFreed", err)
		}
		if err := b.Hold(x); !errors.Is(err, ErrFreed) {
			t.Errorf("Hold of a closed buffer: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close after the scope: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a held buffer's Close still waits after the scope ended")
	}
	if v := h.r.uses.state.Load() & usesCount; v != 0 {
		t.Errorf("the handle has %d uses after the scope", v)
	}
}

// TestScopeTableFull: a scope that finds no slot in the table (every
// probe taken by other threads' scopes) still runs fn bound, its calls
// taking the per-call way: a launch on another context inside it does
// not leave Bound.Launch trusting a context no longer current.
func TestScopeTableFull(t *testing.T) {
	f, ka, kb, xa, xb, done := twoFakeContexts(t)
	defer done()
	f.onLaunch = func() {
		if cur := fakeCurrent(); cur != 0xa1 {
			t.Errorf("a launch of context 0xa1 with %#x current", cur)
		}
	}
	other := &Bound{}
	other.m.Store(1) // no thread's M
	for i := range scopes {
		if !scopes[i].CompareAndSwap(nil, other) {
			t.Fatalf("slot %d taken", i)
		}
	}
	defer func() {
		for i := range scopes {
			scopes[i].Store(nil)
		}
	}()
	activeScopes.Add(1)
	defer activeScopes.Add(-1)
	c := refTo(t, ka.mod.r.ctx)
	err := c.Run(func(b *Bound) error {
		if b.slot >= 0 {
			t.Errorf("the scope found slot %d in a full table", b.slot)
		}
		if err := kb.Launch(Config{}, float32(1), xb, xb, int32(1)); err != nil {
			return err
		}
		// a Close of a held buffer inside fn must not wait for the hold
		y, err := Alloc[float32](c, 4)
		if err != nil {
			return err
		}
		if err := b.Hold(y); err != nil {
			return err
		}
		watchdog := time.AfterFunc(time.Minute, func() { panic("TestScopeTableFull: a held buffer's Close inside the scope hangs") })
		defer watchdog.Stop()
		if err := y.Close(); err != nil {
			return err
		}
		return b.Launch(ka, Config{}, float32(1), xa, xa, int32(1))
	})
	if err != nil {
		t.Fatal(err)
	}
	if f.launches.Load() != 1 {
		t.Errorf("%d launches of the first context, want 1", f.launches.Load())
	}
}
