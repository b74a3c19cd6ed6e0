package sparse

import (
	"runtime"
	"sync"

	cuda "github.com/cugen/cugen/cuda"
	mathlib "github.com/cugen/cugen/cuda/internal"
	"github.com/cugen/cugen/cuda/sys/cusparse"
	"github.com/cugen/cugen/ffi"
)

// Matrix is a sparse matrix of T on the device: a [CSR], [COO] or [BSR].
// The operations take any of them where cuSPARSE does.
type Matrix[T Scalar] interface {
	// Rows and Cols are the matrix's dimensions in elements.
	Rows() int
	Cols() int
	// NNZ is the number of stored elements (for a BSR, of stored blocks
	// times the block's elements).
	NNZ() int
	// Raw returns cuSPARSE's descriptor, for the cusparse package.
	Raw() cusparse.SpMatDescr
	// Close destroys the descriptor and frees the matrix's buffers, if
	// it owns them (all but a Borrow constructor's matrix).
	Close() error
	mat() *spMat // nil for a nil matrix
}

// spMat is what every format shares: the descriptor, the buffers it
// points to (the call's operands) and the SpMV workspace sizes known.
type spMat struct {
	g          guard
	d          *descr
	cl         runtime.Cleanup // the descriptor's, stopped by Close
	format     string
	rows, cols int
	nnz        int
	ops        [3]cuda.Operand
	bufs       [3]interface{ Close() error }
	wmu        sync.Mutex
	spmv       []workSize // cusparseSpMV_bufferSize's answers, under wmu
}

type workSize struct {
	op   Op
	alg  cusparse.SpMVAlg
	size uint64
}

// descr is a cuSPARSE descriptor, destroyed once: by the owner's Close or
// its cleanup (a host-only call).
type descr struct {
	d    cusparse.SpMatDescr
	done bool
}

func (d *descr) destroy() error {
	if d.done {
		return nil
	}
	d.done = true
	return cusparse.DestroySpMat(d.d)
}

func (m *spMat) Rows() int                { return m.rows }
func (m *spMat) Cols() int                { return m.cols }
func (m *spMat) NNZ() int                 { return m.nnz }
func (m *spMat) Raw() cusparse.SpMatDescr { return m.d.d }

// Close destroys the descriptor (cusparseDestroySpMat) and frees the
// matrix's buffers, after the operations using it on other goroutines;
// ErrClosed after the first.
func (m *spMat) Close() error {
	if !m.g.close() {
		return ErrClosed
	}
	m.cl.Stop()
	err := m.d.destroy()
	for _, b := range m.bufs {
		if b == nil {
			continue
		}
		if e := b.Close(); err == nil {
			err = e
		}
	}
	return err
}

// own makes the matrix's Close free bufs, if own (the FromBuffers
// constructors'); a borrowing one (BorrowCSR, ...) leaves them be.
func (m *spMat) own(own bool, bufs ...interface{ Close() error }) {
	if own {
		copy(m.bufs[:], bufs)
	}
}

// spmvSize returns the cached workspace size of SpMV with op and alg.
func (m *spMat) spmvSize(op Op, alg cusparse.SpMVAlg) (uint64, bool) {
	m.wmu.Lock()
	defer m.wmu.Unlock()
	for _, w := range m.spmv {
		if w.op == op && w.alg == alg {
			return w.size, true
		}
	}
	return 0, false
}

func (m *spMat) setSpmvSize(op Op, alg cusparse.SpMVAlg, size uint64) {
	m.wmu.Lock()
	m.spmv = append(m.spmv, workSize{op, alg, size})
	m.wmu.Unlock()
}

// newSpMat wraps a descriptor made by create, or returns create's error;
// owner's cleanup destroys the descriptor.
func newSpMat[O any](owner *O, m *spMat, create func() (cusparse.SpMatDescr, error)) error {
	d, err := create()
	if err != nil {
		return err
	}
	m.d = &descr{d: d}
	m.cl = runtime.AddCleanup(owner, func(d *descr) { d.destroy() }, m.d)
	return nil
}

func ptr[T any](b *cuda.Buffer[T]) ffi.DeviceAddr {
	if b.Len() == 0 {
		return 0
	}
	return ffi.DeviceAddr(b.Ptr())
}

