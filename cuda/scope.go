package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
)

// A bound scope: [Context.Run] locks the calling goroutine to its OS
// thread and makes the context current there once, for a sequence of
// calls. Inside it, the package's calls (Kernel.Launch, AllocAsync and a
// buffer's Close, Stream.Call and so the calls of cuda/blas, rand, fft,
// sparse, solver, dnn) find the scope by the thread they run on and skip
// their own lock and bind; [Bound.Hold] takes operand uses once for the
// whole scope instead of once a call. The model is cudarc's
// CudaContext::bind_to_thread, made a scope so that its end is known.
//
// A call finds the scope of its thread in a small table (scopes), by the
// runtime's M: while the scope runs its goroutine holds the M locked, so
// no other goroutine runs there, and a call that finds the scope on its M
// is the scope's own goroutine. Outside every scope the lookup is one
// atomic load (activeScopes is 0).

// ErrScope is wrapped by the errors of a *Bound used outside its scope:
// after its Run returned, or on another goroutine than the one running
// Run's fn; and of a Run inside a Run of another context.
var ErrScope = errors.New("cuda: bound scope misused")

var (
	errScopeEnded     = fmt.Errorf("%w: the *Bound is used after its Context.Run returned (it must not escape fn)", ErrScope)
	errScopeGoroutine = fmt.Errorf("%w: the *Bound is used on another goroutine than the one running its Context.Run (a scope is one locked thread)", ErrScope)
)

// scopeSlots is the size of the table of scopes, a power of 2; a scope
// looks for a free slot among scopeProbes from its thread's hash.
const (
	scopeSlots  = 256
	scopeProbes = 8
	maxHeld     = 16 // the operands a scope can hold (Bound.Hold)
)

var (
	scopes       [scopeSlots]atomic.Pointer[Bound]
	activeScopes atomic.Int32 // the scopes in the table
)

// Bound is a context bound to one locked OS thread for the length of a
// [Context.Run]: the value Run hands its fn. Its methods work only on the
// goroutine running fn, and only while fn runs; anywhere else they return
// an error wrapping [ErrScope] and do nothing. The check is one compare
// of the calling thread (the runtime's M) with the scope's: while fn runs
// its goroutine holds that thread locked, so no other goroutine runs on
// it. (Calling runtime.UnlockOSThread more times than LockOSThread inside
// fn breaks that, and is not supported.)
type Bound struct {
	s     *ctxState
	c     *Context
	m     atomic.Uintptr // the scope's M while fn runs; 0 after
	slot  int            // its index in scopes, -1 when not in the table
	held  [maxHeld]*uses // the uses Hold began, ended when fn returns
	nheld int
}

// scopeHash is the first slot of the thread m.
func scopeHash(m uintptr) int {
	return int((uint64(m) * 0x9e3779b97f4a7c15) >> (64 - 8)) // of scopeSlots
}

// scopeAt returns the scope of the thread m, or nil.
func scopeAt(m uintptr) *Bound {
	h := scopeHash(m)
	for i := range scopeProbes {
		if b := scopes[(h+i)&(scopeSlots-1)].Load(); b != nil && b.m.Load() == m {
			return b
		}
	}
	return nil
}

// scopeHere returns the scope the calling goroutine runs in, or nil: one
// atomic load while no scope runs anywhere.
func scopeHere() *Bound {
	if activeScopes.Load() == 0 {
		return nil
	}
	return scopeOfThread()
}

// scopeOfThread is scopeHere's lookup, kept out of line so that scopeHere
// inlines into every call.
//
//go:noinline
func scopeOfThread() *Bound { return scopeAt(getm()) }

// Run runs fn with the context current on the calling goroutine's OS
// thread, which stays locked for the call, and returns fn's error. Inside
// fn the package's calls on this context skip the per-call lock of the
// thread and the check of its current context (docs/api.md, "Bound
// scopes"); calls on another context work too, and make this one
// current again after them. Use b for what belongs to the scope
// ([Bound.Launch], [Bound.Hold]); it must not be kept or used after fn
// returns, nor handed to another goroutine: it then refuses with an
// error wrapping [ErrScope].
//
// A Run inside fn on the same context runs its fn in this scope (with the
// same *Bound); a Run inside fn on another context is refused with an
// error wrapping ErrScope. Code inside fn that changes the thread's
// current context itself (cu.CtxSetCurrent, cudart.SetDevice) belongs in
// [Context.Do], which makes the scope's context current again after it.
func (c *Context) Run(fn func(b *Bound) error) error {
	if fn == nil {
		return errors.New("cuda: Context.Run: nil fn")
	}
	s, err := c.use()
	if err != nil {
		return err
	}
	defer c.ref.end()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	m := getm()
	if outer := scopeAt(m); outer != nil {
		if !sameContext(outer.s, s) {
			return fmt.Errorf("%w: Context.Run of device %d's context inside a Run of another context (device %d's): a thread has one current context; end the outer scope first",
				ErrScope, c.dev.ordinal, outer.c.dev.ordinal)
		}
		return fn(outer)
	}
	if _, err := s.bind(); err != nil {
		return err
	}
	b := &Bound{s: s, c: c, slot: -1}
	b.m.Store(m)
	h := scopeHash(m)
	for i := range scopeProbes {
		if j := (h + i) & (scopeSlots - 1); scopes[j].CompareAndSwap(nil, b) {
			b.slot = j
			activeScopes.Add(1)
			break
		}
	}
	// Without a slot (scopeProbes scopes of other threads collide), fn
	// still runs bound; the calls inside it take the per-call way.
	defer b.end()
	return fn(b)
}

