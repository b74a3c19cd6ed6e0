package rand

import (
	"runtime"
	"sync"

	"github.com/cugen/cugen/cuda/sys/curand"
	"github.com/cugen/cugen/ffi"
)

// HostGenerator is a cuRAND generator that computes on the CPU into Go
// slices (curandCreateGeneratorHost); it needs no context. Its results
// are the device generator's sequence for the same settings, up to the
// last bits of transcendental functions (cuRAND's own caveat).
//
// With Debian's libcurand 10.3.5 on a machine without a GPU, every type
// but MT19937 works (MT19937's host generator fails with
// CURAND_STATUS_INTERNAL_ERROR there).
type HostGenerator struct{ st *hostState }

// hostState is what the cleanup of an unreachable HostGenerator frees.
type hostState struct {
	mu     sync.Mutex // one call at a time; guards closed and set
	raw    curand.Generator
	closed bool
	set    settings
}

// NewHost creates a host generator of type t (curandCreateGeneratorHost).
func NewHost(t Type) (*HostGenerator, error) {
	if err := checkType("NewHost", t); err != nil {
		return nil, err
	}
	raw, err := curand.CreateGeneratorHost(t)
	if err != nil {
		return nil, err
	}
	st := &hostState{raw: raw, set: settings{typ: t, dims: 1}}
	g := &HostGenerator{st: st}
	runtime.AddCleanup(g, func(st *hostState) { st.close() }, st)
	return g, nil
}

func (st *hostState) close() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return ErrClosed
	}
	st.closed = true
	return curand.DestroyGenerator(st.raw)
}

// do runs fn on the open generator, one call at a time, after check (if
// not nil) passes on the generator's settings.
func (st *hostState) do(check func(s *settings) error, fn func(curand.Generator) error) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return ErrClosed
	}
	if check != nil {
		if err := check(&st.set); err != nil {
			return err
		}
	}
	return fn(st.raw)
}

// Raw returns cuRAND's handle, for the curand package.
func (g *HostGenerator) Raw() curand.Generator { return g.st.raw }

// Type returns the generator's type.
func (g *HostGenerator) Type() Type { return g.st.set.typ }

// Close destroys the generator (curandDestroyGenerator). A second Close
// returns ErrClosed.
func (g *HostGenerator) Close() error { return g.st.close() }

// SetSeed sets a pseudorandom generator's seed
// (curandSetPseudoRandomGeneratorSeed).
func (g *HostGenerator) SetSeed(seed uint64) error {
	return g.st.do(func(s *settings) error { return s.checkSeed("SetSeed") }, func(raw curand.Generator) error {
		return curand.SetPseudoRandomGeneratorSeed(raw, seed)
	})
}

// SetOffset sets the absolute position in the sequence the next values
// come from (curandSetGeneratorOffset).
func (g *HostGenerator) SetOffset(offset uint64) error {
	return g.st.do(nil, func(raw curand.Generator) error { return curand.SetGeneratorOffset(raw, offset) })
}

// SetOrdering sets how results are laid out (curandSetGeneratorOrdering).
func (g *HostGenerator) SetOrdering(o Ordering) error {
	return g.st.do(func(s *settings) error { return s.checkOrdering("SetOrdering", o) }, func(raw curand.Generator) error {
		return curand.SetGeneratorOrdering(raw, o)
	})
}

// SetDimensions sets a quasirandom generator's dimensions, 1 to
// MaxDimensions (curandSetQuasiRandomGeneratorDimensions).
func (g *HostGenerator) SetDimensions(n int) error {
	return g.st.do(func(s *settings) error { return s.checkDimensions("SetDimensions", n) }, func(raw curand.Generator) error {
		err := curand.SetQuasiRandomGeneratorDimensions(raw, uint32(n))
		if err == nil {
			g.st.set.dims = n
		}
		return err
	})
}

