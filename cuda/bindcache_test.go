package cuda

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// fakeThreads is the fake driver's current context of each OS thread (by
// its M), for every fake context: the driver's is per thread, not per
// context.
var fakeThreads struct {
	mu  sync.Mutex
	cur map[uintptr]cu.Context
}

// fakeCurrent returns the context current on the calling thread in the fake.
func fakeCurrent() cu.Context {
	fakeThreads.mu.Lock()
	defer fakeThreads.mu.Unlock()
	return fakeThreads.cur[getm()]
}

// setFakeCurrent is cuCtxSetCurrent in the fake, as user code would call it.
func setFakeCurrent(c cu.Context) {
	fakeThreads.mu.Lock()
	defer fakeThreads.mu.Unlock()
	if fakeThreads.cur == nil {
		fakeThreads.cur = map[uintptr]cu.Context{}
	}
	fakeThreads.cur[getm()] = c
}

func (f *fakeDriver) ctxGetCurrent() (cu.Context, error) {
	f.checkLive("cuCtxGetCurrent")
	f.gets.Add(1)
	return fakeCurrent(), nil
}

func (f *fakeDriver) ctxSetCurrent(c cu.Context) error {
	f.checkLive("cuCtxSetCurrent")
	f.sets.Add(1)
	setFakeCurrent(c)
	return nil
}

// twoFakeContexts returns two fake contexts with the handles 0xa1 and
// 0xb2, each with a module's saxpy and a buffer; f is the first's driver.
func twoFakeContexts(t *testing.T) (f *fakeDriver, ka, kb *Kernel, xa, xb *Buffer[float32], done func()) {
	f, ca := newFake(t)
	ca.ref.s.ctx = 0xa1
	fb, cb := newFake(t)
	cb.ref.s.ctx = 0xb2
	ma, ka, xa := fakeKernel(t, f, ca)
	mb, kb, xb := fakeKernel(t, fb, cb)
	return f, ka, kb, xa, xb, func() {
		for _, c := range []interface{ Close() error }{xa, xb, ma, mb, ca, cb} {
			c.Close()
		}
	}
}

// launchIn launches k and checks that the context current on the thread
// during the launch is want.
func launchIn(t *testing.T, f *fakeDriver, k *Kernel, x *Buffer[float32], want cu.Context) {
	t.Helper()
	f = k.mod.r.ctx.drv.(*fakeDriver)
	var got cu.Context
	f.onLaunch = func() { got = fakeCurrent() }
	if err := k.Launch(Config{}, float32(1), x, x, int32(1)); err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("launch with context %#x current, want %#x", got, want)
	}
}

// TestBindRemembers: on a thread where the layer made the context current,
// a launch asks the driver nothing (no cuCtxGetCurrent); one in another
// context checks and switches, and switching back checks again.
func TestBindRemembers(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	f, ka, kb, xa, xb, done := twoFakeContexts(t)
	defer done()
	ForgetCurrent()
	launchIn(t, f, ka, xa, 0xa1)
	fb := kb.mod.r.ctx.drv.(*fakeDriver)
	g0, s0 := f.gets.Load()+fb.gets.Load(), f.sets.Load()+fb.sets.Load()
	for range 10 {
		launchIn(t, f, ka, xa, 0xa1)
	}
	if g, s := f.gets.Load()+fb.gets.Load()-g0, f.sets.Load()+fb.sets.Load()-s0; g != 0 || s != 0 {
		t.Errorf("10 launches in the context the layer made current: %d checks, %d sets; want 0, 0", g, s)
	}
	launchIn(t, f, kb, xb, 0xb2)
	launchIn(t, f, ka, xa, 0xa1)
	if g, s := f.gets.Load()+fb.gets.Load()-g0, f.sets.Load()+fb.sets.Load()-s0; g != 2 || s != 2 {
		t.Errorf("switching contexts twice: %d checks, %d sets; want 2, 2", g, s)
	}
}

