package cuda

import (
	"errors"
	"sync"
	"sync/atomic"
	_ "unsafe" // go:linkname runtime.getm

	"github.com/cugen/cugen/cuda/sys/cu"
)

// The layer remembers, for each OS thread, the context it made current
// there itself, and skips the driver's check (cuCtxGetCurrent, a C call of
// about 50 ns) when that is the context the call needs. What it remembers
// is only what it did: the rule that keeps it true is that code changing
// a thread's current context outside the layer (cu.CtxSetCurrent,
// cu.CtxPushCurrent and cu.CtxPopCurrent, cudart's SetDevice) runs inside
// [Context.Do] or [Group], or calls [ForgetCurrent] afterwards. While a
// Do or a Group runs anywhere in the process, every call checks, as it did
// before this cache, and nothing is remembered; when it returns, what was
// remembered for its thread is forgotten. A call that trusted the memory
// and finds no context current (the driver refuses it) binds and runs
// again (ctxState.failed).

//go:linkname getm runtime.getm
func getm() uintptr // the calling goroutine's M (its OS thread while locked)

// boundSlots is the size of the table of threads, a power of 2.
const boundSlots = 256

var (
	// bound holds, per OS thread (at its M's hash), the M's address
	// shifted left 16 bits and the id of the context the layer made
	// current there, or 0. One word, so a reader never sees half of
	// another thread's entry; a thread whose slot another took checks.
	bound [boundSlots]atomic.Uint64
	// foreign counts the calls in flight that run code the layer does not
	// know (Do, Group): while one runs, no entry is trusted or stored.
	foreign atomic.Int32
	// ctxIDs numbers the context handles the layer has bound, from 1.
	ctxIDs struct {
		mu sync.Mutex
		m  map[cu.Context]uint64
	}
)

// noID marks a context that is not remembered (more than 65535 handles).
const noID = 1 << 16

// bindDriver is the driver's current-context calls (a fake in the tests).
type bindDriver interface {
	ctxGetCurrent() (cu.Context, error)
	ctxSetCurrent(c cu.Context) error
}

func (realDriver) ctxGetCurrent() (cu.Context, error) { return cu.CtxGetCurrent() }
func (realDriver) ctxSetCurrent(c cu.Context) error   { return cu.CtxSetCurrent(c) }

// slotOf returns the table's slot of the thread m.
func slotOf(m uintptr) *atomic.Uint64 {
	return &bound[(uint64(m)*0x9e3779b97f4a7c15)>>(64-8)]
}

// bindKey returns the word bound holds when the context of id is current
// on the thread m, or 0 when that cannot be remembered.
func bindKey(m uintptr, id uint64) uint64 {
	if id >= noID || uint64(m)>>48 != 0 {
		return 0
	}
	return uint64(m)<<16 | id
}

// bindID returns the id of s's context handle.
func (s *ctxState) bindID() uint64 {
	if id := s.id.Load(); id != 0 {
		return id
	}
	ctxIDs.mu.Lock()
	defer ctxIDs.mu.Unlock()
	if ctxIDs.m == nil {
		ctxIDs.m = map[cu.Context]uint64{}
	}
	id, ok := ctxIDs.m[s.ctx]
	if !ok {
		id = min(uint64(len(ctxIDs.m))+1, noID)
		if id < noID {
			ctxIDs.m[s.ctx] = id
		}
	}
	s.id.Store(id)
	return id
}

// bind makes the context current on the thread, which onThread locked:
// nothing when the layer made it current there last (remembered: true),
// else a check and, if another is current, cuCtxSetCurrent.
func (s *ctxState) bind() (remembered bool, err error) {
	m := getm()
	key := bindKey(m, s.bindID())
	slot := slotOf(m)
	if key != 0 && slot.Load() == key && foreign.Load() == 0 {
		return true, nil
	}
	return false, s.bindSlow(slot, key)
}

// failed is what a call that failed with err does on its locked thread:
// it forgets the thread's context, and when the layer had trusted what it
// remembered and the driver answers that no context is current
// (CUDA_ERROR_INVALID_CONTEXT: refused before it did anything), binds
// again and returns true, to make the call once more. A thread can lose
// its context behind the layer's back: a context popped or destroyed by
// other code, or an M the runtime hands from one C thread to another in
// callbacks.
func (s *ctxState) failed(err error, remembered bool) bool {
	forgetThread()
	if !remembered || !errors.Is(err, cu.ErrorInvalidContext) {
		return false
	}
	m := getm()
	return s.bindSlow(slotOf(m), bindKey(m, s.bindID())) == nil
}

func (s *ctxState) bindSlow(slot *atomic.Uint64, key uint64) error {
	d := s.drv
	if cur, err := d.ctxGetCurrent(); err != nil || cur != s.ctx {
		if err := d.ctxSetCurrent(s.ctx); err != nil {
			return err
		}
	}
	if key != 0 && foreign.Load() == 0 {
		slot.Store(key)
	}
	return nil
}

// forgetThread forgets what the layer made current on the calling thread,
// which is locked.
func forgetThread() {
	m := getm()
	slot := slotOf(m)
	if v := slot.Load(); v>>16 == uint64(m) {
		slot.CompareAndSwap(v, 0)
	}
}

// foreignCall runs fn, code the layer does not know, on the locked thread:
// no thread's remembered context is trusted meanwhile, and this thread's
// is forgotten after.
func foreignCall(fn func() error) error {
	foreign.Add(1)
	defer func() {
		forgetThread()
		foreign.Add(-1)
	}()
	return fn()
}

// ForgetCurrent makes the layer check which context is current (with
// cuCtxGetCurrent) on its next call on every OS thread, instead of trusting
// the one it made current there itself. Call it after changing a thread's
// current context outside the layer, and outside [Context.Do] (which needs
// no call: it forgets its own thread's when it returns).
func ForgetCurrent() {
	for i := range bound {
		bound[i].Store(0)
	}
}
