package algo

import (
	"fmt"

	"github.com/cugen/cugen/cuda"
)

// The segmented sort: CUB's DeviceSegmentedRadixSort
// (DispatchSegmentedRadixSort::InvokePasses). Each pass is one launch of
// one block a segment, over a digit of the keys' bits from the least
// significant: the block counts its segment's digits, scans them and
// scatters the segment to its place. Its plan, checked by
// TestPlanSegmentedSort:
//
//   - CUB's passes: ceil(bits/b) of them for digits of b bits, the first
//     of the alternate policy's b-1 bits as many as make the key's bits a
//     whole number of passes;
//   - pass p reads what pass p-1 wrote (the input for pass 0) and writes
//     the output or a temporary buffer of the input's length, alternating
//     so that the last pass writes the output (CUB's DoubleBuffer with
//     is_overwrite_okay false): the input is only read.

// segTile is a segmented sort policy's block threads and digit bits.
type segTile struct{ threads, bits int }

// segPolicy is DeviceRadixSortPolicy<K, V, int>'s SegmentedPolicy and
// AltSegmentedPolicy, of keys alone (V: NullType) and of pairs with int32
// values; cub.cu's cugen_segsort_* constants, checked by
// TestSegmentedSortPolicies.
type segPolicy struct{ keys, keysAlt, pairs, pairsAlt segTile }

// seg is every key type's of [Wide], on sm_80 (Policy800) and sm_90
// (Policy900) alike: 192 threads (of 39 4-byte items, RegBoundScaling),
// 6-bit digits; the alternate 384 threads, 5 bits.
var seg = segPolicy{segTile{192, 6}, segTile{384, 5}, segTile{192, 6}, segTile{384, 5}}

// segmentedSortPolicies[arch][type], as policies.
var segmentedSortPolicies = map[int]map[string]segPolicy{
	80: {"int32": seg, "uint32": seg, "int64": seg, "uint64": seg, "float32": seg, "float64": seg},
	90: {"int32": seg, "uint32": seg, "int64": seg, "uint64": seg, "float32": seg, "float64": seg},
}

// segPass is one launch of the segmented sort.
type segPass struct {
	kernel      string // segmentedSortKeysAsc, segmentedSortKeysAscAlt, ...
	grid, block uint32 // segments, the policy's threads
	bit, bits   int    // the digit: bits [bit, bit+bits)
	src, dst    operand
}

func (p segPass) String() string {
	return fmt.Sprintf("%s<<<%d, %d>>>(bits %d+%d, %v -> %v)", p.kernel, p.grid, p.block, p.bit, p.bits, p.src, p.dst)
}

// segSortPlan is a segmented sort's launches and whether it needs the
// temporary keys (and values) of the input's length.
type segSortPlan struct {
	passes []segPass
	temp   bool
}

// planSegmentedSort is DispatchSegmentedRadixSort::Invoke for n keys of
// keyBits bits in segments segments, kernel the name of the main
// policy's kernel (its alternate's is kernel+"Alt"): nothing for no keys
// or no segments, else CUB's passes.
func planSegmentedSort(main, alt segTile, kernel string, keyBits, n, segments int) segSortPlan {
	if n == 0 || segments == 0 {
		return segSortPlan{}
	}
	passes := max(ceilDiv(keyBits, main.bits), 1)
	altEnd := min(keyBits, (passes*main.bits-keyBits)*alt.bits)
	// CUB's d_keys_remaining_passes: the first pass writes bufs[0], each
	// next one the other, so that an odd number of passes ends in out
	bufs := [2]operand{opTemp, opOut}
	if passes%2 == 1 {
		bufs = [2]operand{opOut, opTemp}
	}
	var pl segSortPlan
	src, sel := opIn, 0
	for bit := 0; bit < keyBits; {
		t, name := main, kernel
		if bit < altEnd {
			t, name = alt, kernel+"Alt"
		}
		bits := min(t.bits, keyBits-bit)
		dst := bufs[sel]
		pl.passes = append(pl.passes, segPass{kernel: name, grid: uint32(segments), block: uint32(t.threads), bit: bit, bits: bits, src: src, dst: dst})
		pl.temp = pl.temp || dst == opTemp
		src, sel, bit = dst, sel^1, bit+bits
	}
	return pl
}

// SegmentedSortKeys queues, for each segment i, out[begin[i]:end[i]] =
// in[begin[i]:end[i]] sorted ascending, on s (CUB's
// DeviceSegmentedRadixSort::SortKeys: a block a segment, a launch a digit
// pass). begin and end have one element a segment; out has in's length.
// The order is [SortKeys]' (CUB's radix order: NaN and -0.0 as it says,
// each key keeping its bits). A segment with end[i] <= begin[i] is empty;
// the segments may leave gaps, where out keeps what it held, but must not
// overlap one another, and 0 <= begin[i], end[i] <= in.Len() (none of
// which is checked: that would read the offsets). A buffer of n+1 offsets
// gives begin = offsets.Slice(0, n) and end = offsets.Slice(1, n+1). out
// must not overlap in (CUB's sort reads a segment while it writes it).
// TestGPUSegmentedSort checks the order, the gaps, empty and reversed
// segments against slices.SortStableFunc; TestMisuseSegmentedSort the
// refusals.
//
// One block sorts a whole segment, in every pass: few long segments
// leave most of the device idle, where [SortKeys] would not.
//
// The key types are those of [Wide]: each type's eight kernels (keys and
// pairs, both orders, CUB's two digit sizes) add about 2.2 MB to the
// embedded images, 13.3 MB for these six (42.8 MB to 56.2 MB), and the
// narrower types and the half types would add as much again.
func SegmentedSortKeys[T Wide](a *Lib, s *cuda.Stream, in, out *cuda.Buffer[T], begin, end *cuda.Buffer[int32]) error {
	return segmentedSort(a, "SegmentedSortKeys", false, false, s, in, out, nil, nil, begin, end)
}

