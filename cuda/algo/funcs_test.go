package algo

import (
	"reflect"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/algo/internal/cubk"
)

// Every kernel a plan names has, for every type, the launch func of the
// signature run.go calls it through: a kernel renamed or a parameter
// changed in cub.cu fails here, not at a GPU's first launch.
func TestLaunchFuncs(t *testing.T) {
	fns := launchFuncs(&cubk.Kernels{})
	n := 0
	n += launchFuncsOf[int32](t, fns, true, true, true)
	n += launchFuncsOf[uint32](t, fns, true, true, true)
	n += launchFuncsOf[int64](t, fns, true, true, true)
	n += launchFuncsOf[uint64](t, fns, true, true, true)
	n += launchFuncsOf[float32](t, fns, true, true, true)
	n += launchFuncsOf[float64](t, fns, true, true, true)
	n += launchFuncsOf[int8](t, fns, false, false, true)
	n += launchFuncsOf[uint8](t, fns, false, false, true)
	n += launchFuncsOf[int16](t, fns, false, false, true)
	n += launchFuncsOf[uint16](t, fns, false, false, true)
	n += launchFuncsOf[cuda.Float16](t, fns, true, false, false)
	n += launchFuncsOf[cuda.BFloat16](t, fns, true, false, false)
	if len(fns) != n {
		t.Errorf("%d launch funcs found, %d expected", len(fns), n)
	}
}

// launchFuncsOf checks T's launch funcs: every type's, those of the sums
// and scans for summands, of the select, run-length encode and scan by key
// for wide types, and the histogram's for samples; the number it expects.
func launchFuncsOf[T Number](t *testing.T, fns map[string]any, sum, wide, sample bool) int {
	type (
		tiles     = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], int32) error
		single    = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], int32, T) error
		argTiles  = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[byte], int32) error
		argSingle = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[T], int32, T) error
		argParts  = func(cuda.Config, *cuda.Buffer[byte], *cuda.Buffer[int32], *cuda.Buffer[T], int32, T) error
		scanInit  = func(cuda.Config, *cuda.Buffer[byte], int32) error
		incl      = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[byte], int32, int32, int32) error
		excl      = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[byte], int32, int32, int32, T) error
		hist      = func(cuda.Config, *cuda.Buffer[int32], *cuda.Buffer[T], int32, int32, int32) error
		keys      = func(cuda.Config, *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[T], int32, int32, int32) error
		pairs     = func(cuda.Config, *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, int32, int32) error
		unique    = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[byte], int32, int32) error
		selIf     = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[byte], int32, int32, int32, T, T) error
		flagged   = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[uint8], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[byte], int32, int32) error
		rle       = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[byte], int32, int32, int32) error
		histEven  = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, T, T, T, T, int32, int32) error
		histRange = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, *cuda.Buffer[T], int32, int32) error
		sbkInit   = func(cuda.Config, *cuda.Buffer[byte], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, int32) error
		sbkIncl   = func(cuda.Config, *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[byte], int32, int32) error
		sbkExcl   = func(cuda.Config, *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[byte], int32, int32, T) error
		segment   = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], T) error
		segArg    = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[int32], T) error
		segKeys   = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, int32) error
		segPairs  = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, int32) error
	)
	want := map[string]any{
		"reduceMinTiles": tiles(nil), "reduceMinSingle": single(nil),
		"reduceMaxTiles": tiles(nil), "reduceMaxSingle": single(nil),
		"argMinTiles": argTiles(nil), "argMinSingle": argSingle(nil), "argMinPartials": argParts(nil),
		"argMaxTiles": argTiles(nil), "argMaxSingle": argSingle(nil), "argMaxPartials": argParts(nil),
		"sortHistogramAsc": hist(nil), "sortHistogramDesc": hist(nil),
		"sortKeysAsc": keys(nil), "sortKeysDesc": keys(nil), "sortPairsAsc": pairs(nil), "sortPairsDesc": pairs(nil),
		"segmentedMin": segment(nil), "segmentedMax": segment(nil),
		"segmentedArgMin": segArg(nil), "segmentedArgMax": segArg(nil),
	}
	if sum {
		for k, f := range map[string]any{
			"reduceSumTiles": tiles(nil), "reduceSumSingle": single(nil),
			"scanInit": scanInit(nil), "scanInclusiveSum": incl(nil), "scanExclusiveSum": excl(nil),
			"segmentedSum": segment(nil),
		} {
			want[k] = f
		}
	}
	if wide {
		for k, f := range map[string]any{
			"selectUnique": unique(nil), "selectIf": selIf(nil), "partitionIf": selIf(nil), "selectFlagged": flagged(nil), "partitionFlagged": flagged(nil), "rleEncode": rle(nil),
			"scanByKeyInit": sbkInit(nil), "scanByKeyInclusiveSum": sbkIncl(nil), "scanByKeyExclusiveSum": sbkExcl(nil),
			"segmentedSortKeysAsc": segKeys(nil), "segmentedSortKeysAscAlt": segKeys(nil),
			"segmentedSortKeysDesc": segKeys(nil), "segmentedSortKeysDescAlt": segKeys(nil),
			"segmentedSortPairsAsc": segPairs(nil), "segmentedSortPairsAscAlt": segPairs(nil),
			"segmentedSortPairsDesc": segPairs(nil), "segmentedSortPairsDescAlt": segPairs(nil),
		} {
			want[k] = f
		}
	}
	if sample {
		for k, f := range map[string]any{
			"histogramEvenSmem": histEven(nil), "histogramEvenGmem": histEven(nil),
			"histogramRangeSmem": histRange(nil), "histogramRangeGmem": histRange(nil),
		} {
			want[k] = f
		}
	}
	for _, k := range kernelNames {
		if _, ok := want[k]; !ok {
			if f, ok := fns[k+"/"+typeName[T]()]; ok {
				t.Errorf("%s/%s: a launch func (%T) the package does not call", k, typeName[T](), f)
			}
		}
	}
	for k, w := range want {
		key := k + "/" + typeName[T]()
		if got, ok := fns[key]; !ok || reflect.TypeOf(got) != reflect.TypeOf(w) {
			t.Errorf("%s: %T (found %v), run.go calls %T", key, got, ok, w)
		}
	}
	return len(want)
}
