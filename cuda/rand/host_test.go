package rand

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"testing"

	cuda "github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/curand"
	"github.com/cugen/cugen/cugentest"
)

// The host generators run on the CPU: these tests need libcurand (make
// test's CUGEN_LIBCURAND) and no GPU.

func needCurand(t *testing.T) {
	t.Helper()
	cugentest.NeedLibrary(t, curand.SharedLibrary().Load())
}

// hostTypes are the generator types whose host generators run without a
// GPU (MT19937's fails with CURAND_STATUS_INTERNAL_ERROR there).
var hostTypes = []Type{XORWOW, MRG32K3A, MTGP32, Philox, Sobol32, ScrambledSobol32}

func newHost(t *testing.T, typ Type) *HostGenerator {
	t.Helper()
	g, err := NewHost(typ)
	if err != nil {
		t.Fatalf("NewHost(%v): %v", typ, err)
	}
	t.Cleanup(func() { g.Close() })
	if isPseudo(typ) {
		if err := g.SetSeed(20261201); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// moments returns the mean and standard deviation of x.
func moments[T float32 | float64 | uint32](x []T) (mean, sd float64) {
	for _, v := range x {
		mean += float64(v)
	}
	mean /= float64(len(x))
	for _, v := range x {
		d := float64(v) - mean
		sd += d * d
	}
	return mean, math.Sqrt(sd / float64(len(x)-1))
}

// near fails t unless got is within tol of want.
func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.5f, want %.5f ± %.5f", what, got, want, tol)
	}
}

const nStat = 1 << 16 // samples: a mean's standard error is sd/256

func TestHostUniform(t *testing.T) {
	needCurand(t)
	for _, typ := range hostTypes {
		t.Run(typ.String(), func(t *testing.T) {
			g := newHost(t, typ)
			x := make([]float32, nStat)
			if err := UniformHost(g, x); err != nil {
				t.Fatal(err)
			}
			for i, v := range x {
				if !(v > 0 && v <= 1) {
					t.Fatalf("x[%d] = %v, not in (0, 1]", i, v)
				}
			}
			m, sd := moments(x)
			t.Logf("float32: mean %.5f sd %.5f", m, sd)
			near(t, "mean", m, 0.5, 6*math.Sqrt(1.0/12)/256)
			near(t, "sd", sd, math.Sqrt(1.0/12), 0.005)
			y := make([]float64, nStat)
			if err := UniformHost(g, y); err != nil {
				t.Fatal(err)
			}
			m, sd = moments(y)
			t.Logf("float64: mean %.5f sd %.5f", m, sd)
			near(t, "mean", m, 0.5, 6*math.Sqrt(1.0/12)/256)
			near(t, "sd", sd, math.Sqrt(1.0/12), 0.005)
		})
	}
}

func TestHostNormalLogNormal(t *testing.T) {
	needCurand(t)
	for _, typ := range hostTypes {
		t.Run(typ.String(), func(t *testing.T) {
			g := newHost(t, typ)
			x := make([]float32, nStat)
			if err := NormalHost(g, x, 2, 3); err != nil {
				t.Fatal(err)
			}
			m, sd := moments(x)
			t.Logf("normal(2, 3): mean %.4f sd %.4f", m, sd)
			near(t, "mean", m, 2, 6*3.0/256)
			near(t, "sd", sd, 3, 0.05)

			y := make([]float64, nStat)
			if err := LogNormalHost(g, y, 0.5, 0.25); err != nil {
				t.Fatal(err)
			}
			for i := range y {
				if y[i] <= 0 {
					t.Fatalf("log-normal y[%d] = %v", i, y[i])
				}
				y[i] = math.Log(y[i])
			}
			m, sd = moments(y)
			t.Logf("log of lognormal(0.5, 0.25): mean %.4f sd %.4f", m, sd)
			near(t, "mean of log", m, 0.5, 6*0.25/256)
			near(t, "sd of log", sd, 0.25, 0.005)
		})
	}
}

func TestHostPoisson(t *testing.T) {
	needCurand(t)
	for _, typ := range []Type{XORWOW, Philox, MRG32K3A, Sobol32, ScrambledSobol32} {
		t.Run(typ.String(), func(t *testing.T) {
			g := newHost(t, typ)
			x := make([]uint32, nStat)
			if err := PoissonHost(g, x, 4); err != nil {
				t.Fatal(err)
			}
			m, sd := moments(x)
			t.Logf("poisson(4): mean %.4f variance %.4f", m, sd*sd)
			near(t, "mean", m, 4, 6*2.0/256)
			near(t, "variance", sd*sd, 4, 0.2)
		})
	}
}

