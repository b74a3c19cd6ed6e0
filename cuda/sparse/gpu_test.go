package sparse

import (
	"errors"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	cuda "github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/cuda/sys/cusparse"
	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
)

// gpuHandle returns a context of device 0, a stream of it and a handle on
// the stream, closed at the test's end; without a device or cuSPARSE it
// skips the test (cugentest).
func gpuHandle(tb testing.TB) (*cuda.Context, *Handle) {
	tb.Helper()
	gpuTB = tb
	ctx, err := cuda.NewContext(0)
	cugentest.NeedDevice(tb, err)
	cugentest.NeedLibrary(tb, cusparse.SharedLibrary().Load())
	s, err := ctx.NewStream()
	if err != nil {
		tb.Fatal(err)
	}
	h, err := NewHandle(ctx, s)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := h.Close(); err != nil {
			tb.Error(err)
		}
		s.Close()
		ctx.Close()
	})
	return ctx, h
}

// gpuTB is the GPU test running now (they do not run in parallel), for
// must.
var gpuTB testing.TB

// must returns v, or fails the running GPU test with err.
func must[V any](v V, err error) V {
	if err != nil {
		gpuTB.Helper()
		gpuTB.Fatal(err)
	}
	return v
}

// ok fails the running GPU test with err.
func ok(err error) {
	if err != nil {
		gpuTB.Helper()
		gpuTB.Fatal(err)
	}
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

// tol is the relative error a product of about n terms may have in T.
func tol[T Scalar](n int) float64 {
	switch any(*new(T)).(type) {
	case float32, complex64:
		return 1e-5 * math.Sqrt(float64(n+1)) * 4
	}
	return 1e-13 * math.Sqrt(float64(n+1)) * 4
}

// dense is a row-major Go matrix in complex128, the reference's type.
type dense struct {
	r, c int
	v    []complex128
}

func (d dense) at(i, j int) complex128 { return d.v[i*d.c+j] }

// randomCSR returns a rows×cols CSR structure with about density of its
// elements set, and the same matrix dense.
func randomCSR[T Scalar](r *rand.Rand, rows, cols int, density float64) (rowPtr, colInd []int32, vals []T, d dense) {
	d = dense{rows, cols, make([]complex128, rows*cols)}
	rowPtr = append(rowPtr, 0)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if r.Float64() < density {
				v := random[T](r)
				colInd = append(colInd, int32(j))
				vals = append(vals, v)
				d.v[i*cols+j] = c128(v)
			}
		}
		rowPtr = append(rowPtr, int32(len(vals)))
	}
	return
}

// apply returns op(d)·x.
func (d dense) apply(op Op, x []complex128) []complex128 {
	m, k := op.dims(d.r, d.c)
	y := make([]complex128, m)
	for i := 0; i < m; i++ {
		for j := 0; j < k; j++ {
			var a complex128
			switch op {
			case NoTrans:
				a = d.at(i, j)
			case Trans:
				a = d.at(j, i)
			default:
				a = cmplx.Conj(d.at(j, i))
			}
			y[i] += a * x[j]
		}
	}
	return y
}

func toC128[T Scalar](s []T) []complex128 {
	out := make([]complex128, len(s))
	for i, v := range s {
		out[i] = c128(v)
	}
	return out
}

// compare fails tb where got differs from want by more than tol relative
// to want's largest element, and returns the largest difference.
func compare[T Scalar](tb testing.TB, what string, got []T, want []complex128, n int) float64 {
	tb.Helper()
	var maxErr, maxRef float64
	for i := range want {
		maxErr = max(maxErr, cmplx.Abs(c128(got[i])-want[i]))
		maxRef = max(maxRef, cmplx.Abs(want[i]))
	}
	if maxErr > tol[T](n)*max(maxRef, 1) {
		tb.Errorf("%s: max |got - want| = %.3g (max |want| %.3g, tolerance %.3g)", what, maxErr, maxRef, tol[T](n)*max(maxRef, 1))
	}
	return maxErr
}

