package algo

import (
	"fmt"
	"strings"
	"testing"
)

func planString(pl plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "temp %d elems %d bytes;", pl.tempElems, pl.tempBytes)
	for _, s := range pl.steps {
		b.WriteString(" " + s.String())
	}
	return b.String()
}

// CUB's DispatchReduce: one block when the input fits a tile, else an
// even share over min(tiles, 5*resident) blocks and a second pass over
// their partials.
func TestPlanReduce(t *testing.T) {
	f32 := policies[90]["float32"] // 256 threads x 16 items: tiles of 4096
	f64 := policies[80]["float64"] // 256 x 8: 2048
	for _, c := range []struct {
		p        policy
		n        int
		resident int
		want     string
	}{
		{f32, 0, 1056, "temp 0 elems 0 bytes; reduceSumSingle<<<1, 256>>>(in -> out, n=0, tiles=0, start=0)"},
		{f32, 1, 1056, "temp 0 elems 0 bytes; reduceSumSingle<<<1, 256>>>(in -> out, n=1, tiles=0, start=0)"},
		{f32, 4096, 1056, "temp 0 elems 0 bytes; reduceSumSingle<<<1, 256>>>(in -> out, n=4096, tiles=0, start=0)"},
		{f32, 4097, 1056, "temp 2 elems 0 bytes; reduceSumTiles<<<2, 256>>>(in -> temp, n=4097, tiles=0, start=0) reduceSumSingle<<<1, 256>>>(temp -> out, n=2, tiles=0, start=0)"},
		// 2^28 items: 65536 tiles, more than 5 * 1056 blocks (an H100's 132 SMs x 8)
		{f32, 1 << 28, 1056, "temp 5280 elems 0 bytes; reduceSumTiles<<<5280, 256>>>(in -> temp, n=268435456, tiles=0, start=0) reduceSumSingle<<<1, 256>>>(temp -> out, n=5280, tiles=0, start=0)"},
		{f64, 1<<20 + 1, 864, "temp 513 elems 0 bytes; reduceSumTiles<<<513, 256>>>(in -> temp, n=1048577, tiles=0, start=0) reduceSumSingle<<<1, 256>>>(temp -> out, n=513, tiles=0, start=0)"},
	} {
		if got := planString(planReduce(c.p, "Sum", c.n, c.resident)); got != c.want {
			t.Errorf("n=%d:\n got %s\nwant %s", c.n, got, c.want)
		}
	}
	if got := planReduce(f32, "Max", 5000, 1).steps[0].kernel; got != "reduceMaxTiles" {
		t.Errorf("Max's first kernel: %s", got)
	}
}

// ArgMin and ArgMax reduce (index, value) pairs: tiles of 256 x 8 pairs
// for 4-byte types, 256 x 4 for 8-byte ones, partial pairs in temp bytes.
func TestPlanArg(t *testing.T) {
	for _, c := range []struct {
		p    policy
		n    int
		want string
	}{
		{policies[90]["float32"], 0, "temp 0 elems 0 bytes; argMinSingle<<<1, 256>>>(in -> out, n=0, tiles=0, start=0)"},
		{policies[90]["float32"], 2048, "temp 0 elems 0 bytes; argMinSingle<<<1, 256>>>(in -> out, n=2048, tiles=0, start=0)"},
		{policies[90]["float32"], 2049, "temp 0 elems 16 bytes; argMinTiles<<<2, 256>>>(in -> temp, n=2049, tiles=0, start=0) argMinPartials<<<1, 256>>>(temp -> out, n=2, tiles=0, start=0)"},
		{policies[80]["float64"], 1 << 20, "temp 0 elems 16384 bytes; argMinTiles<<<1024, 256>>>(in -> temp, n=1048576, tiles=0, start=0) argMinPartials<<<1, 256>>>(temp -> out, n=1024, tiles=0, start=0)"},
		{policies[80]["int32"], 1 << 28, "temp 0 elems 34560 bytes; argMinTiles<<<4320, 256>>>(in -> temp, n=268435456, tiles=0, start=0) argMinPartials<<<1, 256>>>(temp -> out, n=4320, tiles=0, start=0)"},
	} {
		if got := planString(planArg(c.p, "Min", c.n, 864)); got != c.want {
			t.Errorf("n=%d:\n got %s\nwant %s", c.n, got, c.want)
		}
	}
}

// CUB's DispatchScan: nothing for no items; else the tile states of every
// tile, (tiles + 32) words, initialised by blocks of 128, then one scan
// launch over all the tiles.
func TestPlanScan(t *testing.T) {
	i32 := policies[90]["int32"]  // 128 x 24: tiles of 3072, 8-byte words
	u64 := policies[80]["uint64"] // 288 x 11: 3168, 16-byte words
	for _, c := range []struct {
		p    policy
		n    int
		want string
	}{
		{i32, 0, "temp 0 elems 0 bytes;"},
		{i32, 1, "temp 0 elems 264 bytes; scanInit<<<1, 128>>>(- -> temp, n=1, tiles=0, start=0) scanInclusiveSum<<<1, 128>>>(in -> out, n=1, tiles=1, start=0)"},
		{i32, 3073, "temp 0 elems 272 bytes; scanInit<<<1, 128>>>(- -> temp, n=2, tiles=0, start=0) scanInclusiveSum<<<2, 128>>>(in -> out, n=3073, tiles=2, start=0)"},
		{u64, 1 << 20, "temp 0 elems 5808 bytes; scanInit<<<3, 128>>>(- -> temp, n=331, tiles=0, start=0) scanInclusiveSum<<<331, 288>>>(in -> out, n=1048576, tiles=331, start=0)"},
		{i32, 1 << 28, "temp 0 elems 699312 bytes; scanInit<<<683, 128>>>(- -> temp, n=87382, tiles=0, start=0) scanInclusiveSum<<<87382, 128>>>(in -> out, n=268435456, tiles=87382, start=0)"},
	} {
		if got := planString(planScan(c.p, "scanInclusiveSum", c.n)); got != c.want {
			t.Errorf("n=%d:\n got %s\nwant %s", c.n, got, c.want)
		}
	}
}

// The image Load picks for a compute capability has the policy of its
// architecture; before 8.0 there is none.
func TestArchOf(t *testing.T) {
	for _, c := range []struct {
		major, minor, want int
	}{{8, 0, 80}, {8, 6, 80}, {8, 9, 80}, {9, 0, 90}, {10, 0, 90}, {12, 0, 90}} {
		if got, err := archOf(c.major, c.minor); err != nil || got != c.want {
			t.Errorf("archOf(%d.%d) = %d, %v; want %d", c.major, c.minor, got, err, c.want)
		}
	}
	if _, err := archOf(7, 5); err == nil || !strings.Contains(err.Error(), "7.5") {
		t.Errorf("archOf(7.5): %v", err)
	}
}
