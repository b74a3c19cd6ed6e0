package blas

import (
	"errors"
	mathlib "github.com/cugen/cugen/cuda/internal"
	"math"

	"github.com/cugen/cugen/cuda/sys/cublas"
)

// The kinds of error a call returns before cuBLAS is called, as the Err of
// an [*Error]: errors.Is(err, blas.ErrDimension).
var (
	// ErrDimension: the operands' sizes do not fit together (op(A) is
	// m×k and op(B) is not k×n, a vector's length is not the matrix's).
	ErrDimension = errors.New("dimension mismatch")
	// ErrStride: a matrix's Stride is less than its row (column) length,
	// or a batch's stride would overlap its outputs.
	ErrStride = errors.New("bad stride")
	// ErrLength: a buffer is shorter than the matrix, vector or batch the
	// call reads or writes in it.
	ErrLength = errors.New("buffer too short")
	// ErrArgument: anything else about an argument: a nil buffer, a
	// negative size, a size over cuBLAS's int32, an unknown Transpose or
	// Layout, a combination cuBLAS has no form for.
	ErrArgument = errors.New("bad argument")
)

// Error is a call's argument refused before cuBLAS is called: Op the call
// ("Gemm", "Dot", ...), Err its kind (ErrDimension, ErrStride, ErrLength
// or ErrArgument), Msg what was wrong, naming the argument. It is one type
// for every math package.
type Error = mathlib.Error

// errs makes the package's errors.
const errs = mathlib.Pkg("blas")

// shape is what the checks know of a matrix: its sizes, its layout and
// its buffer's length (n, -1 for a nil buffer).
type shape struct {
	rows, cols, stride int
	layout             Layout
	n                  int
}

func shapeOf[T Element](m Matrix[T]) shape {
	s := shape{rows: m.Rows, cols: m.Cols, stride: m.Stride, layout: m.Layout, n: -1}
	if m.Buf != nil {
		s.n = m.Buf.Len()
	}
	return s
}

// vshape is what the checks know of a vector.
type vshape struct{ n, inc, len int }

func vshapeOf[T Scalar](v Vector[T]) vshape {
	s := vshape{n: v.N, inc: v.Inc, len: -1}
	if v.Buf != nil {
		s.len = v.Buf.Len()
	}
	return s
}

// fits32 reports whether every v fits cuBLAS's int.
func fits32(vs ...int) bool {
	for _, v := range vs {
		if v > math.MaxInt32 {
			return false
		}
	}
	return true
}

// footprint is the number of elements of s's buffer the matrix spans.
func (s shape) footprint() int {
	if s.rows == 0 || s.cols == 0 {
		return 0
	}
	outer, inner := s.rows, s.cols
	if s.layout == ColMajor {
		outer, inner = s.cols, s.rows
	}
	return (outer-1)*s.stride + inner
}

// checkMatrix checks matrix name of op, resolving a zero Stride; count
// matrices batchStride apart share the buffer (count 1: one matrix). It
// tests every rule at once, without a call; a matrix that breaks one
// goes to matrixError, which finds the first it breaks and says so.
func checkMatrix(op, name string, s *shape, count, batchStride int) error {
	inner := s.cols
	if s.layout == ColMajor {
		inner = s.rows
	}
	stride := s.stride
	if stride == 0 {
		stride = max(inner, 1)
	}
	if s.n < 0 || s.rows < 0 || s.cols < 0 || s.layout > ColMajor || stride < max(inner, 1) ||
		s.rows > math.MaxInt32 || s.cols > math.MaxInt32 || stride > math.MaxInt32 {
		return matrixError(op, name, s, count, batchStride)
	}
	need := 0
	if s.rows != 0 && s.cols != 0 {
		need = (s.rows+s.cols-inner-1)*stride + inner // outer = rows+cols-inner
		if count > 1 {
			need += (count - 1) * batchStride
		}
	}
	if need > s.n {
		return matrixError(op, name, s, count, batchStride)
	}
	s.stride = stride
	return nil
}

