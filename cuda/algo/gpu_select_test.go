package algo

// GPU tests of the select, the partition and the run-length encode
// against Go references; they skip without a device (CUGEN_REQUIRE_GPU=1:
// fail instead).

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/cugen/cugen/cuda"
)

// selectSizes are gpuSizes up to 2^20, 2^24 unless -short for float32 and
// uint64 (every type with CUGEN_ALGO_LARGE=1), and 2^28 with
// CUGEN_ALGO_LARGE=1.
func selectSizes[T Number]() []int {
	var out []int
	for _, n := range gpuSizes[T]() {
		if n <= 1<<20 {
			out = append(out, n)
		}
	}
	large := os.Getenv("CUGEN_ALGO_LARGE") == "1"
	if ty := typeName[T](); !testing.Short() && (ty == "float32" || ty == "uint64" || large) {
		out = append(out, 1<<24)
	}
	if large {
		out = append(out, 1<<28)
	}
	return out
}

// runData is sortData's values (duplicates, and for floats NaNs,
// infinities and zeros of both signs) in runs: mostly of 1 to 8 equal
// elements, some of thousands (across tiles); a run of zeros mixes -0.0
// and +0.0, equal by ==.
func runData[T Wide](r *rand.Rand, n int) []T {
	vals := sortData[T](r, n)
	host := make([]T, 0, n)
	for i := 0; len(host) < n; i++ {
		l := 1 + r.IntN(8)
		if r.IntN(64) == 0 {
			l = 1 + r.IntN(10_000)
		}
		for range min(l, n-len(host)) {
			v := vals[i]
			if isFloat[T]() && v == 0 && r.IntN(2) == 0 {
				v = -v // -0.0 for +0.0 and back
			}
			host = append(host, v)
		}
	}
	return host
}

// flagData is n flags: "half" about half non-zero (of many values, not
// only 1), "sparse" one in 64, "none" and "all".
func flagData(r *rand.Rand, n int, kind string) []uint8 {
	f := make([]uint8, n)
	for i := range f {
		switch kind {
		case "half":
			if r.IntN(2) == 0 {
				f[i] = uint8(1 + r.IntN(255))
			}
		case "sparse":
			if r.IntN(64) == 0 {
				f[i] = 1
			}
		case "all":
			f[i] = uint8(1 + r.IntN(255))
		}
	}
	return f
}

// diffBits is the first index where got and want differ in their bits,
// or -1.
func diffBits[T Number](got, want []T) int {
	if len(got) != len(want) {
		return min(len(got), len(want))
	}
	for i := range got {
		if !sameBits(got[i], want[i]) {
			return i
		}
	}
	return -1
}

func TestGPUSelect(t *testing.T) {
	ctx, a, s := gpuLib(t)
	eachType(t, ctx, a, s, wideNames, gpuSelect[int32], gpuSelect[uint32], gpuSelect[int64], gpuSelect[uint64], gpuSelect[float32], gpuSelect[float64])
}

// SelectFlagged and PartitionFlagged against loops: the selected in
// order (bit for bit, NaNs and zeros' signs included), the rejected after
// them in reverse, the count, out past the count untouched, and
// SelectFlagged in place.
func gpuSelect[T Wide](t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream) {
	r := rand.New(rand.NewPCG(6, uint64(sizeOf[T]())))
	count := must(cuda.Alloc[int32](ctx, 1))(t)
	defer count.Close()
	for _, n := range selectSizes[T]() {
		host := sortData[T](r, n)
		sentinel, in, out := selectBuffers(t, ctx, host)
		kinds := []string{"half", "sparse", "none", "all"}
		if n > 1<<24 {
			kinds = kinds[:1]
		}
		for _, kind := range kinds {
			name := fmt.Sprintf("n=%d flags=%s", n, kind)
			fl := flagData(r, n, kind)
			flags := must(cuda.AllocFrom(ctx, fl))(t)
			sel, rej := split(host, func(i int, _ T) bool { return fl[i] != 0 })
			if err := out.CopyFrom(sentinel); err != nil {
				t.Fatal(err)
			}
			if err := SelectFlagged(a, s, in, flags, out, count); err != nil {
				t.Fatalf("SelectFlagged %s: %v", name, err)
			}
			checkSelected(t, s, "SelectFlagged "+name, out, count, sel, sentinel)

			if err := PartitionFlagged(a, s, in, flags, out, count); err != nil {
				t.Fatalf("PartitionFlagged %s: %v", name, err)
			}
			checkPartitioned(t, s, "PartitionFlagged "+name, out, count, sel, rej)

			if n <= 1<<20 {
				checkSelectInPlace(t, s, "SelectFlagged in place "+name, out, host, sel, func() error { return SelectFlagged(a, s, out, flags, out, count) })
			}
			flags.Close()
		}
		if got := result(t, s, in); n > 0 && !sameBits(got[n-1], host[n-1]) {
			t.Errorf("n=%d: the input changed", n)
		}
		in.Close()
		out.Close()
	}
}

