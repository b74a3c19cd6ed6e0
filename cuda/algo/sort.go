package algo

import (
	"fmt"

	"github.com/cugen/cugen/cuda"
)

// The radix sort: CUB's onesweep (DispatchRadixSort::InvokeOnesweep) with
// 8-bit digits, every bit of the key, int offsets. Its plan, checked by
// TestPlanSort:
//
//   - zero the tile counters of every (portion, pass), and the first
//     portion's digit counts;
//   - sortHistogram counts every pass's digits over the whole input
//     (a grid of the blocks of 128 threads the device holds at once);
//   - sortExclusiveSum turns each pass's 256 counts into offsets;
//   - per pass, per portion of at most portionItems items: zero the
//     look-back, then sortKeys (or sortPairs) ranks each tile and
//     scatters it to its place, writing the next portion's offsets.
//
// Pass p reads what pass p-1 wrote (the input for pass 0) and writes the
// output or the temporary buffer, alternating so that the last pass
// writes the output: the input is only read, and may be the output.

const (
	radixBits   = 8
	radixDigits = 1 << radixBits
)

// sweep is one onesweep launch.
type sweep struct {
	pass, portion int
	bit, bits     int
	first, n      int    // the portion's items: in[first : first+n]
	blocks        uint32 // tiles
	src, dst      operand
}

// sortPlan is a radix sort of n keys of size bytes.
type sortPlan struct {
	passes, portions int
	ctrs, bins       int // int32 counters: per (portion, pass); digit counts per (portion, pass, digit) and one discard row
	lookback         int // int32 look-back counters: per (tile, digit) of the largest portion
	temp             bool
	copyIn           bool // the first pass reads a copy of in in temp (out overlaps in)
	histGrid         uint32
	sweeps           []sweep
}

// portionItems is CUB's PORTION_SIZE for a tile: the most items under
// 2^28 that are whole tiles.
func portionItems(tile int) int { return ((1 << 28) - 1) / tile * tile }

// planSort plans the passes; aliased is whether out overlaps in.
func planSort(tile, n, size, resident128 int, aliased bool) sortPlan {
	if n == 0 {
		return sortPlan{}
	}
	passes := ceilDiv(8*size, radixBits)
	portion := portionItems(tile)
	portions := ceilDiv(n, portion)
	pl := sortPlan{
		passes: passes, portions: portions,
		ctrs:     portions * passes,
		bins:     (portions*passes + 1) * radixDigits,
		lookback: ceilDiv(min(n, portion), tile) * radixDigits,
		temp:     passes > 1,
		histGrid: uint32(max(1, resident128)),
	}
	src := opIn
	if aliased && passes%2 == 1 {
		// The one pass of 1-byte keys would read in while it scatters
		// into out: it reads a copy of in instead. (An even number of
		// passes reads in only in the first, which writes temp.)
		pl.copyIn, pl.temp, src = true, true, opTemp
	}
	for p := range passes {
		dst := opOut
		if (passes-1-p)%2 == 1 {
			dst = opTemp
		}
		bit := p * radixBits
		for q := range portions {
			first := q * portion
			m := min(n-first, portion)
			pl.sweeps = append(pl.sweeps, sweep{pass: p, portion: q, bit: bit, bits: min(8*size-bit, radixBits),
				first: first, n: m, blocks: uint32(ceilDiv(m, tile)), src: src, dst: dst})
		}
		src = dst
	}
	return pl
}

// SortKeys queues out = in sorted ascending on s (CUB's
// DeviceRadixSort::SortKeys): out must have in's length, and may be in
// itself. Floats are ordered by CUB's bits: -NaN (a NaN with its sign bit)
// first, then -Inf, the negatives, the zeros, the positives, +Inf, and NaN
// last; -0.0 and +0.0 are equal keys (CUB's digits do not tell them
// apart), which keep their order, and each keeps its sign. cuda.Float16 and
// cuda.BFloat16 keys are floats here too (CUB's traits of __half and
// __nv_bfloat16), ordered by value, not by their bits as integers.
func SortKeys[T Number](a *Lib, s *cuda.Stream, in, out *cuda.Buffer[T]) error {
	return radixSort[T](a, "SortKeys", false, false, s, in, out, nil, nil)
}

