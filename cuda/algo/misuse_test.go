package algo

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cugentest/standin"
)

// On the stand-in driver (no kernels: the Lib is nil, checked last), every
// misuse is refused with its own error before anything is allocated or
// queued: the stand-in counts no cuMemAllocAsync.
func TestMisuse(t *testing.T) {
	if !standin.Run(t, standin.Majors{}) {
		return
	}
	ctx := standin.Must(cuda.NewContext(0))(t)
	defer ctx.Close()
	s := standin.Must(ctx.NewStream())(t)
	in := standin.Must(cuda.Alloc[float32](ctx, 10))(t)
	out1 := standin.Must(cuda.Alloc[float32](ctx, 1))(t)
	out2 := standin.Must(cuda.Alloc[float32](ctx, 2))(t)
	out10 := standin.Must(cuda.Alloc[float32](ctx, 10))(t)
	closed := standin.Must(cuda.Alloc[float32](ctx, 10))(t)
	closed.Close()
	idx1 := standin.Must(cuda.Alloc[int32](ctx, 1))(t)
	v10 := standin.Must(cuda.Alloc[int32](ctx, 10))(t)
	idx2 := standin.Must(cuda.Alloc[int32](ctx, 2))(t)
	idxClosed := standin.Must(cuda.Alloc[int32](ctx, 1))(t)
	idxClosed.Close()
	closedS := standin.Must(ctx.NewStream())(t)
	closedS.Close()
	i64 := standin.Must(cuda.Alloc[int64](ctx, 10))(t)
	big := standin.Must(cuda.Alloc[int32](ctx, 1<<24+1))(t)
	flags10 := standin.Must(cuda.Alloc[uint8](ctx, 10))(t)
	flags2 := standin.Must(cuda.Alloc[uint8](ctx, 2))(t)
	flagsClosed := standin.Must(cuda.Alloc[uint8](ctx, 10))(t)
	flagsClosed.Close()
	h10 := standin.Must(cuda.Alloc[cuda.Float16](ctx, 10))(t)
	h2 := standin.Must(cuda.Alloc[cuda.Float16](ctx, 2))(t)
	b1 := standin.Must(cuda.Alloc[cuda.BFloat16](ctx, 1))(t)
	i8 := standin.Must(cuda.Alloc[int8](ctx, 10))(t)
	u16 := standin.Must(cuda.Alloc[uint16](ctx, 10))(t)

	refuseAll(t, []misuse{
		{"nil stream", func() error { return Sum(nil, nil, in, out1) }, "algo: Sum: algo: nil *cuda.Stream", nil},
		{"nil input", func() error { return Min(nil, s, nil, out1) }, "algo: Min: algo: nil buffer", nil},
		{"reduce output of 2", func() error { return Max(nil, s, in, out2) }, "algo: Max[float32]: the output has 2 elements for 10: want 1", nil},
		{"scan output of 2", func() error { return InclusiveSum(nil, s, in, out2) }, "algo: InclusiveSum[float32]: the output has 2 elements for 10: want 10", nil},
		{"closed input", func() error { return ExclusiveSum(nil, s, closed, out10) }, "algo: ExclusiveSum: ", cuda.ErrFreed},
		{"closed output", func() error { return Sum(nil, s, in, closed.Slice(0, 1)) }, "algo: Sum: ", cuda.ErrFreed},
		{"closed stream", func() error { return InclusiveSum(nil, closedS, in, out10) }, "algo: InclusiveSum: ", cuda.ErrFreed},
		{"nil index", func() error { return ArgMin(nil, s, in, nil, out1) }, "algo: ArgMin: algo: nil buffer", nil},
		{"index of 2", func() error { return ArgMax(nil, s, in, idx2, out1) }, "algo: ArgMax[float32]: the index has 2 elements: want 1", nil},
		{"closed index", func() error { return ArgMax(nil, s, in, idxClosed, out1) }, "algo: ArgMax: ", cuda.ErrFreed},
		{"sort output of 2", func() error { return SortKeys(nil, s, in, out2) }, "algo: SortKeys[float32]: the output has 2 elements for 10: want 10", nil},
		{"nil values", func() error { return SortPairs(nil, s, in, out10, nil, v10) }, "algo: SortPairs: algo: nil buffer", nil},
		{"values of 2", func() error { return SortPairsDescending(nil, s, in, out10, v10, idx2) }, "algo: SortPairsDescending[float32]: values of 10 and 2 elements for 10 keys", nil},
		{"argsort index of 2", func() error { return Argsort(nil, s, in, idx2, false) }, "algo: Argsort[float32]: the index has 2 elements for 10", nil},
		{"top-k values and index differ", func() error { return TopK(nil, s, in, out2, idx1) }, "algo: TopK[float32]: 2 values and 1 indices: want the same k", nil},
		{"top-k of more than n", func() error { return BottomK(nil, s, out2, out10, v10) }, "algo: BottomK[float32]: k = 10 of 2 elements", nil},
		{"top-k nil index", func() error { return TopK(nil, s, in, out2, nil) }, "algo: TopK: algo: nil buffer", nil},
		{"top-k closed index", func() error { return TopK(nil, s, in, out1, idxClosed) }, "algo: TopK: ", cuda.ErrFreed},
		{"top-k closed input", func() error { return TopK(nil, s, closed, out1, idx1) }, "algo: TopK: ", cuda.ErrFreed},
		// Was: refused as "nil buffer", whatever its arguments: check took
		// any operation named Arg... for ArgMin or ArgMax, which need an
		// index of 1, and Argsort passed none (its index is checked apart).
		{"nil Lib, argsort", func() error { return Argsort(nil, s, in, v10, false) }, "algo: Argsort: algo: nil *Lib", nil},
		{"nil Lib, top-k", func() error { return TopK(nil, s, in, out1, idx1) }, "algo: TopK: algo: nil *Lib", nil},
		{"nil Lib", func() error { return Sum(nil, s, in, out1) }, "algo: Sum: algo: nil *Lib", nil},
		{"select nil stream", func() error { return SelectFlagged(nil, nil, in, flags10, out10, idx1) }, "algo: SelectFlagged: algo: nil *cuda.Stream", nil},
		{"select-if unknown comparison", func() error { return SelectIf(nil, s, in, Where[float32]{Op: 8}, out10, idx1) }, "algo: SelectIf[float32]: Cmp(8) is not a comparison (Less to NotNaN)", nil},
		{"select-if output of 2", func() error { return SelectIf(nil, s, in, Where[float32]{Op: Less}, out2, idx1) }, "algo: SelectIf[float32]: the output has 2 elements for 10: want 10", nil},
		{"select-if closed input", func() error { return SelectIf(nil, s, closed, Where[float32]{Op: NotNaN}, out10, idx1) }, "algo: SelectIf: ", cuda.ErrFreed},
		{"partition-if in place", func() error { return PartitionIf(nil, s, in, Where[float32]{Op: Less}, in, idx1) }, "algo: PartitionIf[float32]: out overlaps in", nil},
		{"partition-if unknown comparison", func() error { return PartitionIf(nil, s, in, Where[float32]{Op: -1}, out10, idx1) }, "algo: PartitionIf[float32]: Cmp(-1) is not a comparison (Less to NotNaN)", nil},
		{"nil Lib, partition-if", func() error { return PartitionIf(nil, s, in, Where[float32]{Op: Less}, out10, idx1) }, "algo: PartitionIf: algo: nil *Lib", nil},
		{"nil Lib, select-if", func() error { return SelectIf(nil, s, in, Where[float32]{Op: InRange, A: 1, B: 2}, out10, idx1) }, "algo: SelectIf: algo: nil *Lib", nil},
		{"select nil flags", func() error { return SelectFlagged(nil, s, in, nil, out10, idx1) }, "algo: SelectFlagged: algo: nil buffer", nil},
		{"select nil count", func() error { return Unique(nil, s, in, out10, nil) }, "algo: Unique: algo: nil buffer", nil},
		{"select flags of 2", func() error { return PartitionFlagged(nil, s, in, flags2, out10, idx1) }, "algo: PartitionFlagged[float32]: the flags have 2 elements for 10: want 10", nil},
		{"select output of 2", func() error { return SelectFlagged(nil, s, in, flags10, out2, idx1) }, "algo: SelectFlagged[float32]: the output has 2 elements for 10: want 10", nil},
		{"select count of 2", func() error { return Unique(nil, s, in, out10, idx2) }, "algo: Unique[float32]: the count has 2 elements: want 1", nil},
		{"select closed flags", func() error { return SelectFlagged(nil, s, in, flagsClosed, out10, idx1) }, "algo: SelectFlagged: ", cuda.ErrFreed},
		{"select closed count", func() error { return Unique(nil, s, in, out10, idxClosed) }, "algo: Unique: ", cuda.ErrFreed},
		{"select closed input", func() error { return Unique(nil, s, closed, out10, idx1) }, "algo: Unique: ", cuda.ErrFreed},
		{"nil Lib, select", func() error { return SelectFlagged(nil, s, in, flags10, in, idx1) }, "algo: SelectFlagged: algo: nil *Lib", nil},
		{"partition in place", func() error { return PartitionFlagged(nil, s, in, flags10, in, idx1) }, "algo: PartitionFlagged[float32]: out overlaps in", nil},
		{"nil Lib, unique in place", func() error { return Unique(nil, s, in, in, idx1) }, "algo: Unique: algo: nil *Lib", nil},
		{"nil Lib, partition", func() error { return PartitionFlagged(nil, s, in, flags10, out10, idx1) }, "algo: PartitionFlagged: algo: nil *Lib", nil},
		{"rle nil stream", func() error { return RunLengthEncode(nil, nil, in, out10, v10, idx1) }, "algo: RunLengthEncode: algo: nil *cuda.Stream", nil},
		{"rle nil runs", func() error { return RunLengthEncode(nil, s, in, out10, v10, nil) }, "algo: RunLengthEncode: algo: nil buffer", nil},
		{"rle counts of 2", func() error { return RunLengthEncode(nil, s, in, out10, idx2, idx1) }, "algo: RunLengthEncode[float32]: the counts have 2 elements for 10: want 10", nil},
		{"rle unique of 2", func() error { return RunLengthEncode(nil, s, in, out2, v10, idx1) }, "algo: RunLengthEncode[float32]: the output has 2 elements for 10: want 10", nil},
		{"rle runs of 2", func() error { return RunLengthEncode(nil, s, in, out10, v10, idx2) }, "algo: RunLengthEncode[float32]: the run count has 2 elements: want 1", nil},
		{"rle closed runs", func() error { return RunLengthEncode(nil, s, in, out10, v10, idxClosed) }, "algo: RunLengthEncode: ", cuda.ErrFreed},
		{"partition in place", func() error { return PartitionFlagged(nil, s, in, flags10, in, idx1) }, "algo: PartitionFlagged[float32]: out overlaps in", nil},
		{"partition overlapping", func() error {
			return PartitionFlagged(nil, s, out10.Slice(0, 8), flags10.Slice(0, 8), out10.Slice(2, 10), idx1)
		}, "algo: PartitionFlagged[float32]: out overlaps in", nil},
		{"select overlapping", func() error { return Unique(nil, s, out10.Slice(0, 8), out10.Slice(1, 9), idx1) }, "algo: Unique[float32]: out overlaps in but is not in itself", nil},
		{"scan by key overlapping", func() error { return InclusiveSumByKey(nil, s, idx2, out10.Slice(2, 4), out10.Slice(3, 5)) }, "algo: InclusiveSumByKey[float32]: out overlaps in but is not in itself", nil},
		{"rle in place", func() error { return RunLengthEncode(nil, s, in, in, v10, idx1) }, "algo: RunLengthEncode[float32]: unique overlaps in", nil},
		{"histogram nil stream", func() error { return HistogramEven(nil, nil, in, v10, 0, 1) }, "algo: HistogramEven: algo: nil *cuda.Stream", nil},
		{"histogram nil hist", func() error { return HistogramEven(nil, s, in, nil, 0, 1) }, "algo: HistogramEven: algo: nil buffer", nil},
		{"histogram no bins", func() error { return HistogramEven(nil, s, in, v10.Slice(0, 0), 0, 1) }, "algo: HistogramEven[float32]: a histogram of 0 bins: want 1 to 2147483646", nil},
		{"histogram empty range", func() error { return HistogramEven(nil, s, in, v10, 1, 1) }, "algo: HistogramEven[float32]: bounds [1, 1): want finite lower < upper", nil},
		{"histogram NaN bound", func() error { return HistogramEven(nil, s, in, v10, float32(math.NaN()), 1) }, "algo: HistogramEven[float32]: bounds [NaN, 1): want finite lower < upper", nil},
		{"histogram infinite bound", func() error { return HistogramEven(nil, s, in, v10, 0, float32(math.Inf(1))) }, "algo: HistogramEven[float32]: bounds [0, +Inf): want finite lower < upper", nil},
		{"histogram int64 overflow", func() error { return HistogramEven(nil, s, i64, v10, math.MinInt64, math.MaxInt64) }, "algo: HistogramEven[int64]: (9223372036854775807 - -9223372036854775808) x 10 bins overflows 64 bits (CUB refuses it)", nil},
		{"histogram int32 overflow", func() error { return HistogramEven(nil, s, v10, idx2, math.MinInt32, math.MaxInt32) }, "algo: HistogramEven[int32]: (2147483647 - -2147483648) x 2 bins overflows 64 bits (CUB refuses it)", nil},
		{"histogram closed hist", func() error { return HistogramEven(nil, s, in, idxClosed, 0, 1) }, "algo: HistogramEven: ", cuda.ErrFreed},
		{"nil Lib, histogram", func() error { return HistogramEven(nil, s, in, v10, 0, 1) }, "algo: HistogramEven: algo: nil *Lib", nil},
		{"histogram float32 bins past 2^24", func() error { return HistogramEven(nil, s, in, big, 0, 1) }, "algo: HistogramEven[float32]: a histogram of 16777217 bins: CUB passes bin numbers through float32, exact up to 2^24", nil},
		{"histogram nil levels", func() error { return HistogramRange(nil, s, in, nil, v10) }, "algo: HistogramRange: algo: nil buffer", nil},
		{"histogram levels of 10", func() error { return HistogramRange(nil, s, in, out10, v10) }, "algo: HistogramRange[float32]: 10 levels for 10 bins: want 11", nil},
		{"histogram closed levels", func() error { return HistogramRange(nil, s, in, closed.Slice(0, 3), idx2) }, "algo: HistogramRange: ", cuda.ErrFreed},
		{"nil Lib, histogram range", func() error { return HistogramRange(nil, s, in, out10.Slice(0, 3), idx2) }, "algo: HistogramRange: algo: nil *Lib", nil},
		{"scan by key nil keys", func() error { return InclusiveSumByKey(nil, s, nil, in, out10) }, "algo: InclusiveSumByKey: algo: nil buffer", nil},
		{"scan by key keys of 2", func() error { return ExclusiveSumByKey(nil, s, idx2, in, out10) }, "algo: ExclusiveSumByKey[float32]: the keys have 2 elements for 10: want 10", nil},
		{"scan by key output of 2", func() error { return InclusiveSumByKey(nil, s, v10, in, out2) }, "algo: InclusiveSumByKey[float32]: the output has 2 elements for 10: want 10", nil},
		{"scan by key closed keys", func() error { return InclusiveSumByKey(nil, s, idxClosed, in.Slice(0, 1), out1) }, "algo: InclusiveSumByKey: ", cuda.ErrFreed},
		{"nil Lib, scan by key", func() error { return InclusiveSumByKey(nil, s, v10, in, out10) }, "algo: InclusiveSumByKey: algo: nil *Lib", nil},
		{"segmented nil stream", func() error { return SegmentedSum(nil, nil, in, idx2, out1) }, "algo: SegmentedSum: algo: nil *cuda.Stream", nil},
		{"segmented nil offsets", func() error { return SegmentedMin(nil, s, in, nil, out1) }, "algo: SegmentedMin: algo: nil buffer", nil},
		{"segmented offsets of 1", func() error { return SegmentedMax(nil, s, in, idx1, out1) }, "algo: SegmentedMax[float32]: 1 offsets for 1 segments: want 2", nil},
		{"segmented closed output", func() error { return SegmentedSum(nil, s, in, idx2, closed.Slice(0, 1)) }, "algo: SegmentedSum: ", cuda.ErrFreed},
		{"nil Lib, segmented", func() error { return SegmentedSum(nil, s, in, idx2, out1) }, "algo: SegmentedSum: algo: nil *Lib", nil},
		{"segmented arg nil index", func() error { return SegmentedArgMin(nil, s, in, idx2, nil, out1) }, "algo: SegmentedArgMin: algo: nil buffer", nil},
		{"segmented arg index and values differ", func() error { return SegmentedArgMax(nil, s, in, idx2, idx1, out2) }, "algo: SegmentedArgMax[float32]: 1 indices and 2 values: want one of each a segment", nil},
		{"segmented arg offsets of 1", func() error { return SegmentedArgMin(nil, s, in, idx1, idx1, out1) }, "algo: SegmentedArgMin[float32]: 1 offsets for 1 segments: want 2", nil},
		{"segmented arg closed index", func() error { return SegmentedArgMin(nil, s, in, idx2, idxClosed, out1) }, "algo: SegmentedArgMin: ", cuda.ErrFreed},
		{"nil Lib, segmented arg", func() error { return SegmentedArgMax(nil, s, in, idx2, idx1, out1) }, "algo: SegmentedArgMax: algo: nil *Lib", nil},
		{"nil Lib, rle", func() error { return RunLengthEncode(nil, s, in, out10, v10, idx1) }, "algo: RunLengthEncode: algo: nil *Lib", nil},
		{"nil Lib, sort", func() error { return SortKeys(nil, s, in, out10) }, "algo: SortKeys: algo: nil *Lib", nil},
		{"nil Lib, arg", func() error { return ArgMin(nil, s, in, idx1, out1) }, "algo: ArgMin: algo: nil *Lib", nil},
		{"float16 reduce output of 2", func() error { return Sum(nil, s, h10, h2) }, "algo: Sum[float16]: the output has 2 elements for 10: want 1", nil},
		{"float16 sort output of 2", func() error { return SortKeys(nil, s, h10, h2) }, "algo: SortKeys[float16]: the output has 2 elements for 10: want 10", nil},
		{"bfloat16 arg index of 2", func() error { return ArgMax(nil, s, b1, idx2, b1) }, "algo: ArgMax[bfloat16]: the index has 2 elements: want 1", nil},
		{"float16 scan output of 2", func() error { return InclusiveSum(nil, s, h10, h2) }, "algo: InclusiveSum[float16]: the output has 2 elements for 10: want 10", nil},
		{"int8 min output of 2", func() error { return Min(nil, s, i8, i8.Slice(0, 2)) }, "algo: Min[int8]: the output has 2 elements for 10: want 1", nil},
		{"uint16 segmented offsets of 1", func() error { return SegmentedMin(nil, s, u16, idx1, u16.Slice(0, 1)) }, "algo: SegmentedMin[uint16]: 1 offsets for 1 segments: want 2", nil},
		{"nil Lib, float16 top-k", func() error { return TopK(nil, s, h10, h2, idx2) }, "algo: TopK: algo: nil *Lib", nil},
		// 8- and 16-bit samples: CUB's 32-bit bin arithmetic, on their
		// difference promoted to int (int8's full range is no overflow)
		{"nil Lib, histogram int8 full range", func() error { return HistogramEven(nil, s, i8, v10, math.MinInt8, math.MaxInt8) }, "algo: HistogramEven: algo: nil *Lib", nil},
		{"histogram uint16 overflow", func() error { return HistogramEven(nil, s, u16, big, 0, math.MaxUint16) }, "algo: HistogramEven[uint16]: (65535 - 0) x 16777217 bins overflows 32 bits (CUB refuses it)", nil},
		{"nil Lib, histogram range uint16", func() error { return HistogramRange(nil, s, u16, u16.Slice(0, 3), idx2) }, "algo: HistogramRange: algo: nil *Lib", nil},
	})
}

// misuse is a call the stand-in driver must see refused: its error
// contains want and, with is, matches it.
type misuse struct {
	name string
	call func() error
	want string
	is   error
}

// refuseAll makes each call and fails the test for one whose error is
// not its own, or when any of them allocated (the stand-in counts
// cuMemAllocAsync): a refusal comes before anything is queued.
func refuseAll(t *testing.T, cases []misuse) {
	t.Helper()
	for _, c := range cases {
		err := c.call()
		if err == nil || !strings.Contains(err.Error(), c.want) || c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: err = %v, want %q (is %v)", c.name, err, c.want, c.is)
		}
	}
	if n := standin.Count(t, cu.SharedLibrary(), "cuMemAllocAsync"); n != 0 {
		t.Errorf("%d cuMemAllocAsync calls: a refused call allocated", n)
	}
}
