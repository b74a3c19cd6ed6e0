package solver

import (
	"unsafe"

	cuda "github.com/cugen/cugen/cuda"
	mathlib "github.com/cugen/cugen/cuda/internal"
	"github.com/cugen/cugen/cuda/sys/cublas"
	"github.com/cugen/cugen/cuda/sys/cusolver"
	"github.com/cugen/cugen/ffi"
)

// Fill says which triangle of a symmetric (Hermitian) matrix is read and
// written.
type Fill int32

const (
	Lower Fill = Fill(cublas.FillModeLower)
	Upper Fill = Fill(cublas.FillModeUpper)
)

func (f Fill) valid() bool { return f == Lower || f == Upper }

// Op is the operation op(A) a solve applies to A.
type Op int32

const (
	NoTrans   Op = Op(cublas.OpN) // A
	Trans     Op = Op(cublas.OpT) // Aᵀ
	ConjTrans Op = Op(cublas.OpC) // Aᴴ
)

func (o Op) valid() bool { return o == NoTrans || o == Trans || o == ConjTrans }

// Side says on which side Q multiplies C in Ormqr.
type Side int32

const (
	Left  Side = Side(cublas.SideLeft)  // op(Q)·C
	Right Side = Side(cublas.SideRight) // C·op(Q)
)

// Potrf factors the symmetric (Hermitian) positive definite n×n matrix A
// in place (cusolverDnXpotrf): its triangle fill becomes L (Lower, A =
// L·Lᴴ) or U (Upper, A = Uᴴ·U); the other triangle is not read or
// written. A matrix that is not positive definite is a
// [*NotPositiveDefiniteError] naming the order of the leading minor that
// is not.
func Potrf[T Scalar](h *Handle, fill Fill, A Matrix[T]) error {
	const op = "Potrf"
	if err := checkPotrf(shapeOf("A", A), fill); err != nil {
		return err
	}
	if err := h.lock(); err != nil {
		return err
	}
	defer h.mu.Unlock()
	st, dt := h.st, mathlib.TypeOf[T]()
	n, lda, fm := int64(A.Rows), int64(A.ld()), cublas.FillMode(fill)
	info, err := h.xcall(func(dsize *uint64) (uint64, error) {
		return cusolver.XpotrfBufferSize(st.h, st.params, fm, n, dt, ptr(A.Buf), lda, dt, dsize)
	}, func(w work, info ffi.DevicePtr[int32]) error {
		return cusolver.Xpotrf(st.h, st.params, fm, n, dt, ptr(A.Buf), lda, dt, w.d, w.dsize, w.h, w.hsize, info)
	}, A.Buf)
	return infoError(op, info, err, func(i int) error { return &NotPositiveDefiniteError{Op: op, Order: i} })
}

// Potrs solves A·X = B for X, overwriting B (n×nrhs), with A's Cholesky
// factor from [Potrf] with the same fill (cusolverDnXpotrs).
func Potrs[T Scalar](h *Handle, fill Fill, A, B Matrix[T]) error {
	const op = "Potrs"
	if err := checkPotrs(shapeOf("A", A), shapeOf("B", B), fill); err != nil {
		return err
	}
	if err := h.lock(); err != nil {
		return err
	}
	defer h.mu.Unlock()
	st, dt := h.st, mathlib.TypeOf[T]()
	info, err := h.run(func(info ffi.DevicePtr[int32]) error {
		return cusolver.Xpotrs(st.h, st.params, cublas.FillMode(fill), int64(A.Rows), int64(B.Cols), dt, ptr(A.Buf), int64(A.ld()), dt, ptr(B.Buf), int64(B.ld()), info)
	}, A.Buf, B.Buf)
	return paramInfo(op, info, err)
}

func paramInfo(op string, info int, err error) error { return infoError(op, info, err, nil) }

// infoError is the error of a call that returned err and info: err, else
// a *ParamError for a negative info, positive's error for a positive one
// (none if positive is nil), or nil.
func infoError(op string, info int, err error, positive func(info int) error) error {
	switch {
	case err != nil:
		return err
	case info < 0:
		return &ParamError{Op: op, Param: -info}
	case info > 0 && positive != nil:
		return positive(info)
	}
	return nil
}

