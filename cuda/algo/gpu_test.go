package algo

// GPU tests: every algorithm and type against a Go reference. They skip
// without a device, and fail instead under CUGEN_REQUIRE_GPU=1. 2^28
// elements run unless -short (gpuSizes).

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cugentest"
)

func gpuLib(tb testing.TB) (*cuda.Context, *Lib, *cuda.Stream) {
	tb.Helper()
	ctx, err := cuda.NewContext(0)
	cugentest.NeedDevice(tb, err)
	tb.Cleanup(func() { ctx.Close() })
	a, err := Load(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { a.Close() })
	s, err := ctx.NewStream()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return ctx, a, s
}

// gpuTest is one algorithm's GPU test for one element type.
type gpuTest func(t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream)

// The names of the element types of Wide, Sample, Summand and Number, in
// the order eachType takes their tests.
var (
	wideNames   = []string{"int32", "uint32", "int64", "uint64", "float32", "float64"}
	sampleNames = append(wideNames[:6:6], "int8", "uint8", "int16", "uint16")
	sumNames    = append(wideNames[:6:6], "float16", "bfloat16")
	numberNames = append(sampleNames[:10:10], "float16", "bfloat16")
)

// eachType runs an algorithm's test for each element type it takes,
// names[i]'s test being fs[i], as subtests named after the type.
func eachType(t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream, names []string, fs ...gpuTest) {
	if len(fs) != len(names) {
		t.Fatalf("eachType: %d tests for %d types", len(fs), len(names))
	}
	for i, f := range fs {
		t.Run(names[i], func(t *testing.T) { f(t, ctx, a, s) })
	}
}

// isHalf is whether T is cuda.Float16 or cuda.BFloat16.
func isHalf[T Number]() bool {
	switch any(*new(T)).(type) {
	case cuda.Float16, cuda.BFloat16:
		return true
	}
	return false
}

// f64 is v's value (a half type's, not its bits).
func f64[T Number](v T) float64 {
	switch x := any(v).(type) {
	case cuda.Float16:
		return float64(x.Float32())
	case cuda.BFloat16:
		return float64(x.Float32())
	}
	return float64(v)
}

// of is f as a T, rounded to the nearest (half types: from float32).
func of[T Number](f float64) T {
	var v any
	switch any(*new(T)).(type) {
	case cuda.Float16:
		v = cuda.Float16Of(float32(f))
	case cuda.BFloat16:
		v = cuda.BFloat16Of(float32(f))
	default:
		return T(f)
	}
	return v.(T)
}

// less is a < b by value; add is a + b (half types: exact only where the
// sum is a half value, as sumData's sums are).
func less[T Number](a, b T) bool {
	if isHalf[T]() {
		return f64(a) < f64(b)
	}
	return a < b
}

func add[T Number](a, b T) T {
	if isHalf[T]() {
		return of[T](f64(a) + f64(b))
	}
	return a + b
}

func minOf[T Number](a, b T) T {
	if less(b, a) {
		return b
	}
	return a
}

func maxOf[T Number](a, b T) T {
	if less(a, b) {
		return b
	}
	return a
}

// gpuSizes are the element counts every algorithm is checked at for T: 0,
// 1, 2^k-1, 2^k, 2^k+1 around the tiles' sizes, 2^20, and 2^28 unless
// -short: for float32 and uint64 (a 4- and an 8-byte type), and for every
// type with CUGEN_ALGO_LARGE=1 (the host's references take most of a
// minute a type there, more than mk/gpu-run.sh's 240 s a binary allows).
func gpuSizes[T Number]() []int {
	n := []int{0, 1, 2, 3}
	for _, k := range []int{5, 8, 11, 12, 13, 16, 20} {
		n = append(n, 1<<k-1, 1<<k, 1<<k+1)
	}
	n = append(n, 3*4096+17, 100_003)
	ty := typeName[T]()
	if !testing.Short() && (ty == "float32" || ty == "uint64" || os.Getenv("CUGEN_ALGO_LARGE") == "1") {
		n = append(n, 1<<28)
	}
	return n
}