// end ends the scope: the holds are released, the table forgets it, and
// its methods refuse from now on.
func (b *Bound) end() {
	for i := range b.nheld {
		b.held[i].release()
		b.held[i] = nil
	}
	b.nheld = 0
	b.m.Store(0)
	if b.slot >= 0 {
		scopes[b.slot].Store(nil)
		activeScopes.Add(-1)
		b.slot = -1
	}
}

// check returns nil when the caller is the scope's goroutine inside fn.
func (b *Bound) check() error {
	if b == nil {
		return fmt.Errorf("%w: nil *Bound", ErrScope)
	}
	switch b.m.Load() {
	case getm():
		return nil
	case 0:
		return errScopeEnded
	}
	return errScopeGoroutine
}

// Context returns the scope's context.
func (b *Bound) Context() *Context { return b.c }

// Err returns nil on the scope's goroutine while fn runs, else the error
// its methods return (wrapping [ErrScope]).
func (b *Bound) Err() error { return b.check() }

// Launch is k.Launch(cfg, args...) in the scope; an error wrapping
// [ErrScope] outside it (Kernel.Launch called inside fn finds the scope by
// itself: Launch adds the check).
func (b *Bound) Launch(k *Kernel, cfg Config, args ...any) error {
	if err := b.check(); err != nil {
		return err
	}
	if b.slot < 0 {
		// not in the table: the calls inside fn bind for themselves, and
		// may have made another context current
		return k.Launch(cfg, args...)
	}
	return k.launchIn(b, &cfg, args)
}

// Hold begins a use of each operand (a *Buffer, a library's Handle, a
// *Stream's operand) for the rest of the scope: the calls inside fn that
// use one of them (Stream.Call, and through it the math packages' calls;
// AllocAsync on a held stream) then count no use of their own. A Close of
// a held operand on another goroutine waits until fn returns; a Close
// inside fn ends the scope's hold first. A closed or nil operand is an
// error and holds nothing of the list; at most 16 operands are held. (A
// scope that found no place in the package's table of scopes, which
// takes about 256 at once, holds nothing: its calls count their own.)
func (b *Bound) Hold(ops ...Operand) error {
	if err := b.check(); err != nil {
		return err
	}
	var us [maxHeld]*uses
	n := 0
	for _, op := range ops {
		if op == nil || op.res() == nil {
			return errNilOperand
		}
		r := op.res()
		if !sameContext(r.ctx, b.s) {
			return fmt.Errorf("cuda: Bound.Hold: %w", errOtherOperandContext)
		}
		if b.holds(&r.uses) || contains(us[:n], &r.uses) {
			continue
		}
		if b.nheld+n == maxHeld {
			return fmt.Errorf("cuda: Bound.Hold: more than %d operands", maxHeld)
		}
		us[n] = &r.uses
		n++
	}
	if b.slot < 0 {
		// not in the table: the calls inside fn cannot find the holds,
		// nor a Close inside fn end them (it would wait for itself)
		return nil
	}
	for i := range n {
		if !us[i].acquire() {
			for j := range i {
				us[j].release()
			}
			return ErrFreed
		}
	}
	copy(b.held[b.nheld:], us[:n])
	b.nheld += n
	return nil
}

// HoldStream is Hold of a stream: the calls on s inside fn count no use
// of it.
func (b *Bound) HoldStream(s *Stream) error {
	if err := b.check(); err != nil {
		return err
	}
	if s == nil {
		return errNilStream
	}
	if !sameContext(s.st.ctx, b.s) {
		return fmt.Errorf("cuda: Bound.HoldStream: the stream belongs to another context")
	}
	if b.holds(&s.st.uses) || b.slot < 0 { // not in the table: see Hold
		return nil
	}
	if b.nheld == maxHeld {
		return fmt.Errorf("cuda: Bound.HoldStream: more than %d operands", maxHeld)
	}
	if !s.st.uses.acquire() {
		return ErrFreed
	}
	b.held[b.nheld] = &s.st.uses
	b.nheld++
	return nil
}

func contains(us []*uses, u *uses) bool {
	for _, x := range us {
		if x == u {
			return true
		}
	}
	return false
}

// holds reports whether the scope holds u.
func (b *Bound) holds(u *uses) bool {
	for i := range b.nheld {
		if b.held[i] == u {
			return true
		}
	}
	return false
}

// acquire begins a use of u for a call in the scope: none when the scope
// holds u (own is false then).
func (b *Bound) acquire(u *uses) (own, ok bool) {
	if b != nil && b.holds(u) {
		return false, true
	}
	return true, u.acquire()
}

// unhold ends the scope's hold of u, if it has one: a Close inside fn of
// a held operand (it would wait for itself).
func (b *Bound) unhold(u *uses) {
	for i := range b.nheld {
		if b.held[i] == u {
			b.nheld--
			b.held[i], b.held[b.nheld] = b.held[b.nheld], nil
			u.release()
			return
		}
	}
}

// bound reports whether s's context is the scope's, current on its thread.
func (b *Bound) bound(s *ctxState) bool { return s == b.s || sameContext(s, b.s) }

// rebind makes the scope's context current again, after a call that may
// have made another one current (a call on another context, Context.Do,
// a failed call).
func (b *Bound) rebind() {
	forgetThread()
	b.s.bind()
}

// call is onThread in the scope: fn at once when s is the scope's context,
// else the per-call way and then the scope's context again.
func (b *Bound) call(s *ctxState, fn func() error, once bool) error {
	if s != nil && b.bound(s) {
		err := fn()
		if err != nil {
			b.rebind() // the thread may have lost its context
		}
		return err
	}
	var err error
	if once {
		err = onThreadOnceSlow(s, fn)
	} else {
		err = onThreadSlow(s, fn)
	}
	b.rebind()
	return err
}
