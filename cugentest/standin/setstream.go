package standin

import (
	"errors"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/ffi"
)

// StreamSetter is a math package's handle, generator or plan: the stream
// its work queues on, and SetStream to move it.
type StreamSetter interface {
	Stream() *cuda.Stream
	SetStream(*cuda.Stream) error
}

// CheckSetStream checks h's SetStream on the stand-ins, h bound to its
// first stream by one call of setFn (cublasSetStream_v2, ...) of lib: a
// SetStream to the stream it has calls nothing, one to other (a stream of
// its context) calls setFn once and Stream returns other, a nil stream is
// an error that calls nothing, and after closeH (h's Close) SetStream
// fails with an error matching cuda.ErrFreed (the math packages'
// ErrClosed does).
func CheckSetStream(tb testing.TB, lib *ffi.Library, setFn string, h StreamSetter, other *cuda.Stream, closeH func() error) {
	tb.Helper()
	if n := Count(tb, lib, setFn); n != 1 {
		tb.Fatalf("the constructor called %s %d times, want 1", setFn, n)
	}
	if err := h.SetStream(h.Stream()); err != nil {
		tb.Fatal(err)
	}
	if n := Count(tb, lib, setFn); n != 1 {
		tb.Errorf("a SetStream to the handle's own stream called %s: %d calls, want 1", setFn, n)
	}
	if err := h.SetStream(other); err != nil {
		tb.Fatal(err)
	}
	if n := Count(tb, lib, setFn); n != 2 {
		tb.Errorf("a SetStream to another stream: %d %s calls, want 2", n, setFn)
	}
	if h.Stream() != other {
		tb.Errorf("Stream() is not the stream set")
	}
	if err := h.SetStream(nil); err == nil {
		tb.Error("SetStream(nil) took a nil stream")
	}
	if err := closeH(); err != nil {
		tb.Fatal(err)
	}
	if err := h.SetStream(other); !errors.Is(err, cuda.ErrFreed) {
		tb.Errorf("SetStream after Close: %v, want the closed error", err)
	}
	if n := Count(tb, lib, setFn); n != 2 {
		tb.Errorf("%d %s calls after the nil stream and the Close, want 2", n, setFn)
	}
}