// hostScalar is v as a pointer-mode scalar in host memory (the handle's
// mode is CUSPARSE_POINTER_MODE_HOST), copied into s at the 16-byte
// alignment cuDoubleComplex wants.
func hostScalar[T any](s *cuda.HostScalar, v T) ffi.HostOrDeviceAddr {
	return ffi.Host((*T)(cuda.AlignScalar(s, v))).Untyped()
}

// CSR is a sparse matrix in compressed sparse row format, zero-based: row
// i's elements are Values[RowPtr[i]:RowPtr[i+1]], in the columns ColInd
// of the same positions. It owns its three buffers; Close frees them.
type CSR[T Scalar, I Index] struct {
	spMat
	rowPtr, colInd *cuda.Buffer[I]
	values         *cuda.Buffer[T]
}

// RowPtr, ColInd and Values are the matrix's buffers: write new values
// into Values (same pattern) and the next operation uses them.
func (a *CSR[T, I]) RowPtr() *cuda.Buffer[I] { return a.rowPtr }
func (a *CSR[T, I]) ColInd() *cuda.Buffer[I] { return a.colInd }
func (a *CSR[T, I]) Values() *cuda.Buffer[T] { return a.values }

func (a *CSR[T, I]) mat() *spMat {
	if a == nil {
		return nil
	}
	return &a.spMat
}

// NewCSR uploads a rows×cols CSR matrix from Go slices into new buffers of
// ctx. rowPtr has rows+1 nondecreasing offsets from 0 to len(values);
// colInd, as long as values, holds column indices in [0, cols). Each is
// checked before anything is allocated.
func NewCSR[T Scalar, I Index](ctx *cuda.Context, rows, cols int, rowPtr, colInd []I, values []T) (*CSR[T, I], error) {
	if err := checkCSR("NewCSR", rows, cols, rowPtr, colInd, len(values)); err != nil {
		return nil, err
	}
	var bufs uploads
	rp := upload(&bufs, ctx, rowPtr)
	ci := upload(&bufs, ctx, colInd)
	vs := upload(&bufs, ctx, values)
	if bufs.err != nil {
		return nil, bufs.fail()
	}
	a, err := CSRFromBuffers(rows, cols, rp, ci, vs)
	if err != nil {
		return nil, bufs.failWith(err)
	}
	return a, nil
}

// CSRFromBuffers makes a rows×cols CSR matrix of buffers already on the
// device, which it takes over: its Close frees them. rowPtr has rows+1
// elements and colInd as many as values; their contents are not checked.
func CSRFromBuffers[T Scalar, I Index](rows, cols int, rowPtr, colInd *cuda.Buffer[I], values *cuda.Buffer[T]) (*CSR[T, I], error) {
	return newCSR("CSRFromBuffers", rows, cols, rowPtr, colInd, values, true)
}

// BorrowCSR is CSRFromBuffers for buffers the matrix borrows: its Close
// destroys its descriptor only, and the buffers stay the caller's, to
// close after every matrix over them. One set of buffers may back several
// matrices (the same pattern with two value arrays, a matrix and its
// transpose's view). A call on a matrix whose buffer was closed returns
// cuda.ErrFreed. Held by TestStandinBorrow.
func BorrowCSR[T Scalar, I Index](rows, cols int, rowPtr, colInd *cuda.Buffer[I], values *cuda.Buffer[T]) (*CSR[T, I], error) {
	return newCSR("BorrowCSR", rows, cols, rowPtr, colInd, values, false)
}

