package algo

import (
	"fmt"
	"math"

	"github.com/cugen/cugen/cuda"
)

// Sum queues the sum of in's elements into out[0] on s (CUB's
// DeviceReduce::Sum): out must have one element. An empty in gives 0.
// Floating-point sums are in CUB's order (per thread, then per block, then
// over the blocks), not in index order: they may differ from a sequential
// sum in the last bits, and a NaN anywhere gives NaN. Integers wrap around
// (8- and 16-bit ones are not summed: [Summand] says why).
//
// [cuda.Float16] and [cuda.BFloat16] are summed in their own precision,
// as CUB sums __half and __nv_bfloat16 (its accumulator is the type of
// __half + __half): every partial sum rounds to 11 (Float16) or 8
// (BFloat16) significant bits, and a partial sum past 65504 is a Float16
// infinity even if the total is not. A sum of n elements may be off by
// about n steps of its magnitude's last bit; BFloat16 sums of many
// elements stagnate (256 + 1 is 256). For an accurate sum, convert to
// float32 first.
func Sum[T Summand](a *Lib, s *cuda.Stream, in, out *cuda.Buffer[T]) error {
	return reduce(a, "Sum", s, in, out, 0)
}

// Min queues the least of in's elements into out[0] on s (CUB's
// DeviceReduce::Min, with cub::Min: b < a ? b : a). An empty in gives T's
// greatest value (+Inf for floats, where CUB gives the greatest finite
// value). Of -0.0 and +0.0, the one met first
// in CUB's order is kept; a NaN compares false, so whether one is kept
// depends on where it falls in that order.
func Min[T Number](a *Lib, s *cuda.Stream, in, out *cuda.Buffer[T]) error {
	return reduce(a, "Min", s, in, out, greatest[T]())
}

// Max is [Min] for the greatest element (cub::Max: a < b ? b : a); an
// empty in gives T's least value (-Inf for floats).
func Max[T Number](a *Lib, s *cuda.Stream, in, out *cuda.Buffer[T]) error {
	return reduce(a, "Max", s, in, out, least[T]())
}

// ArgMin queues the index and the value of in's least element into
// index[0] and value[0] on s (CUB's DeviceReduce::ArgMin, a reduction of
// the pairs (i, in[i]) with cub::ArgMin): of equal least values, the
// lowest index. An empty in gives index -1 and T's greatest value (where
// CUB gives index 1 and numeric_limits<T>::max(), the greatest finite
// float). NaNs compare as [Min] says.
func ArgMin[T Number](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], index *cuda.Buffer[int32], value *cuda.Buffer[T]) error {
	return argReduce(a, "Min", s, in, index, value, greatest[T]())
}

// ArgMax is [ArgMin] for the greatest element, the lowest index of equal
// greatest values; an empty in gives index -1 and T's least value.
func ArgMax[T Number](a *Lib, s *cuda.Stream, in *cuda.Buffer[T], index *cuda.Buffer[int32], value *cuda.Buffer[T]) error {
	return argReduce(a, "Max", s, in, index, value, least[T]())
}

// InclusiveSum queues out[i] = in[0] + ... + in[i] on s (CUB's
// DeviceScan::InclusiveSum, a single pass with decoupled look-back). out
// must have in's length; it may be in itself. Integers wrap around.
// [cuda.Float16] and [cuda.BFloat16] prefixes accumulate in their own
// precision, each partial sum rounded, as [Sum] says (CUB's accumulator
// for __half is __half).
func InclusiveSum[T Summand](a *Lib, s *cuda.Stream, in, out *cuda.Buffer[T]) error {
	return scan(a, "scanInclusiveSum", "InclusiveSum", s, in, out)
}

// ExclusiveSum queues out[0] = 0, out[i] = in[0] + ... + in[i-1] on s
// (CUB's DeviceScan::ExclusiveSum); otherwise as [InclusiveSum].
func ExclusiveSum[T Summand](a *Lib, s *cuda.Stream, in, out *cuda.Buffer[T]) error {
	return scan(a, "scanExclusiveSum", "ExclusiveSum", s, in, out)
}

