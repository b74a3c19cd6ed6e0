package rand

import (
	"errors"
	"sync"

	cuda "github.com/cugen/cugen/cuda"
	mathlib "github.com/cugen/cugen/cuda/internal"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/cuda/sys/curand"
	"github.com/cugen/cugen/ffi"
)

// Generator is a cuRAND generator on the device (curandCreateGenerator)
// that queues its work on one stream of its context.
type Generator struct {
	h   *cuda.Handle // bound to the generator's stream
	mu  sync.Mutex   // one call at a time; guards set
	set settings
}

// New creates a generator of type t in ctx whose work queues on s
// (curandCreateGenerator, curandSetStream). s must be of ctx; for the
// legacy default stream pass ctx.DefaultStream().
func New(ctx *cuda.Context, s *cuda.Stream, t Type) (*Generator, error) {
	if err := checkType("New", t); err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errors.New("rand: New: nil stream (Context.DefaultStream returns the default stream)")
	}
	h, err := cuda.NewStreamHandle(ctx, s, func() (uint64, error) {
		g, err := curand.CreateGenerator(t)
		return uint64(g), err
	}, func(h uint64) error { return curand.DestroyGenerator(curand.Generator(h)) },
		func(h uint64, st cu.Stream) error { return curand.SetStream(curand.Generator(h), cudart.Stream(st)) })
	if err != nil {
		return nil, err
	}
	return &Generator{h: h, set: settings{typ: t, dims: 1}}, nil
}

func (g *Generator) raw() curand.Generator { return curand.Generator(g.h.Raw()) }

// Raw returns cuRAND's handle, for the curand package.
func (g *Generator) Raw() curand.Generator { return g.raw() }

// Type returns the generator's type.
func (g *Generator) Type() Type { return g.set.typ }

// Stream returns the stream the generator's work queues on.
func (g *Generator) Stream() *cuda.Stream { return g.h.Stream() }

// SetStream moves the generator's later work to s (curandSetStream),
// which must be of the generator's context. The work already queued on
// the old stream is waited for first, so the two never run at once on
// the generator's state.
func (g *Generator) SetStream(s *cuda.Stream) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, err := errs.SetStream(g.h, s)
	return err
}

// SetSeed sets a pseudorandom generator's seed
// (curandSetPseudoRandomGeneratorSeed); a quasirandom one has none.
func (g *Generator) SetSeed(seed uint64) error {
	if err := g.set.checkSeed("SetSeed"); err != nil {
		return err
	}
	return g.do(func() error { return curand.SetPseudoRandomGeneratorSeed(g.raw(), seed) })
}

// SetOffset sets the absolute position in the sequence the next values
// come from (curandSetGeneratorOffset).
func (g *Generator) SetOffset(offset uint64) error {
	return g.do(func() error { return curand.SetGeneratorOffset(g.raw(), offset) })
}

// SetOrdering sets how results are laid out (curandSetGeneratorOrdering):
// a Pseudo ordering for a pseudorandom generator, QuasiOrder for a
// quasirandom one.
func (g *Generator) SetOrdering(o Ordering) error {
	if err := g.set.checkOrdering("SetOrdering", o); err != nil {
		return err
	}
	return g.do(func() error { return curand.SetGeneratorOrdering(g.raw(), o) })
}

// SetDimensions sets a quasirandom generator's dimensions, 1 to
// MaxDimensions (curandSetQuasiRandomGeneratorDimensions): each call then
// fills a multiple of n values, dimension by dimension (the first
// Len()/n values are dimension 0's).
func (g *Generator) SetDimensions(n int) error {
	if err := g.set.checkDimensions("SetDimensions", n); err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	err := g.h.Call(func(cu.Stream) error { return curand.SetQuasiRandomGeneratorDimensions(g.raw(), uint32(n)) })
	if err == nil {
		g.set.dims = n
	}
	return err
}

// Dimensions returns a quasirandom generator's dimensions (1 for a
// pseudorandom one).
func (g *Generator) Dimensions() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.set.dims
}

// GenerateSeeds sets up the generator's state now, on its stream
// (curandGenerateSeeds), rather than in the first call that generates.
func (g *Generator) GenerateSeeds() error {
	return g.fill("", 0, 0, func() error { return curand.GenerateSeeds(g.raw()) }, nil)
}

// Close destroys the generator (curandDestroyGenerator) once the calls in
// flight have returned. A second Close returns ErrClosed.
func (g *Generator) Close() error { return mathlib.Closed(g.h.Close()) }

// do runs a setting's call, one call of g at a time, with its context
// current (Stream.Call on its stream, which queues nothing).
func (g *Generator) do(fn func() error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.h.Call(func(cu.Stream) error { return fn() })
}

