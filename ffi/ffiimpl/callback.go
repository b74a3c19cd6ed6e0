//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffiimpl

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cugen/cugen/ffi"
)

// Handle is a small non-zero integer standing for a Go value, passed to C as
// the void *userData of a callback. C cannot hold Go pointers, and purego can
// make only a couple of thousand C entry points per process, never freed;
// so generated code makes one static entry point per callback typedef with
// [Callback] and finds the Go function to run through the handle.
//
// The low 32 bits index a table slot, the high 32 bits are the slot's
// generation: a slot is reused after Delete, and a stale handle then finds a
// different generation and yields nil instead of someone else's value.
type Handle uintptr

var handles struct {
	mu    sync.RWMutex
	slots []handleSlot
	free  []uint32 // indexes of deleted slots, reused first so the table stays bounded
	live  int
}

type handleSlot struct {
	v    any
	gen  uint32
	live bool
	once bool // deleted by its first Use
}

// NewHandleOnce is NewHandle for a callback C calls exactly once (a host
// function, a stream callback): the first Use deletes it.
func NewHandleOnce(v any) Handle {
	h := NewHandle(v)
	handles.mu.Lock()
	if s := h.slot(); s != nil {
		s.once = true
	}
	handles.mu.Unlock()
	return h
}

// Use returns h's value, as Value does, and deletes h if it was made by
// NewHandleOnce. Trampolines call it: one code path for one-shot and
// registered callbacks.
func (h Handle) Use() any {
	handles.mu.Lock()
	defer handles.mu.Unlock()
	s := h.slot()
	if s == nil {
		return nil
	}
	v := s.v
	if s.once {
		s.v, s.live, s.once = nil, false, false
		handles.free = append(handles.free, uint32(h)-1)
		handles.live--
	}
	return v
}

// NewHandle stores v and returns its handle. The handle stays valid until
// Delete; the table grows only to the peak number of live handles.
func NewHandle(v any) Handle {
	handles.mu.Lock()
	defer handles.mu.Unlock()
	var i uint32
	if n := len(handles.free); n > 0 {
		i = handles.free[n-1]
		handles.free = handles.free[:n-1]
	} else {
		i = uint32(len(handles.slots))
		handles.slots = append(handles.slots, handleSlot{})
	}
	s := &handles.slots[i]
	s.gen++
	s.v, s.live = v, true
	handles.live++
	return Handle(uintptr(s.gen)<<32 | uintptr(i+1))
}

// slot returns h's slot if h is live, else nil. handles.mu must be held.
func (h Handle) slot() *handleSlot {
	i := uint64(uint32(h)) - 1
	if i >= uint64(len(handles.slots)) {
		return nil
	}
	s := &handles.slots[i]
	if !s.live || s.gen != uint32(uint64(h)>>32) {
		return nil
	}
	return s
}

// Value returns the value stored for h, or nil if h is zero, unknown or
// deleted. It never panics: C may hand back any pointer.
func (h Handle) Value() any {
	handles.mu.RLock()
	defer handles.mu.RUnlock()
	if s := h.slot(); s != nil {
		return s.v
	}
	return nil
}

// Delete forgets h's value and frees its slot for reuse. Deleting an
// unknown or already deleted handle does nothing.
func (h Handle) Delete() {
	handles.mu.Lock()
	defer handles.mu.Unlock()
	s := h.slot()
	if s == nil {
		return
	}
	s.v, s.live, s.once = nil, false, false // drop the reference so the value can be collected
	handles.free = append(handles.free, uint32(h)-1)
	handles.live--
}

// LiveHandles returns the number of handles not yet deleted.
func LiveHandles() int {
	handles.mu.RLock()
	defer handles.mu.RUnlock()
	return handles.live
}

// callbacksMade counts Callback calls, for the tests: the number of purego
// entry points must not depend on how many C calls used them.
var callbacksMade atomic.Int64

// Callback returns a C function pointer that calls fn, a Go func whose
// arguments and result are uintptr-sized integers or pointers (see
// purego.NewCallback). Each call makes a new, never freed entry point and
// there are about 2000 per process: generated code calls it once per C
// callback typedef, lazily (sync.OnceValue), and passes a [Handle] as the
// callback's userData to reach the per-call Go function.
func Callback(fn any) uintptr {
	callbacksMade.Add(1)
	return newCallback(fn)
}

// Registry keeps the handles of callbacks that live until an explicit
// release call, keyed by a handle C returns or takes: registrations
// (cuDeviceRegisterAsyncNotification, cuLogsRegisterCallback) until their
// unregister call, and the Go funcs given to an executable graph's host
// nodes (cuGraphExecHostNodeSetParams) until cuGraphExecDestroy. The
// generated release wrapper removes the key, which deletes its handles:
// registering and releasing in a loop leaves the table bounded.
type Registry struct {
	mu sync.Mutex
	m  map[uintptr][]Handle
}

// Add records h under key, beside any handles already there.
func (r *Registry) Add(key uintptr, h Handle) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[uintptr][]Handle{}
	}
	r.m[key] = append(r.m[key], h)
}

// Remove deletes the handles recorded under key, if any.
func (r *Registry) Remove(key uintptr) {
	r.mu.Lock()
	hs := r.m[key]
	delete(r.m, key)
	r.mu.Unlock()
	for _, h := range hs {
		h.Delete()
	}
}

