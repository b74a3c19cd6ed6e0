package algo

import (
	"fmt"

	"github.com/cugen/cugen/cuda"
)

// SelectFlagged queues out[0:k] = the elements in[i] whose flags[i] is
// not zero, in their order in in, and count[0] = k, on s (CUB's
// DeviceSelect::Flagged). flags and out have in's length (the most that
// can be selected), count one element; out[k:] keeps what it held. out may
// be in itself, compacting it in place (no other overlap is taken).
func SelectFlagged[T Wide](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], flags *cuda.Buffer[uint8], out *cuda.Buffer[T], count *cuda.Buffer[int32]) error {
	return runSelect(a, selectFlagged, s, in, flags, nil, out, count)
}

// Cmp is the comparison of a [Where].
type Cmp int32

// The comparisons of x, an element, with a Where's A (and B): as Go
// compares them, so a NaN is kept by NotEqual alone.
const (
	Less         Cmp = iota // x < A
	LessEqual               // x <= A
	Greater                 // x > A
	GreaterEqual            // x >= A
	Equal                   // x == A
	NotEqual                // x != A
	InRange                 // A <= x && x < B
	NotNaN                  // x == x: every element but NaNs
)

var cmpNames = [...]string{"Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "InRange", "NotNaN"}

func (c Cmp) String() string {
	if c >= 0 && int(c) < len(cmpNames) {
		return cmpNames[c]
	}
	return fmt.Sprintf("Cmp(%d)", int32(c))
}

// Where is the predicate of [SelectIf]: element x is kept where x Op A
// holds (for InRange, A <= x < B; B is unused by the others).
type Where[T Wide] struct {
	Op   Cmp
	A, B T
}

// SelectIf queues out[0:k] = the elements of in for which w holds, in
// their order in in, and count[0] = k, on s (CUB's DeviceSelect::If, the
// predicate a comparison chosen at run time: one kernel a type serves
// every one). out has in's length (the most that can be selected), count
// one element; out[k:] keeps what it held. out may be in itself,
// compacting it in place (no other overlap is taken). A Where whose Op is
// none of the Cmp constants is refused.
func SelectIf[T Wide](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], w Where[T], out *cuda.Buffer[T], count *cuda.Buffer[int32]) error {
	if w.Op < Less || w.Op > NotNaN {
		return fmt.Errorf("algo: SelectIf[%s]: %v is not a comparison (Less to NotNaN)", typeName[T](), w.Op)
	}
	return runSelect(a, selectWhere, s, in, nil, &w, out, count)
}

// Unique queues out[0:k] = in without its consecutive duplicates (the
// first of each run of equal elements, in order) and count[0] = k, on s
// (CUB's DeviceSelect::Unique, equality by ==): floats compare as Go's ==
// does, so -0.0 and +0.0 are duplicates (the first kept, its sign too) and
// every NaN is kept. out has in's length, count one element; out[k:] keeps
// what it held. out may be in itself (no other overlap is taken).
func Unique[T Wide](a *Lib, s *cuda.Stream, in, out *cuda.Buffer[T], count *cuda.Buffer[int32]) error {
	return runSelect(a, selectUnique, s, in, nil, nil, out, count)
}

// PartitionFlagged queues into out all of in's elements: first the k
// whose flags[i] is not zero, in their order in in, then the others in
// reverse order (CUB's DeviceSelect::Flagged with its rejects kept, as
// DevicePartition::Flagged writes them: the last rejected element at
// out[k]); count[0] = k. flags and out have in's length, count one
// element. out must not overlap in.
func PartitionFlagged[T Wide](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], flags *cuda.Buffer[uint8], out *cuda.Buffer[T], count *cuda.Buffer[int32]) error {
	return runSelect(a, partitionFlagged, s, in, flags, nil, out, count)
}

// PartitionIf queues into out all of in's elements: first the k for
// which w holds, in their order in in, then the others in reverse order
// (CUB's DevicePartition::If, the last rejected element at out[k]), and
// count[0] = k, on s. out has in's length, count one element. out must
// not overlap in. A Where whose Op is none of the Cmp constants is
// refused.
func PartitionIf[T Wide](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], w Where[T], out *cuda.Buffer[T], count *cuda.Buffer[int32]) error {
	if w.Op < Less || w.Op > NotNaN {
		return fmt.Errorf("algo: PartitionIf[%s]: %v is not a comparison (Less to NotNaN)", typeName[T](), w.Op)
	}
	return runSelect(a, partitionWhere, s, in, nil, &w, out, count)
}

