package algo

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cugentest/standin"
)

func segSortString(pl segSortPlan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "temp %v;", pl.temp)
	for _, p := range pl.passes {
		b.WriteString(" " + p.String())
	}
	return b.String()
}

// CUB's DispatchSegmentedRadixSort: a launch a digit pass, a block a
// segment; ceil(bits/6) passes, the first of them of 5 bits (the
// alternate policy's 384 threads) as many as make up the difference; the
// first pass reads the input and the last writes the output, through the
// temporary buffer.
func TestPlanSegmentedSort(t *testing.T) {
	p := segmentedSortPolicies[90]["float32"]
	for _, c := range []struct {
		bits, n, segments int
		want              string
	}{
		{32, 0, 5, "temp false;"},
		{32, 100, 0, "temp false;"},
		// 6 passes: 4 of 5 bits, 2 of 6
		{32, 100, 5, "temp true;" +
			" kAlt<<<5, 384>>>(bits 0+5, in -> temp) kAlt<<<5, 384>>>(bits 5+5, temp -> out)" +
			" kAlt<<<5, 384>>>(bits 10+5, out -> temp) kAlt<<<5, 384>>>(bits 15+5, temp -> out)" +
			" k<<<5, 192>>>(bits 20+6, out -> temp) k<<<5, 192>>>(bits 26+6, temp -> out)"},
		// 11 passes, odd: the first writes the output
		{64, 1 << 20, 70000, "temp true;" +
			" kAlt<<<70000, 384>>>(bits 0+5, in -> out) kAlt<<<70000, 384>>>(bits 5+5, out -> temp)" +
			" k<<<70000, 192>>>(bits 10+6, temp -> out) k<<<70000, 192>>>(bits 16+6, out -> temp)" +
			" k<<<70000, 192>>>(bits 22+6, temp -> out) k<<<70000, 192>>>(bits 28+6, out -> temp)" +
			" k<<<70000, 192>>>(bits 34+6, temp -> out) k<<<70000, 192>>>(bits 40+6, out -> temp)" +
			" k<<<70000, 192>>>(bits 46+6, temp -> out) k<<<70000, 192>>>(bits 52+6, out -> temp)" +
			" k<<<70000, 192>>>(bits 58+6, temp -> out)"},
		// CUB's passes for 2-byte keys (not built): 3, 2 of them alternate
		{16, 1, 1, "temp true; kAlt<<<1, 384>>>(bits 0+5, in -> out) kAlt<<<1, 384>>>(bits 5+5, out -> temp) k<<<1, 192>>>(bits 10+6, temp -> out)"},
	} {
		if got := segSortString(planSegmentedSort(p.keys, p.keysAlt, "k", c.bits, c.n, c.segments)); got != c.want {
			t.Errorf("%d bits n=%d segments=%d:\n got %s\nwant %s", c.bits, c.n, c.segments, got, c.want)
		}
	}
	// 1-byte keys' policies (5 and 4 bits): every pass alternate
	if got, want := segSortString(planSegmentedSort(segTile{192, 5}, segTile{384, 4}, "k", 8, 3, 2)),
		"temp true; kAlt<<<2, 384>>>(bits 0+4, in -> temp) kAlt<<<2, 384>>>(bits 4+4, temp -> out)"; got != want {
		t.Errorf("8 bits:\n got %s\nwant %s", got, want)
	}
	// every key width and digit size: the bits covered once, in order; each
	// pass reads what the last wrote and writes another buffer; the last
	// writes the output
	for bits := 1; bits <= 64; bits++ {
		for digit := 2; digit <= 8; digit++ {
			pl := planSegmentedSort(segTile{192, digit}, segTile{384, digit - 1}, "k", bits, 10, 3)
			next, src := 0, opIn
			for i, w := range pl.passes {
				if w.bit != next || w.bits < 1 || w.src != src || w.dst == w.src || w.dst == opIn || w.grid != 3 {
					t.Fatalf("%d bits, %d-bit digits: pass %d is %v", bits, digit, i, w)
				}
				next, src = w.bit+w.bits, w.dst
			}
			if next != bits || src != opOut || len(pl.passes) != max(ceilDiv(bits, digit), 1) {
				t.Fatalf("%d bits, %d-bit digits: %s", bits, digit, segSortString(pl))
			}
		}
	}
}