// Getrf factors the m×n matrix A in place as P·A = L·U with partial
// pivoting (cusolverDnXgetrf): L (unit diagonal, not stored) below the
// diagonal, U on and above it, and the row interchanges in ipiv, at least
// min(m, n) elements (row i was interchanged with row ipiv[i], 1-based).
// An exactly singular U is a [*SingularError]: the factorization is
// complete, but a solve with it divides by zero.
func Getrf[T Scalar](h *Handle, A Matrix[T], ipiv *cuda.Buffer[int64]) error {
	const op = "Getrf"
	if err := checkGetrf(shapeOf("A", A), lenOf(ipiv)); err != nil {
		return err
	}
	if err := h.lock(); err != nil {
		return err
	}
	defer h.mu.Unlock()
	st, dt := h.st, mathlib.TypeOf[T]()
	m, n, lda := int64(A.Rows), int64(A.Cols), int64(A.ld())
	info, err := h.xcall(func(dsize *uint64) (uint64, error) {
		return cusolver.XgetrfBufferSize(st.h, st.params, m, n, dt, ptr(A.Buf), lda, dt, dsize)
	}, func(w work, info ffi.DevicePtr[int32]) error {
		return cusolver.Xgetrf(st.h, st.params, m, n, dt, ptr(A.Buf), lda, ffi.DevicePtr[int64](ptr(ipiv)), dt, w.d, w.dsize, w.h, w.hsize, info)
	}, operands(buf(A.Buf), buf(ipiv))...)
	return infoError(op, info, err, func(i int) error { return &SingularError{Op: op, Index: i} })
}

// Getrs solves op(A)·X = B for X, overwriting B (n×nrhs), with the LU
// factors and pivots of the n×n A from [Getrf] (cusolverDnXgetrs).
func Getrs[T Scalar](h *Handle, trans Op, A Matrix[T], ipiv *cuda.Buffer[int64], B Matrix[T]) error {
	const op = "Getrs"
	if err := checkGetrs(shapeOf("A", A), shapeOf("B", B), trans, lenOf(ipiv)); err != nil {
		return err
	}
	if err := h.lock(); err != nil {
		return err
	}
	defer h.mu.Unlock()
	st, dt := h.st, mathlib.TypeOf[T]()
	info, err := h.run(func(info ffi.DevicePtr[int32]) error {
		return cusolver.Xgetrs(st.h, st.params, cublas.Operation(trans), int64(A.Rows), int64(B.Cols), dt, ptr(A.Buf), int64(A.ld()),
			ffi.DevicePtr[int64](ptr(ipiv)), dt, ptr(B.Buf), int64(B.ld()), info)
	}, A.Buf, ipiv, B.Buf)
	return paramInfo(op, info, err)
}

// Geqrf factors the m×n matrix A in place as A = Q·R (cusolverDnXgeqrf):
// R on and above the diagonal, Q as min(m, n) Householder reflectors, their
// vectors below the diagonal and their scalars in tau (at least min(m, n)
// elements). [Ormqr] applies Q.
func Geqrf[T Scalar](h *Handle, A Matrix[T], tau *cuda.Buffer[T]) error {
	const op = "Geqrf"
	if err := checkGeqrf(shapeOf("A", A), lenOf(tau)); err != nil {
		return err
	}
	if err := h.lock(); err != nil {
		return err
	}
	defer h.mu.Unlock()
	st, dt := h.st, mathlib.TypeOf[T]()
	m, n, lda := int64(A.Rows), int64(A.Cols), int64(A.ld())
	info, err := h.xcall(func(dsize *uint64) (uint64, error) {
		return cusolver.XgeqrfBufferSize(st.h, st.params, m, n, dt, ptr(A.Buf), lda, dt, ptr(tau), dt, dsize)
	}, func(w work, info ffi.DevicePtr[int32]) error {
		return cusolver.Xgeqrf(st.h, st.params, m, n, dt, ptr(A.Buf), lda, dt, ptr(tau), dt, w.d, w.dsize, w.h, w.hsize, info)
	}, operands(buf(A.Buf), buf(tau))...)
	return paramInfo(op, info, err)
}