func testSpMV[T Scalar](t *testing.T) {
	ctx, h := gpuHandle(t)
	r := rand.New(rand.NewPCG(1, 2))
	const rows, cols = 70, 50
	rowPtr, colInd, vals, d := randomCSR[T](r, rows, cols, 0.2)
	csr := must(NewCSR(ctx, rows, cols, rowPtr, colInd, vals))
	defer csr.Close()
	// The same matrix in COO.
	rowInd := make([]int64, 0, len(vals))
	for i := 0; i < rows; i++ {
		for k := rowPtr[i]; k < rowPtr[i+1]; k++ {
			rowInd = append(rowInd, int64(i))
		}
	}
	colInd64 := make([]int64, len(colInd))
	for k, j := range colInd {
		colInd64[k] = int64(j)
	}
	coo := must(NewCOO(ctx, rows, cols, rowInd, colInd64, vals))
	defer coo.Close()
	ops := []Op{NoTrans, Trans}
	if _, ok := any(*new(T)).(complex64); ok {
		ops = append(ops, ConjTrans)
	}
	if _, ok := any(*new(T)).(complex128); ok {
		ops = append(ops, ConjTrans)
	}
	alpha, beta := random[T](r), random[T](r)
	for _, A := range []Matrix[T]{csr, coo} {
		for _, op := range ops {
			m, k := op.dims(rows, cols)
			xs, ys := make([]T, k), make([]T, m)
			for i := range xs {
				xs[i] = random[T](r)
			}
			for i := range ys {
				ys[i] = random[T](r)
			}
			xb := must(cuda.AllocFrom(ctx, xs))
			yb := must(cuda.AllocFrom(ctx, ys))
			x, y := must(NewVec(xb)), must(NewVec(yb))
			if err := SpMV(h, op, alpha, A, x, beta, y); err != nil {
				t.Fatalf("SpMV %v: %v", op, err)
			}
			got := make([]T, m)
			if err := h.Stream().Synchronize(); err != nil {
				t.Fatal(err)
			}
			if err := yb.CopyTo(got); err != nil {
				t.Fatal(err)
			}
			want := d.apply(op, toC128(xs))
			for i := range want {
				want[i] = c128(alpha)*want[i] + c128(beta)*c128(ys[i])
			}
			e := compare(t, "SpMV "+op.String(), got, want, k)
			t.Logf("%T %s %v %d×%d (%d nonzeros): max error %.3g, workspace %d bytes", *new(T), A.mat().format, op, rows, cols, len(vals), e, h.Workspace())
			x.Close()
			y.Close()
			xb.Close()
			yb.Close()
		}
	}
}

func TestGPUSpMV(t *testing.T) {
	t.Run("float32", testSpMV[float32])
	t.Run("float64", testSpMV[float64])
	t.Run("complex64", testSpMV[complex64])
	t.Run("complex128", testSpMV[complex128])
}

