package solver

import (
	"errors"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	cuda "github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cusolver"
	"github.com/cugen/cugen/cugentest"
)

// gpuTB is the GPU test running now (they do not run in parallel).
var gpuTB testing.TB

func must[V any](v V, err error) V {
	if err != nil {
		gpuTB.Helper()
		gpuTB.Fatal(err)
	}
	return v
}

func ok(err error) {
	if err != nil {
		gpuTB.Helper()
		gpuTB.Fatal(err)
	}
}

// gpuHandle returns device 0's context and a handle on a new stream,
// closed at the test's end; without a device or cuSOLVER it skips.
func gpuHandle(tb testing.TB) (*cuda.Context, *Handle) {
	tb.Helper()
	gpuTB = tb
	ctx, err := cuda.NewContext(0)
	cugentest.NeedDevice(tb, err)
	cugentest.NeedLibrary(tb, cusolver.SharedLibrary().Load())
	s := must(ctx.NewStream())
	h := must(NewHandle(ctx, s))
	tb.Cleanup(func() {
		if err := h.Close(); err != nil {
			tb.Error(err)
		}
		s.Close()
		ctx.Close()
	})
	return ctx, h
}

func random[T Scalar](r *rand.Rand) T {
	var v T
	switch p := any(&v).(type) {
	case *float32:
		*p = float32(r.Float64()*2 - 1)
	case *float64:
		*p = r.Float64()*2 - 1
	case *complex64:
		*p = complex(float32(r.Float64()*2-1), float32(r.Float64()*2-1))
	case *complex128:
		*p = complex(r.Float64()*2-1, r.Float64()*2-1)
	}
	return v
}

func c128[T Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	}
	return any(v).(complex128)
}

func from[T Scalar](c complex128) T {
	var v T
	switch p := any(&v).(type) {
	case *float32:
		*p = float32(real(c))
	case *float64:
		*p = real(c)
	case *complex64:
		*p = complex64(c)
	case *complex128:
		*p = c
	}
	return v
}

func eps[T Scalar]() float64 {
	switch any(*new(T)).(type) {
	case float32, complex64:
		return 1.2e-7
	}
	return 2.3e-16
}

// cm is a column-major Go matrix in complex128, the references' type.
type cm struct {
	r, c int
	v    []complex128
}

func (a cm) at(i, j int) complex128 { return a.v[i+j*a.r] }

func upload[T Scalar](ctx *cuda.Context, a cm) Matrix[T] {
	s := make([]T, len(a.v))
	for i, v := range a.v {
		s[i] = from[T](v)
	}
	return NewMatrix(must(cuda.AllocFrom(ctx, s)), a.r, a.c)
}

func download[T Scalar](m Matrix[T]) cm {
	s := make([]T, m.Buf.Len())
	ok(m.Buf.CopyTo(s))
	out := cm{m.Rows, m.Cols, make([]complex128, m.Rows*m.Cols)}
	for j := 0; j < m.Cols; j++ {
		for i := 0; i < m.Rows; i++ {
			out.v[i+j*m.Rows] = c128(s[i+j*m.ld()])
		}
	}
	return out
}

func randomCM[T Scalar](r *rand.Rand, rows, cols int) cm {
	a := cm{rows, cols, make([]complex128, rows*cols)}
	for i := range a.v {
		a.v[i] = c128(random[T](r))
	}
	return a
}

func mul(a, b cm) cm {
	out := cm{a.r, b.c, make([]complex128, a.r*b.c)}
	for j := 0; j < b.c; j++ {
		for l := 0; l < a.c; l++ {
			for i := 0; i < a.r; i++ {
				out.v[i+j*a.r] += a.at(i, l) * b.at(l, j)
			}
		}
	}
	return out
}

func adj(a cm) cm { // conjugate transpose
	out := cm{a.c, a.r, make([]complex128, len(a.v))}
	for i := 0; i < a.r; i++ {
		for j := 0; j < a.c; j++ {
			out.v[j+i*a.c] = cmplx.Conj(a.at(i, j))
		}
	}
	return out
}