func reduce[T Number](a *Lib, op string, s *cuda.Stream, in, out *cuda.Buffer[T], init T) error {
	if err := check(a, op, s, in, out, 1, nil); err != nil {
		return err
	}
	pl := planReduce(policyOf[T](a), op, in.Len(), a.resident)
	var temp *cuda.Buffer[T]
	if pl.tempElems > 0 {
		var err error
		if temp, err = allocTemp[T](a, s, op, pl.tempElems); err != nil {
			return err
		}
		defer temp.Close() // cuMemFreeAsync on s: after the launches
	}
	buf := buffers[T]{in, out, temp}.of
	t := typeName[T]()
	for _, st := range pl.steps {
		cfg := st.config(s)
		var err error
		switch f := a.fns[st.kernel+"/"+t].(type) {
		case func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], int32) error: // tiles
			err = f(cfg, buf(st.in), buf(st.out), st.n)
		case func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], int32, T) error: // single
			err = f(cfg, buf(st.in), buf(st.out), st.n, init)
		default:
			err = fmt.Errorf("no kernel %s for %s", st.kernel, t)
		}
		if err != nil {
			return fmt.Errorf("algo: %s[%s]: %s: %w", op, t, st.kernel, err)
		}
	}
	return nil
}

func argReduce[T Number](a *Lib, op string, s *cuda.Stream, in *cuda.Buffer[T], index *cuda.Buffer[int32], value *cuda.Buffer[T], empty T) error {
	name := "Arg" + op
	if index == nil {
		return fmt.Errorf("algo: %s: %w", name, errNilBuffer)
	}
	if err := check(a, name, s, in, value, 1, index); err != nil {
		return err
	}
	pl := planArg(policyOf[T](a), op, in.Len(), a.resident)
	var temp *cuda.Buffer[byte]
	if pl.tempBytes > 0 {
		var err error
		if temp, err = allocTemp[byte](a, s, name, pl.tempBytes); err != nil {
			return err
		}
		defer temp.Close()
	}
	t := typeName[T]()
	for _, st := range pl.steps {
		cfg := st.config(s)
		f := a.fns[st.kernel+"/"+t]
		var err error
		// By the step's operands, not by the func's type: for uint8 (which
		// is byte) the single and the partials kernels have the same Go
		// type, and a type switch would give the partials kernel the input.
		switch {
		case st.out == opTemp: // tiles: a pair a block into temp
			var k func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[byte], int32) error
			if k, err = kernelAs(k, f, st, t); err == nil {
				err = k(cfg, in, temp, st.n)
			}
		case st.in == opTemp: // partials: temp's pairs into index and value
			var k func(cuda.Config, *cuda.Buffer[byte], *cuda.Buffer[int32], *cuda.Buffer[T], int32, T) error
			if k, err = kernelAs(k, f, st, t); err == nil {
				err = k(cfg, temp, index, value, st.n, empty)
			}
		default: // single: in's pairs into index and value
			var k func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[int32], *cuda.Buffer[T], int32, T) error
			if k, err = kernelAs(k, f, st, t); err == nil {
				err = k(cfg, in, index, value, st.n, empty)
			}
		}
		if err != nil {
			return fmt.Errorf("algo: %s[%s]: %s: %w", name, t, st.kernel, err)
		}
	}
	return nil
}

func scan[T Number](a *Lib, kernel, op string, s *cuda.Stream, in, out *cuda.Buffer[T]) error {
	if err := check(a, op, s, in, out, in.Len(), nil); err != nil {
		return err
	}
	pl := planScan(policyOf[T](a), kernel, in.Len())
	if len(pl.steps) == 0 {
		return nil
	}
	state, err := allocTemp[byte](a, s, op, pl.tempBytes)
	if err != nil {
		return err
	}
	defer state.Close()
	t := typeName[T]()
	for _, st := range pl.steps {
		cfg := st.config(s)
		var err error
		switch f := a.fns[st.kernel+"/"+t].(type) {
		case func(cuda.Config, *cuda.Buffer[byte], int32) error: // scanInit
			err = f(cfg, state, st.n)
		case func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[byte], int32, int32, int32) error: // inclusive
			err = f(cfg, in, out, state, st.numTiles, st.startTile, st.n)
		case func(cuda.Config, *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[byte], int32, int32, int32, T) error: // exclusive
			err = f(cfg, in, out, state, st.numTiles, st.startTile, st.n, 0)
		default:
			err = fmt.Errorf("no kernel %s for %s", st.kernel, t)
		}
		if err != nil {
			return fmt.Errorf("algo: %s[%s]: %s: %w", op, t, st.kernel, err)
		}
	}
	return nil
}

