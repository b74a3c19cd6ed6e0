package cuda

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeKernel returns saxpy(float, float*, float*, int) of a module of the
// fake context c, and a buffer of c.
func fakeKernel(t testing.TB, f *fakeDriver, c *Context) (*Module, *Kernel, *Buffer[float32]) {
	t.Helper()
	f.params = [][2]uint64{{0, 4}, {8, 8}, {16, 8}, {24, 4}}
	m := fakeModule(c)
	k, err := m.Kernel("saxpy")
	if err != nil {
		t.Fatal(err)
	}
	x, err := Alloc[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	return m, k, x
}

// TestUses: the use count's rules, alone.
func TestUses(t *testing.T) {
	var u uses
	if !u.acquire() || !u.acquire() {
		t.Fatal("acquire of an open resource failed")
	}
	u.release()
	u.release()
	if !u.closeWait() || u.closeWait() || u.acquire() || !u.closed() {
		t.Fatal("closeWait: the first must close, the second fail, an acquire after fail")
	}

	// closeLater with two uses in flight: the last release finishes it.
	var l uses
	l.acquire()
	l.acquire()
	if ok, now := l.closeLater(); !ok || now {
		t.Fatalf("closeLater with uses in flight: %v, %v; want true, false", ok, now)
	}
	if l.acquire() {
		t.Fatal("acquire after closeLater")
	}
	if l.release() {
		t.Fatal("the first of two releases finished the close")
	}
	if !l.release() {
		t.Fatal("the last release did not finish the close")
	}
	if l.acquire() || l.release() {
		t.Fatal("a use after the close finished it again")
	}
	if ok, _ := l.closeLater(); ok {
		t.Fatal("second closeLater")
	}
	var idle uses
	if ok, now := idle.closeLater(); !ok || !now {
		t.Fatalf("closeLater, idle: %v, %v; want true, true", ok, now)
	}

	// Many users and one closer: when closeWait returns no use is in
	// flight, and none begins after.
	for range 20 {
		var u uses
		var inside atomic.Int64
		var after atomic.Bool
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for {
					if !u.acquire() {
						return
					}
					inside.Add(1)
					if after.Load() {
						t.Error("a use began after closeWait returned")
					}
					runtime.Gosched()
					inside.Add(-1)
					u.release()
				}
			})
		}
		time.Sleep(time.Millisecond)
		if !u.closeWait() {
			t.Fatal("closeWait failed")
		}
		after.Store(true)
		if n := inside.Load(); n != 0 {
			t.Fatalf("closeWait returned with %d uses in flight", n)
		}
		wg.Wait()
	}
}

