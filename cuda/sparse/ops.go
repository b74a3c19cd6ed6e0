package sparse

import (
	"runtime"
	"unsafe"

	cuda "github.com/cugen/cugen/cuda"
	mathlib "github.com/cugen/cugen/cuda/internal"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cusparse"
	"github.com/cugen/cugen/ffi"
)

// use begins an operation on h with the objects given: h locked, each
// guard read-locked (once, if an object comes twice); end ends it.
type use struct {
	h  *Handle
	gs [4]*guard
	n  int
}

func (u *use) begin(h *Handle, gs ...*guard) error {
	if err := h.lock(); err != nil {
		return err
	}
	u.h = h
outer:
	for _, g := range gs {
		for _, held := range u.gs[:u.n] {
			if held == g {
				continue outer
			}
		}
		if err := g.rlock(); err != nil {
			u.end()
			return err
		}
		u.gs[u.n] = g
		u.n++
	}
	return nil
}

func (u *use) end() {
	for _, g := range u.gs[:u.n] {
		g.runlock()
	}
	u.n = 0
	u.h.unlock()
}

// overlap reports whether two buffers share memory.
func overlap[T any](a, b *cuda.Buffer[T]) bool {
	if a == nil || b == nil || a.Len() == 0 || b.Len() == 0 {
		return false
	}
	size := cu.Deviceptr(unsafe.Sizeof(*new(T)))
	return a.Ptr() < b.Ptr()+cu.Deviceptr(b.Len())*size && b.Ptr() < a.Ptr()+cu.Deviceptr(a.Len())*size
}

func vecOK[T Scalar](op, name string, v *Vec[T]) error {
	if v == nil {
		return errs.Shape(op, "nil vector %s", name)
	}
	return nil
}

// SpMV computes y = alpha·op(A)·x + beta·y (cusparseSpMV, the default
// algorithm), queued on h's stream: op(A) is m×k for x of k elements and
// y of m. The workspace is the handle's; its size, asked of cuSPARSE once
// per matrix and op, is kept by the matrix.
func SpMV[T Scalar](h *Handle, op Op, alpha T, A Matrix[T], x *Vec[T], beta T, y *Vec[T]) error {
	const name = "SpMV"
	const alg = cusparse.SpmvAlgDefault
	if A == nil || A.mat() == nil {
		return errs.Shape(name, "nil matrix")
	}
	if err := vecOK(name, "x", x); err != nil {
		return err
	}
	if err := vecOK(name, "y", y); err != nil {
		return err
	}
	a := A.mat()
	if !op.valid() {
		return errs.Shape(name, "operation %v", op)
	}
	m, k := op.dims(a.rows, a.cols)
	if x.n != k || y.n != m {
		return errs.Shape(name, "%v of a %d×%d %s is %d×%d: x has %d elements (want %d), y %d (want %d)", op, a.rows, a.cols, a.format, m, k, x.n, k, y.n, m)
	}
	if x == y || overlap(x.b, y.b) {
		return errs.Shape(name, "x and y are the same memory")
	}
	var u use
	if err := u.begin(h, &a.g, &x.g, &y.g); err != nil {
		return err
	}
	defer u.end()
	var o operands
	o.add(a.ops[:]...)
	o.add(x.b, y.b)
	vt := mathlib.TypeOf[T]()
	size, known := a.spmvSize(op, alg)
	if !known {
		err := h.ch.Call(func(cu.Stream) error {
			var err error
			var hsa, hsb cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
			size, err = cusparse.SpMVBufferSize(h.raw, cusparse.Operation(op), hostScalar(&hsa, alpha), a.d.d, x.d.d,
				hostScalar(&hsb, beta), y.d.d, vt, alg)
			return err
		}, o.list()...)
		if err != nil {
			return err
		}
		a.setSpmvSize(op, alg, size)
	}
	w, err := h.workspace(size)
	if err != nil {
		return err
	}
	var wp ffi.DeviceAddr
	if w != nil {
		o.add(w)
		wp = ffi.DeviceAddr(w.Ptr())
	}
	return h.ch.Call(func(cu.Stream) error {
		var hsa, hsb cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		return cusparse.SpMV(h.raw, cusparse.Operation(op), hostScalar(&hsa, alpha), a.d.d, x.d.d,
			hostScalar(&hsb, beta), y.d.d, vt, alg, wp)
	}, o.list()...)
}

