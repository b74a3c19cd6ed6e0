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
	n += launchFuncsOf[int32](t, fns)
	n += launchFuncsOf[uint32](t, fns)
	n += launchFuncsOf[int64](t, fns)
	n += launchFuncsOf[uint64](t, fns)
	n += launchFuncsOf[float32](t, fns)
	n += launchFuncsOf[float64](t, fns)
	if len(fns) != n {
		t.Errorf("%d launch funcs found, %d expected", len(fns), n)
	}
}

func launchFuncsOf[T Number](t *testing.T, fns map[string]any) int {
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
		flagged   = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[uint8], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[byte], int32, int32) error
		rle       = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[byte], int32, int32, int32) error
		histEven  = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, T, T, T, T, int32, int32) error
		histRange = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, *cuda.Buffer[T], int32, int32) error
		sbkInit   = func(cuda.Config, *cuda.Buffer[byte], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, int32) error
		sbkIncl   = func(cuda.Config, *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[byte], int32, int32) error
		sbkExcl   = func(cuda.Config, *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[byte], int32, int32, T) error
		segment   = func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[int32], T) error
	)
	want := map[string]any{
		"reduceSumTiles": tiles(nil), "reduceSumSingle": single(nil),
		"reduceMinTiles": tiles(nil), "reduceMinSingle": single(nil),
		"reduceMaxTiles": tiles(nil), "reduceMaxSingle": single(nil),
		"argMinTiles": argTiles(nil), "argMinSingle": argSingle(nil), "argMinPartials": argParts(nil),
		"argMaxTiles": argTiles(nil), "argMaxSingle": argSingle(nil), "argMaxPartials": argParts(nil),
		"scanInit": scanInit(nil), "scanInclusiveSum": incl(nil), "scanExclusiveSum": excl(nil),
		"sortHistogramAsc": hist(nil), "sortHistogramDesc": hist(nil),
		"sortKeysAsc": keys(nil), "sortKeysDesc": keys(nil), "sortPairsAsc": pairs(nil), "sortPairsDesc": pairs(nil),
		"selectUnique": unique(nil), "selectFlagged": flagged(nil), "partitionFlagged": flagged(nil), "rleEncode": rle(nil),
		"histogramEvenSmem": histEven(nil), "histogramEvenGmem": histEven(nil),
		"histogramRangeSmem": histRange(nil), "histogramRangeGmem": histRange(nil),
		"scanByKeyInit": sbkInit(nil), "scanByKeyInclusiveSum": sbkIncl(nil), "scanByKeyExclusiveSum": sbkExcl(nil),
		"segmentedSum": segment(nil), "segmentedMin": segment(nil), "segmentedMax": segment(nil),
	}
	for k, w := range want {
		key := k + "/" + typeName[T]()
		if got, ok := fns[key]; !ok || reflect.TypeOf(got) != reflect.TypeOf(w) {
			t.Errorf("%s: %T (found %v), run.go calls %T", key, got, ok, w)
		}
	}
	return len(want)
}
