//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffiimpl_test

import (
	"runtime"
	"sync"
	"testing"

	"github.com/cugen/cugen/ffi/ffiimpl"
)

// TestThreadRunsOnOneThread: calls from goroutines locked to threads of
// their own, many at once, all run on one thread, none of theirs, one at
// a time, and each caller sees its own call done when Run returns.
func TestThreadRunsOnOneThread(t *testing.T) {
	var th ffiimpl.Thread
	const callers, calls = 8, 50
	var (
		mu      sync.Mutex
		ran     = map[int]bool{} // the threads Run's functions ran on
		callerT = map[int]bool{} // the callers' threads
		inside  int              // functions running now
		wg      sync.WaitGroup
	)
	for range callers {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			mu.Lock()
			callerT[ffiimpl.Gettid()] = true
			mu.Unlock()
			for i := range calls {
				got := -1
				th.Run(func() {
					mu.Lock()
					inside++
					if inside != 1 {
						t.Errorf("%d functions running at once", inside)
					}
					ran[ffiimpl.Gettid()] = true
					mu.Unlock()
					runtime.Gosched() // let another caller try to get in
					mu.Lock()
					inside--
					mu.Unlock()
					got = i
				})
				if got != i {
					t.Errorf("Run returned before its function ran: got %d, want %d", got, i)
					return
				}
			}
		})
	}
	wg.Wait()
	if len(ran) != 1 {
		t.Fatalf("functions ran on %d threads, want 1", len(ran))
	}
	for tid := range ran {
		if callerT[tid] {
			t.Errorf("functions ran on thread %d, a caller's", tid)
		}
	}
}

// TestThreadPanic: a panic in the function panics again in Run's caller
// with the same value, and the thread goes on serving calls.
func TestThreadPanic(t *testing.T) {
	var th ffiimpl.Thread
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want boom", r)
			}
		}()
		th.Run(func() { panic("boom") })
		t.Error("Run returned after a panic")
	}()
	ok := false
	th.Run(func() { ok = true })
	if !ok {
		t.Error("Run after a panic did not run its function")
	}
}