// SpMM computes C = alpha·op(A)·op(B) + beta·C (cusparseSpMM, the default
// algorithm), queued on h's stream, for a sparse A and dense B and C:
// op(A) is m×k, op(B) k×n and C m×n. B and C may be in either order.
// The workspace is the handle's.
func SpMM[T Scalar](h *Handle, opA, opB Op, alpha T, A Matrix[T], B *Dense[T], beta T, C *Dense[T]) error {
	const name = "SpMM"
	const alg = cusparse.SpmmAlgDefault
	if A == nil || A.mat() == nil || B == nil || C == nil {
		return errs.Shape(name, "nil matrix")
	}
	a := A.mat()
	if !opA.valid() || !opB.valid() {
		return errs.Shape(name, "operations %v, %v", opA, opB)
	}
	m, k := opA.dims(a.rows, a.cols)
	kb, n := opB.dims(B.rows, B.cols)
	if kb != k || C.rows != m || C.cols != n {
		return errs.Shape(name, "%v of a %d×%d %s is %d×%d, %v of B %d×%d, C is %d×%d (want %d×%d)",
			opA, a.rows, a.cols, a.format, m, k, opB, kb, n, C.rows, C.cols, m, n)
	}
	if B == C || overlap(B.b, C.b) {
		return errs.Shape(name, "B and C are the same memory")
	}
	var u use
	if err := u.begin(h, &a.g, &B.g, &C.g); err != nil {
		return err
	}
	defer u.end()
	var o operands
	o.add(a.ops[:]...)
	o.add(B.b, C.b)
	vt := mathlib.TypeOf[T]()
	var size uint64
	err := h.ch.Call(func(cu.Stream) error {
		var err error
		var hsa, hsb cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		size, err = cusparse.SpMMBufferSize(h.raw, cusparse.Operation(opA), cusparse.Operation(opB), hostScalar(&hsa, alpha), a.d.d, B.d.d,
			hostScalar(&hsb, beta), C.d.d, vt, alg)
		return err
	}, o.list()...)
	if err != nil {
		return err
	}
	w, err := h.workspace(size)
	if err != nil {
		return err
	}
	var wp ffi.DeviceAddr
	if w != nil {
		o.add(w)
		wp = ffi.DeviceAddr(w.Ptr())
	}
	return h.ch.Call(func(cu.Stream) error {
		var hsa, hsb cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		return cusparse.SpMM(h.raw, cusparse.Operation(opA), cusparse.Operation(opB), hostScalar(&hsa, alpha), a.d.d, B.d.d,
			hostScalar(&hsb, beta), C.d.d, vt, alg, wp)
	}, o.list()...)
}

// SpGEMM returns C = alpha·A·B for CSR matrices A (m×k) and B (k×n), a new
// m×n CSR matrix in buffers of the handle's context (cusparseSpGEMM, the
// default algorithm: the work estimation, the computation and the copy,
// each phase's workspace asked of cuSPARSE, allocated, and freed when C
// is made). cuSPARSE multiplies only A and B as they are (no transpose).
// It waits for h's stream: C's number of elements comes from the device.
func SpGEMM[T Scalar, I Index](h *Handle, alpha T, A, B *CSR[T, I]) (*CSR[T, I], error) {
	const name = "SpGEMM"
	const alg = cusparse.SpgemmDefault
	if A == nil || B == nil {
		return nil, errs.Shape(name, "nil matrix")
	}
	if A.cols != B.rows {
		return nil, errs.Shape(name, "A is %d×%d, B %d×%d: A's columns are not B's rows", A.rows, A.cols, B.rows, B.cols)
	}
	var u use
	if err := u.begin(h, &A.g, &B.g); err != nil {
		return nil, err
	}
	defer u.end()
	ctx := h.ws.Context()
	var o operands
	o.add(A.ops[:]...)
	o.add(B.ops[:]...)
	rows, cols := A.rows, B.cols
	rowPtr, err := cuda.Alloc[I](ctx, rows+1)
	if err != nil {
		return nil, err
	}
	var colInd *cuda.Buffer[I]
	var values *cuda.Buffer[T]
	var temps []*cuda.Buffer[byte]
	defer func() {
		for _, t := range temps {
			t.Close()
		}
	}()
	alloc := func(n uint64) (ffi.DeviceAddr, error) {
		if n == 0 {
			return 0, nil
		}
		b, err := cuda.Alloc[byte](ctx, int(n))
		if err != nil {
			return 0, err
		}
		temps = append(temps, b)
		return ffi.DeviceAddr(b.Ptr()), nil
	}
	vt, it := mathlib.TypeOf[T](), indexType[I]()
	var beta T
	opN := cusparse.OperationNonTranspose
	err = h.ch.Call(func(cu.Stream) error {
		c, err := cusparse.CreateCsr(int64(rows), int64(cols), 0, ptr(rowPtr), 0, 0, it, it, cusparse.IndexBaseZero, vt)
		if err != nil {
			return err
		}
		defer cusparse.DestroySpMat(c)
		var d cusparse.SpGEMMDescr
		if err := cusparse.SpGEMMCreateDescr(&d); err != nil {
			return err
		}
		defer cusparse.SpGEMMDestroyDescr(d)
		var hsa, hsb cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		pa, pb := hostScalar(&hsa, alpha), hostScalar(&hsb, beta)
		// Each phase: once for the workspace size, once with it.
		var size1, size2 uint64
		if err := cusparse.SpGEMMWorkEstimation(h.raw, opN, opN, pa, A.d.d, B.d.d, pb, c, vt, alg, d, &size1, 0); err != nil {
			return err
		}
		buf1, err := alloc(size1)
		if err != nil {
			return err
		}
		if err := cusparse.SpGEMMWorkEstimation(h.raw, opN, opN, pa, A.d.d, B.d.d, pb, c, vt, alg, d, &size1, buf1); err != nil {
			return err
		}
		if err := cusparse.SpGEMMCompute(h.raw, opN, opN, pa, A.d.d, B.d.d, pb, c, vt, alg, d, &size2, 0); err != nil {
			return err
		}
		buf2, err := alloc(size2)
		if err != nil {
			return err
		}
		if err := cusparse.SpGEMMCompute(h.raw, opN, opN, pa, A.d.d, B.d.d, pb, c, vt, alg, d, &size2, buf2); err != nil {
			return err
		}
		var r, k, nnz int64
		if err := cusparse.SpMatGetSize(c, &r, &k, &nnz); err != nil {
			return err
		}
		if colInd, err = cuda.Alloc[I](ctx, int(nnz)); err != nil {
			return err
		}
		if values, err = cuda.Alloc[T](ctx, int(nnz)); err != nil {
			return err
		}
		if err := cusparse.CsrSetPointers(c, ptr(rowPtr), ptr(colInd), ptr(values)); err != nil {
			return err
		}
		if err := cusparse.SpGEMMCopy(h.raw, opN, opN, pa, A.d.d, B.d.d, pb, c, vt, alg, d); err != nil {
			return err
		}
		return nil
	}, o.list()...)
	if err == nil {
		err = h.Stream().Synchronize() // the temporaries are freed next, and C used on any stream
	}
	if err != nil {
		for _, b := range []interface{ Close() error }{rowPtr, colInd, values} {
			if b != nil {
				b.Close()
			}
		}
		return nil, err
	}
	return CSRFromBuffers(rows, cols, rowPtr, colInd, values)
}

