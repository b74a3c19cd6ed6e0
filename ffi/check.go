package ffi

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// CheckOutput is where Check prints; tests may redirect it.
var CheckOutput io.Writer = os.Stderr

// codeText is implemented by the generated result types (cu.Result,
// cudart.Error): the C name and the library's message.
type codeText interface {
	String() string
	Message() string
}

// Check is the seed's checkRuntime for code that prefers printing and going
// on to `if err != nil`: for a non-nil err it prints where the call was
// made, which C function failed, and the error's C name and message, then
// returns false. skip is the number of frames above Check's caller to
// report (0: the caller itself).
//
//	runtime error main.go:42  cudaSetDevice failed.
//	  code = cudaErrorInvalidDevice, message = invalid device ordinal
func Check(err error, skip int) bool {
	if err == nil {
		return true
	}
	file, line := "?", 0
	if _, f, l, ok := runtime.Caller(skip + 1); ok {
		file, line = filepath.Base(f), l
	}
	call := "call"
	var ce *CallError
	if errors.As(err, &ce) {
		call = ce.Func
		err = ce.Code
	}
	var ct codeText
	if errors.As(err, &ct) {
		fmt.Fprintf(CheckOutput, "runtime error %s:%d  %s failed.\n  code = %s, message = %s\n", file, line, call, ct.String(), ct.Message())
	} else {
		fmt.Fprintf(CheckOutput, "runtime error %s:%d  %s failed.\n  %v\n", file, line, call, err)
	}
	return false
}

// RunLocked runs fn on a new goroutine locked to an OS thread of its own and
// returns fn's result. CUDA's current context and the runtime's current
// device belong to the OS thread, and Go moves goroutines between threads;
// fn may rely on both for its whole run. The thread is discarded afterwards
// (the goroutine exits locked), so the context state fn leaves behind never
// leaks into another goroutine.
func RunLocked(fn func() error) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("cugen: panic on the locked CUDA thread: %v", r)
			}
		}()
		done <- fn()
	}()
	return <-done
}