// relErr is max |a - b| over max |b|.
func relErr(a, b cm) float64 {
	var e, m float64
	for i := range a.v {
		e = max(e, cmplx.Abs(a.v[i]-b.v[i]))
		m = max(m, cmplx.Abs(b.v[i]))
	}
	return e / max(m, 1e-300)
}

func spd[T Scalar](r *rand.Rand, n int) cm {
	b := randomCM[T](r, n, n)
	a := mul(b, adj(b))
	for i := 0; i < n; i++ {
		a.v[i+i*n] += complex(float64(n), 0)
	}
	// Hermitian exactly, in T.
	for i := range a.v {
		a.v[i] = c128(from[T](a.v[i]))
	}
	return a
}

func testCholesky[T Scalar](t *testing.T) {
	ctx, h := gpuHandle(t)
	r := rand.New(rand.NewPCG(1, 1))
	const n, nrhs = 50, 3
	a := spd[T](r, n)
	x := randomCM[T](r, n, nrhs)
	b := mul(a, x)
	for _, fill := range []Fill{Lower, Upper} {
		A, B := upload[T](ctx, a), upload[T](ctx, b)
		ok(Potrf(h, fill, A))
		ok(Potrs(h, fill, A, B))
		e := relErr(download(B), x)
		t.Logf("%T Cholesky n=%d fill %d: max |x - want|/max|want| = %.3g", *new(T), n, fill, e)
		if e > 1e4*eps[T]() {
			t.Errorf("fill %d: error %.3g", fill, e)
		}
		A.Buf.Close()
		B.Buf.Close()
	}
}

func TestGPUCholesky(t *testing.T) {
	t.Run("float32", testCholesky[float32])
	t.Run("float64", testCholesky[float64])
	t.Run("complex64", testCholesky[complex64])
	t.Run("complex128", testCholesky[complex128])
}

// TestGPUNotPositiveDefinite: Potrf of diag(4, 1, -1, 2) fails at the
// leading minor of order 3, and says so.
func TestGPUNotPositiveDefinite(t *testing.T) {
	ctx, h := gpuHandle(t)
	a := make([]float64, 16)
	for i, d := range []float64{4, 1, -1, 2} {
		a[i+4*i] = d
	}
	A := NewMatrix(must(cuda.AllocFrom(ctx, a)), 4, 4)
	defer A.Buf.Close()
	err := Potrf(h, Lower, A)
	var pd *NotPositiveDefiniteError
	if !errors.As(err, &pd) || pd.Order != 3 {
		t.Fatalf("Potrf of diag(4, 1, -1, 2): %v, want the leading minor of order 3", err)
	}
	t.Logf("%v", err)
	// The handle works on after the error.
	a[10] = 3
	ok(A.Buf.CopyFrom(a))
	ok(Potrf(h, Lower, A))
}

func testLU[T Scalar](t *testing.T) {
	ctx, h := gpuHandle(t)
	r := rand.New(rand.NewPCG(2, 2))
	const n, nrhs = 40, 2
	a := randomCM[T](r, n, n)
	x := randomCM[T](r, n, nrhs)
	ops := []Op{NoTrans, Trans}
	if _, ok := any(*new(T)).(complex64); ok {
		ops = append(ops, ConjTrans)
	}
	for _, op := range ops {
		opA := a
		switch op {
		case Trans:
			opA = adj(a)
			for i := range opA.v {
				opA.v[i] = cmplx.Conj(opA.v[i])
			}
		case ConjTrans:
			opA = adj(a)
		}
		b := mul(opA, x)
		A, B := upload[T](ctx, a), upload[T](ctx, b)
		ipiv := must(cuda.Alloc[int64](ctx, n))
		ok(Getrf(h, A, ipiv))
		ok(Getrs(h, op, A, ipiv, B))
		e := relErr(download(B), x)
		t.Logf("%T LU n=%d op %d: relative error %.3g", *new(T), n, op, e)
		if e > 1e5*eps[T]() {
			t.Errorf("op %d: error %.3g", op, e)
		}
		A.Buf.Close()
		B.Buf.Close()
		ipiv.Close()
	}
}

func TestGPULU(t *testing.T) {
	t.Run("float32", testLU[float32])
	t.Run("float64", testLU[float64])
	t.Run("complex64", testLU[complex64])
	t.Run("complex128", testLU[complex128])
}

