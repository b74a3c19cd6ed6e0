//go:build linux && (amd64 || arm64)

package ffi

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ebitengine/purego"
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
	return purego.NewCallback(fn)
}

// Registry keeps the handles of callbacks that stay registered until an
// explicit unregister call (cuDeviceRegisterAsyncNotification,
// cuLogsRegisterCallback), keyed by the registration handle C returns.
// The generated unregister wrapper removes the entry, which deletes the
// handle: registering and unregistering in a loop leaves the table bounded.
type Registry struct {
	m sync.Map // uintptr -> Handle
}

// Add records h as the callback of registration key.
func (r *Registry) Add(key uintptr, h Handle) { r.m.Store(key, h) }

// Remove deletes the handle registered under key, if any.
func (r *Registry) Remove(key uintptr) {
	if h, ok := r.m.LoadAndDelete(key); ok {
		h.(Handle).Delete()
	}
}

// CallbackSlot holds the Go func of a callback that C calls synchronously,
// during the call that passes it, and that has no userData to carry a
// Handle (cuOccupancyMaxPotentialBlockSize's block-size-to-shared-memory
// function). Hold takes the slot for the duration of that call, so such
// calls are serialised per callback type.
type CallbackSlot struct {
	mu sync.Mutex
	v  atomic.Value
}

// Hold locks the slot and stores v for the trampoline.
func (s *CallbackSlot) Hold(v any) {
	s.mu.Lock()
	s.v.Store(&v)
}

// Release clears the slot and unlocks it.
func (s *CallbackSlot) Release() {
	var none any
	s.v.Store(&none)
	s.mu.Unlock()
}

// Value is the func stored by Hold, or nil.
func (s *CallbackSlot) Value() any {
	if p, ok := s.v.Load().(*any); ok {
		return *p
	}
	return nil
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
