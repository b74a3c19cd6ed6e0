package ffiimpl

import (
	"runtime"
	"sync"
)

// Thread is one OS thread that runs a library's C calls, one at a time,
// for a library that breaks when its calls on one handle come from
// different threads (library.Desc.OneThread: nvJitLink 12.4 crashes when
// a handle is destroyed on another thread than the one that created it).
// Go moves a goroutine between OS threads whenever it blocks or is
// preempted, so without this a program that creates, uses and destroys
// a handle in one goroutine still calls from several threads.
//
// The generated wrappers of such a library make each C call inside
// [Thread.Run]. Calls from several goroutines take turns (both held by
// TestThreadRunsOnOneThread). The zero value is ready to use; its
// goroutine starts on the first Run and stays locked to its thread for
// the rest of the process.
type Thread struct {
	start sync.Once
	calls chan func()
	done  chan any // the panic value of the call just run, or nil
}

// Run runs f on t's thread and returns when f has. A panic in f panics
// again in Run's caller with the same value. f must not call Run on the
// same Thread (it would wait for itself) nor runtime.Goexit.
//
// The C call's arguments are evaluated inside f, on the thread's
// goroutine: variables f captures by reference live on the heap (the
// closure escapes), so a Go pointer passed as a uintptr stays valid while
// the caller waits.
func (t *Thread) Run(f func()) {
	t.start.Do(func() {
		t.calls = make(chan func())
		t.done = make(chan any)
		go t.serve()
	})
	// Unbuffered both ways: the thread takes the next call only after
	// the caller of the last one has received its done, so each caller
	// receives its own call's result.
	t.calls <- f
	if p := <-t.done; p != nil {
		panic(p)
	}
}

func (t *Thread) serve() {
	runtime.LockOSThread() // never unlocked: the thread is the library's
	for f := range t.calls {
		t.done <- runRecovered(f)
	}
}

// runRecovered runs f and returns the value it panicked with, nil if it
// returned.
func runRecovered(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}
