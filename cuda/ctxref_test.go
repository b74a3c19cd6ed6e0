package cuda

import (
	"errors"
	"testing"
)

// TestRefusedCallEndsLastUse: a Context call refused after Close whose
// increment came before the last call in flight ended is the one that
// ends the last use: it must drop the reference, or the primary context
// is never released (uses.acquire's refusal ignored that; the context
// stayed unreleased).
func TestRefusedCallEndsLastUse(t *testing.T) {
	f, c := newFake(t)
	inside, proceed := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- c.Do(func() error {
			close(inside)
			<-proceed
			return nil
		})
	}()
	<-inside
	if err := c.Close(); err != nil { // a use in flight: the Do's end drops
		t.Fatal(err)
	}
	ctxAcquireHook = func() { // the refused call, between its add and its end
		ctxAcquireHook = nil
		close(proceed)
		if err := <-done; err != nil { // the Do ends, not last
			t.Error(err)
		}
	}
	defer func() { ctxAcquireHook = nil }()
	if _, err := Alloc[float32](c, 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("Alloc after Close: %v", err)
	}
	if _, _, released := f.state(); released != 1 {
		t.Fatalf("context released %d times, want 1", released)
	}
}
