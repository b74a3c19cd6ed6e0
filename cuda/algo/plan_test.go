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

func sortString(pl sortPlan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "passes %d portions %d ctrs %d bins %d lookback %d temp %v hist %d;", pl.passes, pl.portions, pl.ctrs, pl.bins, pl.lookback, pl.temp, pl.histGrid)
	for _, w := range pl.sweeps {
		fmt.Fprintf(&b, " [%d.%d bits %d+%d items %d+%d blocks %d %v->%v]", w.pass, w.portion, w.bit, w.bits, w.first, w.n, w.blocks, w.src, w.dst)
	}
	return b.String()
}

// CUB's onesweep: 8-bit passes over every bit, alternating between the
// output and a temporary buffer so that the last pass writes the output;
// inputs of more than a portion (the whole tiles under 2^28) sweep each
// pass a portion at a time, each portion's offsets written by the one
// before; one row of bins past the last portion's takes the last one's.
func TestPlanSort(t *testing.T) {
	for _, c := range []struct {
		tile, n, size int
		want          string
	}{
		{7296, 0, 4, "passes 0 portions 0 ctrs 0 bins 0 lookback 0 temp false hist 0;"},
		{7296, 1 << 20, 4, "passes 4 portions 1 ctrs 4 bins 1280 lookback 36864 temp true hist 2112;" +
			" [0.0 bits 0+8 items 0+1048576 blocks 144 in->temp] [1.0 bits 8+8 items 0+1048576 blocks 144 temp->out]" +
			" [2.0 bits 16+8 items 0+1048576 blocks 144 out->temp] [3.0 bits 24+8 items 0+1048576 blocks 144 temp->out]"},
		{5760, 1 << 20, 8, "passes 8 portions 1 ctrs 8 bins 2304 lookback 46848 temp true hist 2112;" +
			" [0.0 bits 0+8 items 0+1048576 blocks 183 in->temp] [1.0 bits 8+8 items 0+1048576 blocks 183 temp->out]" +
			" [2.0 bits 16+8 items 0+1048576 blocks 183 out->temp] [3.0 bits 24+8 items 0+1048576 blocks 183 temp->out]" +
			" [4.0 bits 32+8 items 0+1048576 blocks 183 out->temp] [5.0 bits 40+8 items 0+1048576 blocks 183 temp->out]" +
			" [6.0 bits 48+8 items 0+1048576 blocks 183 out->temp] [7.0 bits 56+8 items 0+1048576 blocks 183 temp->out]"},
		{7296, 1<<28 + 5, 4, "passes 4 portions 2 ctrs 8 bins 2304 lookback 9418752 temp true hist 2112;" +
			" [0.0 bits 0+8 items 0+268434432 blocks 36792 in->temp] [0.1 bits 0+8 items 268434432+1029 blocks 1 in->temp]" +
			" [1.0 bits 8+8 items 0+268434432 blocks 36792 temp->out] [1.1 bits 8+8 items 268434432+1029 blocks 1 temp->out]" +
			" [2.0 bits 16+8 items 0+268434432 blocks 36792 out->temp] [2.1 bits 16+8 items 268434432+1029 blocks 1 out->temp]" +
			" [3.0 bits 24+8 items 0+268434432 blocks 36792 temp->out] [3.1 bits 24+8 items 268434432+1029 blocks 1 temp->out]"},
	} {
		if got := sortString(planSort(c.tile, c.n, c.size, 2112, false)); got != c.want {
			t.Errorf("tile %d n=%d:\n got %s\nwant %s", c.tile, c.n, got, c.want)
		}
	}
}