// Fill says which triangle of a matrix holds the triangular matrix.
type Fill int32

const (
	Lower Fill = Fill(cusparse.FillModeLower)
	Upper Fill = Fill(cusparse.FillModeUpper)
)

// Diag says whether a triangular matrix's diagonal is stored or all ones.
type Diag int32

const (
	NonUnit Diag = Diag(cusparse.DiagTypeNonUnit) // the stored diagonal
	Unit    Diag = Diag(cusparse.DiagTypeUnit)    // ones, whatever is stored
)

// SpSV solves op(A)·y = alpha·x for y, A a square sparse triangular matrix
// (the triangle fill of a CSR or COO matrix, with diag): a plan made by
// [NewSpSV], which runs cuSPARSE's analysis once, then [SpSV.Solve] for
// each right-hand side. It owns its descriptor and its workspace, which
// must live from the analysis to the last solve. Close it when done.
type SpSV[T Scalar] struct {
	g     guard
	h     *Handle
	a     *spMat
	op    Op
	alpha T
	d     cusparse.SpSVDescr
	work  *cuda.Buffer[byte]
	cl    runtime.Cleanup // destroys d if the plan becomes unreachable unclosed
}

// NewSpSV analyses A for solves of op(A)·y = alpha·x with vectors like x
// and y (cusparseSpSV_bufferSize, cusparseSpSV_analysis), queued on h's
// stream. It sets A's fill mode and diagonal type attributes.
func NewSpSV[T Scalar](h *Handle, op Op, alpha T, A Matrix[T], fill Fill, diag Diag, x, y *Vec[T]) (*SpSV[T], error) {
	const name = "NewSpSV"
	if A == nil || A.mat() == nil {
		return nil, errs.Shape(name, "nil matrix")
	}
	a := A.mat()
	if err := checkSpSV(name, op, a, x, y); err != nil {
		return nil, err
	}
	if fill != Lower && fill != Upper || diag != NonUnit && diag != Unit {
		return nil, errs.Shape(name, "fill %d, diag %d", fill, diag)
	}
	var u use
	if err := u.begin(h, &a.g, &x.g, &y.g); err != nil {
		return nil, err
	}
	defer u.end()
	p := &SpSV[T]{h: h, a: a, op: op, alpha: alpha}
	var o operands
	o.add(a.ops[:]...)
	o.add(x.b, y.b)
	vt := mathlib.TypeOf[T]()
	var size uint64
	err := h.ch.Call(func(cu.Stream) error {
		f, dg := cusparse.FillMode(fill), cusparse.DiagType(diag)
		if err := cusparse.SpMatSetAttribute(a.d.d, cusparse.SpmatFillMode, unsafe.Pointer(&f), uint64(unsafe.Sizeof(f))); err != nil {
			return err
		}
		if err := cusparse.SpMatSetAttribute(a.d.d, cusparse.SpmatDiagType, unsafe.Pointer(&dg), uint64(unsafe.Sizeof(dg))); err != nil {
			return err
		}
		if err := cusparse.SpSVCreateDescr(&p.d); err != nil {
			return err
		}
		var err error
		var hsa cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		size, err = cusparse.SpSVBufferSize(h.raw, cusparse.Operation(op), hostScalar(&hsa, p.alpha), a.d.d, x.d.d, y.d.d, vt, cusparse.SpsvAlgDefault, p.d)
		return err
	}, o.list()...)
	if err != nil {
		if p.d != 0 {
			cusparse.SpSVDestroyDescr(p.d)
		}
		return nil, err
	}
	var wp ffi.DeviceAddr
	if size > 0 {
		if p.work, err = cuda.Alloc[byte](h.ws.Context(), int(size)); err != nil {
			cusparse.SpSVDestroyDescr(p.d)
			return nil, err
		}
		o.add(p.work)
		wp = ffi.DeviceAddr(p.work.Ptr())
	}
	err = h.ch.Call(func(cu.Stream) error {
		var hsa cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		return cusparse.SpSVAnalysis(h.raw, cusparse.Operation(op), hostScalar(&hsa, p.alpha), a.d.d, x.d.d, y.d.d, vt, cusparse.SpsvAlgDefault, p.d, wp)
	}, o.list()...)
	if err != nil {
		p.destroy()
		return nil, err
	}
	// The workspace has its own cleanup (the layer's); the descriptor is
	// host memory.
	p.cl = runtime.AddCleanup(p, func(d cusparse.SpSVDescr) { cusparse.SpSVDestroyDescr(d) }, p.d)
	return p, nil
}