// TestCloseWaitsForLaunch: a Close racing a Launch on another goroutine
// waits until the launch is queued (it freed the buffer and unloaded the
// module under it: the close was a flag), and a launch after the Close
// is refused.
func TestCloseWaitsForLaunch(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	m, k, x := fakeKernel(t, f, c)
	inside, proceed := make(chan struct{}), make(chan struct{})
	f.onLaunch = func() {
		inside <- struct{}{}
		<-proceed
	}
	launched := make(chan error, 1)
	go func() { launched <- k.Launch(Config{}, float32(2), x, x, int32(4)) }()
	<-inside
	closed := make(chan error, 2)
	go func() { closed <- x.Close() }()
	go func() { closed <- m.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("a Close returned during the launch: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	for !x.a.r.uses.closed() || !m.r.uses.closed() {
		runtime.Gosched()
	}
	if _, frees, _ := f.state(); frees != 0 {
		t.Fatalf("%d frees during the launch", frees)
	}
	m2 := fakeModule(c)
	defer m2.Close()
	k2, err := m2.Kernel("saxpy")
	if err != nil {
		t.Fatal(err)
	}
	if err := k2.Launch(Config{}, float32(2), x, x, int32(4)); err == nil || !strings.Contains(err.Error(), "argument 1 (*cuda.Buffer[float32]): the buffer was freed") {
		t.Fatalf("Launch of a closed buffer: %v", err)
	}
	y, err := Alloc[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	if err := k.Launch(Config{}, float32(2), y, y, int32(4)); !errors.Is(err, ErrFreed) || !strings.Contains(err.Error(), "its module") {
		t.Fatalf("Launch of a closed module's kernel: %v", err)
	}
	close(proceed)
	if err := <-launched; err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := <-closed; err != nil {
			t.Fatal(err)
		}
	}
	if _, frees, _ := f.state(); frees != 2 {
		t.Fatalf("%d frees, want 2", frees)
	}
	if f.launches.Load() != 1 {
		t.Fatalf("%d launches reached the driver, want 1", f.launches.Load())
	}
}

// TestCloseRacesLaunches: goroutines launch with one buffer while another
// closes it; every launch is queued before the free or refused after it
// (the fake driver fails the test on a free during a launch). Run with
// -race.
func TestCloseRacesLaunches(t *testing.T) {
	for range 20 {
		f, c := newFake(t)
		m, k, x := fakeKernel(t, f, c)
		var ok, refused atomic.Int64
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for {
					err := k.Launch(Config{}, float32(2), x, x, int32(4))
					if err != nil {
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
		for ok.Load() < 10 {
			runtime.Gosched()
		}
		if err := x.Close(); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		if refused.Load() != 4 {
			t.Fatalf("%d launches refused, want 4", refused.Load())
		}
		m.Close()
		c.Close()
		if live, _, released := f.state(); live != 0 || released != 1 {
			t.Fatalf("live %d, released %d", live, released)
		}
	}
}

// TestCloseInDo: a Context's Close inside its own Do does not wait for
// the Do (it would wait forever): the context is released when the Do
// returns.
func TestCloseInDo(t *testing.T) {
	f, c := newFake(t)
	err := c.Do(func() error {
		if err := c.Close(); err != nil {
			return err
		}
		if _, _, released := f.state(); released != 0 {
			t.Error("the context was released inside its Do")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, released := f.state(); released != 1 {
		t.Fatalf("released %d after the Do, want 1", released)
	}
	if err := c.Do(func() error { return nil }); !errors.Is(err, ErrClosed) {
		t.Fatalf("Do after Close: %v", err)
	}
}

// TestLaunchNoAllocs: Launch of 4 arguments (two buffers) allocates
// nothing, the use counts included.
func TestLaunchNoAllocs(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	m, k, x := fakeKernel(t, f, c)
	defer m.Close()
	defer x.Close()
	cfg := Config{Grid: Dim3{X: 1}, Block: Dim3{X: 256}}
	allocs := testing.AllocsPerRun(100, func() {
		if err := k.Launch(cfg, float32(2), x, x, int32(4)); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a launch, want 0", allocs)
	}
}

// dropBuffer allocates a buffer of c and drops it.
//
//go:noinline
func dropBuffer(t *testing.T, c *Context) {
	if _, err := Alloc[float32](c, 4); err != nil {
		t.Fatal(err)
	}
}

// TestCleanupDoesNotBlock: a release that blocks (cuMemFree waits for the
// device) runs on the context's release goroutine, not on the runtime's
// cleanup goroutine, so other cleanups, another context's releases
// included, go on meanwhile; the context is still released last.
func TestCleanupDoesNotBlock(t *testing.T) {
	fa, ca := newFake(t)
	fb, cb := newFake(t)
	proceed := make(chan struct{})
	started := make(chan string, 1)
	fa.onDestroy = func(r *resource) {
		stack := make([]byte, 64<<10)
		stack = stack[:runtime.Stack(stack, false)]
		if bytes.Contains(stack, []byte("cleanupResource")) || !bytes.Contains(stack, []byte("releaseQueue).run")) {
			started <- string(stack)
		} else {
			started <- ""
		}
		<-proceed
	}
	gc := func(what string, done func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !done(); {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 10 s", what)
			}
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
	}
	dropBuffer(t, ca)
	var stack string
	gc("the cleanup of context A's buffer", func() bool {
		select {
		case stack = <-started:
			return true
		default:
			return false
		}
	})
	if stack != "" {
		t.Errorf("the blocking free runs on the runtime's cleanup goroutine:\n%s", stack)
	}
	// A's free blocks: B's and an unrelated cleanup run meanwhile.
	var other atomic.Bool
	func() {
		p := new([64]byte)
		runtime.AddCleanup(p, func(b *atomic.Bool) { b.Store(true) }, &other)
	}()
	dropBuffer(t, cb)
	gc("an unrelated cleanup while A's free blocks", other.Load)
	gc("context B's buffer's free while A's blocks", func() bool {
		live, _, _ := fb.state()
		return live == 0
	})
	if live, _, released := fa.state(); live != 1 || released != 0 {
		t.Fatalf("context A: live %d, released %d during its blocked free", live, released)
	}
	ca.Close()
	if _, _, released := fa.state(); released != 0 {
		t.Fatal("context A released before its buffer")
	}
	close(proceed)
	gc("context A's release after its buffer's", func() bool {
		live, frees, released := fa.state()
		return live == 0 && frees == 1 && released == 1
	})
	cb.Close()
}

// TestCloseNoAllocs: a Close with no use in flight allocates nothing.
func TestCloseNoAllocs(t *testing.T) {
	u := new(uses)
	allocs := testing.AllocsPerRun(100, func() {
		u.state.Store(0) // open again
		if !u.acquire() {
			t.Fatal("acquire")
		}
		u.release()
		if !u.closeWait() {
			t.Fatal("closeWait")
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations an idle close, want 0", allocs)
	}
}

// TestConcurrentCloseWaits: two closeWaits racing while a use is in
// flight both return once it ends, one true and one false (each made its
// own wake channel and the loser's overwrote the winner's, so the last
// release woke nobody and the winner waited forever).
func TestConcurrentCloseWaits(t *testing.T) {
	for range 20000 {
		u := new(uses)
		if !u.acquire() {
			t.Fatal("acquire")
		}
		var won atomic.Int32
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range 2 {
			wg.Go(func() {
				<-start
				if u.closeWait() {
					won.Add(1)
				}
			})
		}
		close(start)
		for !u.closed() {
			runtime.Gosched()
		}
		runtime.Gosched()
		u.release()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("a closeWait still waits after the last use ended")
		}
		if n := won.Load(); n != 1 {
			t.Fatalf("%d closeWaits closed, want 1", n)
		}
	}
}