// fill runs a call that queues work on g's stream, generating n values
// of d into b (nil: none) once checkFill has passed them.
func (g *Generator) fill(op string, d dist, n int, fn func() error, b cuda.Operand) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if op != "" {
		if err := g.set.checkFill(op, d, n); err != nil {
			return err
		}
	}
	if b == nil {
		return g.h.Call(func(cu.Stream) error { return fn() })
	}
	return g.h.Call(func(cu.Stream) error { return fn() }, b)
}

// Uniform queues on g's stream the filling of b with values uniform in
// (0, 1] (curandGenerateUniform, curandGenerateUniformDouble).
func Uniform[T Float](g *Generator, b *cuda.Buffer[T]) error {
	if g == nil || b == nil {
		return errNil("Uniform")
	}
	n := b.Len()
	return g.fill("Uniform", distUniform, n, func() error {
		switch b := any(b).(type) {
		case *cuda.Buffer[float32]:
			return curand.GenerateUniform(g.raw(), dev[float32](b), uint64(n))
		case *cuda.Buffer[float64]:
			return curand.GenerateUniformDouble(g.raw(), dev[float64](b), uint64(n))
		}
		return nil
	}, b)
}

// Normal queues on g's stream the filling of b with normal values of the
// given mean and standard deviation (curandGenerateNormal,
// curandGenerateNormalDouble). A pseudorandom generator needs an even
// length.
func Normal[T Float](g *Generator, b *cuda.Buffer[T], mean, stddev T) error {
	if g == nil || b == nil {
		return errNil("Normal")
	}
	n := b.Len()
	if err := checkStddev("Normal", stddev); err != nil {
		return err
	}
	return g.fill("Normal", distNormal, n, func() error {
		switch b := any(b).(type) {
		case *cuda.Buffer[float32]:
			return curand.GenerateNormal(g.raw(), dev[float32](b), uint64(n), float32(mean), float32(stddev))
		case *cuda.Buffer[float64]:
			return curand.GenerateNormalDouble(g.raw(), dev[float64](b), uint64(n), float64(mean), float64(stddev))
		}
		return nil
	}, b)
}

// LogNormal queues on g's stream the filling of b with values whose
// logarithm is normal of the given mean and standard deviation
// (curandGenerateLogNormal, curandGenerateLogNormalDouble). A
// pseudorandom generator needs an even length.
func LogNormal[T Float](g *Generator, b *cuda.Buffer[T], mean, stddev T) error {
	if g == nil || b == nil {
		return errNil("LogNormal")
	}
	n := b.Len()
	if err := checkStddev("LogNormal", stddev); err != nil {
		return err
	}
	return g.fill("LogNormal", distLogNormal, n, func() error {
		switch b := any(b).(type) {
		case *cuda.Buffer[float32]:
			return curand.GenerateLogNormal(g.raw(), dev[float32](b), uint64(n), float32(mean), float32(stddev))
		case *cuda.Buffer[float64]:
			return curand.GenerateLogNormalDouble(g.raw(), dev[float64](b), uint64(n), float64(mean), float64(stddev))
		}
		return nil
	}, b)
}

// Poisson queues on g's stream the filling of b with Poisson values of
// mean lambda (curandGeneratePoisson).
func Poisson(g *Generator, b *cuda.Buffer[uint32], lambda float64) error {
	if g == nil || b == nil {
		return errNil("Poisson")
	}
	n := b.Len()
	if err := checkLambda("Poisson", lambda); err != nil {
		return err
	}
	return g.fill("Poisson", distPoisson, n, func() error {
		return curand.GeneratePoisson(g.raw(), dev[uint32](b), uint64(n), lambda)
	}, b)
}

// Bits queues on g's stream the filling of b with raw random words
// (curandGenerate for uint32, curandGenerateLongLong for uint64, which
// only Sobol64 and ScrambledSobol64 make).
func Bits[T Word](g *Generator, b *cuda.Buffer[T]) error {
	if g == nil || b == nil {
		return errNil("Bits")
	}
	n := b.Len()
	d := distBits32
	if _, ok := any(b).(*cuda.Buffer[uint64]); ok {
		d = distBits64
	}
	return g.fill("Bits", d, n, func() error {
		switch b := any(b).(type) {
		case *cuda.Buffer[uint32]:
			return curand.Generate(g.raw(), dev[uint32](b), uint64(n))
		case *cuda.Buffer[uint64]:
			return curand.GenerateLongLong(g.raw(), dev[uint64](b), uint64(n))
		}
		return nil
	}, b)
}

func errNil(op string) error {
	return errs.Errorf(op, curand.StatusNotInitialized, "nil generator or buffer")
}

// dev is b's memory as the output of a device generator's call: a
// device pointer, no unsafe.
func dev[T any](b *cuda.Buffer[T]) ffi.HostOrDevice[T] {
	return ffi.Device(ffi.DevicePtr[T](b.Ptr()))
}