// SegmentedSortKeysDescending is [SegmentedSortKeys] in the opposite
// order.
func SegmentedSortKeysDescending[T Wide](a *Lib, s *cuda.Stream, in, out *cuda.Buffer[T], begin, end *cuda.Buffer[int32]) error {
	return segmentedSort(a, "SegmentedSortKeysDescending", true, false, s, in, out, nil, nil, begin, end)
}

// SegmentedSortPairs is [SegmentedSortKeys] of keysIn into keysOut that
// also moves valuesIn's elements into valuesOut with their keys (CUB's
// DeviceSegmentedRadixSort::SortPairs): stable, equal keys keep their
// values' order. Every buffer but begin and end has keysIn's length;
// valuesOut must not overlap valuesIn.
func SegmentedSortPairs[T Wide](a *Lib, s *cuda.Stream, keysIn, keysOut *cuda.Buffer[T], valuesIn, valuesOut *cuda.Buffer[int32], begin, end *cuda.Buffer[int32]) error {
	return segmentedSort(a, "SegmentedSortPairs", false, true, s, keysIn, keysOut, valuesIn, valuesOut, begin, end)
}

// SegmentedSortPairsDescending is [SegmentedSortPairs] with the keys in
// the opposite order; equal keys still keep their values' order.
func SegmentedSortPairsDescending[T Wide](a *Lib, s *cuda.Stream, keysIn, keysOut *cuda.Buffer[T], valuesIn, valuesOut *cuda.Buffer[int32], begin, end *cuda.Buffer[int32]) error {
	return segmentedSort(a, "SegmentedSortPairsDescending", true, true, s, keysIn, keysOut, valuesIn, valuesOut, begin, end)
}

// segmentedSort sorts each segment of in into out, with pairs the values
// vin into vout.
func segmentedSort[T Wide](a *Lib, op string, desc, pairs bool, s *cuda.Stream, in, out *cuda.Buffer[T], vin, vout, begin, end *cuda.Buffer[int32]) error {
	t := typeName[T]()
	if s == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilStream)
	}
	if in == nil || out == nil || begin == nil || end == nil || pairs && (vin == nil || vout == nil) {
		return fmt.Errorf("algo: %s: %w", op, errNilBuffer)
	}
	if begin.Len() != end.Len() {
		return fmt.Errorf("algo: %s[%s]: %d begin offsets and %d end offsets: want one of each a segment", op, t, begin.Len(), end.Len())
	}
	if begin.Len() > maxGridX {
		return fmt.Errorf("algo: %s[%s]: %d segments, more than the %d blocks a launch has", op, t, begin.Len(), maxGridX)
	}
	ops := []cuda.Operand{begin, end}
	if pairs {
		if vin.Len() != in.Len() || vout.Len() != in.Len() {
			return fmt.Errorf("algo: %s[%s]: values of %d and %d elements for %d keys", op, t, vin.Len(), vout.Len(), in.Len())
		}
		ops = append(ops, vin, vout)
	}
	if err := s.Call(nop, ops...); err != nil {
		return fmt.Errorf("algo: %s: %w", op, err)
	}
	if overlap(in, out) {
		return fmt.Errorf("algo: %s[%s]: out overlaps in", op, t)
	}
	if pairs && overlap(vin, vout) {
		return fmt.Errorf("algo: %s[%s]: valuesOut overlaps valuesIn", op, t)
	}
	if err := check(a, op, s, in, out, in.Len(), nil); err != nil {
		return err
	}
	p := segmentedSortPolicies[a.arch][t]
	kernel, main, alt := "segmentedSortKeys", p.keys, p.keysAlt
	if pairs {
		kernel, main, alt = "segmentedSortPairs", p.pairs, p.pairsAlt
	}
	if desc {
		kernel += "Desc"
	} else {
		kernel += "Asc"
	}
	pl := planSegmentedSort(main, alt, kernel, 8*sizeOf[T](), in.Len(), begin.Len())
	var keysTmp *cuda.Buffer[T]
	var valsTmp *cuda.Buffer[int32]
	if pl.temp {
		var err error
		if keysTmp, err = allocTemp[T](a, s, op, in.Len()); err != nil {
			return err
		}
		defer keysTmp.Close()
		if pairs {
			if valsTmp, err = allocTemp[int32](a, s, op, in.Len()); err != nil {
				return err
			}
			defer valsTmp.Close()
		}
	}
	keys := buffers[T]{in, out, keysTmp}.of
	vals := buffers[int32]{vin, vout, valsTmp}.of
	for _, w := range pl.passes {
		cfg := cuda.Config{Grid: cuda.Dim3{X: w.grid}, Block: cuda.Dim3{X: w.block}, Stream: s}
		var err error
		switch f := a.fns[w.kernel+"/"+t].(type) {
		case func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, int32) error:
			err = f(cfg, keys(w.src), keys(w.dst), begin, end, int32(w.bit), int32(w.bits))
		case func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, int32) error:
			err = f(cfg, keys(w.src), keys(w.dst), vals(w.src), vals(w.dst), begin, end, int32(w.bit), int32(w.bits))
		default:
			err = fmt.Errorf("no kernel %s for %s", w.kernel, t)
		}
		if err != nil {
			return fmt.Errorf("algo: %s[%s]: %s: %w", op, t, w.kernel, err)
		}
	}
	return nil
}