// RunLengthEncode queues, for the runs of equal consecutive elements of
// in (equality by ==, as [Unique]), unique[r] = run r's value, counts[r]
// = its length and runs[0] = the number of runs, on s (CUB's
// DeviceRunLengthEncode::Encode, a reduction by key of ones). unique and
// counts have in's length (the most runs there can be), runs one
// element; past the runs they keep what they held. Of a run of -0.0 and
// +0.0, unique holds the run's last element (CUB keeps the key that ends
// a run); every NaN is a run of its own. unique must not overlap in.
func RunLengthEncode[T Wide](a *Lib, s *cuda.Stream, in, unique *cuda.Buffer[T], counts, runs *cuda.Buffer[int32]) error {
	const op = "RunLengthEncode"
	if s == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilStream)
	}
	if in == nil || unique == nil || counts == nil || runs == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilBuffer)
	}
	if counts.Len() != in.Len() {
		return fmt.Errorf("algo: %s[%s]: the counts have %d elements for %d: want %d", op, typeName[T](), counts.Len(), in.Len(), in.Len())
	}
	if runs.Len() != 1 {
		return fmt.Errorf("algo: %s[%s]: the run count has %d elements: want 1", op, typeName[T](), runs.Len())
	}
	if err := s.Call(nop, counts, runs); err != nil {
		return fmt.Errorf("algo: %s: %w", op, err)
	}
	if overlap(in, unique) {
		return fmt.Errorf("algo: %s[%s]: unique overlaps in", op, typeName[T]())
	}
	if err := check(a, op, s, in, unique, in.Len(), nil); err != nil {
		return err
	}
	pl := planRle(policyOf[T](a).rle, in.Len())
	state, err := allocTemp[byte](a, s, op, pl.tempBytes)
	if err != nil {
		return err
	}
	defer state.Close()
	t := typeName[T]()
	for _, st := range pl.steps {
		cfg := st.config(s)
		var err error
		switch f := a.fns[st.kernel+"/"+t].(type) {
		case func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[byte], int32, int32, int32) error:
			err = f(cfg, in, unique, counts, runs, state, st.numTiles, st.startTile, st.n)
		default:
			if st.kernel == "rleInit" {
				err = a.k.RleInit(cfg, state, st.n, runs)
			} else {
				err = fmt.Errorf("no kernel %s for %s", st.kernel, t)
			}
		}
		if err != nil {
			return fmt.Errorf("algo: %s[%s]: %s: %w", op, t, st.kernel, err)
		}
	}
	return nil
}

// selection is one of the operations runSelect runs: what it needs and
// which kernel and tuning run it, decided here, not by its name.
type selection struct {
	op       string            // the API's name, for errors
	kernel   string            // cub.cu's kernel
	flags    bool              // it takes flags
	disjoint bool              // out must not overlap in at all (not even be in)
	tile     func(policy) tile // its tuning
}

var (
	selectFlagged = selection{op: "SelectFlagged", kernel: "selectFlagged", flags: true, tile: func(p policy) tile { return p.flagged }}
	selectUnique  = selection{op: "Unique", kernel: "selectUnique", tile: func(p policy) tile { return p.unique }}
	// CUB tunes a select by a predicate as Unique (cub.cu's kIf)
	selectWhere      = selection{op: "SelectIf", kernel: "selectIf", tile: func(p policy) tile { return p.unique }}
	partitionFlagged = selection{op: "PartitionFlagged", kernel: "partitionFlagged", flags: true, disjoint: true, tile: func(p policy) tile { return p.partition }}
	partitionWhere   = selection{op: "PartitionIf", kernel: "partitionIf", disjoint: true, tile: func(p policy) tile { return p.partitionIf }}
)

// runSelect runs sel: SelectFlagged, Unique (flags and w nil), SelectIf
// and PartitionIf (w), or PartitionFlagged.
func runSelect[T Wide](a *Lib, sel selection, s *cuda.Stream, in *cuda.Buffer[T], flags *cuda.Buffer[uint8], w *Where[T], out *cuda.Buffer[T], count *cuda.Buffer[int32]) error {
	op := sel.op
	if s == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilStream)
	}
	if in == nil || out == nil || count == nil || flags == nil && sel.flags {
		return fmt.Errorf("algo: %s: %w", op, errNilBuffer)
	}
	if flags != nil && flags.Len() != in.Len() {
		return fmt.Errorf("algo: %s[%s]: the flags have %d elements for %d: want %d", op, typeName[T](), flags.Len(), in.Len(), in.Len())
	}
	if count.Len() != 1 {
		return fmt.Errorf("algo: %s[%s]: the count has %d elements: want 1", op, typeName[T](), count.Len())
	}
	ops := []cuda.Operand{count}
	if flags != nil {
		ops = append(ops, flags)
	}
	if err := s.Call(nop, ops...); err != nil {
		return fmt.Errorf("algo: %s: %w", op, err)
	}
	if sel.disjoint && overlap(in, out) {
		return fmt.Errorf("algo: %s[%s]: out overlaps in", op, typeName[T]())
	}
	if overlap(in, out) && in.Ptr() != out.Ptr() {
		return fmt.Errorf("algo: %s[%s]: out overlaps in but is not in itself", op, typeName[T]())
	}
	if err := check(a, op, s, in, out, in.Len(), nil); err != nil {
		return err
	}
	pl := planSelect(sel.tile(policyOf[T](a)), sel.kernel, in.Len())
	state, err := allocTemp[byte](a, s, op, pl.tempBytes)
	if err != nil {
		return err
	}
	defer state.Close()
	ty := typeName[T]()
	for _, st := range pl.steps {
		cfg := st.config(s)
		var err error
		switch f := a.fns[st.kernel+"/"+ty].(type) {
		case func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[byte], int32, int32) error: // unique
			err = f(cfg, in, out, count, state, st.numTiles, st.n)
		case func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[uint8], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[byte], int32, int32) error: // flagged, partition
			err = f(cfg, in, flags, out, count, state, st.numTiles, st.n)
		case func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[byte], int32, int32, int32, T, T) error: // if, partition if
			err = f(cfg, in, out, count, state, st.numTiles, st.n, int32(w.Op), w.A, w.B)
		default:
			if st.kernel == "selectInit" {
				err = a.k.SelectInit(cfg, state, st.n, count)
			} else {
				err = fmt.Errorf("no kernel %s for %s", st.kernel, ty)
			}
		}
		if err != nil {
			return fmt.Errorf("algo: %s[%s]: %s: %w", op, ty, st.kernel, err)
		}
	}
	return nil
}

// overlap is whether a and b share device memory.
func overlap[T Number](a, b *cuda.Buffer[T]) bool {
	if a.Len() == 0 || b.Len() == 0 {
		return false
	}
	a0, b0 := uint64(a.Ptr()), uint64(b.Ptr())
	return a0 < b0+b.Bytes() && b0 < a0+a.Bytes()
}