// TestGPUSpMVBSR: a BSR matrix's SpMV against the same matrix dense. An
// older cuSPARSE without BSR SpMV skips it, saying so.
func TestGPUSpMVBSR(t *testing.T) {
	ctx, h := gpuHandle(t)
	r := rand.New(rand.NewPCG(3, 4))
	const brows, bcols, bd = 6, 5, 3
	rowPtr, colInd, _, _ := randomCSR[float64](r, brows, bcols, 0.4)
	d := dense{brows * bd, bcols * bd, make([]complex128, brows*bd*bcols*bd)}
	var vals []float64
	for bi := 0; bi < brows; bi++ {
		for k := rowPtr[bi]; k < rowPtr[bi+1]; k++ {
			bj := int(colInd[k])
			for i := 0; i < bd; i++ { // row-major blocks
				for j := 0; j < bd; j++ {
					v := r.Float64()
					vals = append(vals, v)
					d.v[(bi*bd+i)*d.c+bj*bd+j] = complex(v, 0)
				}
			}
		}
	}
	A := must(NewBSR(ctx, brows, bcols, bd, RowMajor, rowPtr, colInd, vals))
	defer A.Close()
	xs := make([]float64, bcols*bd)
	for i := range xs {
		xs[i] = r.Float64()
	}
	xb := must(cuda.AllocFrom(ctx, xs))
	yb := must(cuda.Alloc[float64](ctx, brows*bd))
	x, y := must(NewVec(xb)), must(NewVec(yb))
	err := SpMV(h, NoTrans, 1, A, x, 0, y)
	if errors.Is(err, cusparse.StatusNotSupported) || errors.Is(err, cusparse.StatusInvalidValue) {
		t.Skipf("this cuSPARSE has no BSR SpMV: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float64, brows*bd)
	ok(h.Stream().Synchronize())
	ok(yb.CopyTo(got))
	t.Logf("BSR %d×%d blocks of %d: max error %.3g", brows, bcols, bd, compare(t, "BSR SpMV", got, d.apply(NoTrans, toC128(xs)), bcols*bd))
}

func testSpMM[T Scalar](t *testing.T) {
	ctx, h := gpuHandle(t)
	r := rand.New(rand.NewPCG(5, 6))
	const m, k, n = 40, 30, 7
	rowPtr, colInd, vals, d := randomCSR[T](r, m, k, 0.25)
	A := must(NewCSR(ctx, m, k, rowPtr, colInd, vals))
	defer A.Close()
	for _, order := range []Order{RowMajor, ColMajor} {
		bs, cs := make([]T, k*n), make([]T, m*n)
		for i := range bs {
			bs[i] = random[T](r)
		}
		for i := range cs {
			cs[i] = random[T](r)
		}
		at := func(s []T, rows, cols, i, j int) complex128 {
			if order == RowMajor {
				return c128(s[i*cols+j])
			}
			return c128(s[i+j*rows])
		}
		ldB, ldC := n, n
		if order == ColMajor {
			ldB, ldC = k, m
		}
		bb, cb := must(cuda.AllocFrom(ctx, bs)), must(cuda.AllocFrom(ctx, cs))
		B, C := must(NewDense(bb, k, n, ldB, order)), must(NewDense(cb, m, n, ldC, order))
		alpha, beta := random[T](r), random[T](r)
		if err := SpMM(h, NoTrans, NoTrans, alpha, A, B, beta, C); err != nil {
			t.Fatalf("SpMM %v: %v", order, err)
		}
		got := make([]T, m*n)
		ok(h.Stream().Synchronize())
		ok(cb.CopyTo(got))
		want := make([]complex128, m*n)
		gotC := make([]T, m*n)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				var s complex128
				for l := 0; l < k; l++ {
					s += d.at(i, l) * at(bs, k, n, l, j)
				}
				want[i*n+j] = c128(alpha)*s + c128(beta)*at(cs, m, n, i, j)
				if order == RowMajor {
					gotC[i*n+j] = got[i*n+j]
				} else {
					gotC[i*n+j] = got[i+j*m]
				}
			}
		}
		t.Logf("%T SpMM %d×%d·%d×%d %v: max error %.3g", *new(T), m, k, k, n, order, compare(t, "SpMM", gotC, want, k))
		B.Close()
		C.Close()
		bb.Close()
		cb.Close()
	}
}

func TestGPUSpMM(t *testing.T) {
	t.Run("float32", testSpMM[float32])
	t.Run("float64", testSpMM[float64])
	t.Run("complex64", testSpMM[complex64])
	t.Run("complex128", testSpMM[complex128])
}

func testSpGEMM[T Scalar](t *testing.T) {
	ctx, h := gpuHandle(t)
	r := rand.New(rand.NewPCG(7, 8))
	const m, k, n = 45, 35, 40
	ra, ca, va, da := randomCSR[T](r, m, k, 0.1)
	rb, cb, vb, db := randomCSR[T](r, k, n, 0.1)
	A := must(NewCSR(ctx, m, k, ra, ca, va))
	defer A.Close()
	B := must(NewCSR(ctx, k, n, rb, cb, vb))
	defer B.Close()
	alpha := random[T](r)
	C, err := SpGEMM(h, alpha, A, B)
	if err != nil {
		t.Fatal(err)
	}
	defer C.Close()
	if C.Rows() != m || C.Cols() != n {
		t.Fatalf("C is %d×%d, want %d×%d", C.Rows(), C.Cols(), m, n)
	}
	rp, ci, vs := make([]int32, m+1), make([]int32, C.NNZ()), make([]T, C.NNZ())
	ok(C.RowPtr().CopyTo(rp))
	ok(C.ColInd().CopyTo(ci))
	ok(C.Values().CopyTo(vs))
	got := make([]T, m*n)
	for i := 0; i < m; i++ {
		for p := rp[i]; p < rp[i+1]; p++ {
			got[i*n+int(ci[p])] = vs[p]
		}
	}
	want := make([]complex128, m*n)
	structural := 0
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			hit := false
			for l := 0; l < k; l++ {
				if da.at(i, l) != 0 && db.at(l, j) != 0 {
					want[i*n+j] += da.at(i, l) * db.at(l, j)
					hit = true
				}
			}
			want[i*n+j] *= c128(alpha)
			if hit {
				structural++
			}
		}
	}
	if C.NNZ() != structural {
		t.Errorf("C has %d elements, want the %d of the product's pattern", C.NNZ(), structural)
	}
	t.Logf("%T SpGEMM %d×%d (%d) · %d×%d (%d) = %d elements: max error %.3g", *new(T), m, k, len(va), k, n, len(vb), C.NNZ(), compare(t, "SpGEMM", got, want, k))
}