func checkSpSV[T Scalar](name string, op Op, a *spMat, x, y *Vec[T]) error {
	if err := vecOK(name, "x", x); err != nil {
		return err
	}
	if err := vecOK(name, "y", y); err != nil {
		return err
	}
	if !op.valid() {
		return errs.Shape(name, "operation %v", op)
	}
	if a.rows != a.cols {
		return errs.Shape(name, "a %d×%d %s is not square", a.rows, a.cols, a.format)
	}
	if a.format == "BSR" {
		return errs.Shape(name, "a BSR matrix: cuSPARSE's SpSV takes CSR or COO")
	}
	if x.n != a.rows || y.n != a.rows {
		return errs.Shape(name, "x has %d elements, y %d, for a %d×%d matrix", x.n, y.n, a.rows, a.cols)
	}
	if x == y || overlap(x.b, y.b) {
		return errs.Shape(name, "x and y are the same memory")
	}
	return nil
}

// Solve solves op(A)·y = alpha·x for y with the plan's analysis
// (cusparseSpSV_solve), queued on the handle's stream. A's values may
// have changed since the analysis, not its pattern.
func (p *SpSV[T]) Solve(x, y *Vec[T]) error {
	const name = "SpSV.Solve"
	if p == nil {
		return errs.Shape(name, "nil plan")
	}
	if err := checkSpSV(name, p.op, p.a, x, y); err != nil {
		return err
	}
	var u use
	if err := u.begin(p.h, &p.g, &p.a.g, &x.g, &y.g); err != nil {
		return err
	}
	defer u.end()
	var o operands
	o.add(p.a.ops[:]...)
	o.add(x.b, y.b)
	if p.work != nil {
		o.add(p.work)
	}
	vt := mathlib.TypeOf[T]()
	return p.h.ch.Call(func(cu.Stream) error {
		var hsa cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		return cusparse.SpSVSolve(p.h.raw, cusparse.Operation(p.op), hostScalar(&hsa, p.alpha), p.a.d.d, x.d.d, y.d.d, vt, cusparse.SpsvAlgDefault, p.d)
	}, o.list()...)
}

// Close destroys the plan's descriptor (cusparseSpSV_destroyDescr) and
// frees its workspace, after the solves in flight on other goroutines;
// ErrClosed after the first.
func (p *SpSV[T]) Close() error {
	if !p.g.close() {
		return ErrClosed
	}
	p.cl.Stop()
	return p.destroy()
}

func (p *SpSV[T]) destroy() error {
	err := cusparse.SpSVDestroyDescr(p.d)
	if p.work != nil {
		if e := p.work.Close(); err == nil {
			err = e
		}
	}
	return err
}
