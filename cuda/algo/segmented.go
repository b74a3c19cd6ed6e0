package algo

import (
	"fmt"

	"github.com/cugen/cugen/cuda"
)

// SegmentedSum queues out[i] = the sum of in[offsets[i]:offsets[i+1]]
// for each of out's segments, on s (CUB's DeviceSegmentedReduce::Sum, a
// block a segment). offsets has out.Len()+1 elements, non-decreasing,
// from 0 to at most in's length (not checked: that would read them); the
// segments may leave elements out. An empty segment sums to 0. Floats are
// summed in CUB's order, as [Sum] says.
func SegmentedSum[T Summand](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], offsets *cuda.Buffer[int32], out *cuda.Buffer[T]) error {
	return segmented(a, "Sum", s, in, offsets, nil, out, 0)
}

// SegmentedMin is [SegmentedSum] for each segment's least element, as
// [Min] finds it; an empty segment gives T's greatest value (+Inf for
// floats).
func SegmentedMin[T Number](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], offsets *cuda.Buffer[int32], out *cuda.Buffer[T]) error {
	return segmented(a, "Min", s, in, offsets, nil, out, greatest[T]())
}

// SegmentedMax is [SegmentedSum] for each segment's greatest element, as
// [Max] finds it; an empty segment gives T's least value (-Inf for
// floats).
func SegmentedMax[T Number](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], offsets *cuda.Buffer[int32], out *cuda.Buffer[T]) error {
	return segmented(a, "Max", s, in, offsets, nil, out, least[T]())
}

// SegmentedArgMin queues, for each segment i of in
// (in[offsets[i]:offsets[i+1]], as [SegmentedSum] takes them), the index
// within the segment and the value of its least element into index[i]
// and value[i], on s (CUB's DeviceSegmentedReduce::ArgMin, a block a
// segment): of equal least values, the lowest index, NaNs as [Min]
// compares them. An empty segment gives index -1 and T's greatest value,
// as [ArgMin] does (CUB gives index 1 and numeric_limits<T>::max(), the
// greatest finite float). index and value have an element a segment,
// offsets one more.
func SegmentedArgMin[T Number](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], offsets, index *cuda.Buffer[int32], value *cuda.Buffer[T]) error {
	return segmented(a, "ArgMin", s, in, offsets, index, value, greatest[T]())
}

// SegmentedArgMax is [SegmentedArgMin] for each segment's greatest
// element; an empty segment gives -1 and T's least value.
func SegmentedArgMax[T Number](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], offsets, index *cuda.Buffer[int32], value *cuda.Buffer[T]) error {
	return segmented(a, "ArgMax", s, in, offsets, index, value, least[T]())
}

// segmented runs SegmentedSum, SegmentedMin and SegmentedMax (index nil:
// out[i] is segment i's reduction, init where it is empty) and
// SegmentedArgMin and SegmentedArgMax (index[i] and out[i] are its
// element's index and value, -1 and init where it is empty).
func segmented[T Number](a *Lib, op string, s *cuda.Stream, in *cuda.Buffer[T], offsets, index *cuda.Buffer[int32], out *cuda.Buffer[T], init T) error {
	name := "Segmented" + op
	arg := op == "ArgMin" || op == "ArgMax"
	if s == nil {
		return fmt.Errorf("algo: %s: %w", name, errNilStream)
	}
	if in == nil || out == nil || offsets == nil || arg && index == nil {
		return fmt.Errorf("algo: %s: %w", name, errNilBuffer)
	}
	if arg && index.Len() != out.Len() {
		return fmt.Errorf("algo: %s[%s]: %d indices and %d values: want one of each a segment", name, typeName[T](), index.Len(), out.Len())
	}
	if offsets.Len() != out.Len()+1 {
		return fmt.Errorf("algo: %s[%s]: %d offsets for %d segments: want %d", name, typeName[T](), offsets.Len(), out.Len(), out.Len()+1)
	}
	ops := []cuda.Operand{offsets}
	if arg {
		ops = append(ops, index)
	}
	if err := s.Call(nop, ops...); err != nil {
		return fmt.Errorf("algo: %s: %w", name, err)
	}
	if err := check(a, name, s, in, out, out.Len(), nil); err != nil {
		return err
	}
	t := typeName[T]()
	for _, st := range planSegmented(policyOf[T](a), op, out.Len()).steps {
		cfg := st.config(s)
		var err error
		switch f := a.fns[st.kernel+"/"+t].(type) {
		case func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], T) error: // sum, min, max
			err = f(cfg, in, out, offsets, init)
		case func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[int32], T) error: // arg
			err = f(cfg, in, index, out, offsets, init)
		default:
			err = fmt.Errorf("no kernel %s for %s", st.kernel, t)
		}
		if err != nil {
			return fmt.Errorf("algo: %s[%s]: %s: %w", name, t, st.kernel, err)
		}
	}
	return nil
}