// Ormqr overwrites C (m×n) with op(Q)·C (Left) or C·op(Q) (Right), Q the
// product of the k = A.Cols reflectors [Geqrf] left in A and tau
// (cusolverDn<t>ormqr, <t>unmqr for complex types). A has m rows (Left)
// or n (Right), and k is at most that. For a complex T, the transpose is
// ConjTrans (Trans is refused, as LAPACK's unmqr does).
func Ormqr[T Scalar](h *Handle, side Side, trans Op, A Matrix[T], tau *cuda.Buffer[T], C Matrix[T]) error {
	const op = "Ormqr"
	complexT := mathlib.TypeOf[T]() == cudartC32F || mathlib.TypeOf[T]() == cudartC64F
	if err := checkOrmqr(shapeOf("A", A), shapeOf("C", C), side, trans, complexT, lenOf(tau)); err != nil {
		return err
	}
	k := A.Cols
	if err := h.lock(); err != nil {
		return err
	}
	defer h.mu.Unlock()
	st := h.st
	m, n, kk, lda, ldc := int32(C.Rows), int32(C.Cols), int32(k), int32(A.ld()), int32(C.ld())
	sd, tr := cublas.SideMode(side), cublas.Operation(trans)
	a, t, c := ptr(A.Buf), ptr(tau), ptr(C.Buf)
	var lwork int32
	err := h.call(func(cuStream) error {
		var err error
		switch any((*T)(nil)).(type) {
		case *float32:
			lwork, err = cusolver.SormqrBufferSize(st.h, sd, tr, m, n, kk, ffi.DevicePtr[float32](a), lda, ffi.DevicePtr[float32](t), ffi.DevicePtr[float32](c), ldc)
		case *float64:
			lwork, err = cusolver.DormqrBufferSize(st.h, sd, tr, m, n, kk, ffi.DevicePtr[float64](a), lda, ffi.DevicePtr[float64](t), ffi.DevicePtr[float64](c), ldc)
		case *complex64:
			lwork, err = cusolver.CunmqrBufferSize(st.h, sd, tr, m, n, kk, ffi.DevicePtr[cudartComplex](a), lda, ffi.DevicePtr[cudartComplex](t), ffi.DevicePtr[cudartComplex](c), ldc)
		default:
			lwork, err = cusolver.ZunmqrBufferSize(st.h, sd, tr, m, n, kk, ffi.DevicePtr[cudartDoubleComplex](a), lda, ffi.DevicePtr[cudartDoubleComplex](t), ffi.DevicePtr[cudartDoubleComplex](c), ldc)
		}
		return err
	}, A.Buf, tau, C.Buf)
	if err != nil {
		return err
	}
	w, _, err := h.workspace(uint64(lwork)*uint64(unsafe.Sizeof(*new(T))), 0)
	if err != nil {
		return err
	}
	wp := ptr(w)
	info, err := h.run(func(info ffi.DevicePtr[int32]) error {
		switch any((*T)(nil)).(type) {
		case *float32:
			return cusolver.Sormqr(st.h, sd, tr, m, n, kk, ffi.DevicePtr[float32](a), lda, ffi.DevicePtr[float32](t), ffi.DevicePtr[float32](c), ldc, ffi.DevicePtr[float32](wp), lwork, info)
		case *float64:
			return cusolver.Dormqr(st.h, sd, tr, m, n, kk, ffi.DevicePtr[float64](a), lda, ffi.DevicePtr[float64](t), ffi.DevicePtr[float64](c), ldc, ffi.DevicePtr[float64](wp), lwork, info)
		case *complex64:
			return cusolver.Cunmqr(st.h, sd, tr, m, n, kk, ffi.DevicePtr[cudartComplex](a), lda, ffi.DevicePtr[cudartComplex](t), ffi.DevicePtr[cudartComplex](c), ldc, ffi.DevicePtr[cudartComplex](wp), lwork, info)
		}
		return cusolver.Zunmqr(st.h, sd, tr, m, n, kk, ffi.DevicePtr[cudartDoubleComplex](a), lda, ffi.DevicePtr[cudartDoubleComplex](t), ffi.DevicePtr[cudartDoubleComplex](c), ldc, ffi.DevicePtr[cudartDoubleComplex](wp), lwork, info)
	}, operands(buf(A.Buf), buf(tau), buf(C.Buf), buf(w))...)
	return paramInfo(op, info, err)
}

func sideName(s Side) string {
	if s == Left {
		return "left"
	}
	return "right"
}

// Job says which singular vectors Gesvd computes.
type Job byte