// data is n values of T: full-range integers (the sums wrap exactly as
// Go's), and small integral floats, whose sums are exact in any order up
// to 2^24 (float32) and 2^53 (float64) in magnitude; cuda.Float16 and
// cuda.BFloat16: eighths from -125 to 125 (rounded to BFloat16's 8 bits),
// whose sums are not exact (sumData's are).
func data[T Number](r *rand.Rand, n int) []T {
	out := make([]T, n)
	for i := range out {
		var v any
		switch any(*new(T)).(type) {
		case int8:
			v = int8(r.Uint32())
		case uint8:
			v = uint8(r.Uint32())
		case int16:
			v = int16(r.Uint32())
		case uint16:
			v = uint16(r.Uint32())
		case cuda.Float16:
			v = cuda.Float16Of(float32(r.IntN(2001)-1000) / 8)
		case cuda.BFloat16:
			v = cuda.BFloat16Of(float32(r.IntN(2001)-1000) / 8)
		case int32:
			v = int32(r.Uint32())
		case uint32:
			v = r.Uint32()
		case int64:
			v = int64(r.Uint64())
		case uint64:
			v = r.Uint64()
		case float32:
			v = float32(r.IntN(17) - 8)
		default:
			v = float64(r.IntN(2001) - 1000)
		}
		out[i] = v.(T)
	}
	return out
}

// sumData is data, but for cuda.Float16 and cuda.BFloat16 values whose
// sums are exact in any order in T's own precision (CUB's accumulator):
// zeros and at most 256 (BFloat16) or 2048 (Float16) ones and minus
// ones, so that every partial sum is an integer T holds.
func sumData[T Number](r *rand.Rand, n int) []T {
	if !isHalf[T]() || n == 0 {
		return data[T](r, n)
	}
	host := make([]T, n)
	k := 2048
	if _, ok := any(*new(T)).(cuda.BFloat16); ok {
		k = 256
	}
	for range min(n, k) {
		host[r.IntN(n)] = of[T](float64(1 - 2*r.IntN(2)))
	}
	return host
}

// exact is whether T's sums of data's values (sumData's for the half
// types) are exact at n elements.
func exact[T Number](n int) bool {
	if _, ok := any(*new(T)).(float32); ok {
		return 8*n <= 1<<24
	}
	return true
}

// near compares a float sum computed in another order: within 1e-6 of the
// sum of the magnitudes (float32, whose 2^28-element sums round).
func near[T Number](got, want T, mag float64) bool {
	if got == want {
		return true
	}
	return math.Abs(float64(got)-float64(want)) <= 1e-6*mag
}

func TestGPUReduce(t *testing.T) {
	ctx, a, s := gpuLib(t)
	eachType(t, ctx, a, s, numberNames, gpuReduce(Sum[int32]), gpuReduce(Sum[uint32]), gpuReduce(Sum[int64]), gpuReduce(Sum[uint64]),
		gpuReduce(Sum[float32]), gpuReduce(Sum[float64]), gpuReduce[int8](nil), gpuReduce[uint8](nil), gpuReduce[int16](nil),
		gpuReduce[uint16](nil), gpuReduce(Sum[cuda.Float16]), gpuReduce(Sum[cuda.BFloat16]))
}

// reduceFunc is Sum, Min or Max of T.
type reduceFunc[T Number] func(*Lib, *cuda.Stream, *cuda.Buffer[T], *cuda.Buffer[T]) error

// gpuReduce checks Min, Max and sum (Sum of T, nil for a T it does not
// take) against loops.
func gpuReduce[T Number](sum reduceFunc[T]) gpuTest {
	return func(t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream) { gpuReduceOf(t, ctx, a, s, sum) }
}