func TestGPUSpGEMM(t *testing.T) {
	t.Run("float32", testSpGEMM[float32])
	t.Run("float64", testSpGEMM[float64])
	t.Run("complex64", testSpGEMM[complex64])
	t.Run("complex128", testSpGEMM[complex128])
}

// TestGPUSpSV: a lower triangular CSR system solved with one analysis and
// two right-hand sides, against forward substitution in Go; then the
// upper triangle of the same matrix transposed, with a unit diagonal.
func TestGPUSpSV(t *testing.T) {
	ctx, h := gpuHandle(t)
	r := rand.New(rand.NewPCG(9, 10))
	const n = 60
	// A random matrix with every diagonal element stored and strong (4 +
	// [-1, 1)); SpSV reads one triangle of it.
	d := dense{n, n, make([]complex128, n*n)}
	rowPtr := []int32{0}
	var colInd []int32
	var vals []float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j && r.Float64() >= 0.3 {
				continue
			}
			v := r.Float64()*2 - 1
			if i == j {
				v += 4
			}
			colInd = append(colInd, int32(j))
			vals = append(vals, v)
			d.v[i*n+j] = complex(v, 0)
		}
		rowPtr = append(rowPtr, int32(len(vals)))
	}
	A := must(NewCSR(ctx, n, n, rowPtr, colInd, vals))
	defer A.Close()
	solve := func(op Op, fill Fill, diag Diag, alpha float64, bs ...[]float64) {
		xb, yb := must(cuda.Alloc[float64](ctx, n)), must(cuda.Alloc[float64](ctx, n))
		defer xb.Close()
		defer yb.Close()
		x, y := must(NewVec(xb)), must(NewVec(yb))
		p := must(NewSpSV(h, op, alpha, A, fill, diag, x, y))
		defer p.Close()
		for _, b := range bs {
			ok(xb.CopyFromAsync(h.Stream(), b))
			if err := p.Solve(x, y); err != nil {
				t.Fatal(err)
			}
			got := make([]float64, n)
			ok(h.Stream().Synchronize())
			ok(yb.CopyTo(got))
			want := spsvRef(d, op, fill, diag, alpha, b)
			t.Logf("SpSV %v %v diag %v n=%d: max error %.3g", op, fill, diag, n, compare(t, "SpSV", got, toC128(want), n))
		}
	}
	b1, b2 := make([]float64, n), make([]float64, n)
	for i := range b1 {
		b1[i], b2[i] = r.Float64(), r.Float64()*10
	}
	solve(NoTrans, Lower, NonUnit, 1, b1, b2)
	solve(Trans, Upper, Unit, 2, b1)
}

// triangle returns element (i, j) of op(T), T the triangle fill of the
// n×n matrix d with diag.
func triangle(d dense, op Op, fill Fill, diag Diag, i, j int) float64 {
	if op != NoTrans {
		i, j = j, i // d's coordinates
	}
	if i == j && diag == Unit {
		return 1
	}
	if fill == Lower && j > i || fill == Upper && j < i {
		return 0
	}
	return real(d.at(i, j))
}

