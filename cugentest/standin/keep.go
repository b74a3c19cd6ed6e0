package standin

import (
	"io"
	"testing"
)

// Must returns a function that returns v, or fails its tb when err is
// not nil: ctx := standin.Must(cuda.NewContext(0))(t) stands for the
// four lines of a call, its error check and tb.Fatal. (The function it
// returns takes tb because Go passes a call's results on only as a
// call's whole argument list.)
func Must[T any](v T, err error) func(testing.TB) T {
	return func(tb testing.TB) T {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return v
	}
}

// Keep is [Must] for a value closed when tb and its subtests end
// (tb.Cleanup); values kept one after another close in the reverse
// order: s := standin.Keep(ctx.NewStream())(tb).
func Keep[T io.Closer](v T, err error) func(testing.TB) T {
	return func(tb testing.TB) T {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { v.Close() })
		return v
	}
}