func gpuReduceOf[T Number](t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream, sum reduceFunc[T]) {
	r := rand.New(rand.NewPCG(1, uint64(sizeOf[T]())))
	out := must(cuda.Alloc[T](ctx, 1))(t)
	defer out.Close()
	for _, n := range gpuSizes[T]() {
		host := sumData[T](r, n)
		in := must(cuda.AllocFrom(ctx, host))(t)
		var total, lo, hi T = 0, greatest[T](), least[T]()
		mag := 0.0
		for _, v := range host {
			total = add(total, v)
			lo, hi = minOf(lo, v), maxOf(hi, v)
			mag += math.Abs(f64(v))
		}
		for _, c := range []struct {
			name string
			f    reduceFunc[T]
			want T
		}{{"Sum", sum, total}, {"Min", Min[T], lo}, {"Max", Max[T], hi}} {
			if c.f == nil {
				continue
			}
			if err := c.f(a, s, in, out); err != nil {
				t.Fatalf("%s n=%d: %v", c.name, n, err)
			}
			got := result(t, s, out)[0]
			if got != c.want && !(c.name == "Sum" && !exact[T](n) && near(got, c.want, mag)) {
				t.Errorf("%s n=%d: %v, want %v", c.name, n, got, c.want)
			}
		}
		in.Close()
	}
}

func TestGPUArg(t *testing.T) {
	ctx, a, s := gpuLib(t)
	eachType(t, ctx, a, s, numberNames, gpuArg[int32], gpuArg[uint32], gpuArg[int64], gpuArg[uint64], gpuArg[float32], gpuArg[float64],
		gpuArg[int8], gpuArg[uint8], gpuArg[int16], gpuArg[uint16], gpuArg[cuda.Float16], gpuArg[cuda.BFloat16])
}

// ArgMin and ArgMax find the first of equal extremes: the values are few
// (0 to 3, and full-range ones), so the least and the greatest repeat.
func gpuArg[T Number](t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream) {
	r := rand.New(rand.NewPCG(4, uint64(sizeOf[T]())))
	idx := must(cuda.Alloc[int32](ctx, 1))(t)
	defer idx.Close()
	val := must(cuda.Alloc[T](ctx, 1))(t)
	defer val.Close()
	for _, n := range gpuSizes[T]() {
		for _, few := range []bool{true, false} {
			host := data[T](r, n)
			if few {
				for i := range host {
					host[i] = of[T](float64(r.IntN(4)))
				}
			}
			in := must(cuda.AllocFrom(ctx, host))(t)
			lo, hi := int32(-1), int32(-1)
			for i, v := range host {
				if lo < 0 || less(v, host[lo]) {
					lo = int32(i)
				}
				if hi < 0 || less(host[hi], v) {
					hi = int32(i)
				}
			}
			for _, c := range []struct {
				name string
				f    func(*Lib, *cuda.Stream, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[T]) error
				want int32
				def  T
			}{{"ArgMin", ArgMin[T], lo, greatest[T]()}, {"ArgMax", ArgMax[T], hi, least[T]()}} {
				if err := c.f(a, s, in, idx, val); err != nil {
					t.Fatalf("%s n=%d: %v", c.name, n, err)
				}
				gotV := result(t, s, val)[0]
				gotI := result(t, s, idx)[0]
				wantV := c.def
				if n > 0 {
					wantV = host[c.want]
				}
				if gotI != c.want || gotV != wantV {
					t.Errorf("%s n=%d few=%v: (%d, %v), want (%d, %v)", c.name, n, few, gotI, gotV, c.want, wantV)
				}
			}
			in.Close()
		}
	}
}

// result waits for s and copies b back.
func result[T Number](t *testing.T, s *cuda.Stream, b *cuda.Buffer[T]) []T {
	t.Helper()
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	h := make([]T, b.Len())
	if err := b.CopyTo(h); err != nil {
		t.Fatal(err)
	}
	return h
}

func must[T any](v T, err error) func(testing.TB) T {
	return func(tb testing.TB) T {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return v
	}
}

func TestGPUScan(t *testing.T) {
	ctx, a, s := gpuLib(t)
	eachType(t, ctx, a, s, sumNames, gpuScan[int32], gpuScan[uint32], gpuScan[int64], gpuScan[uint64], gpuScan[float32], gpuScan[float64],
		gpuScan[cuda.Float16], gpuScan[cuda.BFloat16])
}

