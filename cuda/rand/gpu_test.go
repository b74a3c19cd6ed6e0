package rand

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	cuda "github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/curand"
	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/cugentest/standin"
	"github.com/cugen/cugen/ffi"
)

// The GPU tests: device generators against statistics and against the
// host generators. They skip without a GPU (cugentest.NeedDevice).

var deviceTypes = []Type{XORWOW, MRG32K3A, MTGP32, MT19937, Philox, Sobol32, ScrambledSobol32}

func gpuSetup(t testing.TB) (*cuda.Context, *cuda.Stream) {
	t.Helper()
	ctx, err := cuda.NewContext(0)
	cugentest.NeedDevice(t, err)
	t.Cleanup(func() { ctx.Close() })
	cugentest.NeedLibrary(t, curand.SharedLibrary().Load())
	s := standin.Keep(ctx.NewStream())(t)
	return ctx, s
}

func newDevice(t testing.TB, ctx *cuda.Context, s *cuda.Stream, typ Type) *Generator {
	t.Helper()
	g, err := New(ctx, s, typ)
	if err != nil {
		t.Fatalf("New(%v): %v", typ, err)
	}
	t.Cleanup(func() { g.Close() })
	if isPseudo(typ) {
		if err := g.SetSeed(20261201); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// fetch waits for s and copies b to the host.
func fetch[T any](t testing.TB, s *cuda.Stream, b *cuda.Buffer[T]) []T {
	t.Helper()
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	out := make([]T, b.Len())
	if err := b.CopyTo(out); err != nil {
		t.Fatal(err)
	}
	return out
}

func alloc[T any](t testing.TB, ctx *cuda.Context, n int) *cuda.Buffer[T] {
	t.Helper()
	b, err := cuda.Alloc[T](ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func TestGPUDistributions(t *testing.T) {
	ctx, s := gpuSetup(t)
	for _, typ := range deviceTypes {
		t.Run(typ.String(), func(t *testing.T) {
			g := newDevice(t, ctx, s, typ)
			u := alloc[float32](t, ctx, nStat)
			if err := Uniform(g, u); err != nil {
				t.Fatal(err)
			}
			m, sd := moments(fetch(t, s, u))
			t.Logf("uniform: mean %.5f sd %.5f", m, sd)
			near(t, "uniform mean", m, 0.5, 6*math.Sqrt(1.0/12)/256)
			near(t, "uniform sd", sd, math.Sqrt(1.0/12), 0.005)

			x := alloc[float64](t, ctx, nStat)
			if err := Normal(g, x, 2, 3); err != nil {
				t.Fatal(err)
			}
			m, sd = moments(fetch(t, s, x))
			t.Logf("normal(2, 3) double: mean %.4f sd %.4f", m, sd)
			near(t, "normal mean", m, 2, 6*3.0/256)
			near(t, "normal sd", sd, 3, 0.05)

			y := alloc[float32](t, ctx, nStat)
			if err := LogNormal(g, y, 0.5, 0.25); err != nil {
				t.Fatal(err)
			}
			ly := fetch(t, s, y)
			for i := range ly {
				ly[i] = float32(math.Log(float64(ly[i])))
			}
			m, sd = moments(ly)
			t.Logf("log of lognormal(0.5, 0.25): mean %.4f sd %.4f", m, sd)
			near(t, "log-normal mean of log", m, 0.5, 6*0.25/256)
			near(t, "log-normal sd of log", sd, 0.25, 0.005)

			p := alloc[uint32](t, ctx, nStat)
			if err := Poisson(g, p, 4); err != nil {
				t.Fatal(err)
			}
			m, sd = moments(fetch(t, s, p))
			t.Logf("poisson(4): mean %.4f variance %.4f", m, sd*sd)
			near(t, "poisson mean", m, 4, 6*2.0/256)
			near(t, "poisson variance", sd*sd, 4, 0.2)
		})
	}
}

// TestGPUMatchesHost: the device and host generators of one type and
// seed make the same 32-bit words.
func TestGPUMatchesHost(t *testing.T) {
	ctx, s := gpuSetup(t)
	for _, typ := range []Type{XORWOW, MRG32K3A, Philox, Sobol32} {
		t.Run(typ.String(), func(t *testing.T) {
			const n = 4096
			g := newDevice(t, ctx, s, typ)
			b := alloc[uint32](t, ctx, n)
			if err := Bits(g, b); err != nil {
				t.Fatal(err)
			}
			dev := fetch(t, s, b)
			h := newHost(t, typ)
			host := make([]uint32, n)
			if err := BitsHost(h, host); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(dev, host) {
				t.Errorf("device %v..., host %v...", dev[:4], host[:4])
			}
		})
	}
}

// TestGPUMisuse: the rules hold on the device path, before cuRAND; a
// closed buffer or generator is ErrFreed.
func TestGPUMisuse(t *testing.T) {
	ctx, s := gpuSetup(t)
	g := newDevice(t, ctx, s, XORWOW)
	odd := alloc[float32](t, ctx, 7)
	err := Normal(g, odd, 0, 1)
	var re *Error
	if !errors.As(err, &re) || !errors.Is(err, curand.StatusLengthNotMultiple) {
		t.Errorf("odd normal: %v", err)
	}
	w := alloc[uint64](t, ctx, 8)
	if err := Bits(g, w); !errors.Is(err, curand.StatusTypeError) {
		t.Errorf("uint64 from XORWOW: %v", err)
	}
	q := newDevice(t, ctx, s, Sobol64)
	if err := q.SetDimensions(4); err != nil {
		t.Fatal(err)
	}
	if err := Bits(q, alloc[uint64](t, ctx, 10)); !errors.Is(err, curand.StatusLengthNotMultiple) {
		t.Errorf("10 values for 4 dimensions: %v", err)
	}
	if err := Bits(q, w); err != nil {
		t.Errorf("8 words for 4 dimensions: %v", err)
	}
	gone, _ := cuda.Alloc[float32](ctx, 8)
	gone.Close()
	if err := Uniform(g, gone); !errors.Is(err, cuda.ErrFreed) {
		t.Errorf("closed buffer: %v", err)
	}
	g2, err := New(ctx, s, Philox)
	if err != nil {
		t.Fatal(err)
	}
	g2.Close()
	if err := Uniform(g2, odd); !errors.Is(err, cuda.ErrFreed) {
		t.Errorf("closed generator: %v", err)
	}
}

// TestGPUSetStream moves a generator to another stream: the sequence
// goes on where it was.
func TestGPUSetStream(t *testing.T) {
	ctx, s := gpuSetup(t)
	const n = 1 << 14
	a := newDevice(t, ctx, s, Philox)
	whole := alloc[uint32](t, ctx, 2*n)
	if err := Bits(a, whole); err != nil {
		t.Fatal(err)
	}
	want := fetch(t, s, whole)

	s2, err := ctx.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	b := newDevice(t, ctx, s, Philox)
	first, second := alloc[uint32](t, ctx, n), alloc[uint32](t, ctx, n)
	if err := Bits(b, first); err != nil {
		t.Fatal(err)
	}
	if err := b.SetStream(s2); err != nil {
		t.Fatal(err)
	}
	if b.Stream() != s2 {
		t.Fatal("Stream() is not the new stream")
	}
	if err := Bits(b, second); err != nil {
		t.Fatal(err)
	}
	got := append(fetch(t, s, first), fetch(t, s2, second)...)
	if !slices.Equal(got, want) {
		t.Error("the sequence split over two streams differs from one call's")
	}
}

// TestGPUAllocs: a device fill allocates nothing in Go.
func TestGPUAllocs(t *testing.T) {
	ctx, s := gpuSetup(t)
	g := newDevice(t, ctx, s, Philox)
	x := alloc[float32](t, ctx, 1024)
	n := testing.AllocsPerRun(100, func() {
		if err := Normal(g, x, 0, 1); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("Normal: %v allocations a call", n)
	if n != 0 {
		t.Errorf("Normal allocates %v times a call", n)
	}
	s.Synchronize()
}

// TestGPUSettings: an ordering, an offset and an early GenerateSeeds on
// the device give the host generator's sequence under the same settings.
func TestGPUSettings(t *testing.T) {
	ctx, s := gpuSetup(t)
	const n = 2048
	type settable interface {
		SetOrdering(Ordering) error
		SetOffset(uint64) error
	}
	for _, o := range []Ordering{PseudoBest, PseudoSeeded, PseudoLegacy} {
		t.Run(o.String(), func(t *testing.T) {
			g := newDevice(t, ctx, s, XORWOW)
			h := newHost(t, XORWOW)
			for _, x := range []settable{g, h} {
				if err := x.SetOrdering(o); err != nil {
					t.Fatal(err)
				}
				if err := x.SetOffset(1000); err != nil {
					t.Fatal(err)
				}
			}
			if err := g.GenerateSeeds(); err != nil {
				t.Fatal(err)
			}
			b := alloc[uint32](t, ctx, n)
			if err := Bits(g, b); err != nil {
				t.Fatal(err)
			}
			dev := fetch(t, s, b)
			host := make([]uint32, n)
			if err := BitsHost(h, host); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(dev, host) {
				t.Errorf("%v, offset 1000: device %v..., host %v...", o, dev[:4], host[:4])
			}
		})
	}
}

// BenchmarkUniformInterleaved fills a buffer through Uniform and through
// the raw curand.GenerateUniform on the same generator, in alternating
// blocks that each wait for their work, and reports both and Uniform's
// rate as a share of the raw call's: n=1024 is bound by the host's
// launch path, n=16M by the GPU.
func BenchmarkUniformInterleaved(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 24} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchUniform(b, n) })
	}
}

func benchUniform(b *testing.B, n int) {
	ctx, s := gpuSetup(b)
	g := newDevice(b, ctx, s, Philox)
	x := alloc[float32](b, ctx, n)
	block := max(10, (1<<20)/n)
	layer := func() {
		for range block {
			if err := Uniform(g, x); err != nil {
				b.Fatal(err)
			}
		}
		s.Synchronize()
	}
	raw, p := g.Raw(), ffi.Device(ffi.DevicePtr[float32](x.Ptr()))
	direct := func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cu.CtxSetCurrent(ctx.Raw()); err != nil {
			b.Fatal(err)
		}
		for range block {
			if err := curand.GenerateUniform(raw, p, uint64(n)); err != nil {
				b.Fatal(err)
			}
		}
		cu.StreamSynchronize(s.Raw())
	}
	b.ReportAllocs()
	times, rawTimes := cugentest.Interleave(b, layer, direct)
	tl, tr := times.Total(), rawTimes.Total()
	calls := float64(b.N * block)
	b.ReportMetric(float64(tl.Nanoseconds())/calls, "rand-ns/call")
	b.ReportMetric(float64(tr.Nanoseconds())/calls, "raw-ns/call")
	b.ReportMetric(100*float64(tr)/float64(tl), "rand-rate-%-of-raw")
	runtime.KeepAlive(x)
}
