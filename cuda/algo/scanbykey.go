package algo

import (
	"fmt"

	"github.com/cugen/cugen/cuda"
)

// InclusiveSumByKey queues out[i] = the sum of in[j] over the run of
// equal keys i is in, from its first element to i (CUB's
// DeviceScan::InclusiveSumByKey with int32 keys and cub::Equality): a
// prefix sum that starts again wherever keys[i] != keys[i-1]. keys and
// out have in's length; out may be in itself (no other overlap is
// taken). Integers wrap around;
// floats are summed in CUB's order, as [InclusiveSum] says.
func InclusiveSumByKey[T Wide](a *Lib, s *cuda.Stream, keys *cuda.Buffer[int32], in, out *cuda.Buffer[T]) error {
	return scanByKey(a, "InclusiveSumByKey", "scanByKeyInclusiveSum", s, keys, in, out)
}

// ExclusiveSumByKey is [InclusiveSumByKey] without in[i]: out[i] = 0 at
// the first element of each run of equal keys, then the sum of the run's
// elements before i (CUB's DeviceScan::ExclusiveSumByKey).
func ExclusiveSumByKey[T Wide](a *Lib, s *cuda.Stream, keys *cuda.Buffer[int32], in, out *cuda.Buffer[T]) error {
	return scanByKey(a, "ExclusiveSumByKey", "scanByKeyExclusiveSum", s, keys, in, out)
}

func scanByKey[T Wide](a *Lib, op, kernel string, s *cuda.Stream, keys *cuda.Buffer[int32], in, out *cuda.Buffer[T]) error {
	if s == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilStream)
	}
	if keys == nil || in == nil || out == nil {
		return fmt.Errorf("algo: %s: %w", op, errNilBuffer)
	}
	if keys.Len() != in.Len() {
		return fmt.Errorf("algo: %s[%s]: the keys have %d elements for %d: want %d", op, typeName[T](), keys.Len(), in.Len(), in.Len())
	}
	if overlap(in, out) && in.Ptr() != out.Ptr() {
		return fmt.Errorf("algo: %s[%s]: out overlaps in but is not in itself", op, typeName[T]())
	}
	if err := s.Call(nop, keys); err != nil {
		return fmt.Errorf("algo: %s: %w", op, err)
	}
	if err := check(a, op, s, in, out, in.Len(), nil); err != nil {
		return err
	}
	pl := planScanByKey(policyOf[T](a).scanByKey, kernel, in.Len())
	if len(pl.steps) == 0 {
		return nil
	}
	state, err := allocTemp[byte](a, s, op, pl.tempBytes)
	if err != nil {
		return err
	}
	defer state.Close()
	prev, err := allocTemp[int32](a, s, op, pl.tempElems)
	if err != nil {
		return err
	}
	defer prev.Close()
	t := typeName[T]()
	for _, st := range pl.steps {
		cfg := st.config(s)
		var err error
		switch f := a.fns[st.kernel+"/"+t].(type) {
		case func(cuda.Config, *cuda.Buffer[byte], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, int32) error: // init
			err = f(cfg, state, keys, prev, st.n, st.numTiles)
		case func(cuda.Config, *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[byte], int32, int32) error: // inclusive
			err = f(cfg, keys, prev, in, out, state, st.numTiles, st.n)
		case func(cuda.Config, *cuda.Buffer[int32], *cuda.Buffer[int32], *cuda.Buffer[T], *cuda.Buffer[T], *cuda.Buffer[byte], int32, int32, T) error: // exclusive
			err = f(cfg, keys, prev, in, out, state, st.numTiles, st.n, 0)
		default:
			err = fmt.Errorf("no kernel %s for %s", st.kernel, t)
		}
		if err != nil {
			return fmt.Errorf("algo: %s[%s]: %s: %w", op, t, st.kernel, err)
		}
	}
	return nil
}
