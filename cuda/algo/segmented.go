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
	return segmented(a, "Sum", s, in, offsets, out, 0)
}

// SegmentedMin is [SegmentedSum] for each segment's least element, as
// [Min] finds it; an empty segment gives T's greatest value (+Inf for
// floats).
func SegmentedMin[T Number](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], offsets *cuda.Buffer[int32], out *cuda.Buffer[T]) error {
	return segmented(a, "Min", s, in, offsets, out, greatest[T]())
}

// SegmentedMax is [SegmentedSum] for each segment's greatest element, as
// [Max] finds it; an empty segment gives T's least value (-Inf for
// floats).
func SegmentedMax[T Number](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], offsets *cuda.Buffer[int32], out *cuda.Buffer[T]) error {
	return segmented(a, "Max", s, in, offsets, out, least[T]())
}

// SegmentedArgMin queues, for each segment i of in
// (in[offsets[i]:offsets[i+1]], as [SegmentedSum] takes them), the index
// within the segment and the value of its least element into index[i]
// and value[i], on s (CUB's DeviceSegmentedReduce::ArgMin, a block a
// segment): of equal least values, the lowest index, NaNs as [Min]
// compares them. An empty segment gives index -1 and T's greatest value,
// as [ArgMin] does (CUB gives index 1 and numeric_limits<T>::max(), the
// greatest finite float). index and value have a
// segment's element each, offsets one more.
func SegmentedArgMin[T Number](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], offsets, index *cuda.Buffer[int32], value *cuda.Buffer[T]) error {
	return segmentedArg(a, "ArgMin", s, in, offsets, index, value, greatest[T]())
}

// SegmentedArgMax is [SegmentedArgMin] for each segment's greatest
// element; an empty segment gives -1 and T's least value.
func SegmentedArgMax[T Number](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], offsets, index *cuda.Buffer[int32], value *cuda.Buffer[T]) error {
	return segmentedArg(a, "ArgMax", s, in, offsets, index, value, least[T]())
}

func segmentedArg[T Number](a *Lib, op string, s *cuda.Stream, in *cuda.Buffer[T], offsets, index *cuda.Buffer[int32], value *cuda.Buffer[T], empty T) error {
	name := "Segmented" + op
	if s == nil {
		return fmt.Errorf("algo: %s: %w", name, errNilStream)
	}
	if in == nil || offsets == nil || index == nil || value == nil {
		return fmt.Errorf("algo: %s: %w", name, errNilBuffer)
	}
	if index.Len() != value.Len() {
		return fmt.Errorf("algo: %s[%s]: %d indices and %d values: want one of each a segment", name, typeName[T](), index.Len(), value.Len())
	}
	if offsets.Len() != index.Len()+1 {
		return fmt.Errorf("algo: %s[%s]: %d offsets for %d segments: want %d", name, typeName[T](), offsets.Len(), index.Len(), index.Len()+1)
	}
	if err := s.Call(nop, offsets, index); err != nil {
		return fmt.Errorf("algo: %s: %w", name, err)
	}
	if err := check(a, name, s, in, value, value.Len(), nil); err != nil {
		return err
	}
	t := typeName[T]()
	for _, st := range planSegmented(policyOf[T](a), op, index.Len()).steps {
		cfg := st.config(s)
		f, ok := a.fns[st.kernel+"/"+t].(func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[int32], T) error)
		err := fmt.Errorf("no kernel %s for %s", st.kernel, t)
		if ok {
			err = f(cfg, in, index, value, offsets, empty)
		}
		if err != nil {
			return fmt.Errorf("algo: %s[%s]: %s: %w", name, t, st.kernel, err)
		}
	}
	return nil
}

func segmented[T Number](a *Lib, op string, s *cuda.Stream, in *cuda.Buffer[T], offsets *cuda.Buffer[int32], out *cuda.Buffer[T], init T) error {
	name := "Segmented" + op
	if s == nil {
		return fmt.Errorf("algo: %s: %w", name, errNilStream)
	}
	if in == nil || out == nil || offsets == nil {
		return fmt.Errorf("algo: %s: %w", name, errNilBuffer)
	}
	if offsets.Len() != out.Len()+1 {
		return fmt.Errorf("algo: %s[%s]: %d offsets for %d segments: want %d", name, typeName[T](), offsets.Len(), out.Len(), out.Len()+1)
	}
	if err := s.Call(nop, offsets); err != nil {
		return fmt.Errorf("algo: %s: %w", name, err)
	}
	if err := check(a, name, s, in, out, out.Len(), nil); err != nil {
		return err
	}
	t := typeName[T]()
	for _, st := range planSegmented(policyOf[T](a), op, out.Len()).steps {
		cfg := st.config(s)
		f, ok := a.fns[st.kernel+"/"+t].(func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], T) error)
		err := fmt.Errorf("no kernel %s for %s", st.kernel, t)
		if ok {
			err = f(cfg, in, out, offsets, init)
		}
		if err != nil {
			return fmt.Errorf("algo: %s[%s]: %s: %w", name, t, st.kernel, err)
		}
	}
	return nil
}
