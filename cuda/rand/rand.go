// Package rand fills device buffers (and Go slices) with random numbers
// through cuRAND: pseudorandom generators (XORWOW, MRG32K3A, MTGP32,
// MT19937, Philox) and quasirandom ones (Sobol, scrambled Sobol, 32 and
// 64 bits), with uniform, normal, log-normal and Poisson distributions.
//
// Its CUDA major is the build's, as package cuda's is (-tags cuda12
// for CUDA 12, none for 13).
//
// A [Generator] lives in a context and queues its work on one stream:
//
//	g, err := rand.New(ctx, stream, rand.Philox) // curandCreateGenerator
//	defer g.Close()
//	err = g.SetSeed(1234)
//	x, err := cuda.Alloc[float32](ctx, 1<<20)
//	err = rand.Normal(g, x, 0, 1) // queued on stream
//
// A [HostGenerator] (curandCreateGeneratorHost) computes on the CPU into Go
// slices: rand.UniformHost(hg, dst).
//
// The rules cuRAND checks are checked first, and a call that breaks one
// returns an [*Error] without calling cuRAND: a normal or log-normal count
// that is odd for a pseudorandom generator, a count that is not a multiple
// of a quasirandom generator's dimensions, a seed for a quasirandom
// generator, 64-bit output from a 32-bit generator, a Poisson lambda that
// is not positive. The error unwraps to the cuRAND status the call would
// have failed with: errors.Is(err, curand.StatusLengthNotMultiple).
//
// Generators are safe to use from any goroutine; the calls on one
// generator run one at a time (cuRAND's generators are not safe for
// concurrent calls). Like the layer's resources, a Generator holds a
// reference to its context and is destroyed once, by Close or, when it
// becomes unreachable, by a cleanup.
package rand

import (
	mathlib "github.com/cugen/cugen/cuda/internal"
	"math"

	"github.com/cugen/cugen/cuda/sys/curand"
)

// Type is a generator's algorithm (curandRngType_t).
type Type = curand.RngType

// The generator types.
const (
	XORWOW           = curand.RngPseudoXorwow      // the default pseudorandom generator
	MRG32K3A         = curand.RngPseudoMrg32K3A    // combined multiple recursive
	MTGP32           = curand.RngPseudoMtgp32      // Mersenne Twister for GPUs
	MT19937          = curand.RngPseudoMt19937     // Mersenne Twister
	Philox           = curand.RngPseudoPhilox43210 // Philox4x32-10, counter based
	PseudoDefault    = curand.RngPseudoDefault     // XORWOW
	Sobol32          = curand.RngQuasiSobol32
	ScrambledSobol32 = curand.RngQuasiScrambledSobol32
	Sobol64          = curand.RngQuasiSobol64 // 64-bit output: Bits[uint64]
	ScrambledSobol64 = curand.RngQuasiScrambledSobol64
	QuasiDefault     = curand.RngQuasiDefault // Sobol32
)

// Ordering is how results are laid out in memory (curandOrdering_t).
type Ordering = curand.Ordering

// The orderings: the Pseudo ones for pseudorandom generators, Quasi for
// quasirandom ones.
const (
	PseudoBest    = curand.OrderingPseudoBest
	PseudoOrder   = curand.OrderingPseudoDefault
	PseudoSeeded  = curand.OrderingPseudoSeeded
	PseudoLegacy  = curand.OrderingPseudoLegacy
	PseudoDynamic = curand.OrderingPseudoDynamic
	QuasiOrder    = curand.OrderingQuasiDefault
)

// MaxDimensions is the most dimensions a quasirandom generator takes.
const MaxDimensions = 20000

// Float is the element type of the continuous distributions.
type Float interface{ float32 | float64 }

// Word is the element type of raw output: uint32 from every generator
// but the 64-bit Sobol ones, uint64 from those.
type Word interface{ uint32 | uint64 }

// Error is a call refused before cuRAND is called: Op the function or
// method ("Normal"), Err the curand.Status the call breaks the rule of
// (what cuRAND would return; errors.Is(err, curand.StatusOutOfRange)),
// Msg what was wrong. It is one type for every math package.
type Error = mathlib.Error