// spsvRef solves op(T)·y = alpha·b by substitution, in the direction
// op(T) is triangular in: SpSV's reference.
func spsvRef(d dense, op Op, fill Fill, diag Diag, alpha float64, b []float64) []float64 {
	n := d.r
	y := make([]float64, n)
	lower := (fill == Lower) == (op == NoTrans)
	for s := 0; s < n; s++ {
		i := s
		if !lower {
			i = n - 1 - s
		}
		v := alpha * b[i]
		for j := 0; j < n; j++ {
			if j != i {
				v -= triangle(d, op, fill, diag, i, j) * y[j]
			}
		}
		y[i] = v / triangle(d, op, fill, diag, i, i)
	}
	return y
}

// TestSpSVRef checks SpSV's reference on the CPU: op(T)·y is alpha·b for
// each op, fill and diag.
func TestSpSVRef(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	const n = 7
	d := dense{n, n, make([]complex128, n*n)}
	for i := range d.v {
		d.v[i] = complex(r.Float64()*2-1, 0)
	}
	for i := 0; i < n; i++ {
		d.v[i*n+i] += 4
	}
	b := make([]float64, n)
	for i := range b {
		b[i] = r.Float64()
	}
	for _, op := range []Op{NoTrans, Trans} {
		for _, fill := range []Fill{Lower, Upper} {
			for _, diag := range []Diag{NonUnit, Unit} {
				y := spsvRef(d, op, fill, diag, 2, b)
				for i := 0; i < n; i++ {
					var s float64
					for j := 0; j < n; j++ {
						s += triangle(d, op, fill, diag, i, j) * y[j]
					}
					if math.Abs(s-2*b[i]) > 1e-12 {
						t.Fatalf("op %v fill %d diag %d: row %d of op(T)·y is %v, want %v", op, fill, diag, i, s, 2*b[i])
					}
				}
			}
		}
	}
}

// TestGPUClosedOperand: an operation on a vector whose buffer was closed
// is ErrFreed (the layer's) before cuSPARSE is called.
func TestGPUClosedOperand(t *testing.T) {
	ctx, h := gpuHandle(t)
	A := must(NewCSR(ctx, 2, 2, []int32{0, 1, 2}, []int32{0, 1}, []float32{1, 2}))
	defer A.Close()
	xb, yb := must(cuda.Alloc[float32](ctx, 2)), must(cuda.Alloc[float32](ctx, 2))
	x, y := must(NewVec(xb)), must(NewVec(yb))
	ok(xb.Close())
	if err := SpMV(h, NoTrans, 1, A, x, 0, y); !errors.Is(err, cuda.ErrFreed) {
		t.Errorf("SpMV with a closed buffer: %v, want ErrFreed", err)
	}
	ok(A.Close())
	if err := SpMV(h, NoTrans, 1, A, y, 0, x); !errors.Is(err, ErrClosed) {
		t.Errorf("SpMV with a closed matrix: %v, want ErrClosed", err)
	}
	if err := A.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close: %v, want ErrClosed", err)
	}
}

// laplacian2D returns the 5-point Laplacian of a g×g grid in CSR.
func laplacian2D(g int) (rowPtr, colInd []int32, vals []float32) {
	rowPtr = make([]int32, 0, g*g+1)
	for i := 0; i < g; i++ {
		for j := 0; j < g; j++ {
			rowPtr = append(rowPtr, int32(len(vals)))
			row := i*g + j
			for _, nb := range [][3]int{{i - 1, j, -1}, {i, j - 1, -1}, {i, j, 4}, {i, j + 1, -1}, {i + 1, j, -1}} {
				if nb[0] >= 0 && nb[0] < g && nb[1] >= 0 && nb[1] < g {
					colInd = append(colInd, int32(nb[0]*g+nb[1]))
					vals = append(vals, float32(nb[2]))
				}
			}
			_ = row
		}
	}
	rowPtr = append(rowPtr, int32(len(vals)))
	return
}

