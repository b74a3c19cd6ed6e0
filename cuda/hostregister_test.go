package cuda

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestRegister: a registration page-locks the slice until Close, or until
// its cleanup once unreachable, and the context is released after it;
// misuse gives typed errors.
func TestRegister(t *testing.T) {
	f, c := newFake(t)
	s, closeS := fakeStream(c, 0x51)
	data := make([]float32, 1000)
	g, err := Register(c, data)
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() != 1000 || &g.Slice()[0] != &data[0] {
		t.Errorf("Len %d; Slice is not the registered slice", g.Len())
	}
	f.mu.Lock()
	bytes := f.mem.reg[g.r.p]
	f.mu.Unlock()
	if bytes != 4000 {
		t.Errorf("registered %d bytes, want 4000", bytes)
	}
	if _, err := Register(c, data[10:20]); err == nil {
		t.Error("registering registered memory again: no error")
	}
	if _, err := Register(c, []*int{new(int)}); err == nil {
		t.Error("Register of []*int: no error")
	}
	empty, err := Register(c, []byte(nil))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Alloc[float32](c, 999)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.CopyFromRegisteredAsync(s, g); err == nil || !strings.Contains(err.Error(), "1000 elements for a buffer of 999") {
		t.Errorf("copy of 1000 into 999: %v", err)
	}
	if err := b.CopyToRegisteredAsync(s, g); err == nil || !strings.Contains(err.Error(), "1000 elements for a buffer of 999") {
		t.Errorf("copy of 999 into 1000: %v", err)
	}
	// A registration that becomes unreachable is unregistered.
	func() {
		if _, err := Register(c, make([]int64, 100)); err != nil {
			t.Fatal(err)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		f.mu.Lock()
		n := len(f.mem.reg)
		f.mu.Unlock()
		if n == 1 { // g's
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("an unreachable registration was not unregistered")
		}
		time.Sleep(time.Millisecond)
	}
	b1000, err := Alloc[float32](c, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil { // the registration keeps the context
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); !errors.Is(err, ErrFreed) {
		t.Errorf("second Close: %v", err)
	}
	if g.Slice() != nil {
		t.Error("Slice after Close is not nil")
	}
	if err := b1000.CopyFromRegisteredAsync(s, g); !errors.Is(err, ErrFreed) {
		t.Errorf("copy from a closed registration: %v", err)
	}
	if err := b1000.CopyToRegisteredAsync(s, g); !errors.Is(err, ErrFreed) {
		t.Errorf("copy into a closed registration: %v", err)
	}
	for _, fn := range []func() error{b.Close, b1000.Close, empty.Close} {
		if err := fn(); err != nil {
			t.Fatal(err)
		}
	}
	closeS()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}
