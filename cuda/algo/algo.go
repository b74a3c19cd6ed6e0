package algo

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/algo/internal/cubk"
	"github.com/cugen/cugen/cuda/sys/cu"
)

// Lib is the package's kernels loaded into one context: the image of the
// device's architecture (a cubin for sm_80 or sm_90, else the compute_90
// PTX), and the policy table that goes with it. Load it once per context;
// it is safe to use from any goroutine.
type Lib struct {
	h        *cuda.Handle // owns the module: Close unloads it
	k        *cubk.Kernels
	arch     int
	resident int            // blocks of 256 threads the device runs at once
	sms      int            // multiprocessors
	fns      map[string]any // "reduceSumTiles/float32" -> the typed launch func
	pool     *cuda.MemPool
	cache    *cuda.CachingAllocator
}

// Load loads the kernels into ctx. The device must be of compute
// capability 8.0 or later.
func Load(ctx *cuda.Context) (*Lib, error) {
	major, minor, err := ctx.Device().ComputeCapability()
	if err != nil {
		return nil, err
	}
	arch, err := archOf(major, minor)
	if err != nil {
		return nil, err
	}
	sms, err := ctx.Device().Attribute(cu.DeviceAttributeMultiprocessorCount)
	if err != nil {
		return nil, err
	}
	perSM, err := ctx.Device().Attribute(cu.DeviceAttributeMaxThreadsPerMultiprocessor)
	if err != nil {
		return nil, err
	}
	k, err := cubk.Load(ctx)
	if err != nil {
		return nil, err
	}
	a := &Lib{k: k, arch: arch, resident: sms * max(1, perSM/256), sms: sms, fns: launchFuncs(k)}
	a.h, err = cuda.NewHandle(ctx, func() (uint64, error) { return 1, nil }, func(uint64) error { return k.Close() })
	if err != nil {
		k.Close()
		return nil, err
	}
	return a, nil
}

// resident128 is the blocks of 128 threads the device runs at once.
func (a *Lib) resident128() int { return 2 * a.resident }

// Close unloads the kernels once the calls using them have returned. The
// work already queued goes on.
func (a *Lib) Close() error { return a.h.Close() }

// SetPool makes the temporary storage come from p (cuMemAllocFromPoolAsync)
// rather than from the device's current pool (cuMemAllocAsync). p must be
// of the Lib's context. Not safe to call while calls are in flight.
func (a *Lib) SetPool(p *cuda.MemPool) { a.pool = p }

// SetAllocator makes the temporary storage come from c ([cuda.AllocCached]
// on the call's stream), and go back to it at the call's end, in stream
// order: after the first call of a size on a stream, a call asks the
// driver for no memory at all. Through the pool each temporary buffer is
// a driver round trip to allocate and one to free (a pair sort has five
// buffers, a scan one); CUB's own benchmarks allocate theirs once. c
// overrides [Lib.SetPool] (c's own [cuda.CachingOptions].Pool is where
// its blocks come from); nil goes back to the pool. c must be of the
// Lib's context (a call with another's fails at its first temporary
// buffer, before it has queued anything: TestTemporaryStorageFirst), and
// a stream being captured cannot allocate from it: use the pool there.
// Not safe to call while calls are in flight.
func (a *Lib) SetAllocator(c *cuda.CachingAllocator) { a.cache = c }

// cubkSuffix is the cubk method name's suffix for a type: cugen kernels
// names an instantiation by its C++ template argument (__half: Half,
// __nv_bfloat16: NvBfloat16).
var cubkSuffix = map[string]string{
	"int8": "SignedChar", "uint8": "UnsignedChar", "int16": "Short", "uint16": "UnsignedShort",
	"int32": "Int", "uint32": "UnsignedInt", "int64": "LongLong", "uint64": "UnsignedLongLong",
	"float16": "Half", "bfloat16": "NvBfloat16", "float32": "Float", "float64": "Double",
}