func gpuScan[T Summand](t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream) {
	r := rand.New(rand.NewPCG(2, uint64(sizeOf[T]())))
	for _, n := range gpuSizes[T]() {
		host := sumData[T](r, n)
		in := must(cuda.AllocFrom(ctx, host))(t)
		out := must(cuda.Alloc[T](ctx, n))(t)
		incl, excl, mags := make([]T, n), make([]T, n), make([]float64, n)
		var acc T
		mag := 0.0
		for i, v := range host {
			excl[i] = acc
			acc = add(acc, v)
			incl[i] = acc
			mag += math.Abs(f64(v))
			mags[i] = mag
		}
		for _, c := range []struct {
			name string
			f    func(*Lib, *cuda.Stream, *cuda.Buffer[T], *cuda.Buffer[T]) error
			want []T
		}{{"InclusiveSum", InclusiveSum[T], incl}, {"ExclusiveSum", ExclusiveSum[T], excl}} {
			if err := c.f(a, s, in, out); err != nil {
				t.Fatalf("%s n=%d: %v", c.name, n, err)
			}
			got := result(t, s, out)
			bad := 0
			for i := range got {
				if got[i] != c.want[i] && !(!exact[T](n) && near(got[i], c.want[i], mags[i])) {
					if bad++; bad <= 3 {
						t.Errorf("%s n=%d: [%d] = %v, want %v", c.name, n, i, got[i], c.want[i])
					}
				}
			}
		}
		// in place: out is in
		if n > 0 && n <= 1<<20 {
			if err := InclusiveSum(a, s, in, in); err != nil {
				t.Fatal(err)
			}
			got := result(t, s, in)
			for i := range got {
				if got[i] != incl[i] {
					t.Errorf("InclusiveSum in place n=%d: [%d] = %v, want %v", n, i, got[i], incl[i])
					break
				}
			}
		}
		in.Close()
		out.Close()
	}
}

// NaN, infinities and -0.0, in every float type (the half types too): a
// NaN or +Inf and -Inf together make the sum NaN, an infinity alone wins,
// an inclusive scan keeps a leading -0.0, and min and max pass the
// infinities through.
func TestGPUSpecialFloats(t *testing.T) {
	ctx, a, s := gpuLib(t)
	nan, inf := math.NaN(), math.Inf(1)
	big := make([]float64, 100_000)
	for _, c := range []struct {
		name   string
		in     []float64
		sum    float64
		lo, hi float64
	}{
		{"nan", append([]float64{1, nan}, big...), nan, math.NaN(), math.NaN()},
		{"inf", append(append([]float64{}, big...), inf, 5), inf, 0, inf},
		{"both infs", append([]float64{-inf, 3}, append(big, inf)...), nan, -inf, inf},
		{"negative zeros", []float64{math.Copysign(0, -1), math.Copysign(0, -1)}, 0, 0, 0},
	} {
		for _, ty := range []string{"float64", "float32", "float16", "bfloat16"} {
			name := c.name + "/" + ty
			var sum, lo, hi, first float64
			switch ty {
			case "float64":
				sum, lo, hi, first = specials(t, ctx, a, s, c.in)
			case "float32":
				sum, lo, hi, first = specials(t, ctx, a, s, toT[float32](c.in))
			case "float16":
				sum, lo, hi, first = specials(t, ctx, a, s, toT[cuda.Float16](c.in))
			default:
				sum, lo, hi, first = specials(t, ctx, a, s, toT[cuda.BFloat16](c.in))
			}
			if !same(sum, c.sum) {
				t.Errorf("%s: Sum = %v, want %v", name, sum, c.sum)
			}
			if !math.IsNaN(c.lo) && (lo != c.lo || hi != c.hi) {
				t.Errorf("%s: Min, Max = %v, %v; want %v, %v", name, lo, hi, c.lo, c.hi)
			}
			if math.Signbit(c.in[0]) != math.Signbit(first) || !same(first, c.in[0]) {
				t.Errorf("%s: InclusiveSum[0] = %v, want %v (sign kept)", name, first, c.in[0])
			}
		}
	}
}

func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// toT is x's values as T's, rounded to the nearest.
func toT[T Number](x []float64) []T {
	out := make([]T, len(x))
	for i, v := range x {
		out[i] = of[T](v)
	}
	return out
}

