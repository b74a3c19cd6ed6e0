package blas

import (
	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cublas"
)

// Uplo says which triangle of a matrix a call reads or writes, as the
// matrix is indexed (A[i][j], i the row), whatever its layout.
type Uplo uint8

const (
	Upper Uplo = iota // i <= j
	Lower             // i >= j
)

// Side says on which side of X a triangular matrix stands.
type Side uint8

const (
	Left  Side = iota // op(A)·X
	Right             // X·op(A)
)

// Diag says whether a triangular matrix's diagonal is read (NonUnit) or
// taken as ones (Unit).
type Diag uint8

const (
	NonUnit Diag = iota
	Unit
)

func (u Uplo) fill(flip bool) cublas.FillMode {
	if (u == Upper) != flip {
		return cublas.FillModeUpper
	}
	return cublas.FillModeLower
}

func (s Side) mode(flip bool) cublas.SideMode {
	if (s == Left) != flip {
		return cublas.SideLeft
	}
	return cublas.SideRight
}

func (d Diag) diag() cublas.DiagType {
	if d == Unit {
		return cublas.DiagUnit
	}
	return cublas.DiagNonUnit
}

// trsmPlan is a checked TRSM as cuBLAS takes it.
type trsmPlan struct {
	side     cublas.SideMode
	uplo     cublas.FillMode
	op       cublas.Operation
	diag     cublas.DiagType
	m, n     int32
	lda, ldb int32
}

// planTrsm checks op(A)·X = B (Left) or X·op(A) = B (Right), X in B, and
// plans it: a row-major pair is its column-major transpose, the side and
// the triangle swapped.
func planTrsm(op string, side Side, uplo Uplo, t Transpose, diag Diag, a, b shape, real bool) (trsmPlan, error) {
	var p trsmPlan
	if side > Right || uplo > Lower || diag > Unit {
		return p, errs.Errorf(op, ErrArgument, "an unknown Side %d, Uplo %d or Diag %d", side, uplo, diag)
	}
	if err := checkTrans(op, "A", t); err != nil {
		return p, err
	}
	if real {
		t = min(t, Trans)
	}
	if err := checkMatrix(op, "A", &a, 1, 0); err != nil {
		return p, err
	}
	if err := checkMatrix(op, "B", &b, 1, 0); err != nil {
		return p, err
	}
	if a.rows != a.cols {
		return p, errs.Errorf(op, ErrDimension, "A is %d×%d: a triangular matrix is square", a.rows, a.cols)
	}
	need, what := b.rows, "rows (Left)"
	if side == Right {
		need, what = b.cols, "columns (Right)"
	}
	if a.rows != need {
		return p, errs.Errorf(op, ErrDimension, "A is %d×%d and B %d×%d: A's order is B's %s", a.rows, a.cols, b.rows, b.cols, what)
	}
	if a.layout != b.layout {
		return p, errs.Errorf(op, ErrArgument, "A is %s and B %s: store them in one layout", a.layout, b.layout)
	}
	flip := b.layout == RowMajor
	p = trsmPlan{side: side.mode(flip), uplo: uplo.fill(flip), op: t.op(), diag: diag.diag(), m: int32(b.rows), n: int32(b.cols), lda: int32(a.stride), ldb: int32(b.stride)}
	if flip {
		p.m, p.n = p.n, p.m
	}
	return p, nil
}

// Trsm solves op(A)·X = alpha·B (Left) or X·op(A) = alpha·B (Right) for
// X, which overwrites B (cublas?trsm): A triangular (the uplo triangle,
// its diagonal or ones), A and B in one layout.
func Trsm[T Scalar](h *Handle, side Side, uplo Uplo, t Transpose, diag Diag, alpha T, a, b Matrix[T]) error {
	if h == nil {
		return ErrClosed
	}
	p, err := planTrsm("Trsm", side, uplo, t, diag, shapeOf(a), shapeOf(b), isReal[T]())
	if err != nil {
		return err
	}
	pa, pb := dptr(a.Buf), dptr(b.Buf)
	return h.call(cublas.PointerModeHost, func() error {
		var hsa cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		al := cuda.AlignScalar(&hsa, alpha)
		switch kindOf[T]() {
		case kindS:
			return cublas.Strsm(h.raw, p.side, p.uplo, p.op, p.diag, p.m, p.n, hs(al), ps(pa), p.lda, ps(pb), p.ldb)
		case kindD:
			return cublas.Dtrsm(h.raw, p.side, p.uplo, p.op, p.diag, p.m, p.n, hd(al), pd(pa), p.lda, pd(pb), p.ldb)
		case kindC:
			return cublas.Ctrsm(h.raw, p.side, p.uplo, p.op, p.diag, p.m, p.n, hc(al), pc(pa), p.lda, pc(pb), p.ldb)
		}
		return cublas.Ztrsm(h.raw, p.side, p.uplo, p.op, p.diag, p.m, p.n, hz(al), pz(pa), p.lda, pz(pb), p.ldb)
	}, a.Buf, b.Buf)
}

