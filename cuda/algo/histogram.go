package algo

import (
	"fmt"
	"math"

	"github.com/cugen/cugen/cuda"
)

// HistogramEven queues into hist the counts of in's samples in
// hist.Len() bins of equal width between lower (inclusive) and upper
// (exclusive), on s (CUB's DeviceHistogram::HistogramEven, one channel):
// sample x in [lower, upper) is counted in bin (x-lower)*bins/(upper-lower)
// as CUB computes it (floats: (x-lower) times bins/(upper-lower) rounded
// to T, truncated; integers: in 64-bit unsigned arithmetic, 32-bit for
// samples of 8 and 16 bits). Samples
// outside [lower, upper), NaNs and infinities are not counted, nor is a
// float sample whose rounding gives bin hist.Len() (CUB drops it too).
// hist is overwritten; it has at least one bin (and for float32 at most
// 2^24: CUB carries bin numbers as samples). lower < upper, both
// finite; for integers, (upper-lower)*bins must fit 64 bits (32 for 8- and
// 16-bit samples), or the call is refused, as CUB refuses it.
//
// (CUB's dispatch counts 8-bit samples by value in 256 bins first, then
// maps those to the output's: the same counts as binning each sample.)
//
// The bounds are of the samples' type, as in CUB with levels of the
// sample type: upper is exclusive, so the greatest value of an 8- or
// 16-bit type (255 for uint8) is never counted. cuda.Float16 and cuda.BFloat16
// samples are not taken ([Sample] says why).
func HistogramEven[T Sample](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], hist *cuda.Buffer[int32], lower, upper T) error {
	const op = "HistogramEven"
	// CUB's ScaleTransform::Init, on the host as CUB does it
	var scale, rng T
	bounds := func(bins int) error {
		if !(lower < upper) || isFloat[T]() && (math.IsInf(float64(lower), 0) || math.IsInf(float64(upper), 0)) {
			return fmt.Errorf("algo: %s[%s]: bounds [%v, %v): want finite lower < upper", op, typeName[T](), lower, upper)
		}
		if isFloat[T]() {
			scale = T(bins) / (upper - lower)
			return nil
		}
		scale, rng = T(bins), upper-lower // the kernels compute both from lower, upper and bins for 8- and 16-bit T
		if sizeOf[T]() <= 2 {
			if uint64(int64(upper)-int64(lower)) > math.MaxUint32/uint64(bins) {
				return fmt.Errorf("algo: %s[%s]: (%v - %v) x %d bins overflows 32 bits (CUB refuses it)", op, typeName[T](), upper, lower, bins)
			}
			return nil
		}
		if uint64(int64(rng)) > math.MaxUint64/uint64(bins) {
			return fmt.Errorf("algo: %s[%s]: (%v - %v) x %d bins overflows 64 bits (CUB refuses it)", op, typeName[T](), upper, lower, bins)
		}
		return nil
	}
	if err := checkHistogram(a, op, s, in, hist, nil, bounds); err != nil {
		return err
	}
	bins := hist.Len()
	return runHistogram(a, op, "Even", s, in, hist, func(f any, cfg cuda.Config, priv *cuda.Buffer[int32], n, tiles int32) (bool, error) {
		k, ok := f.(func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, T, T, T, T, int32, int32) error)
		if !ok {
			return false, nil
		}
		return true, k(cfg, in, hist, priv, int32(bins), lower, upper, scale, rng, n, tiles)
	})
}

// HistogramRange queues into hist the counts of in's samples in the bins
// between levels: bin i counts the samples x with levels[i] <= x <
// levels[i+1], on s (CUB's DeviceHistogram::HistogramRange, one channel,
// a binary search of the levels). levels has hist.Len()+1 elements, in
// ascending order (not checked: that would read them); samples below the
// first level, at or above the last, and NaNs are not counted. hist is
// overwritten; it has at least one bin (float32: at most 2^24, as
// [HistogramEven]). As there, the levels are of the samples' type, so an
// 8- or 16-bit type's greatest value is never counted, and cuda.Float16 and
// cuda.BFloat16 samples are not taken.
func HistogramRange[T Sample](a *Lib, s *cuda.Stream, in, levels *cuda.Buffer[T], hist *cuda.Buffer[int32]) error {
	const op = "HistogramRange"
	if levels == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilBuffer)
	}
	if err := checkHistogram(a, op, s, in, hist, levels, nil); err != nil {
		return err
	}
	bins := hist.Len()
	return runHistogram(a, op, "Range", s, in, hist, func(f any, cfg cuda.Config, priv *cuda.Buffer[int32], n, tiles int32) (bool, error) {
		k, ok := f.(func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, *cuda.Buffer[T], int32, int32) error)
		if !ok {
			return false, nil
		}
		return true, k(cfg, in, hist, priv, int32(bins), levels, n, tiles)
	})
}