func TestHostBits(t *testing.T) {
	needCurand(t)
	g := newHost(t, Philox)
	x := make([]uint32, nStat)
	if err := BitsHost(g, x); err != nil {
		t.Fatal(err)
	}
	ones := 0
	for _, v := range x {
		ones += bits.OnesCount32(v)
	}
	m := float64(ones) / nStat
	t.Logf("uint32: %.4f bits set a word", m)
	near(t, "bits set", m, 16, 6*math.Sqrt(8)/256)

	g64 := newHost(t, ScrambledSobol64)
	y := make([]uint64, nStat)
	if err := BitsHost(g64, y); err != nil {
		t.Fatal(err)
	}
	var mean float64
	for _, v := range y {
		mean += float64(v) / (1 << 64)
	}
	mean /= nStat
	t.Logf("scrambled Sobol64 words / 2^64: mean %.6f", mean)
	near(t, "mean", mean, 0.5, 1e-3)
}

// TestHostSeedOffset: a seed fixes the sequence, and an offset of k
// starts it at its k-th value.
func TestHostSeedOffset(t *testing.T) {
	needCurand(t)
	for _, typ := range []Type{XORWOW, MRG32K3A, Philox} {
		t.Run(typ.String(), func(t *testing.T) {
			const n = 1024
			run := func(seed, offset uint64, count int) []uint32 {
				g := newHost(t, typ)
				if err := g.SetSeed(seed); err != nil {
					t.Fatal(err)
				}
				if err := g.SetOffset(offset); err != nil {
					t.Fatal(err)
				}
				x := make([]uint32, count)
				if err := BitsHost(g, x); err != nil {
					t.Fatal(err)
				}
				return x
			}
			a, b := run(1, 0, 2*n), run(1, 0, 2*n)
			if !slices.Equal(a, b) {
				t.Fatal("one seed, two sequences")
			}
			if c := run(2, 0, 2*n); slices.Equal(a, c) {
				t.Fatal("two seeds, one sequence")
			}
			if d := run(1, n, n); !slices.Equal(d, a[n:]) {
				t.Fatalf("offset %d: %v..., want %v...", n, d[:4], a[n:n+4])
			}
		})
	}
}

// TestHostSobolDimensions: with d dimensions the output is dimension by
// dimension, and the first dimension is the one-dimensional sequence.
func TestHostSobolDimensions(t *testing.T) {
	needCurand(t)
	const per = 1024
	one := newHost(t, Sobol32)
	x := make([]float32, per)
	if err := UniformHost(one, x); err != nil {
		t.Fatal(err)
	}
	g := newHost(t, Sobol32)
	if err := g.SetDimensions(3); err != nil {
		t.Fatal(err)
	}
	if g.Dimensions() != 3 {
		t.Fatalf("Dimensions() = %d", g.Dimensions())
	}
	y := make([]float32, 3*per)
	if err := UniformHost(g, y); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(y[:per], x) {
		t.Errorf("dimension 0 of 3: %v..., want %v...", y[:4], x[:4])
	}
	for d := range 3 {
		m, _ := moments(y[d*per : (d+1)*per])
		t.Logf("dimension %d: mean %.6f", d, m)
		near(t, "quasirandom mean", m, 0.5, 2.0/per) // far closer than pseudorandom
	}
	// 1000 values for 3 dimensions: refused before cuRAND is called.
	err := UniformHost(g, make([]float32, 1000))
	var re *Error
	if !errors.As(err, &re) || !errors.Is(err, curand.StatusLengthNotMultiple) {
		t.Fatalf("1000 values for 3 dimensions: %v", err)
	}
	t.Log(err)
}