const (
	AllVectors  Job = 'A' // all m columns of U (all n rows of Vᵀ)
	SomeVectors Job = 'S' // the first min(m, n)
	NoVectors   Job = 'N' // none: U (Vᵀ) is not referenced
)

// Gesvd computes the singular value decomposition A = U·Σ·Vᵀ of the m×n
// matrix A, m >= n as cuSOLVER requires (cusolverDnXgesvd): the singular
// values, descending, in S (at least n elements), U (m×m for AllVectors,
// m×n for SomeVectors) and Vᵀ (n×n) as jobu and jobvt ask. A is
// overwritten. A QR iteration that does not converge is a
// [*ConvergenceError].
func Gesvd[T Float](h *Handle, jobu, jobvt Job, A Matrix[T], S *cuda.Buffer[T], U, VT Matrix[T]) error {
	const op = "Gesvd"
	if err := checkGesvd(shapeOf("A", A), shapeOf("U", U), shapeOf("VT", VT), jobu, jobvt, lenOf(S)); err != nil {
		return err
	}
	m, n := A.Rows, A.Cols
	var ops []cuda.Operand
	if jobu != NoVectors {
		ops = append(ops, U.Buf)
	}
	if jobvt != NoVectors {
		ops = append(ops, VT.Buf)
	}
	if err := h.lock(); err != nil {
		return err
	}
	defer h.mu.Unlock()
	st, dt := h.st, mathlib.TypeOf[T]()
	ldu, ldvt := int64(1), int64(1)
	var pu, pvt ffi.DeviceAddr
	if jobu != NoVectors {
		ldu, pu = int64(U.ld()), ptr(U.Buf)
	}
	if jobvt != NoVectors {
		ldvt, pvt = int64(VT.ld()), ptr(VT.Buf)
	}
	ops = append(ops, A.Buf, S)
	info, err := h.xcall(func(dsize *uint64) (uint64, error) {
		return cusolver.XgesvdBufferSize(st.h, st.params, int8(jobu), int8(jobvt), int64(m), int64(n), dt, ptr(A.Buf), int64(A.ld()),
			dt, ptr(S), dt, pu, ldu, dt, pvt, ldvt, dt, dsize)
	}, func(w work, info ffi.DevicePtr[int32]) error {
		return cusolver.Xgesvd(st.h, st.params, int8(jobu), int8(jobvt), int64(m), int64(n), dt, ptr(A.Buf), int64(A.ld()),
			dt, ptr(S), dt, pu, ldu, dt, pvt, ldvt, dt, w.d, w.dsize, w.h, w.hsize, info)
	}, ops...)
	return infoError(op, info, err, func(i int) error { return &ConvergenceError{Op: op, Count: i} })
}

// Syevd computes the eigenvalues of the symmetric n×n matrix A, ascending,
// into W (at least n elements), and with vectors the orthonormal
// eigenvectors into A's columns (cusolverDnXsyevd, divide and conquer);
// only A's triangle fill is read. Without vectors A's triangle is
// destroyed. An iteration that does not converge is a
// [*ConvergenceError].
func Syevd[T Float](h *Handle, vectors bool, fill Fill, A Matrix[T], W *cuda.Buffer[T]) error {
	const op = "Syevd"
	if err := checkSyevd(shapeOf("A", A), fill, lenOf(W)); err != nil {
		return err
	}
	if err := h.lock(); err != nil {
		return err
	}
	defer h.mu.Unlock()
	st, dt := h.st, mathlib.TypeOf[T]()
	jobz := cusolver.EigModeNovector
	if vectors {
		jobz = cusolver.EigModeVector
	}
	n, lda := int64(A.Rows), int64(A.ld())
	info, err := h.xcall(func(dsize *uint64) (uint64, error) {
		return cusolver.XsyevdBufferSize(st.h, st.params, jobz, cublas.FillMode(fill), n, dt, ptr(A.Buf), lda, dt, ptr(W), dt, dsize)
	}, func(w work, info ffi.DevicePtr[int32]) error {
		return cusolver.Xsyevd(st.h, st.params, jobz, cublas.FillMode(fill), n, dt, ptr(A.Buf), lda, dt, ptr(W), dt, w.d, w.dsize, w.h, w.hsize, info)
	}, operands(buf(A.Buf), buf(W))...)
	return infoError(op, info, err, func(i int) error { return &ConvergenceError{Op: op, Count: i} })
}