// checkHistogram refuses a histogram's misuse before anything runs:
// levels (HistogramRange's, else nil) of hist's length plus one, and
// HistogramEven's bounds (bounds, else nil) for hist's bins.
func checkHistogram[T Sample](a *Lib, op string, s *cuda.Stream, in *cuda.Buffer[T], hist *cuda.Buffer[int32], levels *cuda.Buffer[T], bounds func(bins int) error) error {
	if s == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilStream)
	}
	if in == nil || hist == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilBuffer)
	}
	if hist.Len() < 1 || hist.Len() >= maxItems {
		return fmt.Errorf("algo: %s[%s]: a histogram of %d bins: want 1 to %d", op, typeName[T](), hist.Len(), maxItems-1)
	}
	if _, ok := any(*new(T)).(float32); ok && hist.Len() > 1<<24 {
		return fmt.Errorf("algo: %s[%s]: a histogram of %d bins: CUB passes bin numbers through float32, exact up to 2^24", op, typeName[T](), hist.Len())
	}
	if levels != nil && levels.Len() != hist.Len()+1 {
		return fmt.Errorf("algo: %s[%s]: %d levels for %d bins: want %d", op, typeName[T](), levels.Len(), hist.Len(), hist.Len()+1)
	}
	if bounds != nil {
		if err := bounds(hist.Len()); err != nil {
			return err
		}
	}
	if err := s.Call(nop, hist); err != nil {
		return fmt.Errorf("algo: %s: %w", op, err)
	}
	out := in
	if levels != nil {
		out = levels
	}
	return check(a, op, s, in, out, out.Len(), nil)
}

// runHistogram clears hist and launches the sweep kernel of kind ("Even",
// "Range") through launch, which calls the typed kernel f (false: f is
// not that kernel).
func runHistogram[T Sample](a *Lib, op, kind string, s *cuda.Stream, in *cuda.Buffer[T], hist *cuda.Buffer[int32],
	launch func(f any, cfg cuda.Config, priv *cuda.Buffer[int32], n, tiles int32) (bool, error)) error {
	t := typeName[T]()
	p := policyOf[T](a)
	// CUB asks the occupancy API; this is the blocks of the policy's
	// threads that fit the threads a multiprocessor holds.
	occupancy := a.sms * max(1, a.resident/a.sms*256/p.histogram.threads)
	// Samples of one byte are privatized in 256 bins, one a byte, whatever
	// the output's bins (CUB's byte path; cub.cu's HistogramDecode).
	privBins := hist.Len()
	if sizeOf[T]() == 1 {
		privBins = 1 << 8
	}
	pl := planHistogram(p.histogram, kind, in.Len(), privBins, occupancy)
	// The temporary storage first, as every call takes it: a call that
	// cannot have it has queued nothing.
	priv := hist.Slice(0, 0) // shared-memory bins: not read
	if pl.tilesPerRow > 0 && pl.privatized > 0 {
		var err error
		if priv, err = allocTemp[int32](a, s, op, pl.privatized); err != nil {
			return err
		}
		defer priv.Close()
	}
	if err := hist.FillAsync(s, 0); err != nil {
		return fmt.Errorf("algo: %s[%s]: %w", op, t, err)
	}
	if pl.tilesPerRow == 0 {
		return nil
	}
	cfg := cuda.Config{Grid: cuda.Dim3{X: pl.grid}, Block: cuda.Dim3{X: pl.block}, Stream: s}
	ok, err := launch(a.fns[pl.kernel+"/"+t], cfg, priv, int32(in.Len()), int32(pl.tilesPerRow))
	if !ok {
		err = fmt.Errorf("no kernel %s for %s", pl.kernel, t)
	}
	if err != nil {
		return fmt.Errorf("algo: %s[%s]: %s: %w", op, t, pl.kernel, err)
	}
	return nil
}

// isFloat is whether T is float32 or float64.
func isFloat[T Number]() bool {
	switch any(*new(T)).(type) {
	case float32, float64:
		return true
	}
	return false
}