// TestGPUSingular: the LU factors of [1 2; 2 4] have U(2,2) = 0 exactly.
func TestGPUSingular(t *testing.T) {
	ctx, h := gpuHandle(t)
	A := NewMatrix(must(cuda.AllocFrom(ctx, []float64{1, 2, 2, 4})), 2, 2)
	defer A.Buf.Close()
	ipiv := must(cuda.Alloc[int64](ctx, 2))
	defer ipiv.Close()
	err := Getrf(h, A, ipiv)
	var se *SingularError
	if !errors.As(err, &se) || se.Index != 2 {
		t.Fatalf("Getrf of [1 2; 2 4]: %v, want U(2,2) singular", err)
	}
	t.Logf("%v", err)
}

// TestGPURowMajor: a Go row-major matrix is its transpose column-major,
// so its LU factors with Getrs(Trans) solve the row-major system, as the
// package documentation says.
func TestGPURowMajor(t *testing.T) {
	ctx, h := gpuHandle(t)
	rowMajor := []float64{ // A
		4, 1, 2,
		1, 5, 3,
		2, 0, 6,
	}
	want := []float64{1, -2, 3}
	b := make([]float64, 3)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			b[i] += rowMajor[i*3+j] * want[j]
		}
	}
	A := NewMatrix(must(cuda.AllocFrom(ctx, rowMajor)), 3, 3) // holds Aᵀ
	B := NewMatrix(must(cuda.AllocFrom(ctx, b)), 3, 1)
	ipiv := must(cuda.Alloc[int64](ctx, 3))
	ok(Getrf(h, A, ipiv))
	ok(Getrs(h, Trans, A, ipiv, B))
	got := make([]float64, 3)
	ok(B.Buf.CopyTo(got))
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("x = %v, want %v", got, want)
		}
	}
	// And Transpose makes the column-major copy for NoTrans.
	At := NewMatrix(must(cuda.AllocFrom(ctx, Transpose(3, 3, rowMajor))), 3, 3)
	ok(B.Buf.CopyFrom(b))
	ok(Getrf(h, At, ipiv))
	ok(Getrs(h, NoTrans, At, ipiv, B))
	ok(B.Buf.CopyTo(got))
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("with Transpose: x = %v, want %v", got, want)
		}
	}
}

// testQR: Qᴴ·A, through Ormqr on a copy of A, is Geqrf's R (and zero
// below it).
func testQR[T Scalar](t *testing.T) {
	ctx, h := gpuHandle(t)
	r := rand.New(rand.NewPCG(3, 3))
	const m, n = 30, 12
	a := randomCM[T](r, m, n)
	A, C := upload[T](ctx, a), upload[T](ctx, a)
	defer A.Buf.Close()
	defer C.Buf.Close()
	tau := must(cuda.Alloc[T](ctx, n))
	defer tau.Close()
	ok(Geqrf(h, A, tau))
	trans := Trans
	if _, ok := any(*new(T)).(complex64); ok {
		trans = ConjTrans
	}
	if _, ok := any(*new(T)).(complex128); ok {
		trans = ConjTrans
	}
	ok(Ormqr(h, Left, trans, A, tau, C))
	qr, qa := download(A), download(C)
	want := cm{m, n, make([]complex128, m*n)}
	for j := 0; j < n; j++ {
		for i := 0; i <= j; i++ {
			want.v[i+j*m] = qr.at(i, j)
		}
	}
	e := relErr(qa, want)
	t.Logf("%T QR %d×%d: max |Qᴴ·A - R|/max|R| = %.3g", *new(T), m, n, e)
	if e > 1e3*eps[T]() {
		t.Errorf("Qᴴ·A differs from R by %.3g", e)
	}
}

func TestGPUQR(t *testing.T) {
	t.Run("float32", testQR[float32])
	t.Run("float64", testQR[float64])
	t.Run("complex64", testQR[complex64])
	t.Run("complex128", testQR[complex128])
}