// CallbackSlot names a callback type that C calls synchronously, during
// the call that passes it, and that has no userData to carry a Handle
// (cuOccupancyMaxPotentialBlockSize's block-size-to-shared-memory
// function). The Go func of each call lives in that call's CallbackScope,
// per OS thread: calls from several threads run at once, and a callback
// that calls the same API again (on its own thread) gets its own func and
// does not deadlock.
type CallbackSlot struct {
	holders int            // scopes holding a func for this slot; scopes.mu
	only    *CallbackScope // the one holder when holders == 1
}

// Value is the func the innermost call on this OS thread holds for s, or
// nil when none does (C called the trampoline from another thread). With
// one call in flight for s it is that call's func, found without asking
// the thread's id: C calls a synchronous callback only during the call
// that passes it.
func (s *CallbackSlot) Value() any {
	scopes.mu.Lock()
	if s.holders == 1 {
		fn := s.only.fn
		scopes.mu.Unlock()
		return fn
	}
	scopes.mu.Unlock()
	tid := gettid()
	scopes.mu.Lock()
	defer scopes.mu.Unlock()
	st := scopes.m[tid]
	for i := len(st) - 1; i >= 0; i-- {
		if st[i].slot == s {
			return st[i].fn
		}
	}
	return nil
}

// CallbackScope is held by a wrapper that passes a Go callback to C, for
// the duration of the C call. C may run the callback on the calling thread
// during the call; a Go panic must not unwind through C's frames (C's
// locks and state would be abandoned), so the trampoline recovers it
// (Recover), stores it here and returns zero to C, and Exit panics again
// with it, in the caller's goroutine, once C has returned.
type CallbackScope struct {
	tid  int
	slot *CallbackSlot
	fn   any
	p    *ffi.CallbackPanic
}

var scopes = struct {
	mu sync.Mutex
	m  map[int][]*CallbackScope // per OS thread id, innermost last
}{m: map[int][]*CallbackScope{}}

// EnterCallbacks locks the goroutine to its OS thread and opens a scope on
// it. The caller must call Exit (deferred) after the C call.
func EnterCallbacks() *CallbackScope {
	runtime.LockOSThread()
	s := &CallbackScope{tid: gettid()}
	scopes.mu.Lock()
	scopes.m[s.tid] = append(scopes.m[s.tid], s)
	scopes.mu.Unlock()
	return s
}

// Hold makes fn the func of slot's trampoline for this call. A scope
// holds at most one slot.
func (s *CallbackScope) Hold(slot *CallbackSlot, fn any) {
	scopes.mu.Lock()
	defer scopes.mu.Unlock()
	if s.slot != nil {
		panic("ffi: CallbackScope.Hold called twice")
	}
	s.slot, s.fn = slot, fn
	slot.holders++
	slot.only = s
}

// Exit closes the scope and unlocks the thread; if a callback panicked
// during the call, it panics with an *ffi.CallbackPanic holding the value and
// the callback's stack.
func (s *CallbackScope) Exit() {
	scopes.mu.Lock()
	st := scopes.m[s.tid]
	for i := len(st) - 1; i >= 0; i-- {
		if st[i] == s {
			st = append(st[:i], st[i+1:]...)
			break
		}
	}
	if len(st) == 0 {
		delete(scopes.m, s.tid)
	} else {
		scopes.m[s.tid] = st
	}
	if sl := s.slot; sl != nil {
		sl.holders--
		sl.only = nil
		if sl.holders == 1 { // find the other holder (rare: nested or concurrent calls)
			for _, st := range scopes.m {
				for _, o := range st {
					if o.slot == sl {
						sl.only = o
					}
				}
			}
		}
	}
	scopes.mu.Unlock()
	runtime.UnlockOSThread()
	if s.p != nil {
		panic(s.p)
	}
}

// currentScope is the innermost scope of this OS thread, or nil.
func currentScope() *CallbackScope {
	tid := gettid()
	scopes.mu.Lock()
	defer scopes.mu.Unlock()
	if st := scopes.m[tid]; len(st) > 0 {
		return st[len(st)-1]
	}
	return nil
}

// Recover is deferred by every trampoline. A panic in the callback never
// unwinds through C's frames: if a wrapper on this thread is in its C call
// (a CallbackScope), the panic is stored there, the trampoline returns
// zero to C, and the wrapper panics again after C returns. Otherwise no Go
// caller waits for the callback (C runs it on a thread of its own, or
// during a call that passes no Go callback, such as a user object's
// destructor run by cuGraphDestroy): the panic and the callback's stack go
// to standard error and the process exits with status 2, as an
// unrecovered panic does.
func Recover() {
	v := recover()
	if v == nil {
		return
	}
	stack := debug.Stack()
	if s := currentScope(); s != nil {
		if s.p == nil { // the first panic of the call wins
			s.p = &ffi.CallbackPanic{Value: v, Stack: stack}
		}
		return
	}
	fmt.Fprintf(os.Stderr, "panic: %v [in a Go callback called from C on a thread no Go call waits on]\n\n%s", v, stack)
	os.Exit(2)
}

// escapeSink makes Escape's argument escape (see Escape).
var escapeSink atomic.Pointer[byte]

// NewHeapFrame returns a Frame on the heap, for a call during which C may
// run Go code on the calling goroutine (see Escape): a Frame on the stack
// could move while the trampoline still holds its address.
//
//go:noinline
func NewHeapFrame() *Frame {
	f := new(Frame)
	Escape(unsafe.Pointer(f))
	return f
}

// Escape makes the compiler keep p's referent on the heap: a wrapper whose C
// function may run Go code on the calling goroutine (a callback on the
// calling thread) can see that goroutine's stack move, so memory C holds
// during the call must not live on it. It stores nothing lasting.
func Escape(p unsafe.Pointer) {
	escapeSink.Store((*byte)(p))
	escapeSink.Store(nil)
}