// matrixError is checkMatrix's error: the first rule s breaks, checked
// one by one (nil, and the stride resolved, if none).
func matrixError(op, name string, s *shape, count, batchStride int) error {
	if s.n < 0 {
		return errs.Errorf(op, ErrArgument, "%s has a nil buffer", name)
	}
	if s.rows < 0 || s.cols < 0 {
		return errs.Errorf(op, ErrArgument, "%s is %d×%d: a negative size", name, s.rows, s.cols)
	}
	inner, what := s.cols, "columns"
	switch s.layout {
	case RowMajor:
	case ColMajor:
		inner, what = s.rows, "rows"
	default:
		return errs.Errorf(op, ErrArgument, "%s has an unknown Layout %d", name, s.layout)
	}
	if s.stride == 0 {
		s.stride = max(inner, 1)
	}
	if s.stride < max(inner, 1) {
		return errs.Errorf(op, ErrStride, "%s: stride %d is less than the %d %s of the %s %d×%d matrix", name, s.stride, inner, what, s.layout, s.rows, s.cols)
	}
	if !fits32(s.rows, s.cols, s.stride) {
		return errs.Errorf(op, ErrArgument, "%s is %d×%d with stride %d: over cuBLAS's int32", name, s.rows, s.cols, s.stride)
	}
	need := s.footprint()
	if count > 1 && need > 0 {
		need += (count - 1) * batchStride
	}
	if need > s.n {
		if count > 1 {
			return errs.Errorf(op, ErrLength, "%s: a batch of %d %d×%d matrices %d apart (stride %d) spans %d elements, the buffer has %d", name, count, s.rows, s.cols, batchStride, s.stride, need, s.n)
		}
		return errs.Errorf(op, ErrLength, "%s: the %s %d×%d matrix with stride %d spans %d elements, the buffer has %d", name, s.layout, s.rows, s.cols, s.stride, need, s.n)
	}
	return nil
}

// checkVector checks vector name of op, resolving a zero Inc.
func checkVector(op, name string, v *vshape) error {
	if v.len < 0 {
		return errs.Errorf(op, ErrArgument, "%s has a nil buffer", name)
	}
	if v.n < 0 {
		return errs.Errorf(op, ErrArgument, "%s has N %d: a negative length", name, v.n)
	}
	if v.inc < 0 {
		return errs.Errorf(op, ErrArgument, "%s has Inc %d: a negative increment", name, v.inc)
	}
	if v.inc == 0 {
		v.inc = 1
	}
	if !fits32(v.n, v.inc) {
		return errs.Errorf(op, ErrArgument, "%s has N %d, Inc %d: over cuBLAS's int32", name, v.n, v.inc)
	}
	if v.n > 0 {
		if need := (v.n-1)*v.inc + 1; need > v.len {
			return errs.Errorf(op, ErrLength, "%s: %d elements %d apart span %d, the buffer has %d", name, v.n, v.inc, need, v.len)
		}
	}
	return nil
}

// checkResult checks that a device result buffer has room for one value.
func checkResult(op string, n int) error {
	if n < 0 {
		return errs.Errorf(op, ErrArgument, "the result buffer is nil")
	}
	if n < 1 {
		return errs.Errorf(op, ErrLength, "the result buffer has no element")
	}
	return nil
}

func checkTrans(op, name string, t Transpose) error {
	if t > ConjTrans {
		return errs.Errorf(op, ErrArgument, "%s has an unknown Transpose %d", name, t)
	}
	return nil
}

// opDims returns op(A)'s sizes.
func opDims(s shape, t Transpose) (rows, cols int) {
	if t == NoTrans {
		return s.rows, s.cols
	}
	return s.cols, s.rows
}

// cublasOp is the operation on the column-major matrix cuBLAS sees of an
// operand stored in layout that yields t of it in the target layout:
// the same one when the layouts agree, else the other of NoTrans and
// Trans (a row-major matrix is its column-major transpose). ConjTrans
// across layouts would be a conjugate without transpose, which cuBLAS
// has no operation for.
func cublasOp(op, name string, t Transpose, layout, target Layout) (cublas.Operation, error) {
	if layout == target {
		return t.op(), nil
	}
	switch t {
	case NoTrans:
		return cublas.OpT, nil
	case Trans:
		return cublas.OpN, nil
	}
	return 0, errs.Errorf(op, ErrArgument, "%s: ConjTrans of a %s operand with a %s result has no cuBLAS form (store them in one layout)", name, layout, target)
}

