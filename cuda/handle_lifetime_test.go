package cuda

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// TestHandleCloseWaits closes a library handle while a Stream.Call using
// it runs: the destroy comes after the call returns.
func TestHandleCloseWaits(t *testing.T) {
	_, c, s := fakeContextStream(t, 0x52)
	var inCall, destroyed atomic.Bool
	h, err := NewHandle(c, func() (uint64, error) { return 9, nil }, func(uint64) error {
		if inCall.Load() {
			t.Error("handle destroyed during a call using it")
		}
		destroyed.Store(true)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	entered, leave := make(chan struct{}), make(chan struct{})
	go s.Call(func(cu.Stream) error {
		inCall.Store(true)
		close(entered)
		<-leave
		inCall.Store(false)
		return nil
	}, h)
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
	if !destroyed.Load() {
		t.Fatal("Close returned without destroying")
	}
}

// TestHandleUnreachable drops a handle without Close: its cleanup
// destroys it once, and the context is released after it.
func TestHandleUnreachable(t *testing.T) {
	f, c := newFake(t)
	var n atomic.Int32
	if _, err := NewHandle(c, func() (uint64, error) { return 5, nil }, func(uint64) error { n.Add(1); return nil }); err != nil {
		t.Fatal(err)
	}
	c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for n.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("unreachable handle never destroyed")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	for {
		if _, _, released := f.state(); released == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("context not released after the handle's cleanup")
		}
		time.Sleep(time.Millisecond)
	}
	if n.Load() != 1 {
		t.Fatalf("destroyed %d times", n.Load())
	}
}
