// Package panics carries a panic out of the goroutine that raised it.
// Work spread over goroutines (emit's packages, the parser's doc
// comments, gen's Go layer beside emit) recovers a worker's panic with
// Catch and raises it again in the goroutine that waits for the work,
// where a caller's recover (a fuzzer's, a test's) can reach it: a panic
// left in the worker ends the process. The stack where it was raised
// goes with it, since raising it again starts a new one.
package panics

import (
	"fmt"
	"runtime/debug"
)

// Panic is a recovered panic: its value, the work it ended (for the
// reader) and the stack where it was raised.
type Panic struct {
	Value any
	Where string
	Stack []byte
}

// Error is the value, where it was raised and the stack: what the
// process prints if Panic is raised again and nothing recovers it.
func (p *Panic) Error() string {
	return fmt.Sprintf("%v\n\nraised in %s:\n%s", p.Value, p.Where, p.Stack)
}

// Unwrap is the value when it is an error, for errors.Is and As.
func (p *Panic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// Catch runs f and returns its panic, or nil when f returned. where names
// the work, e.g. "a goroutine of emit.inParallel (f(3))".
func Catch(where string, f func()) (p *Panic) {
	defer func() {
		if r := recover(); r != nil {
			p = &Panic{Value: r, Where: where, Stack: debug.Stack()}
		}
	}()
	f()
	return nil
}
