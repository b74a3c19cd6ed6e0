package rand

import (
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/curand"
	"github.com/cugen/cugen/cugentest/standin"
	"github.com/cugen/cugen/ffi"
)

// These run on stand-ins for the driver and cuRAND (package
// cugentest/standin), without a GPU: C functions that return success and
// count their calls, in a fresh process.

var majors = standin.Majors{CURAND: curand.VerMajor}

func standinGen(tb testing.TB) (*cuda.Context, *cuda.Stream, *Generator) {
	tb.Helper()
	ctx := standin.Keep(cuda.NewContext(0))(tb)
	s := standin.Keep(ctx.NewStream())(tb)
	g := standin.Keep(New(ctx, s, Philox))(tb)
	return ctx, s, g
}

// TestStandinStreamBoundOnce: a generator calls curandSetStream when it
// is made and when its stream changes, never on a call on the stream it
// has, nor on a SetStream to it.
func TestStandinStreamBoundOnce(t *testing.T) {
	if !standin.Run(t, majors) {
		return
	}
	ctx, s, g := standinGen(t)
	x := standin.Keep(cuda.Alloc[float32](ctx, 1024))(t)
	count := func() int { return standin.Count(t, curand.SharedLibrary(), "curandSetStream") }
	if n := count(); n != 1 {
		t.Fatalf("New called curandSetStream %d times, want 1", n)
	}
	for range 3 {
		if err := Uniform(g, x); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.SetStream(s); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 {
		t.Errorf("3 calls and a SetStream on the generator's stream: %d curandSetStream calls, want the 1 of New", n)
	}
	s2 := standin.Keep(ctx.NewStream())(t)
	if err := g.SetStream(s2); err != nil {
		t.Fatal(err)
	}
	if err := Uniform(g, x); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 2 {
		t.Errorf("after a SetStream to another stream: %d curandSetStream calls, want 2", n)
	}
	if g.Stream() != s2 {
		t.Errorf("Stream() is not the stream set")
	}
}

// BenchmarkStandinUniform: Uniform of 1024 float32 against the
// curand.GenerateUniform it makes (in one Context.Do), on the stand-ins:
// what the package adds to a call (standin.Pair's over-ns/call).
func BenchmarkStandinUniform(b *testing.B) {
	if !standin.Run(b, majors) {
		return
	}
	ctx, _, g := standinGen(b)
	x := standin.Keep(cuda.Alloc[float32](ctx, 1024))(b)
	raw, p := g.Raw(), ffi.Device(ffi.DevicePtr[float32](x.Ptr()))
	standin.Pair(b, 1000, func(n int) {
		err := ctx.Do(func() error {
			for range n {
				if err := curand.GenerateUniform(raw, p, 1024); err != nil {
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
			if err := Uniform(g, x); err != nil {
				b.Fatal(err)
			}
		}
	})
}
