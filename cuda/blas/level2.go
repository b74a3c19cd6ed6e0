package blas

import (
	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cublas"
)

// gemvPlan is a checked GEMV as cuBLAS takes it.
type gemvPlan struct {
	op         cublas.Operation
	m, n, lda  int32
	incx, incy int32
}

// planGemv checks y = op(A)·x and plans it.
func planGemv(op string, t Transpose, a shape, x, y *vshape, real bool) (gemvPlan, error) {
	var p gemvPlan
	if err := checkTrans(op, "A", t); err != nil {
		return p, err
	}
	if real {
		t = min(t, Trans)
	}
	if err := checkMatrix(op, "A", &a, 1, 0); err != nil {
		return p, err
	}
	if err := checkVector(op, "x", x); err != nil {
		return p, err
	}
	if err := checkVector(op, "y", y); err != nil {
		return p, err
	}
	m, n := opDims(a, t)
	if x.n != n || y.n != m {
		return p, errs.Errorf(op, ErrDimension, "op(A) is %d×%d: x has %d elements (want %d), y %d (want %d)", m, n, x.n, n, y.n, m)
	}
	cop, err := cublasOp(op, "A", t, a.layout, ColMajor)
	if err != nil {
		return p, err
	}
	p = gemvPlan{op: cop, m: int32(a.rows), n: int32(a.cols), lda: int32(a.stride), incx: int32(x.inc), incy: int32(y.inc)}
	if a.layout == RowMajor { // cuBLAS sees Aᵀ, cols×rows
		p.m, p.n = int32(a.cols), int32(a.rows)
	}
	return p, nil
}

// Gemv computes y = alpha·op(A)·x + beta·y (cublas?gemv).
func Gemv[T Scalar](h *Handle, t Transpose, alpha T, a Matrix[T], x Vector[T], beta T, y Vector[T]) error {
	if h == nil {
		return ErrClosed
	}
	xs, ys := vshapeOf(x), vshapeOf(y)
	p, err := planGemv("Gemv", t, shapeOf(a), &xs, &ys, isReal[T]())
	if err != nil {
		return err
	}
	pa, px, py := dptr(a.Buf), dptr(x.Buf), dptr(y.Buf)
	return h.call(cublas.PointerModeHost, func() error {
		var hsa, hsb cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		al, be := cuda.AlignScalar(&hsa, alpha), cuda.AlignScalar(&hsb, beta)
		switch kindOf[T]() {
		case kindS:
			return cublas.Sgemv(h.raw, p.op, p.m, p.n, hs(al), ps(pa), p.lda, ps(px), p.incx, hs(be), ps(py), p.incy)
		case kindD:
			return cublas.Dgemv(h.raw, p.op, p.m, p.n, hd(al), pd(pa), p.lda, pd(px), p.incx, hd(be), pd(py), p.incy)
		case kindC:
			return cublas.Cgemv(h.raw, p.op, p.m, p.n, hc(al), pc(pa), p.lda, pc(px), p.incx, hc(be), pc(py), p.incy)
		}
		return cublas.Zgemv(h.raw, p.op, p.m, p.n, hz(al), pz(pa), p.lda, pz(px), p.incx, hz(be), pz(py), p.incy)
	}, a.Buf, x.Buf, y.Buf)
}

// gerPlan is a checked rank-1 update as cuBLAS takes it: swap tells that
// cuBLAS's x is y and its y x (a row-major A: Aᵀ += y·xᵀ).
type gerPlan struct {
	m, n, lda  int32
	incx, incy int32
	swap       bool
}

// planGer checks A += x·yᵀ (yᴴ with conj) and plans it.
func planGer(op string, a shape, x, y *vshape, conj bool) (gerPlan, error) {
	var p gerPlan
	if err := checkMatrix(op, "A", &a, 1, 0); err != nil {
		return p, err
	}
	if err := checkVector(op, "x", x); err != nil {
		return p, err
	}
	if err := checkVector(op, "y", y); err != nil {
		return p, err
	}
	if x.n != a.rows || y.n != a.cols {
		return p, errs.Errorf(op, ErrDimension, "A is %d×%d: x has %d elements (want %d), y %d (want %d)", a.rows, a.cols, x.n, a.rows, y.n, a.cols)
	}
	if a.layout == RowMajor {
		if conj {
			return p, errs.Errorf(op, ErrArgument, "A is row-major: x·yᴴ of it is conj(y)·xᵀ column-major, which cuBLAS has no operation for (use a column-major A)")
		}
		return gerPlan{m: int32(a.cols), n: int32(a.rows), lda: int32(a.stride), incx: int32(y.inc), incy: int32(x.inc), swap: true}, nil
	}
	return gerPlan{m: int32(a.rows), n: int32(a.cols), lda: int32(a.stride), incx: int32(x.inc), incy: int32(y.inc)}, nil
}

// Ger computes A += alpha·x·yᵀ (cublas?ger, cublas?geru).
func Ger[T Scalar](h *Handle, alpha T, x, y Vector[T], a Matrix[T]) error {
	return ger(h, "Ger", false, alpha, x, y, a)
}

// Gerc computes A += alpha·x·yᴴ (cublas?gerc; Ger for a real T). A
// complex A must be column-major.
func Gerc[T Scalar](h *Handle, alpha T, x, y Vector[T], a Matrix[T]) error {
	return ger(h, "Gerc", !isReal[T](), alpha, x, y, a)
}

func ger[T Scalar](h *Handle, op string, conj bool, alpha T, x, y Vector[T], a Matrix[T]) error {
	if h == nil {
		return ErrClosed
	}
	xs, ys := vshapeOf(x), vshapeOf(y)
	p, err := planGer(op, shapeOf(a), &xs, &ys, conj)
	if err != nil {
		return err
	}
	pa, px, py := dptr(a.Buf), dptr(x.Buf), dptr(y.Buf)
	if p.swap {
		px, py = py, px
	}
	return h.call(cublas.PointerModeHost, func() error {
		var hsa cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		al := cuda.AlignScalar(&hsa, alpha)
		switch kindOf[T]() {
		case kindS:
			return cublas.Sger(h.raw, p.m, p.n, hs(al), ps(px), p.incx, ps(py), p.incy, ps(pa), p.lda)
		case kindD:
			return cublas.Dger(h.raw, p.m, p.n, hd(al), pd(px), p.incx, pd(py), p.incy, pd(pa), p.lda)
		case kindC:
			if conj {
				return cublas.Cgerc(h.raw, p.m, p.n, hc(al), pc(px), p.incx, pc(py), p.incy, pc(pa), p.lda)
			}
			return cublas.Cgeru(h.raw, p.m, p.n, hc(al), pc(px), p.incx, pc(py), p.incy, pc(pa), p.lda)
		}
		if conj {
			return cublas.Zgerc(h.raw, p.m, p.n, hz(al), pz(px), p.incx, pz(py), p.incy, pz(pa), p.lda)
		}
		return cublas.Zgeru(h.raw, p.m, p.n, hz(al), pz(px), p.incx, pz(py), p.incy, pz(pa), p.lda)
	}, a.Buf, x.Buf, y.Buf)
}
