package ffi

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
)

// CheckOutput is where Check prints; tests may redirect it.
var CheckOutput io.Writer = os.Stderr

// codeText is implemented by the generated result types (cu.Result,
// cudart.Error): the C name and the library's message.
type codeText interface {
	String() string
	Message() string
}

// apiNamer is implemented by the generated result types: which CUDA API
// the code belongs to ("driver" for cu.Result, "runtime" for cudart.Error).
type apiNamer interface {
	API() string
}

// helpers holds the entry PCs of the functions marked by [Helper].
var helpers sync.Map // uintptr -> struct{}

// Helper marks the function that calls it as a check helper, the way
// testing.T.Helper does: [Check] reports the first caller that is not a
// helper, so a user's checkCudaErrors-style wrapper reports the line that
// called it, not its own line. Generated packages export it as
// cu.CheckHelper and cudart.CheckHelper (skip 1: their caller).
//
// skip is the number of frames above Helper's caller to mark (0: the
// caller itself). Marking is cheap after the first call of each function.
func Helper(skip int) {
	var pc [1]uintptr
	if runtime.Callers(skip+2, pc[:]) == 0 {
		return
	}
	frame, _ := runtime.CallersFrames(pc[:]).Next()
	if frame.Entry != 0 {
		helpers.LoadOrStore(frame.Entry, struct{}{})
	}
}

// callerLine returns the file (base name) and line of the first frame, at
// least skip frames above callerLine's caller, whose function is not a
// helper; "?" and 0 if the stack ends first.
func callerLine(skip int) (string, int) {
	var pcs [64]uintptr
	n := runtime.Callers(skip+2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if f.PC == 0 {
			break
		}
		if _, helper := helpers.Load(f.Entry); !helper {
			return filepath.Base(f.File), f.Line
		}
		if !more {
			break
		}
	}
	return "?", 0
}

// Check checks err like the checkRuntime macro of CUDA C++ code, for code
// that prefers printing and going on to `if err != nil`: for a non-nil err
// it prints where the call was made, which C function failed, and the
// error's C name and message, then returns false. skip is the number of
// frames above Check's caller to report (0: the caller itself); from there,
// functions marked by [Helper] are passed over, so the line printed is the
// first caller that is not a helper.
//
// The message names the API the error belongs to, from the code's API
// method: "driver error" for a cu.Result, "runtime error" for a
// cudart.Error, "CUDA error" for an error that is neither.
//
//	runtime error main.go:42  cudaSetDevice failed.
//	  code = cudaErrorInvalidDevice, message = invalid device ordinal
func Check(err error, skip int) bool {
	if err == nil {
		return true
	}
	file, line := callerLine(skip + 1)
	call := "call"
	var ce *CallError
	if errors.As(err, &ce) {
		call = ce.Func
		err = ce.Code
	}
	api := "CUDA"
	var an apiNamer
	if errors.As(err, &an) {
		api = an.API()
	}
	var ct codeText
	if errors.As(err, &ct) {
		fmt.Fprintf(CheckOutput, "%s error %s:%d  %s failed.\n  code = %s, message = %s\n", api, file, line, call, ct.String(), ct.Message())
	} else {
		fmt.Fprintf(CheckOutput, "%s error %s:%d  %s failed.\n  %v\n", api, file, line, call, err)
	}
	return false
}

// RunLocked runs fn on a new goroutine locked to an OS thread of its own and
// returns fn's result. CUDA's current context and the runtime's current
// device belong to the OS thread, and Go moves goroutines between threads;
// fn may rely on both for its whole run. The thread is discarded afterwards
// (the goroutine exits locked), so the context state fn leaves behind never
// leaks into another goroutine.
//
// RunLocked ends the way fn ends, as if fn had run on the caller's
// goroutine, once fn's deferred calls have run:
//   - fn returns: RunLocked returns its error.
//   - fn panics: RunLocked panics in the caller with a [*LockedPanic] that
//     holds the original value and the stack of the locked goroutine where
//     it panicked (its Error text shows both, so an unrecovered panic prints
//     where fn failed, not only where RunLocked was called).
//   - fn calls runtime.Goexit (t.Fatal, t.FailNow, t.Skip do): RunLocked
//     calls runtime.Goexit in the caller. In a test, t.Fatal inside
//     cudart.OnDevice or cu.OnPrimaryContext thus ends the test, marked
//     failed, as it would outside. Never a hang.
func RunLocked(fn func() error) error {
	type result struct {
		err    error
		panic  *LockedPanic
		goexit bool
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		returned := false
		defer func() {
			if returned {
				return
			}
			// Still on the panicking stack: debug.Stack shows where fn panicked.
			if r := recover(); r != nil {
				done <- result{panic: &LockedPanic{Value: r, Stack: debug.Stack()}}
				return
			}
			done <- result{goexit: true} // recover is nil only for runtime.Goexit
		}()
		err := fn()
		returned = true
		done <- result{err: err}
	}()
	r := <-done
	switch {
	case r.panic != nil:
		panic(r.panic)
	case r.goexit:
		runtime.Goexit()
	}
	return r.err
}

// LockedPanic is the value [RunLocked] panics with when its function
// panicked on the locked thread: the original value and that goroutine's
// stack at the panic.
type LockedPanic struct {
	Value any    // what fn panicked with
	Stack []byte // debug.Stack() of the locked goroutine, taken while panicking
}

func (p *LockedPanic) Error() string {
	return fmt.Sprintf("%v\n\n[panic on the locked CUDA thread (ffi.RunLocked); its stack:]\n%s", p.Value, p.Stack)
}

// Unwrap returns the original value if it is an error, so that errors.Is
// and errors.As see through a recovered LockedPanic.
func (p *LockedPanic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}