// ErrClosed is returned by the use of a closed generator and by a second
// Close: one value for every math package (errors.Is(ErrClosed,
// cuda.ErrFreed) is true).
var ErrClosed = mathlib.ErrClosed

// errs makes the package's errors.
const errs = mathlib.Pkg("rand")

func isPseudo(t Type) bool { return t >= 100 && t < 200 }
func isQuasi(t Type) bool  { return t >= 200 && t < 300 }
func is64(t Type) bool     { return t == Sobol64 || t == ScrambledSobol64 }

func checkType(op string, t Type) error {
	switch t {
	case XORWOW, MRG32K3A, MTGP32, MT19937, Philox, PseudoDefault,
		Sobol32, ScrambledSobol32, Sobol64, ScrambledSobol64, QuasiDefault:
		return nil
	}
	return errs.Errorf(op, curand.StatusTypeError, "unknown generator type %d", int32(t))
}

// dist is what a call generates.
type dist uint8

const (
	distUniform dist = iota
	distNormal
	distLogNormal
	distPoisson
	distBits32
	distBits64
)

// settings are a generator's type and dimensions, the state the checks
// need.
type settings struct {
	typ  Type
	dims int // quasirandom dimensions, 1 until SetDimensions
}

// checkFill checks a call generating n values of d.
func (s *settings) checkFill(op string, d dist, n int) error {
	switch d {
	case distBits32:
		if is64(s.typ) {
			return errs.Errorf(op, curand.StatusTypeError, "%v makes 64-bit values: use a uint64 destination", s.typ)
		}
	case distBits64:
		if !is64(s.typ) {
			return errs.Errorf(op, curand.StatusTypeError, "%v makes 32-bit values (64-bit values come from Sobol64 and ScrambledSobol64): use a uint32 destination", s.typ)
		}
	}
	if isQuasi(s.typ) {
		if n%s.dims != 0 {
			return errs.Errorf(op, curand.StatusLengthNotMultiple, "%d values for %d dimensions: want a multiple of the dimensions", n, s.dims)
		}
	} else if (d == distNormal || d == distLogNormal) && n%2 != 0 {
		return errs.Errorf(op, curand.StatusLengthNotMultiple, "%d values: pseudorandom generators make normal values in pairs (Box-Muller), want an even count", n)
	}
	return nil
}

func checkLambda(op string, lambda float64) error {
	if !(lambda > 0) || math.IsInf(lambda, 1) {
		return errs.Errorf(op, curand.StatusOutOfRange, "lambda %v: want a positive, finite mean", lambda)
	}
	return nil
}

func checkStddev[T Float](op string, stddev T) error {
	if !(stddev >= 0) || math.IsInf(float64(stddev), 1) {
		return errs.Errorf(op, curand.StatusOutOfRange, "stddev %v: want a finite value >= 0", stddev)
	}
	return nil
}

func (s *settings) checkSeed(op string) error {
	if !isPseudo(s.typ) {
		return errs.Errorf(op, curand.StatusTypeError, "%v is quasirandom: it has no seed", s.typ)
	}
	return nil
}

func (s *settings) checkOrdering(op string, o Ordering) error {
	switch {
	case isPseudo(s.typ) && o >= PseudoBest && o <= PseudoDynamic:
		return nil
	case isQuasi(s.typ) && o == QuasiOrder:
		return nil
	}
	return errs.Errorf(op, curand.StatusOutOfRange, "ordering %v for %v", o, s.typ)
}

func (s *settings) checkDimensions(op string, n int) error {
	if !isQuasi(s.typ) {
		return errs.Errorf(op, curand.StatusTypeError, "%v is pseudorandom: it has no dimensions", s.typ)
	}
	if n < 1 || n > MaxDimensions {
		return errs.Errorf(op, curand.StatusOutOfRange, "%d dimensions: want 1 to %d", n, MaxDimensions)
	}
	return nil
}