// SortKeysDescending is [SortKeys] in the opposite order.
func SortKeysDescending[T Number](a *Lib, s *cuda.Stream, in, out *cuda.Buffer[T]) error {
	return radixSort[T](a, "SortKeysDescending", true, false, s, in, out, nil, nil)
}

// SortPairs queues keysOut = keysIn sorted ascending, as [SortKeys], and
// valuesOut = valuesIn in the same order on s (CUB's
// DeviceRadixSort::SortPairs): the sort is stable, equal keys keep their
// values' order. Every buffer has keysIn's length; an output may be its
// input.
func SortPairs[T Number](a *Lib, s *cuda.Stream, keysIn, keysOut *cuda.Buffer[T], valuesIn, valuesOut *cuda.Buffer[int32]) error {
	return radixSort(a, "SortPairs", false, true, s, keysIn, keysOut, valuesIn, valuesOut)
}

// SortPairsDescending is [SortPairs] with the keys in the opposite order;
// equal keys still keep their values' order.
func SortPairsDescending[T Number](a *Lib, s *cuda.Stream, keysIn, keysOut *cuda.Buffer[T], valuesIn, valuesOut *cuda.Buffer[int32]) error {
	return radixSort(a, "SortPairsDescending", true, true, s, keysIn, keysOut, valuesIn, valuesOut)
}

// Argsort queues index = the positions of in's elements in ascending
// order (descending with desc), stable: index[0] is the position of the
// least, and equal elements keep their order. It sorts the pairs (in[i],
// i) into temporary storage; in is only read.
func Argsort[T Number](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], index *cuda.Buffer[int32], desc bool) error {
	op := "Argsort"
	if index == nil || in == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilBuffer)
	}
	if index.Len() != in.Len() {
		return fmt.Errorf("algo: %s[%s]: the index has %d elements for %d", op, typeName[T](), index.Len(), in.Len())
	}
	if err := s.Call(nop, index); err != nil {
		return fmt.Errorf("algo: %s: %w", op, err)
	}
	if err := check(a, op, s, in, in, in.Len(), nil); err != nil {
		return err
	}
	n := in.Len()
	if n == 0 {
		return nil
	}
	keys, err := allocTemp[T](a, s, op, n)
	if err != nil {
		return err
	}
	defer keys.Close()
	iota, err := allocTemp[int32](a, s, op, n)
	if err != nil {
		return err
	}
	defer iota.Close()
	// 0, 1, ..., n-1: the exclusive sums of ones
	if err := index.FillAsync(s, 1); err != nil {
		return fmt.Errorf("algo: %s: %w", op, err)
	}
	if err := ExclusiveSum(a, s, index, iota); err != nil {
		return err
	}
	return radixSort(a, op, desc, true, s, in, keys, iota, index)
}

