package cuda

import (
	"runtime"
	"testing"
)

// armedOf reports whether b's finalizer is set, and whether b is pending.
func armedOf[T any](b *Buffer[T]) (armed, pend bool) {
	p := &pending[b.a.shard]
	p.mu.Lock()
	defer p.mu.Unlock()
	return b.a.armed, b.a.pend.Load() != 0
}

// TestPendingFinalizers: in a loop that allocates and closes (16 buffers
// live), no buffer gets a finalizer; one that outlives pendingSize newer
// buffers gets one, and its Close clears it.
func TestPendingFinalizers(t *testing.T) {
	runtime.LockOSThread() // one thread: one ring of pending
	defer runtime.UnlockOSThread()
	_, _, s := fakeContextStream(t, 0x51)
	long, err := AllocAsync[float32](s, 4)
	if err != nil {
		t.Fatal(err)
	}
	if armed, pend := armedOf(long); armed || !pend {
		t.Fatalf("a new buffer: armed %v, pending %v; want false, true", armed, pend)
	}
	var ring [16]*Buffer[byte]
	var closed []*Buffer[byte]
	for i := range 1000 {
		if x := ring[i%16]; x != nil {
			if armed, _ := armedOf(x); armed {
				t.Fatalf("buffer %d has a finalizer 16 buffers later", i-16)
			}
			if err := x.Close(); err != nil {
				t.Fatal(err)
			}
			closed = append(closed, x)
		}
		x, err := AllocAsync[byte](s, 256+i)
		if err != nil {
			t.Fatal(err)
		}
		ring[i%16] = x
	}
	for _, x := range ring {
		x.Close()
	}
	// Closed while pending, they stayed in the ring (unpend takes no
	// lock); the newer buffers that took their places armed none.
	for i, x := range closed {
		if armed, _ := armedOf(x); armed {
			t.Fatalf("buffer %d, closed while pending, has a finalizer", i)
		}
	}
	armed, pend := armedOf(long)
	if pend {
		t.Fatal("a buffer 1000 buffers old is still pending")
	}
	if !armed {
		// A collection may have run the tick meanwhile: it arms too.
		t.Fatal("a buffer that left the pending ring open has no finalizer")
	}
	if err := long.Close(); err != nil {
		t.Fatal(err)
	}
	if armed, pend := armedOf(long); armed || pend {
		t.Fatalf("after Close: armed %v, pending %v", armed, pend)
	}
}
