package algo

import (
	"fmt"
	"unsafe"

	"github.com/cugen/cugen/cuda"
)

// policy is what the host dispatch needs of the tuning one image's kernels
// were compiled with, for one element type: CUB's
// DeviceReducePolicy::Policy600 (reduce) and DeviceScanPolicy's
// Policy800 or Policy900 (scan), after CUB's MemBoundScaling, and the
// Policy800 or Policy900 of the radix sort, the select and the run-length
// encode. cub.cu
// exports the same numbers from each image as extern "C" __device__
// constants; TestPolicies reads them out of the embedded images and holds
// this table to them.
type policy struct {
	reduceThreads, reduceItems int // AgentReduce: block threads, items per thread
	scanThreads, scanItems     int // AgentScan: block threads, items per thread
	scanWord                   int // sizeof(ScanTileState<T>::TxnWord)
	argItems                   int // AgentReduce of (index, value) pairs: items per thread (256 threads)
	argPair                    int // sizeof(KeyValuePair<int, T>)
	sortKeysThreads            int // AgentRadixSortOnesweep of keys: block threads
	sortKeysItems              int // and items per thread
	sortPairsThreads           int // of keys and int32 values
	sortPairsItems             int
	agentTiles
}

// agentTiles are the tiles of the agents whose tuning depends on the
// type's size alone.
type agentTiles struct {
	unique, flagged, partition tile // AgentSelectIf: Unique (and SelectIf), SelectFlagged, PartitionFlagged
	rle                        tile // AgentReduceByKey of RunLengthEncode
	histogram                  tile // AgentHistogram: block threads, samples per thread
	scanByKey                  tile // AgentScanByKey of int32 keys and T values
	partitionIf                tile // AgentSelectIf of PartitionIf
}

// tile is an agent's block threads and items per thread.
type tile struct{ threads, items int }

func (t tile) size() int { return t.threads * t.items }

// The words of the select's tile states (ScanTileState<int>) and the
// run-length encode's (ReduceByKeyScanTileState<int, int>), for every
// architecture and type: cub.cu's cugen_select_word and cugen_rle_word.
const (
	selectWord    = 8
	rleWord       = 16
	scanByKeyWord = 16 // ReduceByKeyScanTileState<T, int>: cugen_scan_by_key_word_<type>
)

func (p policy) reduceTile() int { return p.reduceThreads * p.reduceItems }
func (p policy) scanTile() int   { return p.scanThreads * p.scanItems }
func (p policy) argTile() int    { return p.reduceThreads * p.argItems }

// The select's, run-length encode's and histogram's tiles, by
// architecture and type size: CUB's sm80_tuning and sm90_tuning of
// tuning_select_if.cuh (PartitionIf's: no flags, rejects kept) and
// tuning_run_length_encode.cuh (int offsets and
// lengths, primitive items), tuning_histogram.cuh's Policy500 and
// Policy900 (the same for samples of 4 and 8 bytes), and
// tuning_scan_by_key.cuh's sm80_tuning and sm90_tuning (4-byte keys).
var (
	sel80x4 = agentTiles{tile{256, 18}, tile{320, 10}, tile{192, 12}, tile{256, 13}, tile{384, 16}, tile{256, 15}, tile{192, 15}}
	sel80x8 = agentTiles{tile{192, 10}, tile{384, 6}, tile{192, 12}, tile{224, 9}, tile{384, 8}, tile{256, 9}, tile{192, 10}}
	sel90x4 = agentTiles{tile{384, 17}, tile{384, 15}, tile{256, 20}, tile{192, 14}, tile{384, 16}, tile{288, 14}, tile{256, 14}}
	sel90x8 = agentTiles{tile{384, 11}, tile{384, 11}, tile{224, 6}, tile{128, 19}, tile{384, 8}, tile{224, 14}, tile{128, 12}}
	// the narrower types have only the histogram's (samples of 1 and 2
	// bytes: Policy900's own tunings)
	hist80   = agentTiles{histogram: tile{384, 16}}
	hist90x1 = agentTiles{histogram: tile{768, 12}}
	hist90x2 = agentTiles{histogram: tile{960, 10}}
)

