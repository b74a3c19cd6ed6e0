package fft

import (
	mathlib "github.com/cugen/cugen/cuda/internal"

	"github.com/cugen/cugen/cuda/sys/cufft"
)

// Type is a transform's type (cufftType): C2C, R2C and C2R in single
// precision, Z2Z, D2Z and Z2D in double.
type Type = cufft.Type

// The transform types.
const (
	C2C = cufft.C2C // complex64 to complex64
	R2C = cufft.R2C // float32 to complex64 (forward)
	C2R = cufft.C2R // complex64 to float32 (inverse)
	Z2Z = cufft.Z2Z // complex128 to complex128
	D2Z = cufft.D2Z // float64 to complex128 (forward)
	Z2D = cufft.Z2D // complex128 to float64 (inverse)
)

// Direction is a complex transform's sign: Forward (e^-2πi jk/n) or
// Inverse (e^+2πi jk/n, unnormalised: a forward and an inverse transform
// multiply the data by the transform's size).
type Direction int32

// The directions (CUFFT_FORWARD, CUFFT_INVERSE).
const (
	Forward Direction = cufft.Forward
	Inverse Direction = cufft.Inverse
)

// Desc describes a plan: its type, its sizes and batch, and optionally an
// advanced data layout (cufftPlanMany's embed, stride and distance).
//
// Without InEmbed and OutEmbed, each transform's data is contiguous in C
// order (the last size varies fastest) and the batch's transforms follow
// each other. A real-to-complex transform of sizes n0 × ... × nk has
// n0 × ... × (nk/2+1) complex outputs (Hermitian symmetry); complex to
// real takes as many as input.
//
// With InEmbed and OutEmbed (both, each of len(Dims) sizes, at least the
// data's own along each dimension), element (i0, ..., ik) of transform b
// of the input is at index b*InDist + InStride*(ik + InEmbed[k]*(...
// + InEmbed[1]*i0)), and likewise for the output.
type Desc struct {
	Type  Type
	Dims  []int // 1 to 3 sizes, outermost first: {n}, {nx, ny}, {nx, ny, nz}
	Batch int   // how many transforms; 0 is 1

	InEmbed, OutEmbed   []int // nil: contiguous
	InStride, OutStride int   // with the embeds only
	InDist, OutDist     int   // with the embeds only

	// ExternalWorkspace leaves the work area to the caller
	// (cufftSetAutoAllocation(0)): set one of at least WorkSize bytes
	// with Plan.SetWorkArea before the first transform.
	ExternalWorkspace bool
}

// Error is a call refused before cuFFT is called: Op the function or
// method ("Plan.C2C"), Err the cufft.Result that names what is wrong
// (cufft.InvalidSize, InvalidValue, InvalidType, ...; errors.Is), Msg
// what was wrong. It is one type for every math package.
type Error = mathlib.Error

// ErrClosed is returned by the use of a closed plan or cache and by a
// second Close: one value for every math package (errors.Is(ErrClosed,
// cuda.ErrFreed) is true).
var ErrClosed = mathlib.ErrClosed

// errs makes the package's errors.
const errs = mathlib.Pkg("fft")

// key is a Desc in a comparable form, with what it implies: a plan
// cache's key, and the checked shape a plan keeps.
type key struct {
	typ      Type
	rank     int
	n        [3]int64
	batch    int64
	advanced bool
	inEmbed  [3]int64
	outEmbed [3]int64
	istride  int64
	idist    int64
	ostride  int64
	odist    int64
	external bool
}

// shape is a checked key and the lengths its buffers need.
type shape struct {
	key
	inLen, outLen int64 // elements
}

const maxElems = 1 << 56 // beyond any device memory, below overflow

func isDouble(t Type) bool { return t == Z2Z || t == D2Z || t == Z2D }

// keyOf converts d, with no check, for a cache lookup (allocation free).
func keyOf(d *Desc) (key, bool) {
	k := key{typ: d.Type, rank: len(d.Dims), batch: int64(d.Batch), external: d.ExternalWorkspace}
	if k.rank < 1 || k.rank > 3 || (d.InEmbed != nil && len(d.InEmbed) != k.rank) || (d.OutEmbed != nil && len(d.OutEmbed) != k.rank) {
		return k, false
	}
	if k.batch == 0 {
		k.batch = 1
	}
	for i, v := range d.Dims {
		k.n[i] = int64(v)
	}
	if d.InEmbed != nil || d.OutEmbed != nil {
		k.advanced = true
		for i := range k.rank {
			if d.InEmbed != nil {
				k.inEmbed[i] = int64(d.InEmbed[i])
			}
			if d.OutEmbed != nil {
				k.outEmbed[i] = int64(d.OutEmbed[i])
			}
		}
	}
	k.istride, k.idist, k.ostride, k.odist = int64(d.InStride), int64(d.InDist), int64(d.OutStride), int64(d.OutDist)
	return k, true
}