// testSVD: U·Σ·Vᵀ rebuilds A, the singular values descend, and U's and
// V's columns are orthonormal.
func testSVD[T Float](t *testing.T) {
	ctx, h := gpuHandle(t)
	r := rand.New(rand.NewPCG(4, 4))
	const m, n = 20, 8
	a := randomCM[T](r, m, n)
	A := upload[T](ctx, a)
	defer A.Buf.Close()
	S := must(cuda.Alloc[T](ctx, n))
	defer S.Close()
	U := NewMatrix(must(cuda.Alloc[T](ctx, m*n)), m, n)
	defer U.Buf.Close()
	VT := NewMatrix(must(cuda.Alloc[T](ctx, n*n)), n, n)
	defer VT.Buf.Close()
	ok(Gesvd(h, SomeVectors, AllVectors, A, S, U, VT))
	s := make([]T, n)
	ok(S.CopyTo(s))
	u, vt := download(U), download(VT)
	sigma := cm{n, n, make([]complex128, n*n)}
	for i := 0; i < n; i++ {
		sigma.v[i+i*n] = complex(float64(s[i]), 0)
		if i > 0 && s[i] > s[i-1] {
			t.Errorf("singular values not descending: %v", s)
		}
	}
	e := relErr(mul(mul(u, sigma), vt), a)
	id := cm{n, n, make([]complex128, n*n)}
	for i := 0; i < n; i++ {
		id.v[i+i*n] = 1
	}
	eu, ev := relErr(mul(adj(u), u), id), relErr(mul(vt, adj(vt)), id)
	t.Logf("%T SVD %d×%d: σ %.4g..%.4g, |UΣVᵀ - A| %.3g, |UᵀU - I| %.3g, |VᵀV - I| %.3g", *new(T), m, n, s[0], s[n-1], e, eu, ev)
	if max(e, eu, ev) > 1e3*eps[T]() {
		t.Errorf("SVD errors %.3g %.3g %.3g", e, eu, ev)
	}
}

func TestGPUSVD(t *testing.T) {
	t.Run("float32", testSVD[float32])
	t.Run("float64", testSVD[float64])
}

// testSyevd: A·v = λ·v for each eigenpair, the eigenvalues ascending.
func testSyevd[T Float](t *testing.T) {
	ctx, h := gpuHandle(t)
	r := rand.New(rand.NewPCG(5, 5))
	const n = 32
	a := spd[T](r, n)
	for i := range a.v { // any symmetric matrix: shift to negative eigenvalues too
		if i%(n+1) == 0 {
			a.v[i] -= complex(2*float64(n), 0)
		}
	}
	A := upload[T](ctx, a)
	defer A.Buf.Close()
	W := must(cuda.Alloc[T](ctx, n))
	defer W.Close()
	ok(Syevd(h, true, Upper, A, W))
	w := make([]T, n)
	ok(W.CopyTo(w))
	v := download(A)
	lam := cm{n, n, make([]complex128, n*n)}
	for i := 0; i < n; i++ {
		lam.v[i+i*n] = complex(float64(w[i]), 0)
		if i > 0 && w[i] < w[i-1] {
			t.Errorf("eigenvalues not ascending: %v", w)
		}
	}
	e := relErr(mul(a, v), mul(v, lam))
	t.Logf("%T Syevd n=%d: λ %.4g..%.4g, |AV - VΛ|/|VΛ| %.3g", *new(T), n, w[0], w[n-1], e)
	if e > 1e3*eps[T]() {
		t.Errorf("eigenpairs off by %.3g", e)
	}
}

func TestGPUSyevd(t *testing.T) {
	t.Run("float32", testSyevd[float32])
	t.Run("float64", testSyevd[float64])
}

// TestGPUClosedBuffer: a call with a closed buffer is the layer's
// ErrFreed before cuSOLVER is called.
func TestGPUClosedBuffer(t *testing.T) {
	ctx, h := gpuHandle(t)
	A := NewMatrix(must(cuda.Alloc[float32](ctx, 4)), 2, 2)
	ok(A.Buf.Close())
	if err := Potrf(h, Lower, A); !errors.Is(err, cuda.ErrFreed) {
		t.Errorf("Potrf of a closed buffer: %v, want ErrFreed", err)
	}
}
