package sparse

import (
	"runtime"

	cuda "github.com/cugen/cugen/cuda"
	mathlib "github.com/cugen/cugen/cuda/internal"
	"github.com/cugen/cugen/cuda/sys/cusparse"
)

// Vec is a dense vector over a buffer (a cusparseDnVecDescr_t): the
// operations read and write the buffer's elements. It does not own the
// buffer; Close destroys only the descriptor.
type Vec[T Scalar] struct {
	g  guard
	d  *vecDescr
	cl runtime.Cleanup
	b  *cuda.Buffer[T]
	n  int
}

type vecDescr struct {
	d    cusparse.DnVecDescr
	done bool
}

func (d *vecDescr) destroy() error {
	if d.done {
		return nil
	}
	d.done = true
	return cusparse.DestroyDnVec(d.d)
}

// NewVec describes b as a dense vector of b.Len() elements
// (cusparseCreateDnVec).
func NewVec[T Scalar](b *cuda.Buffer[T]) (*Vec[T], error) {
	if b == nil {
		return nil, errs.Shape("NewVec", "nil buffer")
	}
	d, err := cusparse.CreateDnVec(int64(b.Len()), ptr(b), mathlib.TypeOf[T]())
	if err != nil {
		return nil, err
	}
	v := &Vec[T]{d: &vecDescr{d: d}, b: b, n: b.Len()}
	v.cl = runtime.AddCleanup(v, func(d *vecDescr) { d.destroy() }, v.d)
	return v, nil
}

// Len is the vector's length.
func (v *Vec[T]) Len() int { return v.n }

// Buffer is the buffer the vector describes.
func (v *Vec[T]) Buffer() *cuda.Buffer[T] { return v.b }

// Raw returns cuSPARSE's descriptor, for the cusparse package.
func (v *Vec[T]) Raw() cusparse.DnVecDescr { return v.d.d }

// Close destroys the descriptor (cusparseDestroyDnVec), not the buffer;
// ErrClosed after the first.
func (v *Vec[T]) Close() error {
	if !v.g.close() {
		return ErrClosed
	}
	v.cl.Stop()
	return v.d.destroy()
}

// Dense is a dense rows×cols matrix over a buffer (a
// cusparseDnMatDescr_t) in the order given, with leading dimension ld:
// element (i, j) at i*ld + j in RowMajor order (ld >= cols), at i + j*ld
// in ColMajor order (ld >= rows). It does not own the buffer; Close
// destroys only the descriptor.
type Dense[T Scalar] struct {
	g          guard
	d          *matDescr
	cl         runtime.Cleanup
	b          *cuda.Buffer[T]
	rows, cols int
	ld         int
	order      Order
}

type matDescr struct {
	d    cusparse.DnMatDescr
	done bool
}

func (d *matDescr) destroy() error {
	if d.done {
		return nil
	}
	d.done = true
	return cusparse.DestroyDnMat(d.d)
}

// NewDense describes b as a rows×cols matrix in order with leading
// dimension ld (cusparseCreateDnMat). b must hold the last element: at
// least (rows-1)*ld+cols elements in RowMajor order, (cols-1)*ld+rows in
// ColMajor (none for an empty matrix). Go's [][]T flattened row after row
// is RowMajor with ld = cols.
func NewDense[T Scalar](b *cuda.Buffer[T], rows, cols, ld int, order Order) (*Dense[T], error) {
	const op = "NewDense"
	if b == nil {
		return nil, errs.Shape(op, "nil buffer")
	}
	if err := checkDense(op, b.Len(), rows, cols, ld, order); err != nil {
		return nil, err
	}
	d, err := cusparse.CreateDnMat(int64(rows), int64(cols), int64(ld), ptr(b), mathlib.TypeOf[T](), cusparse.Order(order))
	if err != nil {
		return nil, err
	}
	m := &Dense[T]{d: &matDescr{d: d}, b: b, rows: rows, cols: cols, ld: ld, order: order}
	m.cl = runtime.AddCleanup(m, func(d *matDescr) { d.destroy() }, m.d)
	return m, nil
}

func checkDense(op string, n, rows, cols, ld int, order Order) error {
	if !order.valid() {
		return errs.Shape(op, "order %d", order)
	}
	if err := checkDims(op, rows, cols); err != nil {
		return err
	}
	inner, outer := cols, rows // RowMajor: ld spans a row
	if order == ColMajor {
		inner, outer = rows, cols
	}
	if ld < max(1, inner) {
		return errs.Shape(op, "leading dimension %d below %d", ld, max(1, inner))
	}
	if rows == 0 || cols == 0 {
		return nil
	}
	if need := (outer-1)*ld + inner; outer-1 > maxDim/ld || n < need {
		return errs.Shape(op, "buffer of %d elements for a %d×%d matrix with leading dimension %d (%d needed)", n, rows, cols, ld, need)
	}
	return nil
}

// Rows and Cols are the matrix's dimensions.
func (m *Dense[T]) Rows() int { return m.rows }
func (m *Dense[T]) Cols() int { return m.cols }

// Buffer is the buffer the matrix describes.
func (m *Dense[T]) Buffer() *cuda.Buffer[T] { return m.b }

// Raw returns cuSPARSE's descriptor, for the cusparse package.
func (m *Dense[T]) Raw() cusparse.DnMatDescr { return m.d.d }

// Close destroys the descriptor (cusparseDestroyDnMat), not the buffer;
// ErrClosed after the first.
func (m *Dense[T]) Close() error {
	if !m.g.close() {
		return ErrClosed
	}
	m.cl.Stop()
	return m.d.destroy()
}