// TestBindDoSwitch: a context switched inside Context.Do, by user code on
// the raw driver, is not mistaken for the one the layer made current: a
// launch inside the Do after the switch, and one after the Do, run in the
// kernel's context.
func TestBindDoSwitch(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	f, ka, _, xa, _, done := twoFakeContexts(t)
	defer done()
	ForgetCurrent()
	launchIn(t, f, ka, xa, 0xa1)
	err := xa.a.r.ctxDo(func() error {
		setFakeCurrent(0xb2) // cu.CtxSetCurrent of another context
		launchIn(t, f, ka, xa, 0xa1)
		setFakeCurrent(0xb2)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if c := fakeCurrent(); c != 0xb2 {
		t.Fatalf("the Do's switch was undone: %#x current", c)
	}
	launchIn(t, f, ka, xa, 0xa1)
}

// ctxDo is Context.Do through a resource's context (the test's contexts
// are reached through their buffers).
func (r *resource) ctxDo(fn func() error) error {
	c := &Context{ref: &ctxRef{s: r.ctx}}
	return c.Do(fn)
}

// TestBindForgetCurrent: after a switch outside the layer and outside Do,
// ForgetCurrent makes the next launch check and switch back.
func TestBindForgetCurrent(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	f, ka, _, xa, _, done := twoFakeContexts(t)
	defer done()
	ForgetCurrent()
	launchIn(t, f, ka, xa, 0xa1)
	setFakeCurrent(0xb2)
	ForgetCurrent()
	launchIn(t, f, ka, xa, 0xa1)
}

// TestBindForgetsOnError: a call that fails makes the next one on the
// thread check (a thread whose context went away behind the layer's back
// recovers).
func TestBindForgetsOnError(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	f, ka, _, xa, _, done := twoFakeContexts(t)
	defer done()
	ForgetCurrent()
	launchIn(t, f, ka, xa, 0xa1)
	setFakeCurrent(0) // the context went away
	f.onLaunch = func() {}
	f.launchErr = cu.ErrorInvalidContext
	if err := ka.Launch(Config{}, float32(1), xa, xa, int32(1)); !errors.Is(err, cu.ErrorInvalidContext) {
		t.Fatalf("launch: %v", err)
	}
	f.launchErr = nil
	launchIn(t, f, ka, xa, 0xa1)
}

// TestBindThreads: goroutines launching in two contexts on unlocked
// goroutines, which the runtime moves between threads: every launch runs
// with its kernel's context current on its thread.
func TestBindThreads(t *testing.T) {
	_, ka, kb, xa, xb, done := twoFakeContexts(t)
	defer done()
	var bad atomic.Int64
	var wg sync.WaitGroup
	for i := range 8 {
		k, x, want := ka, xa, cu.Context(0xa1)
		if i%2 == 1 {
			k, x, want = kb, xb, 0xb2
		}
		wg.Go(func() {
			for range 2000 {
				// The fake's launch hook is shared: check through a
				// Do instead, which runs on the locked thread too.
				if err := k.Launch(Config{}, float32(1), x, x, int32(1)); err != nil {
					bad.Add(1)
				}
				err := x.a.r.do(func() error {
					if c := fakeCurrent(); c != want {
						return errors.New("wrong context")
					}
					return nil
				})
				if err != nil {
					bad.Add(1)
				}
				runtime.Gosched()
			}
		})
	}
	wg.Wait()
	if n := bad.Load(); n != 0 {
		t.Fatalf("%d calls with another context current", n)
	}
}

// TestGetmPerThread: getm tells locked threads apart and is stable on one.
func TestGetmPerThread(t *testing.T) {
	ms := make(chan uintptr, 2)
	release := make(chan struct{})
	for range 2 {
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			m := getm()
			runtime.Gosched()
			if getm() != m {
				t.Error("getm changed on a locked thread")
			}
			ms <- m
			<-release // both threads stay held
		}()
	}
	a, b := <-ms, <-ms
	close(release)
	if a == b || a == 0 {
		t.Fatalf("two locked threads: getm %#x and %#x", a, b)
	}
}

// TestBindRecoversLostContext: a thread that lost its context behind the
// layer's back (popped by other code, or a C thread's M reused) fails a
// launch with CUDA_ERROR_INVALID_CONTEXT while the layer trusts what it
// remembered: the layer binds again and launches once more, and the
// launch succeeds in the kernel's context; a launch that fails so with a
// checked binding is not retried.
func TestBindRecoversLostContext(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	f, ka, _, xa, _, done := twoFakeContexts(t)
	defer done()
	f.needCtx = true
	ForgetCurrent()
	launchIn(t, f, ka, xa, 0xa1)
	setFakeCurrent(0) // lost
	n := f.launches.Load()
	launchIn(t, f, ka, xa, 0xa1)
	if got := f.launches.Load() - n; got != 2 {
		t.Fatalf("%d launches reached the driver, want 2 (the refused one and the retry)", got)
	}
	// Checked, then lost again before the launch: an error, no loop.
	f.onLaunch = nil
	setFakeCurrent(0)
	ForgetCurrent()
	f.needCtx = false
	f.launchErr = cu.ErrorInvalidContext
	n = f.launches.Load()
	if err := ka.Launch(Config{}, float32(1), xa, xa, int32(1)); !errors.Is(err, cu.ErrorInvalidContext) {
		t.Fatalf("launch: %v", err)
	}
	if got := f.launches.Load() - n; got != 1 {
		t.Fatalf("%d launches after a checked binding, want 1", got)
	}
	f.launchErr = nil
}

// TestDoNotRetried: Context.Do runs the caller's function once, even when
// it fails with CUDA_ERROR_INVALID_CONTEXT on a thread whose binding the
// layer remembered.
func TestDoNotRetried(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_, ka, _, xa, _, done := twoFakeContexts(t)
	defer done()
	ForgetCurrent()
	launchIn(t, ka.mod.r.ctx.drv.(*fakeDriver), ka, xa, 0xa1) // remembered now
	calls := 0
	err := xa.a.r.ctxDo(func() error {
		calls++
		return cu.ErrorInvalidContext
	})
	if !errors.Is(err, cu.ErrorInvalidContext) || calls != 1 {
		t.Fatalf("Do: %v after %d calls of fn, want the error after 1", err, calls)
	}
}

// TestLibraryCallsNotRetried: Stream.Call runs a library's calls (the
// math packages'), which the layer cannot know to be safe to repeat: a
// refusal that looks like a lost context is returned, not run again, as
// Context.Do's fn is (before: the call ran twice).
func TestLibraryCallsNotRetried(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_, c := newFake(t)
	c.ref.s.ctx = 0xa1
	defer c.Close()
	s, done := fakeStream(c, 0x5)
	defer done()
	ForgetCurrent()
	if err := s.Call(func(cu.Stream) error { return nil }); err != nil { // remembered now
		t.Fatal(err)
	}
	calls := 0
	err := s.Call(func(cu.Stream) error {
		calls++
		return cu.ErrorInvalidContext
	})
	if !errors.Is(err, cu.ErrorInvalidContext) || calls != 1 {
		t.Fatalf("Stream.Call: %v after %d calls of fn, want the error after 1", err, calls)
	}
}
