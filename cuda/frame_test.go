package cuda

import (
	"errors"
	"strings"
	"testing"
	"unsafe"
)

// saxpyFrame packs saxpy's (float alpha, const float *x, float *y, int n)
// as cugen kernels' launcher does: at the offsets the cubin has.
func saxpyFrame[T any](f *Frame, alpha float32, x, y *Buffer[T], n int32) {
	Arg(f, 0, 0, alpha)
	ArgBuffer(f, 1, 8, x)
	ArgBuffer(f, 2, 16, y)
	Arg(f, 3, 24, n)
}

// TestLaunchFrame: a frame holds each argument at its offset, and
// LaunchFrame launches it, allocating nothing.
func TestLaunchFrame(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	m, k, x := fakeKernel(t, f, c)
	defer m.Close()
	defer x.Close()
	var fr Frame
	saxpyFrame(&fr, 2.5, x, x, 7)
	w := unsafe.Slice((*byte)(unsafe.Pointer(&fr.words)), 32)
	if *(*float32)(unsafe.Pointer(&w[0])) != 2.5 || *(*uint64)(unsafe.Pointer(&w[8])) != uint64(x.Ptr()) ||
		*(*uint64)(unsafe.Pointer(&w[16])) != uint64(x.Ptr()) || *(*int32)(unsafe.Pointer(&w[24])) != 7 {
		t.Errorf("the frame's bytes: % x", w)
	}
	if fr.n != 4 || fr.nb != 2 || fr.offs[3] != 24 {
		t.Errorf("frame: %d parameters, %d buffers, offsets %v", fr.n, fr.nb, fr.offs[:4])
	}
	if err := k.LaunchFrame(Config{}, &fr); err != nil {
		t.Fatal(err)
	}
	if f.launches.Load() != 1 {
		t.Errorf("%d launches", f.launches.Load())
	}
	f.quiet = true
	allocs := testing.AllocsPerRun(100, func() {
		var fr Frame
		saxpyFrame(&fr, 1, x, x, 4)
		if err := k.LaunchFrame(Config{}, &fr); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("a typed launch allocates %v times", allocs)
	}
}

// TestLaunchFrameMisuse: what cannot be proved at generate time is
// refused at the launch, before the driver: a closed buffer, a buffer of
// another context, a nil buffer, a frame set out of order or past its
// 256 bytes.
func TestLaunchFrameMisuse(t *testing.T) {
	f, ka, _, xa, xb, done := twoFakeContexts(t)
	defer done()
	closed, err := Alloc[float32](refTo(t, ka.mod.r.ctx), 4)
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	for _, tc := range []struct {
		name string
		set  func(*Frame)
		want string
	}{
		{"closed", func(fr *Frame) { saxpyFrame(fr, 1, xa, closed, 4) }, "argument 2 (*cuda.Buffer): the buffer was freed"},
		{"other context", func(fr *Frame) { saxpyFrame(fr, 1, xb, xa, 4) }, "argument 1 (*cuda.Buffer): the buffer belongs to another context than the launch"},
		{"nil", func(fr *Frame) { saxpyFrame[float32](fr, 1, xa, nil, 4) }, "argument 2 (*cuda.Buffer): nil"},
		{"order", func(fr *Frame) { Arg(fr, 1, 0, int32(1)) }, "argument 1 (Frame): set out of order"},
		{"past the block", func(fr *Frame) { Arg(fr, 0, 250, uint64(1)) }, "argument 0 (Frame): set out of order or past the 256 bytes"},
	} {
		for _, hold := range []bool{false, true} {
			noGuards.Store(hold) // both ways of keeping operands open
			var fr Frame
			tc.set(&fr)
			err := ka.LaunchFrame(Config{}, &fr)
			var ae *ArgError
			if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s (counted uses %v): %v, want an *ArgError with %q", tc.name, hold, err, tc.want)
			}
		}
	}
	noGuards.Store(false)
	if n := f.launches.Load(); n != 0 {
		t.Errorf("%d launches reached the driver", n)
	}
	if v := xa.a.r.uses.state.Load() & usesCount; v != 0 {
		t.Errorf("%d uses of a buffer left after the refusals", v)
	}
}

// refTo returns a new reference to s, closed when t ends.
func refTo(t testing.TB, s *ctxState) *Context {
	s.retain()
	c := &Context{ref: &ctxRef{s: s}}
	t.Cleanup(func() { c.Close() })
	return c
}
