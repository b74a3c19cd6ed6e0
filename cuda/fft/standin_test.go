package fft

import (
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cufft"
	"github.com/cugen/cugen/cugentest/standin"
	"github.com/cugen/cugen/ffi"
)

// These run on stand-ins for the driver and cuFFT (package
// cugentest/standin), without a GPU: C functions that return success and
// count their calls, in a fresh process.

var majors = standin.Majors{CUFFT: cufft.VerMajor}

func standinPlan(tb testing.TB, n int) (*cuda.Context, *cuda.Stream, *Plan, *cuda.Buffer[complex64], *cuda.Buffer[complex64]) {
	tb.Helper()
	ctx := standin.Keep(cuda.NewContext(0))(tb)
	s := standin.Keep(ctx.NewStream())(tb)
	p := standin.Keep(New1D(ctx, s, n, C2C, 1))(tb)
	in := standin.Keep(cuda.Alloc[complex64](ctx, n))(tb)
	out := standin.Keep(cuda.Alloc[complex64](ctx, n))(tb)
	return ctx, s, p, in, out
}

// TestStandinStreamBoundOnce: a plan calls cufftSetStream when it is
// made and when its stream changes, never on a transform on the stream
// it has, nor on a SetStream to it.
func TestStandinStreamBoundOnce(t *testing.T) {
	if !standin.Run(t, majors) {
		return
	}
	ctx, s, p, in, out := standinPlan(t, 1024)
	count := func() int { return standin.Count(t, cufft.SharedLibrary(), "cufftSetStream") }
	for range 3 {
		if err := p.C2C(in, out, Forward); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.SetStream(s); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 {
		t.Errorf("a plan, 3 transforms and a SetStream on its stream: %d cufftSetStream calls, want the 1 of NewPlan", n)
	}
	s2 := standin.Keep(ctx.NewStream())(t)
	if err := p.SetStream(s2); err != nil {
		t.Fatal(err)
	}
	if err := p.C2C(in, out, Forward); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 2 {
		t.Errorf("after a SetStream to another stream: %d cufftSetStream calls, want 2", n)
	}
	if n := standin.Count(t, cufft.SharedLibrary(), "cufftExecC2C"); n != 4 {
		t.Errorf("4 transforms made %d cufftExecC2C calls", n)
	}
}

// BenchmarkStandinC2C: a C2C transform of 1024 points against the
// cufft.ExecC2C it makes (in one Context.Do), on the stand-ins: what the
// package adds to a call (standin.Pair's over-ns/call).
func BenchmarkStandinC2C(b *testing.B) {
	if !standin.Run(b, majors) {
		return
	}
	ctx, _, p, in, out := standinPlan(b, 1024)
	raw, ip, op := p.Raw(), ffi.DevicePtr[cufft.Complex](in.Ptr()), ffi.DevicePtr[cufft.Complex](out.Ptr())
	standin.Pair(b, 1000, func(n int) {
		err := ctx.Do(func() error {
			for range n {
				if err := cufft.ExecC2C(raw, ip, op, cufft.Forward); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}, func(n int) {
		for range n {
			if err := p.C2C(in, out, Forward); err != nil {
				b.Fatal(err)
			}
		}
	})
}