// selectBuffers are a selection's buffers for the input host: in, holding
// it, and out of its length, and sentinel, n 77s, what a test fills out
// with to see what a selection leaves untouched.
func selectBuffers[T Wide](t *testing.T, ctx *cuda.Context, host []T) (sentinel []T, in, out *cuda.Buffer[T]) {
	t.Helper()
	sentinel = make([]T, len(host))
	for i := range sentinel {
		sentinel[i] = T(77)
	}
	return sentinel, must(cuda.AllocFrom(ctx, host))(t), must(cuda.Alloc[T](ctx, len(host)))(t)
}

// split parts host into the elements keep keeps and the others, each in
// host's order.
func split[T Wide](host []T, keep func(i int, v T) bool) (sel, rej []T) {
	for i, v := range host {
		if keep(i, v) {
			sel = append(sel, v)
		} else {
			rej = append(rej, v)
		}
	}
	return sel, rej
}

// checkSelectInPlace runs select with out holding host (out is its own
// input) and checks that out is sel followed by host's rest, untouched.
func checkSelectInPlace[T Wide](t *testing.T, s *cuda.Stream, what string, out *cuda.Buffer[T], host, sel []T, run func() error) {
	t.Helper()
	if err := out.CopyFrom(host); err != nil {
		t.Fatal(err)
	}
	if err := run(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	got, k := result(t, s, out), len(sel)
	if i := diffBits(got, append(slices.Clone(sel), host[k:]...)); i >= 0 {
		t.Errorf("%s: [%d] = %v (k=%d)", what, i, got[i], k)
	}
}

// checkSelected checks a selection into out: count[0] = len(sel), out's
// first elements sel bit for bit, the rest still sentinel's.
func checkSelected[T Wide](t *testing.T, s *cuda.Stream, what string, out *cuda.Buffer[T], count *cuda.Buffer[int32], sel, sentinel []T) {
	t.Helper()
	got, k := result(t, s, out), len(sel)
	if c := result(t, s, count)[0]; int(c) != k {
		t.Errorf("%s: count %d, want %d", what, c, k)
	} else if i := diffBits(got[:k], sel); i >= 0 {
		t.Errorf("%s: [%d] = %v, want %v", what, i, got[i], sel[i])
	} else if i := diffBits(got[k:], sentinel[k:]); i >= 0 {
		t.Errorf("%s: [%d] = %v past the count, changed", what, k+i, got[k+i])
	}
}

// checkPartitioned checks a partition into out: count[0] = len(sel), out
// sel then rej in reverse, bit for bit.
func checkPartitioned[T Wide](t *testing.T, s *cuda.Stream, what string, out *cuda.Buffer[T], count *cuda.Buffer[int32], sel, rej []T) {
	t.Helper()
	k := len(sel)
	want := append(slices.Clone(sel), rej...)
	slices.Reverse(want[k:])
	got := result(t, s, out)
	if c := result(t, s, count)[0]; int(c) != k {
		t.Errorf("%s: count %d, want %d", what, c, k)
	} else if i := diffBits(got, want); i >= 0 {
		t.Errorf("%s: [%d] = %v, want %v (k=%d)", what, i, got[i], want[i], k)
	}
}

// TestGPUSelectIf checks SelectIf and PartitionIf.
func TestGPUSelectIf(t *testing.T) {
	ctx, a, s := gpuLib(t)
	eachType(t, ctx, a, s, wideNames, gpuSelectIf[int32], gpuSelectIf[uint32], gpuSelectIf[int64], gpuSelectIf[uint64], gpuSelectIf[float32], gpuSelectIf[float64])
}

// SelectIf and PartitionIf against a loop of Go's comparisons, for every
// Cmp: the kept elements in order (bit for bit: NaNs, by NotEqual, and
// zeros' signs), the rejected after them in reverse, the count, out past
// the count untouched, and SelectIf in place.
func gpuSelectIf[T Wide](t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream) {
	r := rand.New(rand.NewPCG(8, uint64(sizeOf[T]())))
	count := must(cuda.Alloc[int32](ctx, 1))(t)
	defer count.Close()
	holds := func(w Where[T], x T) bool {
		switch w.Op {
		case Less:
			return x < w.A
		case LessEqual:
			return x <= w.A
		case Greater:
			return x > w.A
		case GreaterEqual:
			return x >= w.A
		case Equal:
			return x == w.A
		case NotEqual:
			return x != w.A
		case InRange:
			return w.A <= x && x < w.B
		}
		return x == x // NotNaN
	}
	for _, n := range selectSizes[T]() {
		host := sortData[T](r, n)
		sentinel, in, out := selectBuffers(t, ctx, host)
		// two present elements a0 < b0 (neither NaN), where there are two
		var a0, b0 T
		for range min(n*n, 100) {
			x, y := host[r.IntN(n)], host[r.IntN(n)]
			if x < y {
				a0, b0 = x, y
				break
			}
			if y < x {
				a0, b0 = y, x
				break
			}
		}
		for op := Less; op <= NotNaN; op++ {
			if n > 1<<24 && op != InRange {
				continue
			}
			w := Where[T]{Op: op, A: a0, B: b0}
			name := fmt.Sprintf("n=%d %v %v %v", n, op, a0, b0)
			sel, rej := split(host, func(_ int, v T) bool { return holds(w, v) })
			if err := PartitionIf(a, s, in, w, out, count); err != nil {
				t.Fatalf("PartitionIf %s: %v", name, err)
			}
			checkPartitioned(t, s, "PartitionIf "+name, out, count, sel, rej)

			if err := out.CopyFrom(sentinel); err != nil {
				t.Fatal(err)
			}
			if err := SelectIf(a, s, in, w, out, count); err != nil {
				t.Fatalf("SelectIf %s: %v", name, err)
			}
			checkSelected(t, s, "SelectIf "+name, out, count, sel, sentinel)
			if n <= 1<<20 && op == NotEqual {
				checkSelectInPlace(t, s, "SelectIf in place "+name, out, host, sel, func() error { return SelectIf(a, s, out, w, out, count) })
			}
		}
		in.Close()
		out.Close()
	}
}

func TestGPUUnique(t *testing.T) {
	ctx, a, s := gpuLib(t)
	eachType(t, ctx, a, s, wideNames, gpuUnique[int32], gpuUnique[uint32], gpuUnique[int64], gpuUnique[uint64], gpuUnique[float32], gpuUnique[float64])
}

// Unique and RunLengthEncode against a loop over runs of == (NaN alone,
// -0.0 with +0.0): Unique keeps each run's first element, RunLengthEncode
// its last, bit for bit; the outputs past the count untouched; Unique in
// place.
func gpuUnique[T Wide](t *testing.T, ctx *cuda.Context, a *Lib, s *cuda.Stream) {
	r := rand.New(rand.NewPCG(7, uint64(sizeOf[T]())))
	count := must(cuda.Alloc[int32](ctx, 1))(t)
	defer count.Close()
	for _, n := range selectSizes[T]() {
		host := runData[T](r, n)
		var first, last []T
		var lens []int32
		for i, v := range host {
			if i == 0 || v != host[i-1] {
				first, last, lens = append(first, v), append(last, v), append(lens, 1)
				continue
			}
			last[len(last)-1] = v
			lens[len(lens)-1]++
		}
		k := len(first)
		sentinel := make([]T, n)
		sentinelLens := make([]int32, n)
		for i := range sentinel {
			sentinel[i], sentinelLens[i] = T(77), -7
		}
		in := must(cuda.AllocFrom(ctx, host))(t)
		out := must(cuda.AllocFrom(ctx, sentinel))(t)
		counts := must(cuda.AllocFrom(ctx, sentinelLens))(t)
		name := fmt.Sprintf("n=%d", n)

		if err := Unique(a, s, in, out, count); err != nil {
			t.Fatalf("Unique %s: %v", name, err)
		}
		got := result(t, s, out)
		if c := result(t, s, count)[0]; int(c) != k {
			t.Errorf("Unique %s: count %d, want %d", name, c, k)
		} else if i := diffBits(got[:k], first); i >= 0 {
			t.Errorf("Unique %s: [%d] = %v, want %v", name, i, got[i], first[i])
		} else if i := diffBits(got[k:], sentinel[k:]); i >= 0 {
			t.Errorf("Unique %s: [%d] = %v past the count, changed", name, k+i, got[k+i])
		}

		if err := out.CopyFrom(sentinel); err != nil {
			t.Fatal(err)
		}
		if err := RunLengthEncode(a, s, in, out, counts, count); err != nil {
			t.Fatalf("RunLengthEncode %s: %v", name, err)
		}
		got = result(t, s, out)
		gotLens := result(t, s, counts)
		if c := result(t, s, count)[0]; int(c) != k {
			t.Errorf("RunLengthEncode %s: %d runs, want %d", name, c, k)
		} else if i := diffBits(got[:k], last); i >= 0 {
			t.Errorf("RunLengthEncode %s: unique[%d] = %v, want %v", name, i, got[i], last[i])
		} else if i := diffBits(gotLens[:k], lens); i >= 0 {
			t.Errorf("RunLengthEncode %s: counts[%d] = %d, want %d", name, i, gotLens[i], lens[i])
		} else if diffBits(got[k:], sentinel[k:]) >= 0 || diffBits(gotLens[k:], sentinelLens[k:]) >= 0 {
			t.Errorf("RunLengthEncode %s: outputs past the runs changed", name)
		}

		if n <= 1<<20 {
			if err := out.CopyFrom(host); err != nil {
				t.Fatal(err)
			}
			if err := Unique(a, s, out, out, count); err != nil {
				t.Fatalf("Unique in place %s: %v", name, err)
			}
			got = result(t, s, out)
			if i := diffBits(got, append(slices.Clone(first), host[k:]...)); i >= 0 {
				t.Errorf("Unique in place %s: [%d] = %v (k=%d)", name, i, got[i], k)
			}
		}
		if got := result(t, s, in); n > 0 && !sameBits(got[n-1], host[n-1]) {
			t.Errorf("%s: the input changed", name)
		}
		in.Close()
		out.Close()
		counts.Close()
	}
}

// Runs of NaN, -0.0 and +0.0 spelled out: each NaN a run of its own,
// zeros of both signs one run (Unique keeps the first's sign,
// RunLengthEncode the last's), infinities runs like any value.
func TestGPUUniqueSpecialFloats(t *testing.T) {
	ctx, a, s := gpuLib(t)
	nan, inf, negZero := math.NaN(), math.Inf(1), math.Copysign(0, -1)
	host := []float64{nan, nan, negZero, 0, 0, inf, inf, -inf, 1, 1, 1, nan}
	in := must(cuda.AllocFrom(ctx, host))(t)
	defer in.Close()
	out := must(cuda.Alloc[float64](ctx, len(host)))(t)
	defer out.Close()
	counts := must(cuda.Alloc[int32](ctx, len(host)))(t)
	defer counts.Close()
	count := must(cuda.Alloc[int32](ctx, 1))(t)
	defer count.Close()
	if err := Unique(a, s, in, out, count); err != nil {
		t.Fatal(err)
	}
	wantFirst := []float64{nan, nan, negZero, inf, -inf, 1, nan}
	if c := result(t, s, count)[0]; c != 7 {
		t.Fatalf("Unique: count %d, want 7", c)
	}
	if got := result(t, s, out)[:7]; diffBits(got, wantFirst) >= 0 {
		t.Errorf("Unique: %v, want %v", got, wantFirst)
	}
	if err := RunLengthEncode(a, s, in, out, counts, count); err != nil {
		t.Fatal(err)
	}
	wantLast := []float64{nan, nan, 0, inf, -inf, 1, nan}
	wantLens := []int32{1, 1, 3, 2, 1, 3, 1}
	if c := result(t, s, count)[0]; c != 7 {
		t.Fatalf("RunLengthEncode: %d runs, want 7", c)
	}
	if got := result(t, s, out)[:7]; diffBits(got, wantLast) >= 0 {
		t.Errorf("RunLengthEncode: unique %v, want %v", got, wantLast)
	}
	if got := result(t, s, counts)[:7]; !slices.Equal(got, wantLens) {
		t.Errorf("RunLengthEncode: counts %v, want %v", got, wantLens)
	}
}