func specials[T float32 | float64 | cuda.Float16 | cuda.BFloat16](t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream, host []T) (sum, lo, hi, first float64) {
	t.Helper()
	in := must(cuda.AllocFrom(ctx, host))(t)
	defer in.Close()
	out := must(cuda.Alloc[T](ctx, 3))(t)
	defer out.Close()
	scanned := must(cuda.Alloc[T](ctx, len(host)))(t)
	defer scanned.Close()
	for i, f := range []func(*Lib, *cuda.Stream, *cuda.Buffer[T], *cuda.Buffer[T]) error{Sum[T], Min[T], Max[T]} {
		if err := f(a, s, in, out.Slice(i, i+1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := InclusiveSum(a, s, in, scanned); err != nil {
		t.Fatal(err)
	}
	r := result(t, s, out)
	return f64(r[0]), f64(r[1]), f64(r[2]), f64(result(t, s, scanned)[0])
}

// A buffer (an operand, a segmented sort's offsets) or a Lib of another
// context than the stream's is refused before anything runs (needs two
// devices).
func TestGPUOtherContext(t *testing.T) {
	ctx, a, s := gpuLib(t)
	n, err := cuda.DeviceCount()
	if err != nil || n < 2 {
		t.Skipf("one device (%d, %v): no second context", n, err)
	}
	ctx1 := must(cuda.NewContext(1))(t)
	defer ctx1.Close()
	b1 := must(cuda.Alloc[int32](ctx1, 4))(t)
	defer b1.Close()
	out := must(cuda.Alloc[int32](ctx, 1))(t)
	defer out.Close()
	if err := Sum(a, s, b1, out); err == nil {
		t.Error("Sum of a buffer of device 1 on a stream of device 0: no error")
	}
	s1 := must(ctx1.NewStream())(t)
	defer s1.Close()
	out1 := must(cuda.Alloc[int32](ctx1, 1))(t)
	defer out1.Close()
	if err := Sum(a, s1, b1, out1); err == nil {
		t.Error("Sum with device 0's Lib on a stream of device 1: no error")
	}
	in := must(cuda.Alloc[int32](ctx, 4))(t)
	defer in.Close()
	sorted := must(cuda.Alloc[int32](ctx, 4))(t)
	defer sorted.Close()
	if err := SegmentedSortKeys(a, s, in, sorted, b1.Slice(0, 1), b1.Slice(1, 2)); err == nil {
		t.Error("SegmentedSortKeys with offsets of device 1 on a stream of device 0: no error")
	}
}

// A closed Lib is refused before anything runs.
func TestGPUClosedLib(t *testing.T) {
	ctx, a, s := gpuLib(t)
	in := must(cuda.Alloc[int32](ctx, 4))(t)
	defer in.Close()
	out := must(cuda.Alloc[int32](ctx, 1))(t)
	defer out.Close()
	a.Close()
	if err := Sum(a, s, in, out); !errors.Is(err, cuda.ErrFreed) {
		t.Errorf("Sum with a closed Lib: %v, want ErrFreed", err)
	}
}

// BenchmarkGPU reports elements per second of Sum, InclusiveSum,
// SortKeys and SortPairs (int32 values) on float32 and int64 inputs of
// 2^16 to 2^28 elements, the call queued b.N times and the stream waited
// for once. mk/cub-bench.sh runs it beside CUB's C++, PyTorch and CuPy
// (testdata/cubbench.cu, testdata/pybench.py) at the same cases. The
// temporary storage comes from a caching allocator (Lib.SetAllocator), as
// CUB's benchmark allocates its own once a case and CuPy and PyTorch take
// theirs from their caching pools.
func BenchmarkGPU(b *testing.B) {
	ctx, a, s := gpuLib(b)
	ca := must(ctx.NewCachingAllocator(cuda.CachingOptions{}))(b)
	defer ca.Close()
	a.SetAllocator(ca)
	for _, n := range []int{1 << 16, 1 << 20, 1 << 24, 1 << 28} {
		benchGPU[float32](b, ctx, a, s, n)
		benchGPU[int64](b, ctx, a, s, n)
	}
}

// pairBuffers are a sort's buffers of len(keys) elements, which closeAll
// closes (at once: BenchmarkGPU's largest take gigabytes): in holds keys,
// out, vin and vout are uninitialised.
func pairBuffers[T Number](tb testing.TB, ctx *cuda.Context, keys []T) (in, out *cuda.Buffer[T], vin, vout *cuda.Buffer[int32], closeAll func()) {
	tb.Helper()
	n := len(keys)
	in = must(cuda.AllocFrom(ctx, keys))(tb)
	out = must(cuda.Alloc[T](ctx, n))(tb)
	vin = must(cuda.Alloc[int32](ctx, n))(tb)
	vout = must(cuda.Alloc[int32](ctx, n))(tb)
	return in, out, vin, vout, func() { in.Close(); out.Close(); vin.Close(); vout.Close() }
}

func benchGPU[T Summand](b *testing.B, ctx *cuda.Context, a *Lib, s *cuda.Stream, n int) {
	in, out, vin, vout, closeAll := pairBuffers(b, ctx, benchKeys[T](n))
	defer closeAll()
	for _, c := range []struct {
		name string
		f    func() error
	}{
		{"Sum", func() error { return Sum(a, s, in, out.Slice(0, 1)) }},
		{"InclusiveSum", func() error { return InclusiveSum(a, s, in, out) }},
		{"SortKeys", func() error { return SortKeys(a, s, in, out) }},
		{"SortPairs", func() error { return SortPairs(a, s, in, out, vin, vout) }},
	} {
		b.Run(fmt.Sprintf("%s/%s/n=%d", c.name, typeName[T](), n), func(b *testing.B) {
			for range b.N {
				if err := c.f(); err != nil {
					b.Fatal(err)
				}
			}
			if err := s.Synchronize(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "elems/s")
		})
	}
}

// benchKeys are BenchmarkGPU's n inputs, the same as cubbench.cu's and
// pybench.py's: element i is splitmix64(i) as T, for int64 its bits, for
// float32 its high 32 bits as an int32 times 2^-31 (uniform in [-1, 1)).
// Random keys, since a radix sort's speed depends on how its digits
// spread: on inputs of 17 distinct values, as these benchmarks once
// sorted, most digits are constant and every scatter is coalesced.
func benchKeys[T Summand](n int) []T {
	out := make([]T, n)
	for i := range out {
		h := splitmix64(uint64(i))
		switch p := any(&out[i]).(type) {
		case *float32:
			*p = float32(int32(uint32(h>>32))) * 0x1p-31
		case *int64:
			*p = int64(h)
		default:
			panic(fmt.Sprintf("benchKeys: no inputs of %T", out[i]))
		}
	}
	return out
}

// splitmix64 is Steele, Lea and Flood's SplitMix64 output for counter i.
func splitmix64(i uint64) uint64 {
	z := (i + 1) * 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// stableOrder sorts idx, positions in host, stably by their keys in CUB's
// order (sortBits), descending with desc: the reference of the sorts. It
// is a least-significant-digit radix sort of the keys, a byte a pass, which
// keeps equal keys in idx's order; slices.SortStableFunc over sortBits
// took most of TestGPUSort's time at 2^24 keys (TestStableOrder holds the
// two to the same result).
func stableOrder[T Number](idx []int32, host []T, desc bool) {
	bits := 8 * sizeOf[T]()
	flip := ^uint64(0) >> (64 - bits) // descending: every key bit flipped
	keys := make([]uint64, len(idx))
	for n, i := range idx {
		keys[n] = sortBits(host[i])
		if desc {
			keys[n] ^= flip
		}
	}
	pos, keys2, pos2 := slices.Clone(idx), make([]uint64, len(idx)), make([]int32, len(idx))
	for shift := 0; shift < bits; shift += 8 {
		var start [257]int
		for _, k := range keys {
			start[k>>shift&0xff+1]++
		}
		for d := 1; d < len(start); d++ {
			start[d] += start[d-1]
		}
		for n, k := range keys {
			d := k >> shift & 0xff
			keys2[start[d]], pos2[start[d]] = k, pos[n]
			start[d]++
		}
		keys, keys2, pos, pos2 = keys2, keys, pos2, pos
	}
	copy(idx, pos)
}

// firstDiff is the first index at which got differs from want by eq, or
// -1 where none does (want may be longer: got's length is checked).
func firstDiff[E any](got, want []E, eq func(a, b E) bool) int {
	for i := range got {
		if !eq(got[i], want[i]) {
			return i
		}
	}
	return -1
}

// sortBits is a key as CUB's radix sort orders it: the bits of its
// unsigned twin (integers: the sign bit flipped; floats: negatives'
// bits all flipped, others' sign bit set), with -0.0 as +0.0: CUB's
// digits do not tell the zeros apart (ProcessFloatMinusZero), so they keep
// their order.
func sortBits[T Number](v T) uint64 {
	if isFloat[T]() && v == 0 {
		v = 0 // +0.0
	}
	switch x := any(v).(type) {
	case int8:
		return uint64(uint8(x) ^ 1<<7)
	case uint8:
		return uint64(x)
	case int16:
		return uint64(uint16(x) ^ 1<<15)
	case uint16:
		return uint64(x)
	case cuda.Float16:
		return halfBits(uint16(x))
	case cuda.BFloat16:
		return halfBits(uint16(x))
	case int32:
		return uint64(uint32(x) ^ 1<<31)
	case uint32:
		return uint64(x)
	case int64:
		return uint64(x) ^ 1<<63
	case uint64:
		return x
	case float32:
		b := math.Float32bits(x)
		if b&(1<<31) != 0 {
			return uint64(^b)
		}
		return uint64(b | 1<<31)
	default:
		b := math.Float64bits(any(v).(float64))
		if b&(1<<63) != 0 {
			return ^b
		}
		return b | 1<<63
	}
}

// halfBits is sortBits of a half type's bits b.
func halfBits(b uint16) uint64 {
	if b&0x7fff == 0 {
		b = 0 // -0.0 as +0.0
	}
	if b&(1<<15) != 0 {
		return uint64(^b)
	}
	return uint64(b | 1<<15)
}

// sameBits is whether a and b are the same bits (a NaN's and a zero's
// sign included).
func sameBits[T Number](a, b T) bool {
	switch x := any(a).(type) {
	case float32:
		return math.Float32bits(x) == math.Float32bits(any(b).(float32))
	case float64:
		return math.Float64bits(x) == math.Float64bits(any(b).(float64))
	}
	return a == b
}

// sortData is data with many equal keys (so that stability shows) and,
// for floats, NaNs of both signs, infinities and zeros of both signs.
func sortData[T Number](r *rand.Rand, n int) []T {
	host := data[T](r, n)
	for i := range host {
		if r.IntN(2) == 0 {
			host[i] = of[T](float64(r.IntN(8)))
		}
	}
	if isFloat[T]() || isHalf[T]() {
		nan := math.NaN()
		specials := []float64{nan, math.Copysign(nan, -1), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)}
		for i := range host {
			if r.IntN(16) == 0 {
				v := specials[r.IntN(len(specials))]
				switch p := any(&host[i]).(type) {
				case *float32:
					*p = float32(v)
				case *float64:
					*p = v
				case *cuda.Float16:
					*p = cuda.Float16Of(float32(v)) // a NaN: quiet, of v's sign
				case *cuda.BFloat16:
					*p = cuda.BFloat16Of(float32(v))
				}
			}
		}
	}
	return host
}

// sortSizes are gpuSizes up to 2^20, 2^24 unless -short for float32 and
// uint64 (every type with CUGEN_ALGO_LARGE=1), and 2^28 with
// CUGEN_ALGO_LARGE=1: more than a portion, the onesweep's chained path.
func sortSizes[T Number]() []int {
	var out []int
	for _, n := range gpuSizes[T]() {
		if n <= 1<<20 {
			out = append(out, n)
		}
	}
	large := os.Getenv("CUGEN_ALGO_LARGE") == "1"
	if ty := typeName[T](); !testing.Short() && (ty == "float32" || ty == "uint64" || large) {
		out = append(out, 1<<24) // the host's stable sorts take seconds here
	}
	if large {
		out = append(out, 1<<28) // two portions of onesweep
	}
	return out
}

func TestGPUSort(t *testing.T) {
	ctx, a, s := gpuLib(t)
	eachType(t, ctx, a, s, numberNames, gpuSort[int32], gpuSort[uint32], gpuSort[int64], gpuSort[uint64], gpuSort[float32], gpuSort[float64],
		gpuSort[int8], gpuSort[uint8], gpuSort[int16], gpuSort[uint16], gpuSort[cuda.Float16], gpuSort[cuda.BFloat16])
}

// SortKeys, SortPairs (values: the positions, so stability shows), their
// descending forms and Argsort, against slices.SortStableFunc by CUB's
// bit order; keys compared bit for bit (NaN's sign and -0.0 included: the
// zeros are equal keys, in their input order).
func gpuSort[T Number](t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream) {
	r := rand.New(rand.NewPCG(5, uint64(sizeOf[T]())))
	for _, n := range sortSizes[T]() {
		host := sortData[T](r, n)
		pos := make([]int32, n)
		for i := range pos {
			pos[i] = int32(i)
		}
		in := must(cuda.AllocFrom(ctx, host))(t)
		vin := must(cuda.AllocFrom(ctx, pos))(t)
		out := must(cuda.Alloc[T](ctx, n))(t)
		vout := must(cuda.Alloc[int32](ctx, n))(t)
		for _, desc := range []bool{false, true} {
			want := slices.Clone(pos)
			stableOrder(want, host, desc)
			keysOf := func(idx []int32) []T {
				k := make([]T, len(idx))
				for i, j := range idx {
					k[i] = host[j]
				}
				return k
			}
			wantKeys := keysOf(want)
			name := fmt.Sprintf("n=%d desc=%v", n, desc)
			checkKeys := func(what string, got []T) {
				if i := firstDiff(got, wantKeys, sameBits[T]); i >= 0 {
					t.Errorf("%s %s: [%d] = %v, want %v", what, name, i, got[i], wantKeys[i])
				}
			}
			checkIdx := func(what string, got []int32) {
				if i := firstDiff(got, want, func(a, b int32) bool { return a == b }); i >= 0 {
					t.Errorf("%s %s: [%d] = %d, want %d (stable order)", what, name, i, got[i], want[i])
				}
			}
			sortKeys, sortPairs := SortKeys[T], SortPairs[T]
			if desc {
				sortKeys, sortPairs = SortKeysDescending[T], SortPairsDescending[T]
			}
			if err := sortKeys(a, s, in, out); err != nil {
				t.Fatalf("SortKeys %s: %v", name, err)
			}
			checkKeys("SortKeys", result(t, s, out))
			if err := sortPairs(a, s, in, out, vin, vout); err != nil {
				t.Fatalf("SortPairs %s: %v", name, err)
			}
			checkKeys("SortPairs keys", result(t, s, out))
			checkIdx("SortPairs values", result(t, s, vout))
			if err := Argsort(a, s, in, vout, desc); err != nil {
				t.Fatalf("Argsort %s: %v", name, err)
			}
			checkIdx("Argsort", result(t, s, vout))
			topK := BottomK[T]
			if desc {
				topK = TopK[T]
			}
			for _, k := range []int{0, min(n, 1), n / 2, n} {
				values := must(cuda.Alloc[T](ctx, k))(t)
				index := must(cuda.Alloc[int32](ctx, k))(t)
				if err := topK(a, s, in, values, index); err != nil {
					t.Fatalf("TopK/BottomK %s k=%d: %v", name, k, err)
				}
				checkKeys(fmt.Sprintf("TopK/BottomK k=%d values", k), result(t, s, values))
				checkIdx(fmt.Sprintf("TopK/BottomK k=%d index", k), result(t, s, index))
				values.Close()
				index.Close()
			}
			if got := result(t, s, in); n > 0 && !sameBits(got[n-1], host[n-1]) {
				t.Errorf("%s: the input changed", name)
			}
		}
		// in place
		if n > 0 && n <= 1<<20 {
			if err := SortKeys(a, s, in, in); err != nil {
				t.Fatal(err)
			}
			got := result(t, s, in)
			sorted := slices.Clone(host)
			slices.SortStableFunc(sorted, func(x, y T) int { return cmp.Compare(sortBits(x), sortBits(y)) })
			for i := range got {
				if !sameBits(got[i], sorted[i]) {
					t.Errorf("SortKeys in place n=%d: [%d] = %v, want %v", n, i, got[i], sorted[i])
					break
				}
			}
		}
		in.Close()
		vin.Close()
		out.Close()
		vout.Close()
	}
}
