package algo

// GPU tests of HistogramEven and HistogramRange against Go references;
// they skip without a device (CUGEN_REQUIRE_GPU=1: fail instead).

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cugen/cugen/cuda"
)

func TestGPUHistogram(t *testing.T) {
	ctx, a, s := gpuLib(t)
	eachType(t, ctx, a, s, sampleNames, gpuHistogram[int32], gpuHistogram[uint32], gpuHistogram[int64], gpuHistogram[uint64], gpuHistogram[float32], gpuHistogram[float64],
		gpuHistogram[int8], gpuHistogram[uint8], gpuHistogram[int16], gpuHistogram[uint16])
}

// histData is n samples around the bins: integers in [-150, 1150) (from
// 0 unsigned; 8-bit ones wrap around, covering their range) and one in 16
// of the full range; floats in quarters from
// -12 to 12, and one in 16 a NaN of either sign, an infinity, a zero of
// either sign, or a bound of HistogramEven's, or just below one.
func histData[T Sample](r *rand.Rand, n int) []T {
	lower, upper := histBounds[T]()
	host := make([]T, n)
	full := data[T](r, n)
	for i := range host {
		if isFloat[T]() {
			host[i] = T(float64(r.IntN(97)-48) * 0.25)
			if r.IntN(16) == 0 {
				specials := []float64{math.NaN(), math.Copysign(math.NaN(), -1), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
					float64(lower), float64(upper), math.Nextafter(float64(upper), math.Inf(-1))}
				v := specials[r.IntN(len(specials))]
				switch p := any(&host[i]).(type) {
				case *float32:
					if v == float64(upper) && r.IntN(2) == 0 {
						v = float64(math.Nextafter32(float32(upper), float32(math.Inf(-1))))
					}
					*p = float32(v)
				case *float64:
					*p = v
				}
			}
			continue
		}
		if r.IntN(16) == 0 {
			host[i] = full[i]
			continue
		}
		v := r.IntN(1300) - 150
		if lower > 0 { // unsigned
			v += 150
		}
		host[i] = T(v)
	}
	return host
}

// histBounds are HistogramEven's bounds: [-100, 1000) signed, [100,
// 1100) unsigned, [-10.3, 9.7) floats (bins of inexact width); 8-bit:
// [-100, 100) and [10, 250).
func histBounds[T Sample]() (lower, upper T) {
	switch any(*new(T)).(type) {
	case int8:
		var l, u int8 = -100, 100
		return T(l), T(u)
	case uint8:
		var l, u uint8 = 10, 250
		return T(l), T(u)
	case uint16, uint32, uint64:
		var l, u uint16 = 100, 1100
		return T(l), T(u)
	case float32, float64:
		l, u := -10.3, 9.7
		return T(l), T(u)
	}
	var l, u int64 = -100, 1000
	return T(l), T(u)
}

// evenRef is CUB's HistogramEven in Go, in T's arithmetic (8- and 16-bit
// integers: their differences as ints, in 32-bit unsigned arithmetic).
func evenRef[T Sample](host []T, bins int, lower, upper T) []int32 {
	h := make([]int32, bins)
	var scale T
	if isFloat[T]() {
		scale = T(bins) / (upper - lower)
	}
	for _, x := range host {
		if !(x >= lower && x < upper) {
			continue
		}
		var b int
		switch {
		case isFloat[T]():
			b = int((x - lower) * scale)
		case sizeOf[T]() <= 2:
			b = int(uint32(int64(x)-int64(lower)) * uint32(bins) / uint32(int64(upper)-int64(lower)))
		default:
			b = int(uint64(int64(x-lower)) * uint64(bins) / uint64(int64(upper-lower)))
		}
		if b < bins {
			h[b]++
		}
	}
	return h
}

// rangeRef is CUB's HistogramRange in Go: cub::UpperBound over the levels.
func rangeRef[T Sample](host, levels []T) []int32 {
	h := make([]int32, len(levels)-1)
	for _, x := range host {
		lo, n := 0, len(levels)
		for n > 0 {
			half := n >> 1
			if x < levels[lo+half] {
				n = half
			} else {
				lo, n = lo+half+1, n-half-1
			}
		}
		if b := lo - 1; b >= 0 && b < len(h) {
			h[b]++
		}
	}
	return h
}