// kernelAs is f, the launch func of st's kernel for type t, as the
// signature F its caller passes (only its type is read).
func kernelAs[F any](_ F, f any, st step, t string) (F, error) {
	k, ok := f.(F)
	if !ok {
		return k, fmt.Errorf("no kernel %s for %s", st.kernel, t)
	}
	return k, nil
}

// buffers are what a plan's operands name: the call's input and output
// and its temporary storage.
type buffers[E any] struct{ in, out, temp *cuda.Buffer[E] }

// of is the buffer o names.
func (b buffers[E]) of(o operand) *cuda.Buffer[E] {
	switch o {
	case opIn:
		return b.in
	case opOut:
		return b.out
	}
	return b.temp
}

// config is the launch configuration of the step on stream s.
func (st step) config(s *cuda.Stream) cuda.Config {
	return cuda.Config{Grid: cuda.Dim3{X: st.grid}, Block: cuda.Dim3{X: st.block}, Stream: s}
}

// allocTemp allocates temporary storage in stream order on s: from a's
// caching allocator, else its pool, else the device's current one; its
// error names op.
func allocTemp[E any](a *Lib, s *cuda.Stream, op string, n int) (*cuda.Buffer[E], error) {
	var b *cuda.Buffer[E]
	var err error
	if a.cache != nil {
		b, err = cuda.AllocCached[E](a.cache, s, n)
	} else if a.pool != nil {
		b, err = cuda.AllocFromPool[E](a.pool, s, n)
	} else {
		b, err = cuda.AllocAsync[E](s, n)
	}
	if err != nil {
		return nil, fmt.Errorf("algo: %s: temporary storage: %w", op, err)
	}
	return b, nil
}

// greatest is T's greatest value, Min's identity: CUB's
// Traits<T>::Max() for integers, +Inf for floats (cuda.Float16 and
// cuda.BFloat16 included).
func greatest[T Number]() T {
	var v any
	switch any(*new(T)).(type) {
	case int8:
		v = int8(math.MaxInt8)
	case uint8:
		v = uint8(math.MaxUint8)
	case int16:
		v = int16(math.MaxInt16)
	case uint16:
		v = uint16(math.MaxUint16)
	case cuda.Float16:
		v = cuda.Float16(0x7c00) // +Inf
	case cuda.BFloat16:
		v = cuda.BFloat16(0x7f80)
	case int32:
		v = int32(math.MaxInt32)
	case uint32:
		v = uint32(math.MaxUint32)
	case int64:
		v = int64(math.MaxInt64)
	case uint64:
		v = uint64(math.MaxUint64)
	case float32:
		v = float32(math.Inf(1))
	default:
		v = math.Inf(1)
	}
	return v.(T)
}

// least is T's least value, Max's identity.
func least[T Number]() T {
	var v any
	switch any(*new(T)).(type) {
	case int8:
		v = int8(math.MinInt8)
	case uint8:
		v = uint8(0)
	case int16:
		v = int16(math.MinInt16)
	case uint16:
		v = uint16(0)
	case cuda.Float16:
		v = cuda.Float16(0xfc00) // -Inf
	case cuda.BFloat16:
		v = cuda.BFloat16(0xff80)
	case int32:
		v = int32(math.MinInt32)
	case uint32:
		v = uint32(0)
	case int64:
		v = int64(math.MinInt64)
	case uint64:
		v = uint64(0)
	case float32:
		v = float32(math.Inf(-1))
	default:
		v = math.Inf(-1)
	}
	return v.(T)
}