// Dimensions returns a quasirandom generator's dimensions (1 for a
// pseudorandom one).
func (g *HostGenerator) Dimensions() int {
	g.st.mu.Lock()
	defer g.st.mu.Unlock()
	return g.st.set.dims
}

// fillHost runs a call generating into dst's n values of d.
func fillHost[T any](op string, g *HostGenerator, d dist, dst []T, fn func(raw curand.Generator, p *T, n uint64) error) error {
	if g == nil {
		return errNil(op)
	}
	n := len(dst)
	return g.st.do(func(s *settings) error { return s.checkFill(op, d, n) }, func(raw curand.Generator) error {
		if n == 0 {
			return nil
		}
		return fn(raw, &dst[0], uint64(n))
	})
}

// UniformHost fills dst with values uniform in (0, 1]
// (curandGenerateUniform, curandGenerateUniformDouble).
func UniformHost[T Float](g *HostGenerator, dst []T) error {
	return fillHost("UniformHost", g, distUniform, dst, func(raw curand.Generator, p *T, n uint64) error {
		switch p := any(p).(type) {
		case *float32:
			return curand.GenerateUniform(raw, ffi.Host(p), n)
		case *float64:
			return curand.GenerateUniformDouble(raw, ffi.Host(p), n)
		}
		return nil
	})
}

// NormalHost fills dst with normal values (curandGenerateNormal,
// curandGenerateNormalDouble); a pseudorandom generator needs an even
// length.
func NormalHost[T Float](g *HostGenerator, dst []T, mean, stddev T) error {
	if err := checkStddev("NormalHost", stddev); err != nil {
		return err
	}
	return fillHost("NormalHost", g, distNormal, dst, func(raw curand.Generator, p *T, n uint64) error {
		switch p := any(p).(type) {
		case *float32:
			return curand.GenerateNormal(raw, ffi.Host(p), n, float32(mean), float32(stddev))
		case *float64:
			return curand.GenerateNormalDouble(raw, ffi.Host(p), n, float64(mean), float64(stddev))
		}
		return nil
	})
}

// LogNormalHost fills dst with log-normal values (curandGenerateLogNormal,
// curandGenerateLogNormalDouble); a pseudorandom generator needs an even
// length.
func LogNormalHost[T Float](g *HostGenerator, dst []T, mean, stddev T) error {
	if err := checkStddev("LogNormalHost", stddev); err != nil {
		return err
	}
	return fillHost("LogNormalHost", g, distLogNormal, dst, func(raw curand.Generator, p *T, n uint64) error {
		switch p := any(p).(type) {
		case *float32:
			return curand.GenerateLogNormal(raw, ffi.Host(p), n, float32(mean), float32(stddev))
		case *float64:
			return curand.GenerateLogNormalDouble(raw, ffi.Host(p), n, float64(mean), float64(stddev))
		}
		return nil
	})
}

// PoissonHost fills dst with Poisson values of mean lambda
// (curandGeneratePoisson).
func PoissonHost(g *HostGenerator, dst []uint32, lambda float64) error {
	if err := checkLambda("PoissonHost", lambda); err != nil {
		return err
	}
	return fillHost("PoissonHost", g, distPoisson, dst, func(raw curand.Generator, p *uint32, n uint64) error {
		return curand.GeneratePoisson(raw, ffi.Host(p), n, lambda)
	})
}

// BitsHost fills dst with raw random words (curandGenerate,
// curandGenerateLongLong).
func BitsHost[T Word](g *HostGenerator, dst []T) error {
	d := distBits32
	if _, ok := any(dst).([]uint64); ok {
		d = distBits64
	}
	return fillHost("BitsHost", g, d, dst, func(raw curand.Generator, p *T, n uint64) error {
		switch p := any(p).(type) {
		case *uint32:
			return curand.Generate(raw, ffi.Host(p), n)
		case *uint64:
			return curand.GenerateLongLong(raw, ffi.Host(p), n)
		}
		return nil
	})
}
