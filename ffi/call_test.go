//go:build linux && (amd64 || arm64)

package ffi

import (
	"strings"
	"testing"
)

// libc returns a lookup of the C library's symbols.
func libc(t *testing.T) func(string) (uintptr, error) {
	t.Helper()
	l := NewLibrary(LibraryDesc{Name: "C", Files: []string{"libc.so.6"}})
	if err := l.Load(); err != nil {
		t.Skipf("no libc.so.6: %v", err)
	}
	return l.Lookup
}

// TestCall: Call passes integers (signed ones sign-extended), pointers to
// copies C reads and writes back, byte slices and NULL, and refuses
// without calling what it cannot pass.
func TestCall(t *testing.T) {
	sym := libc(t)
	fn := func(name string) uintptr {
		a, err := sym(name)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if r, err := Call(fn("abs"), int32(-5)); err != nil || int32(r) != 5 {
		t.Errorf("abs(-5) = %d, %v", int32(r), err)
	}
	if r, err := Call(fn("labs"), int64(-1)<<40); err != nil || int64(r) != 1<<40 {
		t.Errorf("labs(-2^40) = %d, %v", int64(r), err)
	}
	src, dst := int32(-7), int32(0)
	if _, err := Call(fn("memcpy"), &dst, &src, 4); err != nil || dst != -7 || src != -7 {
		t.Errorf("memcpy of an int32: dst %d, src %d, %v", dst, src, err)
	}
	u := uintptr(0)
	if _, err := Call(fn("memcpy"), &u, []byte{1, 2, 3, 4, 5, 6, 7, 8}, 8); err != nil || u != 0x0807060504030201 {
		t.Errorf("memcpy into a uintptr: %#x, %v", u, err)
	}
	b := []byte("abcdefghijk")
	if _, err := Call(fn("memset"), b, 'z', 3); err != nil || string(b) != "zzzdefghijk" {
		t.Errorf("memset: %q, %v", b, err)
	}
	if r, err := Call(fn("strlen"), []byte("hello\x00world")); err != nil || r != 5 {
		t.Errorf("strlen = %d, %v", r, err)
	}
	// A nil pointer is NULL: time(NULL) returns the time.
	if r, err := Call(fn("time"), (*int64)(nil)); err != nil || int64(r) < 1e9 {
		t.Errorf("time(NULL) = %d, %v", int64(r), err)
	}
	for _, c := range []struct {
		fn   uintptr
		args []any
		want string
	}{
		{0, nil, "nil function pointer"},
		{fn("abs"), []any{1, 2, 3, 4, 5, 6, 7}, "7 arguments, at most 6"},
		{fn("abs"), []any{"x"}, "argument 0: string is not an integer"},
		{fn("abs"), []any{1, new(int)}, "argument 1: *int is not"},
	} {
		if _, err := Call(c.fn, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Call(%#x, %v) = %v, want %q", c.fn, c.args, err, c.want)
		}
	}
}
