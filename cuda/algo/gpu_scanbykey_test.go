package algo

// GPU tests of InclusiveSumByKey and ExclusiveSumByKey against a Go loop;
// they skip without a device (CUGEN_REQUIRE_GPU=1: fail instead).

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cugen/cugen/cuda"
)

func TestGPUScanByKey(t *testing.T) {
	ctx, a, s := gpuLib(t)
	eachType(t, ctx, a, s, wideNames, gpuScanByKey[int32], gpuScanByKey[uint32], gpuScanByKey[int64], gpuScanByKey[uint64], gpuScanByKey[float32], gpuScanByKey[float64])
}

// keyRuns is n int32 keys in runs of 1 to 8, some of thousands (across
// tiles), of 4 values: neighbouring runs may have the same key, and are
// then one run.
func keyRuns(r *rand.Rand, n int) []int32 {
	keys := make([]int32, 0, n)
	for len(keys) < n {
		l := 1 + r.IntN(8)
		if r.IntN(64) == 0 {
			l = 1 + r.IntN(10_000)
		}
		k := int32(r.IntN(4))
		for range min(l, n-len(keys)) {
			keys = append(keys, k)
		}
	}
	return keys
}

// The sums by key at every size, against a loop that starts again where
// the key changes; floats compared as gpuScan does, and the inclusive sum
// in place.
func gpuScanByKey[T Wide](t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream) {
	r := rand.New(rand.NewPCG(10, uint64(sizeOf[T]())))
	for _, n := range selectSizes[T]() {
		host := data[T](r, n)
		k := keyRuns(r, n)
		incl, excl, mags := make([]T, n), make([]T, n), make([]float64, n)
		var acc T
		mag := 0.0
		for i, v := range host {
			if i == 0 || k[i] != k[i-1] {
				acc, mag = 0, 0
			}
			excl[i] = acc
			acc += v
			incl[i] = acc
			mag += math.Abs(float64(v))
			mags[i] = mag
		}
		keys := must(cuda.AllocFrom(ctx, k))(t)
		in := must(cuda.AllocFrom(ctx, host))(t)
		out := must(cuda.Alloc[T](ctx, n))(t)
		for _, c := range []struct {
			name string
			f    func(*Lib, *cuda.Stream, *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[T]) error
			want []T
		}{{"InclusiveSumByKey", InclusiveSumByKey[T], incl}, {"ExclusiveSumByKey", ExclusiveSumByKey[T], excl}} {
			name := fmt.Sprintf("%s n=%d", c.name, n)
			if err := c.f(a, s, keys, in, out); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := result(t, s, out)
			bad := 0
			for i := range got {
				if got[i] != c.want[i] && !(!exact[T](n) && near(got[i], c.want[i], mags[i])) {
					if bad++; bad <= 3 {
						t.Errorf("%s: [%d] = %v, want %v (key %d)", name, i, got[i], c.want[i], k[i])
					}
				}
			}
		}
		if n > 0 && n <= 1<<20 {
			if err := InclusiveSumByKey(a, s, keys, in, in); err != nil {
				t.Fatal(err)
			}
			got := result(t, s, in)
			for i := range got {
				if got[i] != incl[i] {
					t.Errorf("InclusiveSumByKey in place n=%d: [%d] = %v, want %v", n, i, got[i], incl[i])
					break
				}
			}
		}
		keys.Close()
		in.Close()
		out.Close()
	}
}