// TestGPUSpMVAllocs: a SpMV through the package allocates nothing once
// its workspace size is known.
func TestGPUSpMVAllocs(t *testing.T) {
	ctx, h := gpuHandle(t)
	rp, ci, vs := laplacian2D(64)
	A := must(NewCSR(ctx, 64*64, 64*64, rp, ci, vs))
	defer A.Close()
	xb, yb := must(cuda.Alloc[float32](ctx, 64*64)), must(cuda.Alloc[float32](ctx, 64*64))
	defer xb.Close()
	defer yb.Close()
	x, y := must(NewVec(xb)), must(NewVec(yb))
	ok(SpMV(h, NoTrans, 1, A, x, 0, y))
	n := testing.AllocsPerRun(100, func() {
		if err := SpMV(h, NoTrans, 1, A, x, 0, y); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("SpMV: %v allocations per call", n)
	if n != 0 {
		t.Errorf("SpMV: %v allocations per call, want 0", n)
	}
}

// TestGPUSpMVOverhead times SpMV of a 2D Laplacian through the package
// and through the raw generated call (cusparse.SpMV inside ctx.Do, the
// same handle, descriptors and workspace), interleaved in rounds so that
// clocks and the device's state drift alike for both, and logs the
// ratio. It asserts the results only; the ratio is the lead's to judge
// (the target: within 1%).
func TestGPUSpMVOverhead(t *testing.T) {
	ctx, h := gpuHandle(t)
	g := 2048 // 4M rows, 20M nonzeros
	if testing.Short() {
		g = 256
	}
	rp, ci, vs := laplacian2D(g)
	n := g * g
	A := must(NewCSR(ctx, n, n, rp, ci, vs))
	defer A.Close()
	ones := make([]float32, n)
	for i := range ones {
		ones[i] = 1
	}
	xb := must(cuda.AllocFrom(ctx, ones))
	yb := must(cuda.Alloc[float32](ctx, n))
	defer xb.Close()
	defer yb.Close()
	x, y := must(NewVec(xb)), must(NewVec(yb))
	ok(SpMV(h, NoTrans, 1, A, x, 0, y)) // the workspace
	alpha, beta := float32(1), float32(0)
	var work ffi.DeviceAddr
	if w, _ := h.ws.Get(1); w != nil { // the buffer SpMV grew
		work = ffi.DeviceAddr(w.Ptr())
	}
	s := h.Stream()
	const calls, rounds = 200, 20
	layer := func() error {
		for i := 0; i < calls; i++ {
			if err := SpMV(h, NoTrans, alpha, A, x, beta, y); err != nil {
				return err
			}
		}
		return s.Synchronize()
	}
	raw := func() error {
		err := ctx.Do(func() error {
			for i := 0; i < calls; i++ {
				if err := cusparse.SpMV(h.Raw(), cusparse.OperationNonTranspose, ffi.Host(&alpha).Untyped(), A.Raw(), x.Raw(),
					ffi.Host(&beta).Untyped(), y.Raw(), cudart.R32F, cusparse.SpmvAlgDefault, work); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		return s.Synchronize()
	}
	ok(raw())
	ok(layer())
	// ABBA rounds: each round times both, in alternating order, and
	// keeps its ratio; the median ratio is the answer.
	var tl, tr time.Duration
	ratios := make([]float64, 0, rounds)
	timed := func(f func() error) time.Duration {
		start := time.Now()
		ok(f())
		return time.Since(start)
	}
	for r := 0; r < rounds; r++ {
		var dl, dr time.Duration
		if r%2 == 0 {
			dl, dr = timed(layer), timed(raw)
		} else {
			dr, dl = timed(raw), timed(layer)
		}
		tl, tr = tl+dl, tr+dr
		ratios = append(ratios, float64(dl)/float64(dr))
	}
	slices.Sort(ratios)
	got := make([]float32, n)
	ok(yb.CopyTo(got))
	for i := 0; i < g; i++ { // A·1: 4 minus the neighbours present
		row := i * g
		want := float32(0)
		if i == 0 || i == g-1 {
			want++
		}
		if got[row] != want+1 {
			t.Fatalf("y[%d] = %v, want %v", row, got[row], want+1)
		}
	}
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(rounds*calls) }
	t.Logf("SpMV 2D Laplacian %d×%d (%d nonzeros), float32: sparse.SpMV %.3f µs, raw cusparse.SpMV %.3f µs per call; median ratio of %d ABBA rounds of %d calls %.4f (min %.4f, max %.4f)",
		n, n, len(vs), per(tl), per(tr), rounds, calls, ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1])
}

// BenchmarkSpMV: one SpMV of the 2D Laplacian of a 1024×1024 grid (1M
// rows, 5M nonzeros, float32) through the package and through the raw
// generated call on the same handle, descriptors and workspace; each
// iteration waits for nothing, so the stream's rate is what is timed
// (b.N calls, then one Synchronize).
func BenchmarkSpMV(b *testing.B) {
	ctx, h := gpuHandle(b)
	const g = 1024
	rp, ci, vs := laplacian2D(g)
	A := must(NewCSR(ctx, g*g, g*g, rp, ci, vs))
	defer A.Close()
	xb, yb := must(cuda.Alloc[float32](ctx, g*g)), must(cuda.Alloc[float32](ctx, g*g))
	defer xb.Close()
	defer yb.Close()
	ok(xb.Zero())
	x, y := must(NewVec(xb)), must(NewVec(yb))
	ok(SpMV(h, NoTrans, 1, A, x, 0, y))
	var work ffi.DeviceAddr
	if w, _ := h.ws.Get(1); w != nil { // the buffer SpMV grew
		work = ffi.DeviceAddr(w.Ptr())
	}
	alpha, beta := float32(1), float32(0)
	b.Run("sparse", func(b *testing.B) {
		gpuTB = b
		for b.Loop() {
			if err := SpMV(h, NoTrans, alpha, A, x, beta, y); err != nil {
				b.Fatal(err)
			}
		}
		ok(h.Stream().Synchronize())
	})
	b.Run("raw", func(b *testing.B) {
		gpuTB = b
		err := ctx.Do(func() error {
			for b.Loop() {
				if err := cusparse.SpMV(h.Raw(), cusparse.OperationNonTranspose, ffi.Host(&alpha).Untyped(), A.Raw(), x.Raw(),
					ffi.Host(&beta).Untyped(), y.Raw(), cudart.R32F, cusparse.SpmvAlgDefault, work); err != nil {
					return err
				}
			}
			return nil
		})
		ok(err)
		ok(h.Stream().Synchronize())
	})
}

// TestGPUBorrowCSR: two matrices borrow one row pointer and column index
// buffer with two value buffers; each SpMV uses its own values, and
// closing them leaves the buffers to the caller.
func TestGPUBorrowCSR(t *testing.T) {
	ctx, h := gpuHandle(t)
	// [[0 2] [3 0]] and [[0 5] [7 0]]
	rp := must(cuda.AllocFrom(ctx, []int32{0, 1, 2}))
	ci := must(cuda.AllocFrom(ctx, []int32{1, 0}))
	v1 := must(cuda.AllocFrom(ctx, []float32{2, 3}))
	v2 := must(cuda.AllocFrom(ctx, []float32{5, 7}))
	xb := must(cuda.AllocFrom(ctx, []float32{1, 10}))
	yb := must(cuda.Alloc[float32](ctx, 2))
	for _, b := range []interface{ Close() error }{rp, ci, v1, v2, xb, yb} {
		defer b.Close()
	}
	x, y := must(NewVec(xb)), must(NewVec(yb))
	defer x.Close()
	defer y.Close()
	for _, tc := range []struct {
		vals *cuda.Buffer[float32]
		want []float32
	}{{v1, []float32{20, 3}}, {v2, []float32{50, 7}}} {
		a, err := BorrowCSR(2, 2, rp, ci, tc.vals)
		if err != nil {
			t.Fatal(err)
		}
		if err := SpMV(h, NoTrans, 1, a, x, 0, y); err != nil {
			t.Fatal(err)
		}
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
		got := make([]float32, 2)
		if err := yb.CopyTo(got); err != nil {
			t.Fatal(err)
		}
		if got[0] != tc.want[0] || got[1] != tc.want[1] {
			t.Fatalf("SpMV = %v, want %v", got, tc.want)
		}
	}
	got := make([]int32, 3)
	if err := rp.CopyTo(got); err != nil || got[2] != 2 {
		t.Fatalf("the borrowed row pointers after the matrices' Close: %v, %v", got, err)
	}
}
