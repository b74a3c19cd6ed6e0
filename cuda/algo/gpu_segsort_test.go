package algo

// GPU tests of the segmented sort against slices.SortStableFunc per
// segment; they skip without a device (CUGEN_REQUIRE_GPU=1: fail
// instead).

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cugen/cugen/cuda"
)

func TestGPUSegmentedSort(t *testing.T) {
	ctx, a, s := gpuLib(t)
	eachType(t, ctx, a, s, wideNames, gpuSegmentedSort[int32], gpuSegmentedSort[uint32], gpuSegmentedSort[int64],
		gpuSegmentedSort[uint64], gpuSegmentedSort[float32], gpuSegmentedSort[float64])
}

// segSortCase is a segmented sort's input: n keys, segments begin[i] to
// end[i].
type segSortCase struct {
	name       string
	n          int
	begin, end []int32
}

// segSortCases are segments of every kind over inputs of several sizes:
// none; empty ones (end == begin, and end < begin, which CUB takes as
// empty); of 1 element; one over a whole input of many tiles; random
// ones of up to 63 elements and of up to 20000 (several tiles of a
// block), with gaps between them, in a shuffled order.
func segSortCases(r *rand.Rand, large bool) []segSortCase {
	cs := []segSortCase{
		{"no segments", 10, nil, nil},
		{"no keys", 0, []int32{0, 0}, []int32{0, 0}},
		{"one of 1", 1, []int32{0}, []int32{1}},
		{"empty and reversed", 10, []int32{0, 3, 7, 9}, []int32{0, 1, 7, 10}},
		{"whole", 100_003, []int32{0}, []int32{100_003}},
		{"first and last elements", 1 << 16, []int32{0, 1<<16 - 1}, []int32{1, 1 << 16}},
	}
	for _, n := range []int{1000, 100_003, 1 << 20} {
		cs = append(cs, randomSegments(r, n))
	}
	if large {
		cs = append(cs, segSortCase{"whole 2^22", 1 << 22, []int32{0}, []int32{1 << 22}}, randomSegments(r, 1<<24))
	}
	return cs
}

// randomSegments covers n keys with segments: one in 8 empty (one in 64
// with end < begin), one in 8 of 1 element, one in 16 of up to 20000,
// the others of up to 63; one in 4 after a gap of up to 4 elements; the
// segments shuffled.
func randomSegments(r *rand.Rand, n int) segSortCase {
	c := segSortCase{name: fmt.Sprintf("random over %d", n), n: n}
	for cur := 0; cur < n; {
		if r.IntN(4) == 0 {
			cur = min(n, cur+r.IntN(5))
		}
		l := r.IntN(64)
		switch r.IntN(16) {
		case 0, 1:
			l = 0
		case 2, 3:
			l = 1
		case 4:
			l = r.IntN(20_000)
		}
		b, e := cur, min(n, cur+l)
		if l == 0 && r.IntN(8) == 0 && b+2 <= n {
			b, e = b+2, b // end < begin: empty
		}
		c.begin, c.end = append(c.begin, int32(b)), append(c.end, int32(e))
		cur = max(cur, e)
	}
	r.Shuffle(len(c.begin), func(i, j int) {
		c.begin[i], c.begin[j] = c.begin[j], c.begin[i]
		c.end[i], c.end[j] = c.end[j], c.end[i]
	})
	return c
}

// SegmentedSortKeys, SegmentedSortPairs (values: the positions, so that
// stability shows) and their descending forms, against
// slices.SortStableFunc of each segment by CUB's bit order (sortBits:
// NaNs of both signs, infinities, -0.0 and duplicate keys, from sortData);
// keys compared bit for bit. Outside the segments the outputs keep what
// they held, and the input is not changed.
func gpuSegmentedSort[T Wide](t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream) {
	r := rand.New(rand.NewPCG(17, uint64(sizeOf[T]())))
	ty := typeName[T]()
	large := !testing.Short() && (ty == "float32" || ty == "uint64")
	for _, c := range segSortCases(r, large) {
		n := c.n
		host := sortData[T](r, n)
		pos := make([]int32, n)
		for i := range pos {
			pos[i] = int32(i)
		}
		fill := sortData[T](r, n) // what out holds before
		vfill := make([]int32, n)
		for i := range vfill {
			vfill[i] = -1 - int32(i)
		}
		in := must(cuda.AllocFrom(ctx, host))(t)
		vin := must(cuda.AllocFrom(ctx, pos))(t)
		// one extra element each, so that an empty buffer is still a
		// buffer; the sorts see [:n]
		begin := must(cuda.AllocFrom(ctx, append(slices.Clone(c.begin), 0)))(t)
		end := must(cuda.AllocFrom(ctx, append(slices.Clone(c.end), 0)))(t)
		segs := len(c.begin)
		for _, desc := range []bool{false, true} {
			// the reference: each segment's positions, sorted stably
			want := slices.Clone(pos)
			for i := range segs {
				b, e := int(c.begin[i]), int(c.end[i])
				if e <= b {
					continue
				}
				stableOrder(want[b:e], host, desc)
			}
			inSeg := make([]bool, n)
			for i := range segs {
				for j := c.begin[i]; j < c.end[i]; j++ {
					inSeg[j] = true
				}
			}
			wantKeys, wantVals := slices.Clone(fill), slices.Clone(vfill)
			for i := range n {
				if inSeg[i] {
					wantKeys[i], wantVals[i] = host[want[i]], want[i]
				}
			}
			name := fmt.Sprintf("%s segments=%d desc=%v", c.name, segs, desc)
			checkKeys := func(what string, got []T) {
				if i := firstDiff(got, wantKeys, sameBits[T]); i >= 0 {
					t.Errorf("%s %s: [%d] = %v, want %v (in a segment: %v)", what, name, i, got[i], wantKeys[i], inSeg[i])
				}
			}
			out := must(cuda.AllocFrom(ctx, fill))(t)
			vout := must(cuda.AllocFrom(ctx, vfill))(t)
			sortKeys, sortPairs := SegmentedSortKeys[T], SegmentedSortPairs[T]
			if desc {
				sortKeys, sortPairs = SegmentedSortKeysDescending[T], SegmentedSortPairsDescending[T]
			}
			if err := sortKeys(a, s, in, out, begin.Slice(0, segs), end.Slice(0, segs)); err != nil {
				t.Fatalf("SegmentedSortKeys %s: %v", name, err)
			}
			checkKeys("SegmentedSortKeys", result(t, s, out))
			if err := out.CopyFromAsync(s, fill); err != nil {
				t.Fatal(err)
			}
			if err := sortPairs(a, s, in, out, vin, vout, begin.Slice(0, segs), end.Slice(0, segs)); err != nil {
				t.Fatalf("SegmentedSortPairs %s: %v", name, err)
			}
			checkKeys("SegmentedSortPairs keys", result(t, s, out))
			got := result(t, s, vout)
			if i := firstDiff(got, wantVals, func(a, b int32) bool { return a == b }); i >= 0 {
				t.Errorf("SegmentedSortPairs values %s: [%d] = %d, want %d (stable order; in a segment: %v)", name, i, got[i], wantVals[i], inSeg[i])
			}
			if got := result(t, s, in); !slices.EqualFunc(got, host, sameBits[T]) {
				t.Errorf("%s: the input changed", name)
			}
			if got := result(t, s, vin); !slices.Equal(got, pos) {
				t.Errorf("%s: the input values changed", name)
			}
			out.Close()
			vout.Close()
		}
		in.Close()
		vin.Close()
		begin.Close()
		end.Close()
	}
}