// The plan's passes sort: each pass run on the CPU as the kernel's block
// does it (a stable scatter of each segment by its digit, reversed for
// descending), the output holds each segment sorted stably, as
// slices.SortStableFunc sorts it, of 32- and 64-bit keys with many
// duplicates; the input and the output outside the segments are not
// written.
func TestPlanSegmentedSortSorts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	p := segmentedSortPolicies[80]["uint64"]
	for _, keyBits := range []int{32, 64} {
		for _, desc := range []bool{false, true} {
			n := 5000
			in := make([]uint64, n)
			for i := range in {
				in[i] = r.Uint64() >> (64 - keyBits)
				if r.IntN(2) == 0 {
					in[i] = uint64(r.IntN(4)) << (keyBits - 2) // shares its low digits
				}
			}
			c := randomSegments(r, n)
			pl := planSegmentedSort(p.pairs, p.pairsAlt, "k", keyBits, n, len(c.begin))
			type item struct {
				key uint64
				val int32
			}
			bufs := map[operand][]item{opIn: make([]item, n), opOut: make([]item, n), opTemp: make([]item, n)}
			for i := range n {
				bufs[opIn][i] = item{in[i], int32(i)}
				bufs[opOut][i] = item{^uint64(0), -1}
				bufs[opTemp][i] = item{r.Uint64(), -2}
			}
			for _, w := range pl.passes {
				mask := uint64(1)<<w.bits - 1
				digit := func(x item) uint64 {
					d := x.key >> w.bit & mask
					if desc {
						d = mask - d
					}
					return d
				}
				for i := range c.begin {
					b, e := int(c.begin[i]), int(c.end[i])
					if e <= b {
						continue
					}
					seg := slices.Clone(bufs[w.src][b:e])
					slices.SortStableFunc(seg, func(x, y item) int { return cmp.Compare(digit(x), digit(y)) })
					copy(bufs[w.dst][b:e], seg)
				}
			}
			want := make([]item, n)
			for i := range n {
				want[i] = item{^uint64(0), -1}
			}
			for i := range c.begin {
				b, e := int(c.begin[i]), int(c.end[i])
				if e <= b {
					continue
				}
				seg := slices.Clone(bufs[opIn][b:e])
				slices.SortStableFunc(seg, func(x, y item) int {
					if desc {
						return cmp.Compare(y.key, x.key)
					}
					return cmp.Compare(x.key, y.key)
				})
				copy(want[b:e], seg)
			}
			for i := range n {
				if got := bufs[opOut][i]; got != want[i] {
					t.Fatalf("%d bits desc=%v: out[%d] = %v, want %v", keyBits, desc, i, got, want[i])
				}
				if got := bufs[opIn][i]; got != (item{in[i], int32(i)}) {
					t.Fatalf("%d bits desc=%v: in[%d] written", keyBits, desc, i)
				}
			}
		}
	}
}

// The segmented sort's policy table is what each image was compiled with.
func TestSegmentedSortPolicies(t *testing.T) {
	for _, im := range []struct {
		file string
		arch int
	}{{"sm_80.cubin", 80}, {"sm_90.cubin", 90}, {"compute_90.ptx", 90}} {
		got := imageConstants(t, im.file)
		if len(segmentedSortPolicies[im.arch]) != len(wideTypes) {
			t.Errorf("arch %d: %d types, want [Wide]'s %d", im.arch, len(segmentedSortPolicies[im.arch]), len(wideTypes))
		}
		for ty, p := range segmentedSortPolicies[im.arch] {
			for name, want := range map[string]int{
				"keys_threads": p.keys.threads, "keys_bits": p.keys.bits, "keys_alt_threads": p.keysAlt.threads, "keys_alt_bits": p.keysAlt.bits,
				"pairs_threads": p.pairs.threads, "pairs_bits": p.pairs.bits, "pairs_alt_threads": p.pairsAlt.threads, "pairs_alt_bits": p.pairsAlt.bits,
			} {
				key := fmt.Sprintf("cugen_segsort_%s_%s", name, ty)
				if v, ok := got[key]; !ok || v != want {
					t.Errorf("%s: %s = %d (found %v), the table has %d", im.file, key, v, ok, want)
				}
			}
		}
	}
}