// radixSort sorts in into out, with pairs the values vin into vout.
func radixSort[T Number](a *Lib, op string, desc, pairs bool, s *cuda.Stream, in, out *cuda.Buffer[T], vin, vout *cuda.Buffer[int32]) error {
	if pairs {
		if vin == nil || vout == nil || in == nil {
			return fmt.Errorf("algo: %s: %w", op, errNilBuffer)
		}
		if vin.Len() != in.Len() || vout.Len() != in.Len() {
			return fmt.Errorf("algo: %s[%s]: values of %d and %d elements for %d keys", op, typeName[T](), vin.Len(), vout.Len(), in.Len())
		}
		if err := s.Call(nop, vin, vout); err != nil {
			return fmt.Errorf("algo: %s: %w", op, err)
		}
	}
	if err := check(a, op, s, in, out, in.Len(), nil); err != nil {
		return err
	}
	p := policyOf[T](a)
	threads, tile := p.sortKeysThreads, p.sortKeysThreads*p.sortKeysItems
	if pairs {
		threads, tile = p.sortPairsThreads, p.sortPairsThreads*p.sortPairsItems
	}
	pl := planSort(tile, in.Len(), sizeOf[T](), a.resident128(), overlap(in, out) || pairs && overlap(vin, vout))
	if len(pl.sweeps) == 0 {
		return nil
	}
	fail := func(err error) error { return fmt.Errorf("algo: %s[%s]: %w", op, typeName[T](), err) }
	var keysTmp *cuda.Buffer[T]
	var valsTmp *cuda.Buffer[int32]
	bins, err := allocTemp[int32](a, s, op, pl.bins)
	if err != nil {
		return err
	}
	defer bins.Close()
	ctrs, err := allocTemp[int32](a, s, op, pl.ctrs)
	if err != nil {
		return err
	}
	defer ctrs.Close()
	lookback, err := allocTemp[int32](a, s, op, pl.lookback)
	if err != nil {
		return err
	}
	defer lookback.Close()
	if pl.temp {
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
	if pl.copyIn {
		if err := keysTmp.CopyFromBufferAsync(s, in); err != nil {
			return fail(err)
		}
		if pairs {
			if err := valsTmp.CopyFromBufferAsync(s, vin); err != nil {
				return fail(err)
			}
		}
	}
	keys := buffers[T]{in, out, keysTmp}.of
	vals := buffers[int32]{vin, vout, valsTmp}.of
	dir := "Asc"
	if desc {
		dir = "Desc"
	}
	t := typeName[T]()
	cfg := func(grid, block uint32) cuda.Config {
		return cuda.Config{Grid: cuda.Dim3{X: grid}, Block: cuda.Dim3{X: block}, Stream: s}
	}
	if err := ctrs.FillAsync(s, 0); err != nil {
		return fail(err)
	}
	if err := bins.Slice(0, pl.passes*radixDigits).FillAsync(s, 0); err != nil {
		return fail(err)
	}
	hist, _ := a.fns["sortHistogram"+dir+"/"+t].(func(cuda.Config, *cuda.Buffer[int32], *cuda.Buffer[T], int32, int32, int32) error)
	if hist == nil {
		return fail(fmt.Errorf("no kernel sortHistogram%s", dir))
	}
	if err := hist(cfg(pl.histGrid, 128), bins, in, int32(in.Len()), 0, int32(8*sizeOf[T]())); err != nil {
		return fail(err)
	}
	if err := a.k.SortExclusiveSum(cfg(uint32(pl.passes), 256), bins); err != nil {
		return fail(err)
	}
	kind := "sortKeys"
	if pairs {
		kind = "sortPairs"
	}
	f := a.fns[kind+dir+"/"+t]
	for _, w := range pl.sweeps {
		if err := lookback.Slice(0, int(w.blocks)*radixDigits).FillAsync(s, 0); err != nil {
			return fail(err)
		}
		row := func(portion int) *cuda.Buffer[int32] {
			i := (portion*pl.passes + w.pass) * radixDigits
			return bins.Slice(i, i+radixDigits)
		}
		binsOut := bins.Slice(pl.bins-radixDigits, pl.bins) // the last portion's: discarded
		if w.portion < pl.portions-1 {
			binsOut = row(w.portion + 1)
		}
		ctr := ctrs.Slice(w.portion*pl.passes+w.pass, w.portion*pl.passes+w.pass+1)
		src := keys(w.src).Slice(w.first, w.first+w.n)
		c := cfg(w.blocks, uint32(threads))
		var err error
		switch f := f.(type) {
		case func(cuda.Config, *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[T], int32, int32, int32) error:
			err = f(c, lookback, ctr, binsOut, row(w.portion), keys(w.dst), src, int32(w.n), int32(w.bit), int32(w.bits))
		case func(cuda.Config, *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, int32, int32) error:
			err = f(c, lookback, ctr, binsOut, row(w.portion), keys(w.dst), src, vals(w.dst), vals(w.src).Slice(w.first, w.first+w.n), int32(w.n), int32(w.bit), int32(w.bits))
		default:
			err = fmt.Errorf("no kernel %s%s", kind, dir)
		}
		if err != nil {
			return fail(err)
		}
	}
	return nil
}