// kernelNames are cub.cu's kernel templates that run.go, sort.go and the
// others launch (gencubk.go instantiates each for the types it takes).
var kernelNames = []string{"reduceSumTiles", "reduceSumSingle", "reduceMinTiles", "reduceMinSingle",
	"reduceMaxTiles", "reduceMaxSingle", "argMinTiles", "argMinSingle", "argMinPartials",
	"argMaxTiles", "argMaxSingle", "argMaxPartials", "sortHistogramAsc", "sortHistogramDesc",
	"sortKeysAsc", "sortKeysDesc", "sortPairsAsc", "sortPairsDesc", "scanInit", "scanInclusiveSum", "scanExclusiveSum",
	"selectUnique", "selectIf", "selectFlagged", "partitionFlagged", "partitionIf", "rleEncode",
	"histogramEvenSmem", "histogramEvenGmem", "histogramRangeSmem", "histogramRangeGmem",
	"scanByKeyInit", "scanByKeyInclusiveSum", "scanByKeyExclusiveSum", "segmentedSum", "segmentedMin", "segmentedMax", "segmentedArgMin", "segmentedArgMax",
	"segmentedSortKeysAsc", "segmentedSortKeysAscAlt", "segmentedSortKeysDesc", "segmentedSortKeysDescAlt",
	"segmentedSortPairsAsc", "segmentedSortPairsAscAlt", "segmentedSortPairsDesc", "segmentedSortPairsDescAlt"}

// launchFuncs finds cubk's typed launch func of every kernel and type, by
// name, once: run.go calls them through a type assertion, not reflection.
func launchFuncs(k *cubk.Kernels) map[string]any {
	m := map[string]any{}
	v := reflect.ValueOf(k)
	for _, kernel := range kernelNames {
		for t, suf := range cubkSuffix {
			f := v.MethodByName(strings.ToUpper(kernel[:1]) + kernel[1:] + suf)
			if !f.IsValid() {
				continue
			}
			m[kernel+"/"+t] = f.Interface()
		}
	}
	return m
}

var (
	errNilLib    = errors.New("algo: nil *Lib (Load returns one)")
	errNilStream = errors.New("algo: nil *cuda.Stream")
	errNilBuffer = errors.New("algo: nil buffer")
)

// check refuses a call's misuse before anything is allocated or queued:
// a nil stream or buffer, an index (ArgMin's and ArgMax's, where not nil)
// that is not one element, an input too long for CUB's int offsets, and
// through Stream.Call, a closed stream, buffer or Lib, or one of another
// context than the stream's. a == nil is checked last, so that the
// argument checks hold without kernels (the stand-in driver's test).
func check[T Number](a *Lib, op string, s *cuda.Stream, in, out *cuda.Buffer[T], outLen int, index *cuda.Buffer[int32]) error {
	if s == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilStream)
	}
	if in == nil || out == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilBuffer)
	}
	if in.Len() > maxItems {
		return fmt.Errorf("algo: %s: %d elements, more than the %d CUB's int offsets reach", op, in.Len(), maxItems)
	}
	if out.Len() != outLen {
		return fmt.Errorf("algo: %s[%s]: the output has %d elements for %d: want %d", op, typeName[T](), out.Len(), in.Len(), outLen)
	}
	if index != nil && index.Len() != 1 {
		return fmt.Errorf("algo: %s[%s]: the index has %d elements: want 1", op, typeName[T](), index.Len())
	}
	ops := []cuda.Operand{in, out}
	if index != nil {
		ops = append(ops, index)
	}
	if a != nil {
		ops = append(ops, a.h)
	}
	if err := s.Call(nop, ops...); err != nil {
		return fmt.Errorf("algo: %s: %w", op, err)
	}
	if a == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilLib)
	}
	return nil
}

// nop is Stream.Call's function for a check of its operands alone.
func nop(cu.Stream) error { return nil }

// policyOf is a's policy for T.
func policyOf[T Number](a *Lib) policy { return policies[a.arch][typeName[T]()] }