// TestPlanSortInPlace: with out overlapping in, no sweep reads in while
// it writes out. Was: keys of one byte sort in one pass, in->out, and
// CUB's onesweep scatters a tile while later tiles are still to be read,
// so SortKeys(in, in) of int8 or uint8 keys could read keys already
// overwritten. Now that pass reads a copy of in.
func TestPlanSortInPlace(t *testing.T) {
	for _, size := range []int{1, 2, 4, 8} {
		for _, aliased := range []bool{false, true} {
			pl := planSort(7296, 1<<20, size, 2112, aliased)
			for _, w := range pl.sweeps {
				if aliased && w.src == opIn && w.dst == opOut {
					t.Errorf("size %d in place: sweep %d.%d reads in while it writes out: %s", size, w.pass, w.portion, sortString(pl))
				}
			}
			if want := aliased && size == 1; pl.copyIn != want || pl.copyIn && !pl.temp {
				t.Errorf("size %d aliased %v: copyIn %v temp %v, want copyIn %v with temp", size, aliased, pl.copyIn, pl.temp, want)
			}
		}
	}
}

// CUB's DispatchSelectIf: selectInit always (it writes the count of an
// empty input), over the tile states of every tile, (tiles + 32) 8-byte
// words, then one block a tile.
func TestPlanSelect(t *testing.T) {
	flagged := policies[90]["float32"].flagged // 384 x 15: tiles of 5760
	unique := policies[90]["int64"].unique     // 384 x 11: 4224
	for _, c := range []struct {
		t      tile
		kernel string
		n      int
		want   string
	}{
		{flagged, "selectFlagged", 0, "temp 0 elems 256 bytes; selectInit<<<1, 128>>>(- -> temp, n=0, tiles=0, start=0)"},
		{flagged, "selectFlagged", 1, "temp 0 elems 264 bytes; selectInit<<<1, 128>>>(- -> temp, n=1, tiles=0, start=0) selectFlagged<<<1, 384>>>(in -> out, n=1, tiles=1, start=0)"},
		{flagged, "partitionFlagged", 5760, "temp 0 elems 264 bytes; selectInit<<<1, 128>>>(- -> temp, n=1, tiles=0, start=0) partitionFlagged<<<1, 384>>>(in -> out, n=5760, tiles=1, start=0)"},
		{flagged, "selectFlagged", 5761, "temp 0 elems 272 bytes; selectInit<<<1, 128>>>(- -> temp, n=2, tiles=0, start=0) selectFlagged<<<2, 384>>>(in -> out, n=5761, tiles=2, start=0)"},
		{unique, "selectUnique", 1 << 28, "temp 0 elems 508664 bytes; selectInit<<<497, 128>>>(- -> temp, n=63551, tiles=0, start=0) selectUnique<<<63551, 384>>>(in -> out, n=268435456, tiles=63551, start=0)"},
	} {
		if got := planString(planSelect(c.t, c.kernel, c.n)); got != c.want {
			t.Errorf("%s n=%d:\n got %s\nwant %s", c.kernel, c.n, got, c.want)
		}
	}
}

// DeviceRunLengthEncode::Encode: rleInit always (the run count of an
// empty input), over (tiles + 32) 16-byte words, then rleEncode.
func TestPlanRle(t *testing.T) {
	i32 := policies[80]["int32"].rle   // 256 x 13: tiles of 3328
	f64 := policies[80]["float64"].rle // 224 x 9: 2016
	for _, c := range []struct {
		t    tile
		n    int
		want string
	}{
		{i32, 0, "temp 0 elems 512 bytes; rleInit<<<1, 128>>>(- -> temp, n=0, tiles=0, start=0)"},
		{i32, 3328, "temp 0 elems 528 bytes; rleInit<<<1, 128>>>(- -> temp, n=1, tiles=0, start=0) rleEncode<<<1, 256>>>(in -> out, n=3328, tiles=1, start=0)"},
		{i32, 3329, "temp 0 elems 544 bytes; rleInit<<<1, 128>>>(- -> temp, n=2, tiles=0, start=0) rleEncode<<<2, 256>>>(in -> out, n=3329, tiles=2, start=0)"},
		{f64, 1<<20 + 1, "temp 0 elems 8848 bytes; rleInit<<<5, 128>>>(- -> temp, n=521, tiles=0, start=0) rleEncode<<<521, 224>>>(in -> out, n=1048577, tiles=521, start=0)"},
	} {
		if got := planString(planRle(c.t, c.n)); got != c.want {
			t.Errorf("n=%d:\n got %s\nwant %s", c.n, got, c.want)
		}
	}
}

