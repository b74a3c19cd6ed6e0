package cuda

import (
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// fakeContextStream is a context on a new fake driver and a stream of it
// (handle h), closed when tb ends, the stream first.
func fakeContextStream(tb testing.TB, h cu.Stream) (*fakeDriver, *Context, *Stream) {
	f, c := newFake(tb)
	tb.Cleanup(func() { c.Close() })
	s, closeS := fakeStream(c, h)
	tb.Cleanup(closeS)
	return f, c, s
}

// nopStreamHandle is a stream handle (value 1) on s whose create, destroy
// and stream-setting functions do nothing, closed when tb ends.
func nopStreamHandle(tb testing.TB, c *Context, s *Stream) *Handle {
	h, err := NewStreamHandle(c, s, func() (uint64, error) { return 1, nil }, func(uint64) error { return nil },
		func(uint64, cu.Stream) error { return nil })
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { h.Close() })
	return h
}