func newCSR[T Scalar, I Index](op string, rows, cols int, rowPtr, colInd *cuda.Buffer[I], values *cuda.Buffer[T], own bool) (*CSR[T, I], error) {
	if rowPtr == nil || colInd == nil || values == nil {
		return nil, errs.Shape(op, "nil buffer")
	}
	if err := checkDims(op, rows, cols); err != nil {
		return nil, err
	}
	if rowPtr.Len() != rows+1 {
		return nil, errs.Shape(op, "rowPtr has %d elements, want rows+1 = %d", rowPtr.Len(), rows+1)
	}
	if colInd.Len() != values.Len() {
		return nil, errs.Shape(op, "colInd has %d elements, values %d", colInd.Len(), values.Len())
	}
	a := &CSR[T, I]{rowPtr: rowPtr, colInd: colInd, values: values}
	a.spMat = spMat{format: "CSR", rows: rows, cols: cols, nnz: values.Len(), ops: [3]cuda.Operand{rowPtr, colInd, values}}
	a.own(own, rowPtr, colInd, values)
	err := newSpMat(a, &a.spMat, func() (cusparse.SpMatDescr, error) {
		it := indexType[I]()
		return cusparse.CreateCsr(int64(rows), int64(cols), int64(values.Len()), ptr(rowPtr), ptr(colInd), ptr(values),
			it, it, cusparse.IndexBaseZero, mathlib.TypeOf[T]())
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// COO is a sparse matrix in coordinate format, zero-based: element k is
// Values[k] at row RowInd[k], column ColInd[k]. cuSPARSE wants the
// elements sorted by row (SpSV, and the fastest SpMV). It owns its three
// buffers; Close frees them.
type COO[T Scalar, I Index] struct {
	spMat
	rowInd, colInd *cuda.Buffer[I]
	values         *cuda.Buffer[T]
}

func (a *COO[T, I]) RowInd() *cuda.Buffer[I] { return a.rowInd }
func (a *COO[T, I]) ColInd() *cuda.Buffer[I] { return a.colInd }
func (a *COO[T, I]) Values() *cuda.Buffer[T] { return a.values }

func (a *COO[T, I]) mat() *spMat {
	if a == nil {
		return nil
	}
	return &a.spMat
}

// NewCOO uploads a rows×cols COO matrix from Go slices into new buffers
// of ctx. rowInd and colInd are as long as values, their indices in
// [0, rows) and [0, cols).
func NewCOO[T Scalar, I Index](ctx *cuda.Context, rows, cols int, rowInd, colInd []I, values []T) (*COO[T, I], error) {
	const op = "NewCOO"
	if err := checkDims(op, rows, cols); err != nil {
		return nil, err
	}
	if len(rowInd) != len(values) || len(colInd) != len(values) {
		return nil, errs.Shape(op, "rowInd, colInd and values have %d, %d and %d elements, want the same", len(rowInd), len(colInd), len(values))
	}
	if err := checkIndices(op, "rowInd", rowInd, rows); err != nil {
		return nil, err
	}
	if err := checkIndices(op, "colInd", colInd, cols); err != nil {
		return nil, err
	}
	var bufs uploads
	ri := upload(&bufs, ctx, rowInd)
	ci := upload(&bufs, ctx, colInd)
	vs := upload(&bufs, ctx, values)
	if bufs.err != nil {
		return nil, bufs.fail()
	}
	a, err := COOFromBuffers(rows, cols, ri, ci, vs)
	if err != nil {
		return nil, bufs.failWith(err)
	}
	return a, nil
}

// COOFromBuffers makes a rows×cols COO matrix of buffers already on the
// device, which it takes over. rowInd and colInd have as many elements as
// values; their contents are not checked.
func COOFromBuffers[T Scalar, I Index](rows, cols int, rowInd, colInd *cuda.Buffer[I], values *cuda.Buffer[T]) (*COO[T, I], error) {
	return newCOO("COOFromBuffers", rows, cols, rowInd, colInd, values, true)
}

// BorrowCOO is COOFromBuffers for buffers the matrix borrows, as
// [BorrowCSR]'s: its Close leaves them to the caller.
func BorrowCOO[T Scalar, I Index](rows, cols int, rowInd, colInd *cuda.Buffer[I], values *cuda.Buffer[T]) (*COO[T, I], error) {
	return newCOO("BorrowCOO", rows, cols, rowInd, colInd, values, false)
}

func newCOO[T Scalar, I Index](op string, rows, cols int, rowInd, colInd *cuda.Buffer[I], values *cuda.Buffer[T], own bool) (*COO[T, I], error) {
	if rowInd == nil || colInd == nil || values == nil {
		return nil, errs.Shape(op, "nil buffer")
	}
	if err := checkDims(op, rows, cols); err != nil {
		return nil, err
	}
	if rowInd.Len() != values.Len() || colInd.Len() != values.Len() {
		return nil, errs.Shape(op, "rowInd, colInd and values have %d, %d and %d elements, want the same", rowInd.Len(), colInd.Len(), values.Len())
	}
	a := &COO[T, I]{rowInd: rowInd, colInd: colInd, values: values}
	a.spMat = spMat{format: "COO", rows: rows, cols: cols, nnz: values.Len(), ops: [3]cuda.Operand{rowInd, colInd, values}}
	a.own(own, rowInd, colInd, values)
	err := newSpMat(a, &a.spMat, func() (cusparse.SpMatDescr, error) {
		return cusparse.CreateCoo(int64(rows), int64(cols), int64(values.Len()), ptr(rowInd), ptr(colInd), ptr(values),
			indexType[I](), cusparse.IndexBaseZero, mathlib.TypeOf[T]())
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Order is the layout of a dense matrix or of a BSR block.
type Order int32

const (
	ColMajor Order = Order(cusparse.OrderCol) // element (i, j) at i + j*ld
	RowMajor Order = Order(cusparse.OrderRow) // element (i, j) at i*ld + j
)

func (o Order) valid() bool { return o == ColMajor || o == RowMajor }

// BSR is a sparse matrix in block sparse row format, zero-based: a CSR
// matrix of blockRows×blockCols blocks, each a dense blockDim×blockDim
// block of Values in the order given (block k at Values[k*blockDim²:]).
// It owns its three buffers; Close frees them.
type BSR[T Scalar, I Index] struct {
	spMat
	blockDim       int
	order          Order
	rowPtr, colInd *cuda.Buffer[I]
	values         *cuda.Buffer[T]
}

func (a *BSR[T, I]) RowPtr() *cuda.Buffer[I] { return a.rowPtr }
func (a *BSR[T, I]) ColInd() *cuda.Buffer[I] { return a.colInd }
func (a *BSR[T, I]) Values() *cuda.Buffer[T] { return a.values }

func (a *BSR[T, I]) mat() *spMat {
	if a == nil {
		return nil
	}
	return &a.spMat
}

// BlockDim is the side of the blocks.
func (a *BSR[T, I]) BlockDim() int { return a.blockDim }

// NewBSR uploads a BSR matrix of blockRows×blockCols blocks of
// blockDim×blockDim from Go slices: rowPtr (blockRows+1 offsets from 0 to
// the number of blocks) and colInd (a block column in [0, blockCols) per
// block) as NewCSR's, values blockDim² elements per block.
func NewBSR[T Scalar, I Index](ctx *cuda.Context, blockRows, blockCols, blockDim int, order Order, rowPtr, colInd []I, values []T) (*BSR[T, I], error) {
	const op = "NewBSR"
	if blockDim < 1 {
		return nil, errs.Shape(op, "block dimension %d", blockDim)
	}
	if err := checkCSR(op, blockRows, blockCols, rowPtr, colInd, len(colInd)); err != nil {
		return nil, err
	}
	if len(values) != len(colInd)*blockDim*blockDim {
		return nil, errs.Shape(op, "values has %d elements, want %d blocks × %d² = %d", len(values), len(colInd), blockDim, len(colInd)*blockDim*blockDim)
	}
	var bufs uploads
	rp := upload(&bufs, ctx, rowPtr)
	ci := upload(&bufs, ctx, colInd)
	vs := upload(&bufs, ctx, values)
	if bufs.err != nil {
		return nil, bufs.fail()
	}
	a, err := BSRFromBuffers(blockRows, blockCols, blockDim, order, rp, ci, vs)
	if err != nil {
		return nil, bufs.failWith(err)
	}
	return a, nil
}

// BSRFromBuffers makes a BSR matrix of buffers already on the device,
// which it takes over. rowPtr has blockRows+1 elements, values blockDim²
// per element of colInd; their contents are not checked.
func BSRFromBuffers[T Scalar, I Index](blockRows, blockCols, blockDim int, order Order, rowPtr, colInd *cuda.Buffer[I], values *cuda.Buffer[T]) (*BSR[T, I], error) {
	return newBSR("BSRFromBuffers", blockRows, blockCols, blockDim, order, rowPtr, colInd, values, true)
}

// BorrowBSR is BSRFromBuffers for buffers the matrix borrows, as
// [BorrowCSR]'s: its Close leaves them to the caller.
func BorrowBSR[T Scalar, I Index](blockRows, blockCols, blockDim int, order Order, rowPtr, colInd *cuda.Buffer[I], values *cuda.Buffer[T]) (*BSR[T, I], error) {
	return newBSR("BorrowBSR", blockRows, blockCols, blockDim, order, rowPtr, colInd, values, false)
}

func newBSR[T Scalar, I Index](op string, blockRows, blockCols, blockDim int, order Order, rowPtr, colInd *cuda.Buffer[I], values *cuda.Buffer[T], own bool) (*BSR[T, I], error) {
	if rowPtr == nil || colInd == nil || values == nil {
		return nil, errs.Shape(op, "nil buffer")
	}
	if blockDim < 1 {
		return nil, errs.Shape(op, "block dimension %d", blockDim)
	}
	if !order.valid() {
		return nil, errs.Shape(op, "block order %d", order)
	}
	if err := checkDims(op, blockRows*blockDim, blockCols*blockDim); err != nil {
		return nil, err
	}
	if rowPtr.Len() != blockRows+1 {
		return nil, errs.Shape(op, "rowPtr has %d elements, want blockRows+1 = %d", rowPtr.Len(), blockRows+1)
	}
	if values.Len() != colInd.Len()*blockDim*blockDim {
		return nil, errs.Shape(op, "values has %d elements, want %d blocks × %d² = %d", values.Len(), colInd.Len(), blockDim, colInd.Len()*blockDim*blockDim)
	}
	a := &BSR[T, I]{blockDim: blockDim, order: order, rowPtr: rowPtr, colInd: colInd, values: values}
	a.spMat = spMat{format: "BSR", rows: blockRows * blockDim, cols: blockCols * blockDim, nnz: values.Len(),
		ops: [3]cuda.Operand{rowPtr, colInd, values}}
	a.own(own, rowPtr, colInd, values)
	err := newSpMat(a, &a.spMat, func() (cusparse.SpMatDescr, error) {
		it := indexType[I]()
		return cusparse.CreateBsr(int64(blockRows), int64(blockCols), int64(colInd.Len()), int64(blockDim), int64(blockDim),
			ptr(rowPtr), ptr(colInd), ptr(values), it, it, cusparse.IndexBaseZero, mathlib.TypeOf[T](), cusparse.Order(order))
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

const maxDim = 1 << 62

func checkDims(op string, rows, cols int) error {
	if rows < 0 || cols < 0 || rows > maxDim || cols > maxDim {
		return errs.Shape(op, "dimensions %d×%d", rows, cols)
	}
	return nil
}

// checkCSR checks a CSR structure on the host: rows+1 offsets from 0 to
// nnz, nondecreasing, and the column indices in range.
func checkCSR[I Index](op string, rows, cols int, rowPtr, colInd []I, nvals int) error {
	if err := checkDims(op, rows, cols); err != nil {
		return err
	}
	if len(rowPtr) != rows+1 {
		return errs.Shape(op, "rowPtr has %d elements, want rows+1 = %d", len(rowPtr), rows+1)
	}
	if len(colInd) != nvals {
		return errs.Shape(op, "colInd has %d elements, values %d", len(colInd), nvals)
	}
	if rowPtr[0] != 0 {
		return errs.Shape(op, "rowPtr[0] is %d, want 0 (indices are zero-based)", rowPtr[0])
	}
	for i := 1; i <= rows; i++ {
		if rowPtr[i] < rowPtr[i-1] {
			return errs.Shape(op, "rowPtr[%d] = %d is below rowPtr[%d] = %d", i, rowPtr[i], i-1, rowPtr[i-1])
		}
	}
	if int64(rowPtr[rows]) != int64(len(colInd)) {
		return errs.Shape(op, "rowPtr[%d] is %d, want the number of elements %d", rows, rowPtr[rows], len(colInd))
	}
	return checkIndices(op, "colInd", colInd, cols)
}

func checkIndices[I Index](op, what string, ind []I, n int) error {
	for k, j := range ind {
		if j < 0 || int64(j) >= int64(n) {
			return errs.Shape(op, "%s[%d] = %d out of [0, %d)", what, k, j, n)
		}
	}
	return nil
}

// uploads allocates buffers from Go slices, remembering them to free all
// on a failure.
type uploads struct {
	made []interface{ Close() error }
	err  error
}

func upload[T any](u *uploads, ctx *cuda.Context, s []T) *cuda.Buffer[T] {
	if u.err != nil {
		return nil
	}
	b, err := cuda.AllocFrom(ctx, s)
	if err != nil {
		u.err = err
		return nil
	}
	u.made = append(u.made, b)
	return b
}

func (u *uploads) fail() error { return u.failWith(u.err) }

func (u *uploads) failWith(err error) error {
	for _, b := range u.made {
		b.Close()
	}
	return err
}