// syrkPlan is a checked SYRK as cuBLAS takes it.
type syrkPlan struct {
	uplo     cublas.FillMode
	op       cublas.Operation
	n, k     int32
	lda, ldc int32
}

// planSyrk checks C = op(A)·op(A)ᵀ (the uplo triangle of C) and plans it:
// a row-major pair is its column-major transpose (C is symmetric), the
// operation and the triangle swapped.
func planSyrk(op string, uplo Uplo, t Transpose, a, c shape, real bool) (syrkPlan, error) {
	var p syrkPlan
	if uplo > Lower {
		return p, errs.Errorf(op, ErrArgument, "an unknown Uplo %d", uplo)
	}
	if err := checkTrans(op, "A", t); err != nil {
		return p, err
	}
	if real {
		t = min(t, Trans)
	}
	if t == ConjTrans {
		return p, errs.Errorf(op, ErrArgument, "ConjTrans: Syrk is op(A)·op(A)ᵀ, NoTrans or Trans")
	}
	if err := checkMatrix(op, "A", &a, 1, 0); err != nil {
		return p, err
	}
	if err := checkMatrix(op, "C", &c, 1, 0); err != nil {
		return p, err
	}
	n, k := opDims(a, t)
	if c.rows != n || c.cols != n {
		return p, errs.Errorf(op, ErrDimension, "op(A) is %d×%d, so C is %d×%d, not %d×%d", n, k, n, n, c.rows, c.cols)
	}
	if a.layout != c.layout {
		return p, errs.Errorf(op, ErrArgument, "A is %s and C %s: store them in one layout", a.layout, c.layout)
	}
	flip := c.layout == RowMajor
	cop := t.op()
	if flip { // NoTrans and Trans swap
		cop = Transpose(1 - t).op()
	}
	return syrkPlan{uplo: uplo.fill(flip), op: cop, n: int32(n), k: int32(k), lda: int32(a.stride), ldc: int32(c.stride)}, nil
}

// Syrk computes C = alpha·op(A)·op(A)ᵀ + beta·C on C's uplo triangle
// (cublas?syrk; symmetric, no conjugate, for a complex T too): t is
// NoTrans or Trans, A and C in one layout.
func Syrk[T Scalar](h *Handle, uplo Uplo, t Transpose, alpha T, a Matrix[T], beta T, c Matrix[T]) error {
	if h == nil {
		return ErrClosed
	}
	p, err := planSyrk("Syrk", uplo, t, shapeOf(a), shapeOf(c), isReal[T]())
	if err != nil {
		return err
	}
	pa, pc_ := dptr(a.Buf), dptr(c.Buf)
	return h.call(cublas.PointerModeHost, func() error {
		var hsa, hsb cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		al, be := cuda.AlignScalar(&hsa, alpha), cuda.AlignScalar(&hsb, beta)
		switch kindOf[T]() {
		case kindS:
			return cublas.Ssyrk(h.raw, p.uplo, p.op, p.n, p.k, hs(al), ps(pa), p.lda, hs(be), ps(pc_), p.ldc)
		case kindD:
			return cublas.Dsyrk(h.raw, p.uplo, p.op, p.n, p.k, hd(al), pd(pa), p.lda, hd(be), pd(pc_), p.ldc)
		case kindC:
			return cublas.Csyrk(h.raw, p.uplo, p.op, p.n, p.k, hc(al), pc(pa), p.lda, hc(be), pc(pc_), p.ldc)
		}
		return cublas.Zsyrk(h.raw, p.uplo, p.op, p.n, p.k, hz(al), pz(pa), p.lda, hz(be), pz(pc_), p.ldc)
	}, a.Buf, c.Buf)
}