// TestHostMisuse: each rule breaks into an *Error that unwraps to the
// status cuRAND gives it, and no call reaches cuRAND.
func TestHostMisuse(t *testing.T) {
	needCurand(t)
	xor, sobol, sobol64 := newHost(t, XORWOW), newHost(t, Sobol32), newHost(t, Sobol64)
	cases := []struct {
		name string
		err  error
		want curand.Status
	}{
		{"odd normal", NormalHost(xor, make([]float32, 7), 0, 1), curand.StatusLengthNotMultiple},
		{"odd log-normal", LogNormalHost(xor, make([]float64, 9), 0, 1), curand.StatusLengthNotMultiple},
		{"negative stddev", NormalHost(xor, make([]float32, 8), 0, -1), curand.StatusOutOfRange},
		{"NaN stddev", NormalHost(xor, make([]float64, 8), 0, math.NaN()), curand.StatusOutOfRange},
		{"zero lambda", PoissonHost(xor, make([]uint32, 8), 0), curand.StatusOutOfRange},
		{"NaN lambda", PoissonHost(xor, make([]uint32, 8), math.NaN()), curand.StatusOutOfRange},
		{"seed of Sobol", sobol.SetSeed(1), curand.StatusTypeError},
		{"dimensions of XORWOW", xor.SetDimensions(2), curand.StatusTypeError},
		{"0 dimensions", sobol.SetDimensions(0), curand.StatusOutOfRange},
		{"20001 dimensions", sobol.SetDimensions(MaxDimensions + 1), curand.StatusOutOfRange},
		{"quasi ordering on XORWOW", xor.SetOrdering(QuasiOrder), curand.StatusOutOfRange},
		{"pseudo ordering on Sobol", sobol.SetOrdering(PseudoSeeded), curand.StatusOutOfRange},
		{"uint64 from XORWOW", BitsHost(xor, make([]uint64, 4)), curand.StatusTypeError},
		{"uint32 from Sobol64", BitsHost(sobol64, make([]uint32, 4)), curand.StatusTypeError},
		{"unknown type", func() error { _, err := NewHost(Type(7)); return err }(), curand.StatusTypeError},
		{"nil generator", UniformHost(nil, make([]float32, 2)), curand.StatusNotInitialized},
	}
	for _, c := range cases {
		var re *Error
		if !errors.As(c.err, &re) || !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want a rand.Error of %v", c.name, c.err, c.want)
			continue
		}
		t.Logf("%s: %v", c.name, c.err)
	}
	// The even and multiple counts pass.
	if err := NormalHost(xor, make([]float32, 8), 0, 1); err != nil {
		t.Error(err)
	}
	if err := NormalHost(sobol, make([]float32, 7), 0, 1); err != nil {
		t.Errorf("odd normal count from a 1-dimensional Sobol: %v", err)
	}
	if err := UniformHost(xor, make([]float32, 0)); err != nil {
		t.Errorf("empty slice: %v", err)
	}
}

func TestHostClose(t *testing.T) {
	needCurand(t)
	g, err := NewHost(Philox)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != ErrClosed || !errors.Is(err, cuda.ErrFreed) {
		t.Fatalf("second Close: %v, want ErrClosed (which is cuda.ErrFreed)", err)
	}
	if err := UniformHost(g, make([]float32, 4)); err != ErrClosed {
		t.Fatalf("use after Close: %v", err)
	}
	if err := g.SetSeed(1); !errors.Is(err, cuda.ErrFreed) {
		t.Fatalf("SetSeed after Close: %v", err)
	}
}

// TestHostAllocs: a fill allocates nothing in Go.
func TestHostAllocs(t *testing.T) {
	needCurand(t)
	g := newHost(t, Philox)
	x := make([]float32, 64)
	n := testing.AllocsPerRun(100, func() {
		if err := NormalHost(g, x, 0, 1); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("NormalHost allocates %v times a call", n)
	}
}

// TestHostConcurrent fills from one generator on several goroutines while
// another closes it: each call either fills or returns ErrFreed, and no
// call reaches cuRAND after the destroy (run with -race).
func TestHostConcurrent(t *testing.T) {
	needCurand(t)
	g, err := NewHost(Philox)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	for range 4 {
		go func() {
			x := make([]float32, 256)
			for range 50 {
				if err := NormalHost(g, x, 0, 1); err != nil {
					if !errors.Is(err, cuda.ErrFreed) {
						done <- err
						return
					}
				}
			}
			done <- nil
		}()
	}
	g.Close()
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestHostOrderings: the host generator takes each pseudorandom ordering
// (the device test TestGPUSettings compares the two under them).
func TestHostOrderings(t *testing.T) {
	needCurand(t)
	for _, o := range []Ordering{PseudoBest, PseudoOrder, PseudoSeeded, PseudoLegacy} {
		g := newHost(t, XORWOW)
		if err := g.SetOrdering(o); err != nil {
			t.Errorf("%v: %v", o, err)
			continue
		}
		x := make([]uint32, 64)
		if err := BitsHost(g, x); err != nil {
			t.Errorf("%v: %v", o, err)
		}
	}
	q := newHost(t, ScrambledSobol32)
	if err := q.SetOrdering(QuasiOrder); err != nil {
		t.Error(err)
	}
}
