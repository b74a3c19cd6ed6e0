package ffi

import "fmt"

// CallbackPanic is the value a wrapper panics with when a Go callback that
// C called during the wrapper's call panicked: the callback's panic value
// and its stack (the wrapper's own stack is the panic's).
type CallbackPanic struct {
	Value any
	Stack []byte
}

func (p *CallbackPanic) Error() string {
	return fmt.Sprintf("panic in a Go callback called from C: %v\n\ncallback stack:\n%s", p.Value, p.Stack)
}

// Unwrap returns the callback's panic value if it is an error.
func (p *CallbackPanic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}