// policies[arch][type]: arch 80 is the sm_80 cubin (compute capability
// 8.x), 90 the sm_90 cubin and the compute_90 PTX (9.0 and later).
var policies = map[int]map[string]policy{
	80: {
		"int32":   {256, 16, 320, 12, 8, 8, 8, 384, 21, 384, 21, sel80x4},
		"uint32":  {256, 16, 320, 12, 8, 8, 8, 384, 21, 384, 21, sel80x4},
		"int64":   {256, 8, 288, 11, 16, 4, 16, 384, 10, 384, 10, sel80x8},
		"uint64":  {256, 8, 288, 11, 16, 4, 16, 384, 10, 384, 10, sel80x8},
		"float32": {256, 16, 288, 8, 8, 8, 8, 384, 21, 384, 21, sel80x4},
		"float64": {256, 8, 384, 6, 16, 4, 16, 384, 10, 384, 10, sel80x8},
		// keys of 1 and 2 bytes sort with Policy800's onesweep policy
		// (CUB itself runs its upsweep and downsweep passes on them)
		"int8":     {256, 32, 320, 28, 4, 8, 8, 384, 21, 384, 21, hist80},
		"uint8":    {256, 32, 320, 28, 4, 8, 8, 384, 21, 384, 21, hist80},
		"int16":    {256, 32, 352, 32, 4, 8, 8, 384, 21, 384, 21, hist80},
		"uint16":   {256, 32, 352, 32, 4, 8, 8, 384, 21, 384, 21, hist80},
		"float16":  {256, 32, 352, 32, 4, 8, 8, 384, 21, 384, 21, hist80},
		"bfloat16": {256, 32, 352, 32, 4, 8, 8, 384, 21, 384, 21, hist80},
	},
	90: {
		"int32":   {256, 16, 128, 24, 8, 8, 8, 384, 20, 384, 23, sel90x4},
		"uint32":  {256, 16, 128, 24, 8, 8, 8, 384, 20, 384, 23, sel90x4},
		"int64":   {256, 8, 224, 12, 16, 4, 16, 384, 15, 384, 15, sel90x8},
		"uint64":  {256, 8, 224, 12, 16, 4, 16, 384, 15, 384, 15, sel90x8},
		"float32": {256, 16, 128, 24, 8, 8, 8, 384, 19, 384, 23, sel90x4},
		"float64": {256, 8, 224, 12, 16, 4, 16, 384, 15, 384, 15, sel90x8},
		// Policy900's small-key onesweep: sm90_small_key_tuning
		"int8":     {256, 32, 192, 44, 4, 8, 8, 512, 19, 512, 17, hist90x1},
		"uint8":    {256, 32, 192, 44, 4, 8, 8, 512, 19, 512, 17, hist90x1},
		"int16":    {256, 32, 512, 24, 4, 8, 8, 512, 19, 512, 17, hist90x2},
		"uint16":   {256, 32, 512, 24, 4, 8, 8, 512, 19, 512, 17, hist90x2},
		"float16":  {256, 32, 512, 24, 4, 8, 8, 512, 19, 512, 17, hist90x2},
		"bfloat16": {256, 32, 512, 24, 4, 8, 8, 512, 19, 512, 17, hist90x2},
	},
}

// Number is the element types of the reductions, scans, sorts and
// segmented reductions: CUB's integers of 8 to 64 bits, [cuda.Float16],
// [cuda.BFloat16], float32 and float64.
type Number interface {
	int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64 | cuda.Float16 | cuda.BFloat16 | float32 | float64
}

// Summand is the element types of the sums and scans ([Sum],
// [InclusiveSum], [ExclusiveSum], [SegmentedSum]): every [Number] but the
// 8- and 16-bit integers. CUB adds those in int, but into an output of
// their own type, as here, their sums would wrap at 2^8 or 2^16, which is
// seldom what a sum is for: sum an int32 copy instead.
type Summand interface {
	int32 | uint32 | int64 | uint64 | cuda.Float16 | cuda.BFloat16 | float32 | float64
}

// Wide is the element types of the selection, partition, run-length
// encode and scan by key: those of 4 and 8 bytes. Their kernels are not
// built for the narrower types (which CUB supports), to keep the embedded
// images' size down.
type Wide interface {
	int32 | uint32 | int64 | uint64 | float32 | float64
}

// Sample is the sample types of the histograms: every [Number] but
// [cuda.Float16] and [cuda.BFloat16]. CUB bins __half samples in half
// precision (the bin width's reciprocal rounded to 11 bits, so bins are
// off by one near their edges) and has no bfloat16 transform at all;
// convert such samples to float32 first.
type Sample interface {
	int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64 | float32 | float64
}

// typeName is T as the policy table and cub.cu's constants name it.
func typeName[T Number]() string {
	switch any(*new(T)).(type) {
	case int8:
		return "int8"
	case uint8:
		return "uint8"
	case int16:
		return "int16"
	case uint16:
		return "uint16"
	case int32:
		return "int32"
	case uint32:
		return "uint32"
	case int64:
		return "int64"
	case uint64:
		return "uint64"
	case cuda.Float16:
		return "float16"
	case cuda.BFloat16:
		return "bfloat16"
	case float32:
		return "float32"
	default:
		return "float64"
	}
}

func sizeOf[T Number]() int { return int(unsafe.Sizeof(*new(T))) }

// archOf is the policy table's architecture for a device of compute
// capability major.minor: the image Load picks for it.
func archOf(major, minor int) (int, error) {
	switch {
	case major >= 9:
		return 90, nil
	case major == 8:
		return 80, nil
	}
	return 0, fmt.Errorf("algo: compute capability %d.%d: the kernels are compiled for 8.0 and later", major, minor)
}