// CUB's dispatch_histogram: min(occupancy, tiles) blocks in one row,
// shared-memory bins up to 256, else a row of global memory a block.
func TestPlanHistogram(t *testing.T) {
	f32 := policies[90]["float32"].histogram // 384 x 16: tiles of 6144
	f64 := policies[80]["float64"].histogram // 384 x 8: 3072
	for _, c := range []struct {
		t                  tile
		kind               string
		n, bins, occupancy int
		want               histPlan
	}{
		{f32, "Even", 0, 10, 660, histPlan{"histogramEvenSmem", 0, 384, 0, 0}},
		{f32, "Even", 1, 256, 660, histPlan{"histogramEvenSmem", 1, 384, 1, 0}},
		{f32, "Range", 6145, 1, 660, histPlan{"histogramRangeSmem", 2, 384, 2, 0}},
		{f32, "Even", 1 << 28, 257, 660, histPlan{"histogramEvenGmem", 660, 384, 43691, 660 * 257}},
		{f64, "Range", 3073, 1000, 540, histPlan{"histogramRangeGmem", 2, 384, 2, 2000}},
	} {
		if got := planHistogram(c.t, c.kind, c.n, c.bins, c.occupancy); got != c.want {
			t.Errorf("%s n=%d bins=%d:\n got %+v\nwant %+v", c.kind, c.n, c.bins, got, c.want)
		}
	}
}

// CUB's DispatchScanByKey: nothing for no items; else the tile states,
// (tiles + 32) 16-byte words, and tiles+1 keys before the tiles, both
// written by scanByKeyInit, then one block a tile.
func TestPlanScanByKey(t *testing.T) {
	i32 := policies[90]["int32"].scanByKey   // 288 x 14: tiles of 4032
	f64 := policies[80]["float64"].scanByKey // 256 x 9: 2304
	for _, c := range []struct {
		t    tile
		n    int
		want string
	}{
		{i32, 0, "temp 0 elems 0 bytes;"},
		{i32, 1, "temp 2 elems 528 bytes; scanByKeyInit<<<1, 128>>>(in -> temp, n=4032, tiles=1, start=0) scanByKeyInclusiveSum<<<1, 288>>>(in -> out, n=1, tiles=1, start=0)"},
		{i32, 4033, "temp 3 elems 544 bytes; scanByKeyInit<<<1, 128>>>(in -> temp, n=4032, tiles=2, start=0) scanByKeyInclusiveSum<<<2, 288>>>(in -> out, n=4033, tiles=2, start=0)"},
		{f64, 1 << 20, "temp 457 elems 7808 bytes; scanByKeyInit<<<4, 128>>>(in -> temp, n=2304, tiles=456, start=0) scanByKeyInclusiveSum<<<456, 256>>>(in -> out, n=1048576, tiles=456, start=0)"},
	} {
		if got := planString(planScanByKey(c.t, "scanByKeyInclusiveSum", c.n)); got != c.want {
			t.Errorf("n=%d:\n got %s\nwant %s", c.n, got, c.want)
		}
	}
}

// DeviceSegmentedReduce: a block of the reduce policy a segment.
func TestPlanSegmented(t *testing.T) {
	p := policies[80]["float32"]
	if got := planString(planSegmented(p, "Min", 0)); got != "temp 0 elems 0 bytes;" {
		t.Errorf("no segments: %s", got)
	}
	if got, want := planString(planSegmented(p, "Min", 5)), "temp 0 elems 0 bytes; segmentedMin<<<5, 256>>>(in -> out, n=5, tiles=0, start=0)"; got != want {
		t.Errorf("5 segments:\n got %s\nwant %s", got, want)
	}
}
