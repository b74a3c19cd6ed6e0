package algo

// GPU tests of SegmentedSum, SegmentedMin, SegmentedMax, SegmentedArgMin
// and SegmentedArgMax against Go loops; they skip without a device (CUGEN_REQUIRE_GPU=1: fail instead).

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cugen/cugen/cuda"
)

func TestGPUSegmented(t *testing.T) {
	ctx, a, s := gpuLib(t)
	eachType(t, ctx, a, s, numberNames, gpuSegmented(SegmentedSum[int32]), gpuSegmented(SegmentedSum[uint32]),
		gpuSegmented(SegmentedSum[int64]), gpuSegmented(SegmentedSum[uint64]), gpuSegmented(SegmentedSum[float32]),
		gpuSegmented(SegmentedSum[float64]), gpuSegmented[int8](nil), gpuSegmented[uint8](nil), gpuSegmented[int16](nil),
		gpuSegmented[uint16](nil), gpuSegmented(SegmentedSum[cuda.Float16]), gpuSegmented(SegmentedSum[cuda.BFloat16]))
}

// segmentedFunc is SegmentedSum, SegmentedMin or SegmentedMax of T.
type segmentedFunc[T Number] func(*Lib, *cuda.Stream, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[T]) error

// gpuSegmented checks SegmentedMin, SegmentedMax and sum (SegmentedSum of
// T, nil for a T it does not take).
func gpuSegmented[T Number](sum segmentedFunc[T]) gpuTest {
	return func(t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream) { gpuSegmentedOf(t, ctx, a, s, sum) }
}

// segmentOffsets is offsets over n elements: from 0 to 2, then segments
// one in 8 empty, one in 8 of up to 20000 elements (many tiles), the
// others of up to 63; the last may end before n.
func segmentOffsets(r *rand.Rand, n int) []int32 {
	off := []int32{int32(min(n, r.IntN(3)))}
	for cur := int(off[0]); cur < n; {
		l := r.IntN(64)
		switch r.IntN(8) {
		case 0:
			l = 0
		case 1:
			l = r.IntN(20_000)
		}
		cur = min(n, cur+l)
		if r.IntN(1000) == 0 {
			cur = max(int(off[len(off)-1]), cur-1) // the last segment may stop short
			off = append(off, int32(cur))
			break
		}
		off = append(off, int32(cur))
	}
	return off
}

// Sum, Min, Max, ArgMin and ArgMax of every segment at every size, with
// empty segments (0, T's greatest and least, index -1) among them, against
// loops; the sums are
// exact (data's small integral floats, in segments of at most 20000, and
// sumData's ones for the half types), so compared exactly.
func gpuSegmentedOf[T Number](t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream, sumf segmentedFunc[T]) {
	r := rand.New(rand.NewPCG(11, uint64(sizeOf[T]())))
	for _, n := range selectSizes[T]() {
		host := sumData[T](r, n)
		off := segmentOffsets(r, n)
		segs := len(off) - 1
		sum, lo, hi := make([]T, segs), make([]T, segs), make([]T, segs)
		for i := range segs {
			sum[i], lo[i], hi[i] = 0, greatest[T](), least[T]()
			for _, v := range host[off[i]:off[i+1]] {
				sum[i] = add(sum[i], v)
				lo[i], hi[i] = minOf(lo[i], v), maxOf(hi[i], v)
			}
		}
		in := must(cuda.AllocFrom(ctx, host))(t)
		offsets := must(cuda.AllocFrom(ctx, off))(t)
		out := must(cuda.Alloc[T](ctx, segs))(t)
		for _, c := range []struct {
			name string
			f    segmentedFunc[T]
			want []T
		}{{"SegmentedSum", sumf, sum}, {"SegmentedMin", SegmentedMin[T], lo}, {"SegmentedMax", SegmentedMax[T], hi}} {
			if c.f == nil {
				continue
			}
			name := fmt.Sprintf("%s n=%d segments=%d", c.name, n, segs)
			if err := c.f(a, s, in, offsets, out); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := result(t, s, out)
			if i := diffBits(got, c.want); i >= 0 {
				t.Errorf("%s: [%d] (in[%d:%d]) = %v, want %v", name, i, off[i], off[i+1], got[i], c.want[i])
			}
		}
		// the arg-reductions: each segment's first least and greatest
		// element, its index within the segment (-1 where empty)
		loI, hiI := make([]int32, segs), make([]int32, segs)
		for i := range segs {
			loI[i], hiI[i] = -1, -1
			seg := host[off[i]:off[i+1]]
			for j, v := range seg {
				if loI[i] < 0 || less(v, seg[loI[i]]) {
					loI[i] = int32(j)
				}
				if hiI[i] < 0 || less(seg[hiI[i]], v) {
					hiI[i] = int32(j)
				}
			}
		}
		index := must(cuda.Alloc[int32](ctx, segs))(t)
		for _, c := range []struct {
			name  string
			f     func(*Lib, *cuda.Stream, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[T]) error
			wantI []int32
			wantV []T
		}{{"SegmentedArgMin", SegmentedArgMin[T], loI, lo}, {"SegmentedArgMax", SegmentedArgMax[T], hiI, hi}} {
			name := fmt.Sprintf("%s n=%d segments=%d", c.name, n, segs)
			if err := c.f(a, s, in, offsets, index, out); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			gotI, gotV := result(t, s, index), result(t, s, out)
			if i := firstDiff(gotI, c.wantI, func(a, b int32) bool { return a == b }); i >= 0 {
				t.Errorf("%s: index [%d] (in[%d:%d]) = %d, want %d", name, i, off[i], off[i+1], gotI[i], c.wantI[i])
			} else if i := diffBits(gotV, c.wantV); i >= 0 {
				t.Errorf("%s: value [%d] (in[%d:%d]) = %v, want %v", name, i, off[i], off[i+1], gotV[i], c.wantV[i])
			}
		}
		index.Close()
		in.Close()
		offsets.Close()
		out.Close()
	}
}
