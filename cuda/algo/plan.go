package algo

import (
	"fmt"
	"math"
)

// The host side of CUB's dispatch, as plans: the launches an algorithm
// makes (kernel, grid, block, the items each reads) and the temporary
// storage it needs, decided from the element count, the policy and the
// device alone. run.go carries a plan out; the tests check plans without
// a GPU.

// operand names a launch's buffer.
type operand int

const (
	opNone operand = iota
	opIn           // the caller's input
	opOut          // the caller's output
	opTemp         // the temporary storage
)

func (o operand) String() string {
	return [...]string{"-", "in", "out", "temp"}[o]
}

// step is one kernel launch.
type step struct {
	kernel      string  // cub.cu's kernel, without its type: "reduceSumTiles"
	grid, block uint32  // blocks, threads per block
	in, out     operand // what it reads and writes (scanInit: the temp it initialises, as out)
	n           int32   // items (reduce, scan), or tiles (scanInit)
	numTiles    int32   // scan: the tiles of the whole input
	startTile   int32   // scan: this launch's first tile
}

func (s step) String() string {
	return fmt.Sprintf("%s<<<%d, %d>>>(%v -> %v, n=%d, tiles=%d, start=%d)", s.kernel, s.grid, s.block, s.in, s.out, s.n, s.numTiles, s.startTile)
}

// plan is an algorithm's launches, in stream order, and its temporary
// storage: tempElems elements of T (reduce's partials) or tempBytes bytes
// (scan's tile states, an arg-reduction's partial pairs).
type plan struct {
	steps     []step
	tempElems int
	tempBytes int
}

// maxItems is the largest input: CUB's int offsets.
const maxItems = math.MaxInt32

// subscription is CUB's CUB_SUBSCRIPTION_FACTOR: the reduce grid is at
// most this many times the blocks resident at once.
const subscription = 5

// planReduce is CUB's DispatchReduce::InvokePasses for n items of an
// operator op ("Sum", "Min", "Max"): one block over the input when it fits
// one tile (InvokeSingleTile, and n == 0, which writes init); else an even
// share of the tiles over at most subscription*resident blocks, each
// writing one partial to temp, then one block over the partials.
// resident is the blocks of the reduce kernel a device runs at once.
func planReduce(p policy, op string, n, resident int) plan {
	tiles, single := "reduce"+op+"Tiles", "reduce"+op+"Single"
	tile := p.reduceTile()
	block := uint32(p.reduceThreads)
	if n <= tile {
		return plan{steps: []step{{kernel: single, grid: 1, block: block, in: opIn, out: opOut, n: int32(n)}}}
	}
	// GridEvenShare::DispatchInit: min(tiles, max grid)
	grid := min(ceilDiv(n, tile), max(1, resident*subscription))
	return plan{
		tempElems: grid,
		steps: []step{
			{kernel: tiles, grid: uint32(grid), block: block, in: opIn, out: opTemp, n: int32(n)},
			{kernel: single, grid: 1, block: block, in: opTemp, out: opOut, n: int32(grid)},
		},
	}
}

// planArg is planReduce for ArgMin and ArgMax ("Min", "Max"): CUB's
// DeviceReduce::ArgMin, a reduction of the pairs (i, in[i]), whose
// policy is scaled for the pair. Over one tile, argOpSingle reads the
// input; else argOpTiles writes a pair per block to temp and
// argOpPartials reduces them.
func planArg(p policy, op string, n, resident int) plan {
	tile := p.argTile()
	block := uint32(p.reduceThreads)
	if n <= tile {
		return plan{steps: []step{{kernel: "arg" + op + "Single", grid: 1, block: block, in: opIn, out: opOut, n: int32(n)}}}
	}
	grid := min(ceilDiv(n, tile), max(1, resident*subscription))
	return plan{
		tempBytes: grid * p.argPair,
		steps: []step{
			{kernel: "arg" + op + "Tiles", grid: uint32(grid), block: block, in: opIn, out: opTemp, n: int32(n)},
			{kernel: "arg" + op + "Partials", grid: 1, block: block, in: opTemp, out: opOut, n: int32(grid)},
		},
	}
}

// initThreads is CUB's INIT_KERNEL_THREADS, the block of scanInit.
const initThreads = 128

// tileStatePadding is ScanTileState's TILE_STATUS_PADDING: a warp of
// words before the first tile's.
const tileStatePadding = 32

// maxGridX is the largest grid.x a launch may have.
const maxGridX = math.MaxInt32