// On the stand-in driver, the segmented sort's misuse is refused with its
// own error before anything is allocated or queued.
func TestMisuseSegmentedSort(t *testing.T) {
	if !standin.Run(t, standin.Majors{}) {
		return
	}
	ctx := standin.Must(cuda.NewContext(0))(t)
	defer ctx.Close()
	s := standin.Must(ctx.NewStream())(t)
	in := standin.Must(cuda.Alloc[float32](ctx, 10))(t)
	out := standin.Must(cuda.Alloc[float32](ctx, 10))(t)
	out2 := standin.Must(cuda.Alloc[float32](ctx, 2))(t)
	closed := standin.Must(cuda.Alloc[float32](ctx, 10))(t)
	closed.Close()
	v10 := standin.Must(cuda.Alloc[int32](ctx, 10))(t)
	w10 := standin.Must(cuda.Alloc[int32](ctx, 10))(t)
	v2 := standin.Must(cuda.Alloc[int32](ctx, 2))(t)
	off := standin.Must(cuda.Alloc[int32](ctx, 4))(t)
	offClosed := standin.Must(cuda.Alloc[int32](ctx, 4))(t)
	offClosed.Close()
	i64 := standin.Must(cuda.Alloc[int64](ctx, 10))(t)
	o64 := standin.Must(cuda.Alloc[int64](ctx, 10))(t)
	vClosed := standin.Must(cuda.Alloc[int32](ctx, 10))(t)
	vClosed.Close()
	closedS := standin.Must(ctx.NewStream())(t)
	closedS.Close()
	begin, end := off.Slice(0, 3), off.Slice(1, 4)
	refuseAll(t, []misuse{
		{"nil stream", func() error { return SegmentedSortKeys(nil, nil, in, out, begin, end) }, "algo: SegmentedSortKeys: algo: nil *cuda.Stream", nil},
		{"nil input", func() error { return SegmentedSortKeysDescending(nil, s, nil, out, begin, end) }, "algo: SegmentedSortKeysDescending: algo: nil buffer", nil},
		{"nil output", func() error { return SegmentedSortKeys(nil, s, in, nil, begin, end) }, "algo: SegmentedSortKeys: algo: nil buffer", nil},
		{"nil begin", func() error { return SegmentedSortKeys(nil, s, in, out, nil, end) }, "algo: SegmentedSortKeys: algo: nil buffer", nil},
		{"nil end", func() error { return SegmentedSortPairs(nil, s, in, out, v10, w10, begin, nil) }, "algo: SegmentedSortPairs: algo: nil buffer", nil},
		{"nil values in", func() error { return SegmentedSortPairs(nil, s, in, out, nil, w10, begin, end) }, "algo: SegmentedSortPairs: algo: nil buffer", nil},
		{"nil values out", func() error { return SegmentedSortPairsDescending(nil, s, in, out, v10, nil, begin, end) }, "algo: SegmentedSortPairsDescending: algo: nil buffer", nil},
		{"offsets of 3 and 2", func() error { return SegmentedSortKeys(nil, s, in, out, begin, off.Slice(2, 4)) }, "algo: SegmentedSortKeys[float32]: 3 begin offsets and 2 end offsets: want one of each a segment", nil},
		{"output of 2", func() error { return SegmentedSortKeys(nil, s, in, out2, begin, end) }, "algo: SegmentedSortKeys[float32]: the output has 2 elements for 10: want 10", nil},
		{"values in of 2", func() error { return SegmentedSortPairs(nil, s, in, out, v2, w10, begin, end) }, "algo: SegmentedSortPairs[float32]: values of 2 and 10 elements for 10 keys", nil},
		{"values out of 2", func() error { return SegmentedSortPairsDescending(nil, s, in, out, v10, v2, begin, end) }, "algo: SegmentedSortPairsDescending[float32]: values of 10 and 2 elements for 10 keys", nil},
		{"in place", func() error { return SegmentedSortKeys(nil, s, in, in, begin, end) }, "algo: SegmentedSortKeys[float32]: out overlaps in", nil},
		{"overlapping", func() error { return SegmentedSortKeys(nil, s, out.Slice(0, 8), out.Slice(2, 10), begin, end) }, "algo: SegmentedSortKeys[float32]: out overlaps in", nil},
		{"values overlapping", func() error { return SegmentedSortPairs(nil, s, in, out, v10, v10, begin, end) }, "algo: SegmentedSortPairs[float32]: valuesOut overlaps valuesIn", nil},
		{"closed input", func() error { return SegmentedSortKeys(nil, s, closed, out, begin, end) }, "algo: SegmentedSortKeys: ", cuda.ErrFreed},
		{"closed output", func() error { return SegmentedSortKeys(nil, s, in, closed, begin, end) }, "algo: SegmentedSortKeys: ", cuda.ErrFreed},
		{"closed begin", func() error { return SegmentedSortKeys(nil, s, in, out, offClosed.Slice(0, 3), end) }, "algo: SegmentedSortKeys: ", cuda.ErrFreed},
		{"closed end", func() error { return SegmentedSortPairs(nil, s, in, out, v10, w10, begin, offClosed.Slice(1, 4)) }, "algo: SegmentedSortPairs: ", cuda.ErrFreed},
		{"closed values", func() error { return SegmentedSortPairs(nil, s, in, out, v10, vClosed, begin, end) }, "algo: SegmentedSortPairs: ", cuda.ErrFreed},
		{"closed stream", func() error { return SegmentedSortKeys(nil, closedS, in, out, begin, end) }, "algo: SegmentedSortKeys: ", cuda.ErrFreed},
		{"nil Lib", func() error { return SegmentedSortKeys(nil, s, in, out, begin, end) }, "algo: SegmentedSortKeys: algo: nil *Lib", nil},
		{"nil Lib, pairs", func() error { return SegmentedSortPairsDescending(nil, s, i64, o64, v10, w10, begin, end) }, "algo: SegmentedSortPairsDescending: algo: nil *Lib", nil},
		{"nil Lib, no segments", func() error { return SegmentedSortKeys(nil, s, i64, o64, off.Slice(0, 0), off.Slice(0, 0)) }, "algo: SegmentedSortKeys: algo: nil *Lib", nil},
		{"int64 overlapping", func() error { return SegmentedSortKeys(nil, s, i64, i64.Slice(9, 10), begin, end) }, "algo: SegmentedSortKeys[int64]: out overlaps in", nil},
	})
}
