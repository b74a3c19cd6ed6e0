package panics

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// TestCatch: a panic comes back with its value, its work and the stack
// of the function that raised it; a return comes back as nil.
func TestCatch(t *testing.T) {
	if p := Catch("nothing", func() {}); p != nil {
		t.Fatalf("Catch of a function that returned: %v, want nil", p)
	}
	p := Catch("the test's work", raise)
	if p == nil {
		t.Fatal("Catch of a panic: nil")
	}
	if p.Value != "boom" || p.Where != "the test's work" {
		t.Errorf("Catch: value %v, where %q", p.Value, p.Where)
	}
	msg := p.Error()
	for _, want := range []string{"boom", "raised in the test's work:", "panics.raise("} {
		if !strings.Contains(msg, want) {
			t.Errorf("Error() lacks %q:\n%s", want, msg)
		}
	}
}

func raise() { panic("boom") }

// TestCatchNil: panic(nil) is a panic too (Go 1.21's PanicNilError), not
// a return.
func TestCatchNil(t *testing.T) {
	if p := Catch("nil", func() { panic(nil) }); p == nil {
		t.Fatal("Catch of panic(nil): nil")
	}
}

// TestUnwrap: an error raised is found through the Panic.
func TestUnwrap(t *testing.T) {
	p := Catch("an error", func() { panic(fs.ErrNotExist) })
	if !errors.Is(p, fs.ErrNotExist) {
		t.Errorf("errors.Is(%v, fs.ErrNotExist) = false", p)
	}
	if Catch("a string", raise).Unwrap() != nil {
		t.Error("Unwrap of a string panic: not nil")
	}
}