// check validates d into the shape of its plan.
func check(op string, d *Desc) (shape, error) {
	switch d.Type {
	case C2C, R2C, C2R, Z2Z, D2Z, Z2D:
	default:
		return shape{}, errs.Errorf(op, cufft.InvalidType, "unknown transform type %d", int32(d.Type))
	}
	if r := len(d.Dims); r < 1 || r > 3 {
		return shape{}, errs.Errorf(op, cufft.InvalidValue, "%d sizes: want 1 to 3", r)
	}
	if d.Batch < 0 {
		return shape{}, errs.Errorf(op, cufft.InvalidValue, "batch %d", d.Batch)
	}
	for i, v := range d.Dims {
		if v < 1 || v > maxElems {
			return shape{}, errs.Errorf(op, cufft.InvalidSize, "size %d along dimension %d", v, i)
		}
	}
	k, _ := keyOf(d)
	switch {
	case (d.InEmbed == nil) != (d.OutEmbed == nil):
		return shape{}, errs.Errorf(op, cufft.InvalidValue, "InEmbed and OutEmbed go together (cuFFT ignores the one without the other)")
	case d.InEmbed == nil && (d.InStride|d.OutStride|d.InDist|d.OutDist) != 0:
		return shape{}, errs.Errorf(op, cufft.InvalidValue, "strides and distances without InEmbed and OutEmbed (cuFFT would ignore them)")
	case d.InEmbed != nil && (len(d.InEmbed) != k.rank || len(d.OutEmbed) != k.rank):
		return shape{}, errs.Errorf(op, cufft.InvalidValue, "embeds of %d and %d sizes for %d dimensions", len(d.InEmbed), len(d.OutEmbed), k.rank)
	}
	in, out := k.n, k.n
	last := k.rank - 1
	switch k.typ {
	case R2C, D2Z:
		out[last] = k.n[last]/2 + 1
	case C2R, Z2D:
		in[last] = k.n[last]/2 + 1
	}
	s := shape{key: k}
	var err error
	if s.inLen, err = extent(op, "input", k.rank, k.batch, in, k.advanced, k.inEmbed, k.istride, k.idist); err != nil {
		return shape{}, err
	}
	if s.outLen, err = extent(op, "output", k.rank, k.batch, out, k.advanced, k.outEmbed, k.ostride, k.odist); err != nil {
		return shape{}, err
	}
	return s, nil
}

// extent returns the elements one side's buffer needs: one past the
// largest index the layout reaches.
func extent(op, side string, rank int, batch int64, m [3]int64, advanced bool, embed [3]int64, stride, dist int64) (int64, error) {
	if !advanced {
		n := batch
		for i := range rank {
			if n > maxElems/m[i] {
				return 0, errs.Errorf(op, cufft.InvalidSize, "%s of more than 2^56 elements", side)
			}
			n *= m[i]
		}
		return n, nil
	}
	if stride < 1 || dist < 0 || (batch > 1 && dist < 1) {
		return 0, errs.Errorf(op, cufft.InvalidValue, "%s stride %d, distance %d: want a stride >= 1 and a distance >= 1 for a batch", side, stride, dist)
	}
	var top, step int64 = 0, 1 // the largest index of one transform; the step of dimension i
	for i := rank - 1; i >= 0; i-- {
		if embed[i] < m[i] {
			return 0, errs.Errorf(op, cufft.InvalidValue, "%s embed %d along dimension %d holds fewer than the %d elements there", side, embed[i], i, m[i])
		}
		top += (m[i] - 1) * step
		if i > 0 {
			if step > maxElems/embed[i] {
				return 0, errs.Errorf(op, cufft.InvalidSize, "%s layout beyond 2^56 elements", side)
			}
			step *= embed[i]
		}
	}
	if top > maxElems/stride || (batch-1) > maxElems/max(dist, 1) {
		return 0, errs.Errorf(op, cufft.InvalidSize, "%s layout beyond 2^56 elements", side)
	}
	n := (batch-1)*dist + top*stride + 1
	if n > maxElems {
		return 0, errs.Errorf(op, cufft.InvalidSize, "%s layout beyond 2^56 elements", side)
	}
	return n, nil
}