// HistogramEven and HistogramRange at every size, with 1, 7, 256 (the
// last of shared memory), 257 and 1000 bins (global memory), against
// evenRef and rangeRef; HistogramRange's levels are sorted random values
// (duplicates among them), which samples hit exactly.
func gpuHistogram[T Sample](t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream) {
	r := rand.New(rand.NewPCG(8, uint64(sizeOf[T]())))
	lower, upper := histBounds[T]()
	for _, n := range selectSizes[T]() {
		host := histData[T](r, n)
		in := must(cuda.AllocFrom(ctx, host))(t)
		for _, bins := range []int{1, 7, 256, 257, 1000} {
			name := fmt.Sprintf("n=%d bins=%d", n, bins)
			hist := must(cuda.AllocFrom(ctx, make([]int32, bins)))(t)
			if err := hist.FillAsync(s, 0x7f); err != nil { // not zero: HistogramEven clears it
				t.Fatal(err)
			}
			if err := HistogramEven(a, s, in, hist, lower, upper); err != nil {
				t.Fatalf("HistogramEven %s: %v", name, err)
			}
			want := evenRef(host, bins, lower, upper)
			if got := result(t, s, hist); !slices.Equal(got, want) {
				i := diffBits(got, want)
				t.Errorf("HistogramEven %s: [%d] = %d, want %d", name, i, got[i], want[i])
			}

			lv := make([]T, bins+1)
			for i := range lv {
				if isFloat[T]() {
					lv[i] = T(float64(r.IntN(81)-40) * 0.25)
				} else {
					lv[i] = T(int64(lower) + int64(r.IntN(int(int64(upper)-int64(lower)))))
				}
			}
			slices.Sort(lv)
			levels := must(cuda.AllocFrom(ctx, lv))(t)
			if err := HistogramRange(a, s, in, levels, hist); err != nil {
				t.Fatalf("HistogramRange %s: %v", name, err)
			}
			want = rangeRef(host, lv)
			if got := result(t, s, hist); !slices.Equal(got, want) {
				i := diffBits(got, want)
				t.Errorf("HistogramRange %s: [%d] = %d, want %d", name, i, got[i], want[i])
			}
			levels.Close()
			hist.Close()
		}
		in.Close()
	}
}

// Wide integer ranges, where (x-lower)*bins needs 64 bits: [-2^40, 2^40)
// over int64 samples spread across it and past it, and [-2^30, 2^30-1)
// (a range of 2^31-1, the widest an int32 holds) over full-range int32s.
func TestGPUHistogramWideRange(t *testing.T) {
	ctx, a, s := gpuLib(t)
	r := rand.New(rand.NewPCG(9, 9))
	const n = 100_003
	x64 := make([]int64, n)
	for i := range x64 {
		x64[i] = r.Int64N(1<<42) - 1<<41
	}
	x32 := make([]int32, n)
	for i := range x32 {
		x32[i] = int32(r.Uint32())
	}
	hist := must(cuda.Alloc[int32](ctx, 1000))(t)
	defer hist.Close()
	in64 := must(cuda.AllocFrom(ctx, x64))(t)
	defer in64.Close()
	if err := HistogramEven(a, s, in64, hist, -1<<40, 1<<40); err != nil {
		t.Fatal(err)
	}
	if got, want := result(t, s, hist), evenRef(x64, 1000, -1<<40, 1<<40); !slices.Equal(got, want) {
		t.Errorf("int64 [-2^40, 2^40): %v, want %v", got[:8], want[:8])
	}
	in32 := must(cuda.AllocFrom(ctx, x32))(t)
	defer in32.Close()
	if err := HistogramEven(a, s, in32, hist, math.MinInt32/2, math.MaxInt32/2); err != nil {
		t.Fatal(err)
	}
	if got, want := result(t, s, hist), evenRef(x32, 1000, math.MinInt32/2, math.MaxInt32/2); !slices.Equal(got, want) {
		t.Errorf("int32 [-2^30, 2^30-1): %v, want %v", got[:8], want[:8])
	}
}
