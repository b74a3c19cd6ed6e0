package algo

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cugen/cugen/cuda"
)

// TestStableOrder: the sorts' reference, stableOrder, orders positions as
// a stable sort by CUB's key order does (slices.SortStableFunc comparing
// sortBits), ascending and descending, over the GPU tests' data (NaNs,
// infinities, both zeros, duplicates) of every type, and over a
// permutation of the positions as the segmented sorts pass them.
func TestStableOrder(t *testing.T) {
	stableOrderOf[int8](t)
	stableOrderOf[uint8](t)
	stableOrderOf[int16](t)
	stableOrderOf[uint16](t)
	stableOrderOf[int32](t)
	stableOrderOf[uint32](t)
	stableOrderOf[int64](t)
	stableOrderOf[uint64](t)
	stableOrderOf[float32](t)
	stableOrderOf[float64](t)
	stableOrderOf[cuda.Float16](t)
	stableOrderOf[cuda.BFloat16](t)
}

func stableOrderOf[T Number](t *testing.T) {
	r := rand.New(rand.NewPCG(3, uint64(sizeOf[T]())))
	for _, n := range []int{0, 1, 2, 17, 1000, 4099} {
		host := data[T](r, n)
		idx := make([]int32, n)
		for i := range idx {
			idx[i] = int32(i)
		}
		r.Shuffle(n, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		for _, desc := range []bool{false, true} {
			want := slices.Clone(idx)
			slices.SortStableFunc(want, func(i, j int32) int {
				c := cmp.Compare(sortBits(host[i]), sortBits(host[j]))
				if desc {
					c = -c
				}
				return c
			})
			got := slices.Clone(idx)
			stableOrder(got, host, desc)
			if i := firstDiff(got, want, func(a, b int32) bool { return a == b }); i >= 0 {
				t.Fatalf("%s n=%d desc=%v: [%d] = %d, want %d", typeName[T](), n, desc, i, got[i], want[i])
			}
		}
	}
}

// TestSplitmix64: benchKeys' generator is SplitMix64, whose first output
// for seed 0 is 0xe220a8397b1dcdaf (cubbench.cu and pybench.py compute the
// same numbers: the three benchmarks must sort the same keys).
func TestSplitmix64(t *testing.T) {
	for i, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		if got := splitmix64(uint64(i)); got != want {
			t.Errorf("splitmix64(%d) = %#x, want %#x", i, got, want)
		}
	}
}