// gemmPlan is a checked GEMM as cuBLAS takes it: C (column-major, as
// cuBLAS sees it) = opA(first)·opB(second), swap telling that first is B
// and second A (a row-major C: Cᵀ = op(B)ᵀ·op(A)ᵀ).
type gemmPlan struct {
	opA, opB      cublas.Operation
	m, n, k       int32
	lda, ldb, ldc int32
	swap          bool
	empty         bool // m, n or k is 0: nothing for cuBLAS to read (k 0: C = beta·C still)
}

// planGemm checks C = op(A)·op(B) (batches of count, the strides given)
// and plans it. real: the element type is real, where ConjTrans is Trans.
func planGemm(op string, ta, tb Transpose, a, b, c shape, real bool, count, sa, sb, sc int) (gemmPlan, error) {
	var p gemmPlan
	if ta > ConjTrans || tb > ConjTrans {
		if err := checkTrans(op, "A", ta); err != nil {
			return p, err
		}
		return p, checkTrans(op, "B", tb)
	}
	if real {
		ta, tb = min(ta, Trans), min(tb, Trans)
	}
	if err := checkMatrix(op, "A", &a, count, sa); err != nil {
		return p, err
	}
	if err := checkMatrix(op, "B", &b, count, sb); err != nil {
		return p, err
	}
	if err := checkMatrix(op, "C", &c, count, sc); err != nil {
		return p, err
	}
	am, ak := opDims(a, ta)
	bk, bn := opDims(b, tb)
	if ak != bk {
		return p, errs.Errorf(op, ErrDimension, "op(A) is %d×%d and op(B) is %d×%d: %d columns against %d rows", am, ak, bk, bn, ak, bk)
	}
	if c.rows != am || c.cols != bn {
		return p, errs.Errorf(op, ErrDimension, "op(A)·op(B) is %d×%d, C is %d×%d", am, bn, c.rows, c.cols)
	}
	opA, opB := ta.op(), tb.op()
	if a.layout != c.layout || b.layout != c.layout {
		var err error
		if opA, err = cublasOp(op, "A", ta, a.layout, c.layout); err != nil {
			return p, err
		}
		if opB, err = cublasOp(op, "B", tb, b.layout, c.layout); err != nil {
			return p, err
		}
	}
	p = gemmPlan{opA: opA, opB: opB, m: int32(am), n: int32(bn), k: int32(ak), lda: int32(a.stride), ldb: int32(b.stride), ldc: int32(c.stride)}
	if c.layout == RowMajor {
		p = gemmPlan{opA: opB, opB: opA, m: int32(bn), n: int32(am), k: int32(ak), lda: int32(b.stride), ldb: int32(a.stride), ldc: int32(c.stride), swap: true}
	}
	p.empty = am == 0 || bn == 0
	return p, nil
}

// checkBatch checks a batch's count and strides: inputs may repeat one
// matrix (stride 0), outputs must not overlap.
func checkBatch(op string, count int, strides [3]int) error {
	if count < 0 {
		return errs.Errorf(op, ErrArgument, "a batch of %d", count)
	}
	if !fits32(count) {
		return errs.Errorf(op, ErrArgument, "a batch of %d: over cuBLAS's int32", count)
	}
	for i, name := range []string{"A", "B", "C"} {
		if strides[i] < 0 {
			return errs.Errorf(op, ErrStride, "%s's batch stride %d is negative", name, strides[i])
		}
	}
	return nil
}

// checkBatchOut refuses a C batch whose matrices overlap (c resolved).
func checkBatchOut(op string, count, stride int, c shape) error {
	if count > 1 && c.footprint() > 0 && stride < c.footprint() {
		return errs.Errorf(op, ErrStride, "C's batch stride %d is less than the %d elements one C spans: the outputs would overlap", stride, c.footprint())
	}
	return nil
}

// sameShape refuses a batch entry whose shape differs from the first's.
func sameShape(op, name string, i int, first, s shape) error {
	if s.rows != first.rows || s.cols != first.cols || s.stride != first.stride || s.layout != first.layout {
		return errs.Errorf(op, ErrDimension, "%s[%d] is a %s %d×%d with stride %d, %s[0] a %s %d×%d with stride %d: a batch shares one shape", name, i, s.layout, s.rows, s.cols, s.stride, name, first.layout, first.rows, first.cols, first.stride)
	}
	return nil
}
