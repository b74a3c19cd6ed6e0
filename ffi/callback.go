//go:build linux && (amd64 || arm64)

package ffi

import (
	"sync"
	"sync/atomic"

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
	s.v, s.live = nil, false // drop the reference so the value can be collected
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
