package cuda

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// withGuards runs fn on a locked thread with launch guards (on) or
// without, so that launches count uses.
func withGuards(t *testing.T, on bool, fn func()) {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if on {
		fn()
		return
	}
	noGuards.Store(true)
	defer noGuards.Store(false)
	fn()
}

// TestLaunchGuard: a launch on a thread marks its guard in flight for the
// driver call and counts no use of its operands; a Close of an operand
// during it waits for it (the fake driver fails the test on a free during
// a launch), a Close of a buffer never launched does not; a launch after
// the Close is refused. Without a guard (more threads than slots) the
// operands' uses are counted.
func TestLaunchGuard(t *testing.T) {
	for _, guarded := range []bool{true, false} {
		f, c := newFake(t)
		m, k, x := fakeKernel(t, f, c)
		s, err := c.DefaultStream()
		if err != nil {
			t.Fatal(err)
		}
		f2, c2 := newFake(t) // its frees are not during f's launches
		other, err := Alloc[float32](c2, 4)
		if err != nil {
			t.Fatal(err)
		}
		inside, proceed := make(chan [3]uint64, 1), make(chan struct{})
		f.onLaunch = func() {
			inside <- [3]uint64{usesOf(x), s.st.uses.state.Load() &^ usesLaunched, uint64(launchesInFlight())}
			<-proceed
		}
		launched := make(chan error, 1)
		go withGuards(t, guarded, func() { launched <- k.Launch(Config{Stream: s}, float32(2), x, x, int32(4)) })
		got := <-inside
		want := [3]uint64{0, 0, 1}
		if !guarded {
			want = [3]uint64{2, 1, 0}
		}
		if got != want {
			t.Errorf("guarded %v: uses of the buffer, of the stream, guards in flight: %v, want %v", guarded, got, want)
		}
		if err := within(t, "Close of a buffer never launched, during a launch", other.Close); err != nil {
			t.Fatal(err)
		}
		if _, frees, _ := f2.state(); frees != 1 {
			t.Fatalf("%d frees of the buffer never launched", frees)
		}
		closed := make(chan error, 1)
		go func() { closed <- x.Close() }()
		select {
		case err := <-closed:
			t.Fatalf("guarded %v: a Close returned during the launch: %v", guarded, err)
		case <-time.After(100 * time.Millisecond):
		}
		for !x.a.r.uses.closed() {
			runtime.Gosched()
		}
		if _, frees, _ := f.state(); frees != 0 && guarded {
			t.Fatalf("%d frees during the launch", frees)
		}
		f.onLaunch = nil
		var lerr error
		withGuards(t, guarded, func() { lerr = k.Launch(Config{Stream: s}, float32(2), x, x, int32(4)) })
		if lerr == nil || !strings.Contains(lerr.Error(), "the buffer was freed") {
			t.Fatalf("guarded %v: launch of a closed buffer: %v", guarded, lerr)
		}
		close(proceed)
		if err := <-launched; err != nil {
			t.Fatal(err)
		}
		if err := <-closed; err != nil {
			t.Fatal(err)
		}
		c2.Close()
		if n := launchesInFlight(); n != 0 {
			t.Fatalf("%d guards in flight after the launches", n)
		}
		s.Close()
		m.Close()
		c.Close()
	}
}

// TestLaunchGuardPanic: a launch that panics (an argument whose buffer was
// never allocated) leaves no guard in flight, so a later Close does not
// wait for ever.
func TestLaunchGuardPanic(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	m, k, x := fakeKernel(t, f, c)
	defer m.Close()
	func() {
		defer func() { recover() }()
		k.Launch(Config{}, float32(2), x, &Buffer[float32]{}, int32(4))
	}()
	if n := launchesInFlight(); n != 0 {
		t.Fatalf("%d guards in flight after a panic", n)
	}
	if err := within(t, "Close after a launch that panicked", x.Close); err != nil {
		t.Fatal(err)
	}
}

// TestLaunchGuardThreads: goroutines launching on many threads at once
// (more than there are guard slots: they take slots from one another, or
// count uses) while buffers are closed under them: every launch is queued
// before its buffer's free or refused after it (the fake driver fails the
// test on a free during a launch).
func TestLaunchGuardThreads(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	m, k, _ := fakeKernel(t, f, c)
	defer m.Close()
	var ok, refused atomic.Int64
	for range 3 {
		// One buffer for all: the fake driver's check is of any free
		// during any launch.
		x, err := Alloc[float32](c, 4)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		n := ok.Load()
		for range 2 * guardSlots {
			wg.Go(func() {
				runtime.LockOSThread() // a thread each, for the life of the goroutine
				for {
					if err := k.Launch(Config{}, float32(2), x, x, int32(4)); err != nil {
						if !strings.Contains(err.Error(), "the buffer was freed") {
							t.Error(err)
						}
						refused.Add(1)
						return
					}
					ok.Add(1)
				}
			})
		}
		for ok.Load() < n+1000 {
			runtime.Gosched()
		}
		if err := within(t, "Close under 128 threads' launches", x.Close); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
	}
	t.Logf("%d launches queued, %d refused", ok.Load(), refused.Load())
}
