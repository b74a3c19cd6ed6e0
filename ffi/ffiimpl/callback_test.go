//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffiimpl_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cugen/cugen/ffi/ffiimpl"
)

// hostFn is the one static C entry point for `void (*)(void *userData)`,
// made lazily as generated code does: the Go function to run for each
// registration comes from the handle.
var hostFn = sync.OnceValue(func() uintptr {
	return ffiimpl.Callback(func(userData uintptr) {
		if f, ok := ffiimpl.Handle(userData).Value().(func()); ok {
			f()
		}
	})
})

// onThread has C call the handle's function n times from a new pthread.
func onThread(t *testing.T, h ffiimpl.Handle, n int) {
	t.Helper()
	fp, cb := fn(t, "on_thread"), hostFn()
	var f ffiimpl.Frame
	f.Int(cb)
	f.Int(uintptr(h))
	f.Int(uintptr(n))
	ffiimpl.Call(fp, &f)
	if r := int32(f.Ret()); r != 0 {
		t.Fatalf("on_thread failed: %d", r)
	}
}

func TestCallbackFromCThread(t *testing.T) {
	needABI(t)
	var calls atomic.Int64
	h := ffiimpl.NewHandle(func() { calls.Add(1) })
	onThread(t, h, 100)
	h.Delete()
	if calls.Load() != 100 {
		t.Errorf("callback ran %d times, want 100", calls.Load())
	}
	// A deleted handle reaches nothing, and does not crash the callback.
	onThread(t, h, 1)
	if calls.Load() != 100 {
		t.Errorf("a deleted handle's function ran")
	}
}

func TestHandleChurn(t *testing.T) {
	needABI(t)
	hostFn() // the one purego callback, made before counting
	made := ffiimpl.CallbacksMade()
	live := ffiimpl.LiveHandles()

	const n = 1_000_000
	const window = 8 // handles alive at once
	var ring [window]ffiimpl.Handle
	var calls atomic.Int64
	count := func() { calls.Add(1) }
	for i := range n {
		if ring[i%window] != 0 {
			ring[i%window].Delete()
		}
		h := ffiimpl.NewHandle(count)
		ring[i%window] = h
		if i%50_000 == 0 {
			onThread(t, h, 1) // the same static callback reaches new handles
		}
	}
	for _, h := range ring {
		h.Delete()
	}
	if got := ffiimpl.LiveHandles(); got != live {
		t.Errorf("LiveHandles() = %d after deleting everything, want %d", got, live)
	}
	if got := ffiimpl.HandleTableLen(); got > live+window {
		t.Errorf("handle table has %d slots for at most %d live handles", got, live+window)
	}
	if got := ffiimpl.CallbacksMade() - made; got != 0 {
		t.Errorf("%d purego callbacks made during the churn, want 0", got)
	}
	if calls.Load() != n/50_000 {
		t.Errorf("callback ran %d times, want %d", calls.Load(), n/50_000)
	}
}

func TestHandleValue(t *testing.T) {
	if v := ffiimpl.Handle(0).Value(); v != nil {
		t.Errorf("Handle(0).Value() = %v", v)
	}
	if v := ffiimpl.Handle(0xdeadbeef12345678).Value(); v != nil {
		t.Errorf("unknown handle: Value() = %v", v)
	}
	ffiimpl.Handle(0xdeadbeef12345678).Delete() // no panic

	h := ffiimpl.NewHandle("x")
	if h == 0 || h.Value() != "x" {
		t.Fatalf("NewHandle(\"x\") = %#x with value %v", h, h.Value())
	}
	h.Delete()
	h.Delete() // idempotent
	h2 := ffiimpl.NewHandle("y")
	if h.Value() != nil {
		t.Errorf("stale handle %#x sees %v after its slot was reused by %#x", h, h.Value(), h2)
	}
	if h2.Value() != "y" {
		t.Errorf("h2.Value() = %v", h2.Value())
	}
	h2.Delete()
}

func TestHandleConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 10_000 {
				h := ffiimpl.NewHandle(g*100_000 + i)
				if v := h.Value(); v != g*100_000+i {
					t.Errorf("Value() = %v, want %d", v, g*100_000+i)
					return
				}
				h.Delete()
			}
		})
	}
	wg.Wait()
}

func TestHandleOnceAndRegistry(t *testing.T) {
	before := ffiimpl.LiveHandles()
	h := ffiimpl.NewHandleOnce("once")
	if v := h.Use(); v != "once" {
		t.Fatalf("Use = %v", v)
	}
	if v := h.Use(); v != nil {
		t.Fatalf("second Use of a once handle = %v, want nil", v)
	}
	p := ffiimpl.NewHandle("kept")
	if p.Use() != "kept" || p.Use() != "kept" {
		t.Fatal("Use deleted a plain handle")
	}
	var r ffiimpl.Registry
	r.Add(0x1234, p)
	r.Remove(0x1234)
	r.Remove(0x1234) // twice: nothing
	if p.Value() != nil {
		t.Fatal("Registry.Remove left the handle")
	}
	if ffiimpl.LiveHandles() != before {
		t.Fatalf("live handles %d, want %d", ffiimpl.LiveHandles(), before)
	}
	var s, other ffiimpl.CallbackSlot
	if s.Value() != nil {
		t.Fatal("empty slot has a value")
	}
	outer := ffiimpl.EnterCallbacks()
	outer.Hold(&s, 42)
	if s.Value() != 42 || other.Value() != nil {
		t.Fatalf("slot value %v, other slot %v", s.Value(), other.Value())
	}
	inner := ffiimpl.EnterCallbacks() // a callback calling the same API again
	inner.Hold(&s, 43)
	if s.Value() != 43 {
		t.Fatalf("nested slot value %v, want 43", s.Value())
	}
	inner.Exit()
	if s.Value() != 42 {
		t.Fatalf("slot value after the nested call %v, want 42", s.Value())
	}
	outer.Exit()
	if s.Value() != nil {
		t.Fatal("released slot has a value")
	}
}
