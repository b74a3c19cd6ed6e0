package blas

import (
	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cublas"
)

// Scalar is the element type of the generic calls: cuBLAS's S, D, C and
// Z functions.
type Scalar interface {
	float32 | float64 | complex64 | complex128
}

// Element is what a [Matrix] may hold: a [Scalar], or the half-precision
// types of [GemmEx].
type Element interface {
	Scalar | cuda.Float16 | cuda.BFloat16
}

// Layout is how a matrix is stored in its buffer.
type Layout uint8

const (
	// RowMajor stores rows one after another: element (i, j) at
	// Buf[i*Stride+j]. Go's own order, and the zero Layout.
	RowMajor Layout = iota
	// ColMajor stores columns one after another: element (i, j) at
	// Buf[j*Stride+i]. cuBLAS's own order.
	ColMajor
)

func (l Layout) String() string {
	switch l {
	case RowMajor:
		return "row-major"
	case ColMajor:
		return "column-major"
	}
	return "Layout(?)"
}

// Transpose is the operation applied to a matrix operand: op(A) is A,
// Aᵀ or Aᴴ.
type Transpose uint8

const (
	NoTrans   Transpose = iota // op(A) = A
	Trans                      // op(A) = Aᵀ
	ConjTrans                  // op(A) = Aᴴ (Aᵀ for a real type)
)

func (t Transpose) String() string {
	switch t {
	case NoTrans:
		return "NoTrans"
	case Trans:
		return "Trans"
	case ConjTrans:
		return "ConjTrans"
	}
	return "Transpose(?)"
}

// op is cuBLAS's operation for t.
func (t Transpose) op() cublas.Operation {
	switch t {
	case Trans:
		return cublas.OpT
	case ConjTrans:
		return cublas.OpC
	}
	return cublas.OpN
}

// Matrix is a Rows×Cols matrix stored in Buf with the given Layout:
// element (i, j) at Buf[i*Stride+j] (RowMajor) or Buf[j*Stride+i]
// (ColMajor). Stride is the distance between the starts of two rows
// (columns), at least Cols (Rows); 0 means exactly that. A row-major
// matrix goes to cuBLAS as it is, no copy: it is the column-major
// matrix's transpose, and the calls rewrite the operation around that
// (C = A·B row-major is Cᵀ = Bᵀ·Aᵀ column-major). Take a submatrix by
// slicing the buffer (Buf.Slice) at its first element and keeping the
// parent's Stride.
type Matrix[T Element] struct {
	Buf        *cuda.Buffer[T]
	Rows, Cols int
	Stride     int
	Layout     Layout
}

// Dense returns the row-major rows×cols matrix packed in buf (Stride
// cols).
func Dense[T Element](buf *cuda.Buffer[T], rows, cols int) Matrix[T] {
	return Matrix[T]{Buf: buf, Rows: rows, Cols: cols}
}

// DenseCol returns the column-major rows×cols matrix packed in buf
// (Stride rows).
func DenseCol[T Element](buf *cuda.Buffer[T], rows, cols int) Matrix[T] {
	return Matrix[T]{Buf: buf, Rows: rows, Cols: cols, Layout: ColMajor}
}

// Vector is N elements of Buf, Inc apart: element i at Buf[i*Inc]. Inc 0
// means 1; a negative Inc is refused (cuBLAS would walk it backwards from
// the end).
type Vector[T Scalar] struct {
	Buf *cuda.Buffer[T]
	N   int
	Inc int
}

// Vec returns all of buf as a vector (N buf.Len(), Inc 1); nil for a nil
// buf.
func Vec[T Scalar](buf *cuda.Buffer[T]) Vector[T] {
	if buf == nil {
		return Vector[T]{}
	}
	return Vector[T]{Buf: buf, N: buf.Len(), Inc: 1}
}

// Strided is a batch of Count matrices in one buffer: the first is
// Matrix (in Matrix.Buf), matrix i starts Stride elements after matrix
// i-1 (cuBLAS's strided-batched layout). Stride 0 repeats one matrix in
// every batch entry, as cuBLAS allows for an input.
type Strided[T Element] struct {
	Matrix[T]
	Stride int
	Count  int
}
