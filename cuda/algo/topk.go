package algo

import (
	"fmt"

	"github.com/cugen/cugen/cuda"
)

// TopK queues values = the k greatest elements of in, greatest first, and
// index = their positions in in, where k is values' length (index has the
// same; 0 <= k <= in's length). Equal elements come in their order in in,
// and floats are ordered as [SortKeysDescending] orders them: NaN (without
// its sign bit) first. in is only read.
//
// It is [Argsort] and a copy of the first k: a full radix sort of the
// pairs (in[i], i) into temporary storage of about 3 x in's length
// elements. CCCL 2.5's CUB, whose kernels this package runs, has no
// top-k of its own; a selection of k from n would read in fewer times
// when k is small, and is not done.
func TopK[T Number](a *Lib, s *cuda.Stream, in, values *cuda.Buffer[T], index *cuda.Buffer[int32]) error {
	return topK(a, "TopK", true, s, in, values, index)
}

// BottomK is [TopK] for the k least elements, least first (-NaN first,
// as [SortKeys] orders).
func BottomK[T Number](a *Lib, s *cuda.Stream, in, values *cuda.Buffer[T], index *cuda.Buffer[int32]) error {
	return topK(a, "BottomK", false, s, in, values, index)
}

func topK[T Number](a *Lib, op string, desc bool, s *cuda.Stream, in, values *cuda.Buffer[T], index *cuda.Buffer[int32]) error {
	if in == nil || values == nil || index == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilBuffer)
	}
	k, n := values.Len(), in.Len()
	if index.Len() != k {
		return fmt.Errorf("algo: %s[%s]: %d values and %d indices: want the same k", op, typeName[T](), k, index.Len())
	}
	if k > n {
		return fmt.Errorf("algo: %s[%s]: k = %d of %d elements", op, typeName[T](), k, n)
	}
	if err := s.Call(nop, index); err != nil {
		return fmt.Errorf("algo: %s: %w", op, err)
	}
	if err := check(a, op, s, in, values, k, nil); err != nil {
		return err
	}
	if k == 0 {
		return nil
	}
	fail := func(err error) error { return fmt.Errorf("algo: %s[%s]: %w", op, typeName[T](), err) }
	keys, err := allocTemp[T](a, s, op, n)
	if err != nil {
		return err
	}
	defer keys.Close()
	pos, err := allocTemp[int32](a, s, op, n)
	if err != nil {
		return err
	}
	defer pos.Close()
	order, err := allocTemp[int32](a, s, op, n)
	if err != nil {
		return err
	}
	defer order.Close()
	// pos = 0, 1, ..., n-1: the exclusive sums of ones (order holds them)
	if err := order.FillAsync(s, 1); err != nil {
		return fail(err)
	}
	if err := ExclusiveSum(a, s, order, pos); err != nil {
		return err
	}
	if err := radixSort(a, op, desc, true, s, in, keys, pos, order); err != nil {
		return err
	}
	if err := values.CopyFromBufferAsync(s, keys.Slice(0, k)); err != nil {
		return fail(err)
	}
	if err := index.CopyFromBufferAsync(s, order.Slice(0, k)); err != nil {
		return fail(err)
	}
	return nil
}