// planScan is CUB's DispatchScan::Invoke for n items: nothing for n == 0;
// else the tile states of ceil(n/tile) tiles initialised by scanInit, then
// the scan kernel over every tile (in launches of at most maxGridX tiles,
// each starting where the last ended), the tiles chaining their prefixes
// through the tile states (decoupled look-back).
func planScan(p policy, kernel string, n int) plan {
	if n == 0 {
		return plan{}
	}
	tiles := ceilDiv(n, p.scanTile())
	pl := plan{tempBytes: (tiles + tileStatePadding) * p.scanWord}
	pl.steps = append(pl.steps, step{kernel: "scanInit", grid: uint32(ceilDiv(tiles, initThreads)), block: initThreads, out: opTemp, n: int32(tiles)})
	for start := 0; start < tiles; start += maxGridX {
		grid := min(tiles-start, maxGridX)
		pl.steps = append(pl.steps, step{kernel: kernel, grid: uint32(grid), block: uint32(p.scanThreads), in: opIn, out: opOut,
			n: int32(n), numTiles: int32(tiles), startTile: int32(start)})
	}
	return pl
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// planSelect is CUB's DispatchSelectIf::Invoke for n items in tiles of
// t, kernel one of selectUnique, selectIf, selectFlagged, partitionFlagged
// and partitionIf: the tile states of ceil(n/tile) tiles
// (ScanTileState<int>, selectWord bytes a tile and 32 of padding)
// initialised by selectInit, which also
// writes a count of 0; then, for n > 0, one block a tile, the last tile
// writing the count. (CUB's grid is 2-D past maxGridX tiles; int offsets
// keep the tiles under it.)
func planSelect(t tile, kernel string, n int) plan {
	tiles := ceilDiv(n, t.size())
	pl := plan{tempBytes: (tiles + tileStatePadding) * selectWord}
	pl.steps = append(pl.steps, step{kernel: "selectInit", grid: uint32(max(1, ceilDiv(tiles, initThreads))), block: initThreads, out: opTemp, n: int32(tiles)})
	if n > 0 {
		pl.steps = append(pl.steps, step{kernel: kernel, grid: uint32(tiles), block: uint32(t.threads), in: opIn, out: opOut,
			n: int32(n), numTiles: int32(tiles)})
	}
	return pl
}

// planRle is CUB's DispatchReduceByKey::Invoke for DeviceRunLengthEncode::
// Encode of n items: planSelect's shape with the reduction by key's tile
// states (rleWord bytes a tile), rleInit writing a run count of 0, and
// rleEncode in launches of at most maxGridX tiles, each from the tile the
// last ended at.
func planRle(t tile, n int) plan {
	tiles := ceilDiv(n, t.size())
	pl := plan{tempBytes: (tiles + tileStatePadding) * rleWord}
	pl.steps = append(pl.steps, step{kernel: "rleInit", grid: uint32(max(1, ceilDiv(tiles, initThreads))), block: initThreads, out: opTemp, n: int32(tiles)})
	for start := 0; start < tiles; start += maxGridX {
		pl.steps = append(pl.steps, step{kernel: "rleEncode", grid: uint32(min(tiles-start, maxGridX)), block: uint32(t.threads), in: opIn, out: opOut,
			n: int32(n), numTiles: int32(tiles), startTile: int32(start)})
	}
	return pl
}

// histogramSmemBins is DispatchHistogram's MAX_PRIVATIZED_SMEM_BINS: up to
// this many bins, each block counts in shared memory; past it, in its own
// row of global memory.
const histogramSmemBins = 256

// histPlan is CUB's dispatch_histogram::Invoke for n samples of one
// channel into bins privatized bins (the output's, or 256 for samples of
// one byte): a grid of min(occupancy, tiles) blocks (one row:
// the samples are contiguous), each over every grid-th tile, counting in
// shared memory (kernel ...Smem) or, past histogramSmemBins bins, in grid
// rows of bins int32s of temporary storage (...Gmem). No blocks for n ==
// 0: the output is only cleared.
type histPlan struct {
	kernel      string // histogramEvenSmem, histogramRangeGmem, ...
	grid, block uint32
	tilesPerRow int
	privatized  int // int32s of temporary storage
}

func planHistogram(t tile, kind string, n, bins, occupancy int) histPlan {
	tiles := ceilDiv(n, t.size())
	pl := histPlan{kernel: "histogram" + kind + "Smem", grid: uint32(min(max(1, occupancy), tiles)), block: uint32(t.threads), tilesPerRow: tiles}
	if bins > histogramSmemBins {
		pl.kernel = "histogram" + kind + "Gmem"
		pl.privatized = int(pl.grid) * bins
	}
	return pl
}

// planScanByKey is CUB's DispatchScanByKey::Invoke for n items: nothing
// for n == 0; else the tile states of ceil(n/tile) tiles (scanByKeyWord
// bytes each, 32 of padding) and the tiles+1 int32 keys before each tile,
// which scanByKeyInit writes (its n is the tile's items), then one block
// a tile (CUB 2.5's agent numbers its tile by blockIdx.x alone, so one
// launch; int offsets keep the tiles under maxGridX).
func planScanByKey(t tile, kernel string, n int) plan {
	if n == 0 {
		return plan{}
	}
	tiles := ceilDiv(n, t.size())
	return plan{
		tempBytes: (tiles + tileStatePadding) * scanByKeyWord,
		tempElems: tiles + 1,
		steps: []step{
			{kernel: "scanByKeyInit", grid: uint32(ceilDiv(tiles, initThreads)), block: initThreads, in: opIn, out: opTemp, n: int32(t.size()), numTiles: int32(tiles)},
			{kernel: kernel, grid: uint32(tiles), block: uint32(t.threads), in: opIn, out: opOut, n: int32(n), numTiles: int32(tiles)},
		},
	}
}

// planSegmented is CUB's DispatchSegmentedReduce for segments segments:
// one block of the reduce policy's threads a segment, no temporary
// storage; nothing for no segments.
func planSegmented(p policy, op string, segments int) plan {
	if segments == 0 {
		return plan{}
	}
	return plan{steps: []step{{kernel: "segmented" + op, grid: uint32(segments), block: uint32(p.reduceThreads), in: opIn, out: opOut, n: int32(segments)}}}
}
