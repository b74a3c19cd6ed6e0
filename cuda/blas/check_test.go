package blas

import (
	"errors"
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cublas"
)

type (
	cudaBufferF32 = cuda.Buffer[float32]
	cudaBufferF64 = cuda.Buffer[float64]
)

// These tests run without a GPU: every check of the package on the
// shapes it reads from its arguments, and the plans it hands cuBLAS run
// on an emulation of cuBLAS's column-major calls, against the product
// computed in the operands' own layouts.

func wantErr(t *testing.T, what string, err, kind error, substr string) {
	t.Helper()
	var e *Error
	if err == nil || !errors.As(err, &e) || !errors.Is(err, kind) || !strings.Contains(err.Error(), substr) {
		t.Errorf("%s: %v, want a %v *Error containing %q", what, err, kind, substr)
	}
}

// TestCheckMatrix: each way a matrix can be wrong, and the fits.
func TestCheckMatrix(t *testing.T) {
	for _, c := range []struct {
		name    string
		s       shape
		count   int
		bstride int
		kind    error
		substr  string
	}{
		{"nil buffer", shape{rows: 2, cols: 3, n: -1}, 1, 0, ErrArgument, "A has a nil buffer"},
		{"negative rows", shape{rows: -1, cols: 3, n: 10}, 1, 0, ErrArgument, "A is -1×3: a negative size"},
		{"unknown layout", shape{rows: 2, cols: 3, layout: 7, n: 10}, 1, 0, ErrArgument, "unknown Layout 7"},
		{"row stride short", shape{rows: 2, cols: 3, stride: 2, n: 10}, 1, 0, ErrStride, "stride 2 is less than the 3 columns of the row-major 2×3"},
		{"col stride short", shape{rows: 4, cols: 3, stride: 3, layout: ColMajor, n: 100}, 1, 0, ErrStride, "stride 3 is less than the 4 rows of the column-major 4×3"},
		{"over int32", shape{rows: 1, cols: 1 << 31, n: 1 << 40}, 1, 0, ErrArgument, "over cuBLAS's int32"},
		{"row short", shape{rows: 2, cols: 3, n: 5}, 1, 0, ErrLength, "row-major 2×3 matrix with stride 3 spans 6 elements, the buffer has 5"},
		{"row padded short", shape{rows: 2, cols: 3, stride: 5, n: 7}, 1, 0, ErrLength, "spans 8 elements, the buffer has 7"},
		{"col short", shape{rows: 2, cols: 3, layout: ColMajor, n: 5}, 1, 0, ErrLength, "spans 6 elements"},
		{"batch short", shape{rows: 2, cols: 3, n: 15}, 3, 5, ErrLength, "a batch of 3 2×3 matrices 5 apart (stride 3) spans 16 elements, the buffer has 15"},
	} {
		s := c.s
		wantErr(t, c.name, checkMatrix("Gemm", "A", &s, c.count, c.bstride), c.kind, c.substr)
	}
	for _, c := range []struct {
		name       string
		s          shape
		count, bs  int
		wantStride int
	}{
		{"row exact", shape{rows: 2, cols: 3, n: 6}, 1, 0, 3},
		{"row padded exact", shape{rows: 2, cols: 3, stride: 5, n: 8}, 1, 0, 5},
		{"col exact", shape{rows: 2, cols: 3, layout: ColMajor, n: 6}, 1, 0, 2},
		{"empty", shape{rows: 0, cols: 3, n: 0}, 1, 0, 3},
		{"empty cols", shape{rows: 3, cols: 0, n: 0}, 1, 0, 1},
		{"batch exact", shape{rows: 2, cols: 3, n: 16}, 3, 5, 3},
		{"batch repeated", shape{rows: 2, cols: 3, n: 6}, 3, 0, 3},
	} {
		s := c.s
		if err := checkMatrix("Gemm", "A", &s, c.count, c.bs); err != nil || s.stride != c.wantStride {
			t.Errorf("%s: %v, stride %d; want nil, %d", c.name, err, s.stride, c.wantStride)
		}
	}
}

// TestCheckVector: each way a vector can be wrong, and the fits.
func TestCheckVector(t *testing.T) {
	for _, c := range []struct {
		name   string
		v      vshape
		kind   error
		substr string
	}{
		{"nil", vshape{n: 1, len: -1}, ErrArgument, "x has a nil buffer"},
		{"negative N", vshape{n: -1, len: 4}, ErrArgument, "N -1"},
		{"negative Inc", vshape{n: 2, inc: -1, len: 4}, ErrArgument, "Inc -1"},
		{"short", vshape{n: 3, inc: 2, len: 4}, ErrLength, "3 elements 2 apart span 5, the buffer has 4"},
		{"over int32", vshape{n: 1 << 31, inc: 1, len: 1 << 40}, ErrArgument, "over cuBLAS's int32"},
	} {
		v := c.v
		wantErr(t, c.name, checkVector("Axpy", "x", &v), c.kind, c.substr)
	}
	v := vshape{n: 3, len: 3}
	if err := checkVector("Axpy", "x", &v); err != nil || v.inc != 1 {
		t.Errorf("Inc 0: %v, inc %d", err, v.inc)
	}
	v = vshape{n: 3, inc: 2, len: 5}
	if err := checkVector("Axpy", "x", &v); err != nil {
		t.Errorf("exact fit: %v", err)
	}
	v = vshape{n: 0, len: 0}
	if err := checkVector("Axpy", "x", &v); err != nil {
		t.Errorf("empty: %v", err)
	}
	x, y := vshape{n: 3, len: 3}, vshape{n: 4, len: 4}
	wantErr(t, "pair", checkPair("Axpy", &x, &y), ErrDimension, "x has 3 elements, y 4")
	wantErr(t, "nil result", checkResult("DotTo", -1), ErrArgument, "nil")
	wantErr(t, "empty result", checkResult("DotTo", 0), ErrLength, "no element")
	if err := checkResult("DotTo", 1); err != nil {
		t.Errorf("a result of 1: %v", err)
	}
}

// mat is a matrix on the host in a layout, as the tests store it.
type mat struct {
	rows, cols, stride int
	layout             Layout
	data               []complex128
}

// newMat makes a random rows×cols matrix in layout with a padded stride.
func newMat(r *rand.Rand, rows, cols int, layout Layout) mat {
	m := mat{rows: rows, cols: cols, layout: layout, stride: cols + 2}
	if layout == ColMajor {
		m.stride = rows + 2
	}
	m.data = make([]complex128, shapeOf2(m).footprint())
	for i := range m.data {
		m.data[i] = complex(r.NormFloat64(), r.NormFloat64())
	}
	return m
}

func shapeOf2(m mat) shape {
	return shape{rows: m.rows, cols: m.cols, stride: m.stride, layout: m.layout, n: len(m.data)}
}

func (m mat) at(i, j int) complex128 {
	if m.layout == ColMajor {
		return m.data[j*m.stride+i]
	}
	return m.data[i*m.stride+j]
}

// opAt is op(m)[i][j].
func opAt(m mat, t Transpose, i, j int) complex128 {
	switch t {
	case Trans:
		return m.at(j, i)
	case ConjTrans:
		return cmplx.Conj(m.at(j, i))
	}
	return m.at(i, j)
}

// colOp is cuBLAS's op(X)[i][l] of a column-major array with ld.
func colOp(x []complex128, ld int, op cublas.Operation, i, l int) complex128 {
	switch op {
	case cublas.OpT:
		return x[i*ld+l]
	case cublas.OpC:
		return cmplx.Conj(x[i*ld+l])
	}
	return x[l*ld+i]
}

// emuGemm is cublas?gemm with alpha 1 and beta 0, on column-major arrays.
func emuGemm(p gemmPlan, a, b, c []complex128) {
	for i := range int(p.m) {
		for j := range int(p.n) {
			var s complex128
			for l := range int(p.k) {
				s += colOp(a, int(p.lda), p.opA, i, l) * colOp(b, int(p.ldb), p.opB, l, j)
			}
			c[j*int(p.ldc)+i] = s
		}
	}
}

func near(a, b complex128) bool { return cmplx.Abs(a-b) <= 1e-9*(1+cmplx.Abs(b)) }

// TestGemmPlans: for every layout of A, B and C and every op of A and B,
// the plan run on an emulated column-major cublas?gemm gives op(A)·op(B)
// in C's layout, through the transpose identity for a row-major C; a
// ConjTrans operand in another layout than C's is refused for a complex
// type and is Trans for a real one.
func TestGemmPlans(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const m, n, k = 3, 4, 5
	layouts := []Layout{RowMajor, ColMajor}
	for _, la := range layouts {
		for _, lb := range layouts {
			for _, lc := range layouts {
				for _, ta := range []Transpose{NoTrans, Trans, ConjTrans} {
					for _, tb := range []Transpose{NoTrans, Trans, ConjTrans} {
						ar, ac := m, k
						if ta != NoTrans {
							ar, ac = k, m
						}
						br, bc := k, n
						if tb != NoTrans {
							br, bc = n, k
						}
						a, b, c := newMat(r, ar, ac, la), newMat(r, br, bc, lb), newMat(r, m, n, lc)
						name := la.String() + " " + ta.String() + " · " + lb.String() + " " + tb.String() + " -> " + lc.String()
						p, err := planGemm("Gemm", ta, tb, shapeOf2(a), shapeOf2(b), shapeOf2(c), false, 1, 0, 0, 0)
						if ta == ConjTrans && la != lc || tb == ConjTrans && lb != lc {
							wantErr(t, name, err, ErrArgument, "has no cuBLAS form")
							if _, err := planGemm("Gemm", ta, tb, shapeOf2(a), shapeOf2(b), shapeOf2(c), true, 1, 0, 0, 0); err != nil {
								t.Errorf("%s, real: %v", name, err)
							}
							continue
						}
						if err != nil {
							t.Errorf("%s: %v", name, err)
							continue
						}
						first, second := a, b
						if p.swap {
							first, second = b, a
						}
						emuGemm(p, first.data, second.data, c.data)
						for i := range m {
							for j := range n {
								var want complex128
								for l := range k {
									want += opAt(a, ta, i, l) * opAt(b, tb, l, j)
								}
								if got := c.at(i, j); !near(got, want) {
									t.Fatalf("%s: C[%d][%d] = %v, want %v (plan %+v)", name, i, j, got, want, p)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestGemmChecks: the dimension errors of a GEMM name the sizes.
func TestGemmChecks(t *testing.T) {
	a := shape{rows: 2, cols: 3, n: 6}
	b := shape{rows: 4, cols: 5, n: 20}
	c := shape{rows: 2, cols: 5, n: 10}
	_, err := planGemm("Gemm", NoTrans, NoTrans, a, b, c, true, 1, 0, 0, 0)
	wantErr(t, "inner", err, ErrDimension, "op(A) is 2×3 and op(B) is 4×5: 3 columns against 4 rows")
	b = shape{rows: 3, cols: 5, n: 15}
	c = shape{rows: 2, cols: 4, n: 8}
	_, err = planGemm("Gemm", NoTrans, NoTrans, a, b, c, true, 1, 0, 0, 0)
	wantErr(t, "C", err, ErrDimension, "op(A)·op(B) is 2×5, C is 2×4")
	c = shape{rows: 2, cols: 5, n: 9}
	_, err = planGemm("Gemm", NoTrans, NoTrans, a, b, c, true, 1, 0, 0, 0)
	wantErr(t, "C short", err, ErrLength, "C: the row-major 2×5")
	c.n = 10
	_, err = planGemm("Gemm", 3, NoTrans, a, b, c, true, 1, 0, 0, 0)
	wantErr(t, "bad transpose", err, ErrArgument, "A has an unknown Transpose 3")
	_, err = planGemm("Gemm", NoTrans, 9, a, b, c, true, 1, 0, 0, 0)
	wantErr(t, "bad transpose B", err, ErrArgument, "B has an unknown Transpose 9")
	if p, err := planGemm("Gemm", Trans, NoTrans, shape{rows: 3, cols: 2, n: 6}, b, c, true, 1, 0, 0, 0); err != nil || p.k != 3 || !p.swap {
		t.Errorf("Aᵀ·B: %+v, %v", p, err)
	}
}

// emuGemv is cublas?gemv with alpha 1 and beta 0.
func emuGemv(p gemvPlan, a, x, y []complex128) {
	rows, cols := int(p.m), int(p.n)
	if p.op != cublas.OpN {
		rows, cols = cols, rows
	}
	for i := range rows {
		var s complex128
		for l := range cols {
			s += colOp(a, int(p.lda), p.op, i, l) * x[l*int(p.incx)]
		}
		y[i*int(p.incy)] = s
	}
}

// TestGemvPlans: y = op(A)·x for both layouts and every op, emulated;
// ConjTrans of a row-major complex A is refused; the dimension errors.
func TestGemvPlans(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, la := range []Layout{RowMajor, ColMajor} {
		for _, ta := range []Transpose{NoTrans, Trans, ConjTrans} {
			a := newMat(r, 3, 4, la)
			m, n := opDims(shapeOf2(a), ta)
			x := make([]complex128, 2*n)
			for i := range x {
				x[i] = complex(r.NormFloat64(), r.NormFloat64())
			}
			y := make([]complex128, 3*m)
			xs, ys := vshape{n: n, inc: 2, len: len(x)}, vshape{n: m, inc: 3, len: len(y)}
			name := la.String() + " " + ta.String()
			p, err := planGemv("Gemv", ta, shapeOf2(a), &xs, &ys, false)
			if ta == ConjTrans && la == RowMajor {
				wantErr(t, name, err, ErrArgument, "no cuBLAS form")
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			emuGemv(p, a.data, x, y)
			for i := range m {
				var want complex128
				for l := range n {
					want += opAt(a, ta, i, l) * x[2*l]
				}
				if !near(y[3*i], want) {
					t.Fatalf("%s: y[%d] = %v, want %v", name, i, y[3*i], want)
				}
			}
		}
	}
	xs, ys := vshape{n: 3, len: 3}, vshape{n: 2, len: 2}
	_, err := planGemv("Gemv", NoTrans, shape{rows: 2, cols: 4, n: 8}, &xs, &ys, true)
	wantErr(t, "gemv x", err, ErrDimension, "op(A) is 2×4: x has 3 elements (want 4), y 2 (want 2)")
}

// TestGerPlans: A += x·yᵀ (and x·yᴴ column-major) emulated in both
// layouts; a row-major complex Gerc is refused; the dimension errors.
func TestGerPlans(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, la := range []Layout{RowMajor, ColMajor} {
		for _, conj := range []bool{false, true} {
			a := newMat(r, 3, 4, la)
			orig := append([]complex128(nil), a.data...)
			x, y := make([]complex128, 3), make([]complex128, 4)
			for i := range x {
				x[i] = complex(r.NormFloat64(), r.NormFloat64())
			}
			for i := range y {
				y[i] = complex(r.NormFloat64(), r.NormFloat64())
			}
			xs, ys := vshape{n: 3, len: 3}, vshape{n: 4, len: 4}
			p, err := planGer("Ger", shapeOf2(a), &xs, &ys, conj)
			if conj && la == RowMajor {
				wantErr(t, "row-major gerc", err, ErrArgument, "no operation")
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			u, v := x, y
			if p.swap {
				u, v = y, x
			}
			for i := range int(p.m) {
				for j := range int(p.n) {
					vj := v[j*int(p.incy)]
					if conj {
						vj = cmplx.Conj(vj)
					}
					a.data[j*int(p.lda)+i] += u[i*int(p.incx)] * vj
				}
			}
			before := mat{rows: 3, cols: 4, stride: a.stride, layout: la, data: orig}
			for i := range 3 {
				for j := range 4 {
					yj := y[j]
					if conj {
						yj = cmplx.Conj(yj)
					}
					if want := before.at(i, j) + x[i]*yj; !near(a.at(i, j), want) {
						t.Fatalf("%s conj %v: A[%d][%d] = %v, want %v", la, conj, i, j, a.at(i, j), want)
					}
				}
			}
		}
	}
	xs, ys := vshape{n: 2, len: 2}, vshape{n: 4, len: 4}
	_, err := planGer("Ger", shape{rows: 3, cols: 4, n: 12}, &xs, &ys, false)
	wantErr(t, "ger x", err, ErrDimension, "A is 3×4: x has 2 elements (want 3)")
}

// TestBatchChecks: strided batches (one Count, non-negative strides,
// outputs that do not overlap, buffers long enough) and batches of
// matrices (one length, one shape per operand).
func TestBatchChecks(t *testing.T) {
	a := shape{rows: 2, cols: 3, n: 6 * 4}
	b := shape{rows: 3, cols: 2, n: 6 * 4}
	c := shape{rows: 2, cols: 2, n: 4 * 4}
	if _, err := planGemm("GemmStridedBatched", NoTrans, NoTrans, a, b, c, true, 4, 6, 6, 4); err != nil {
		t.Errorf("exact batch: %v", err)
	}
	_, err := planGemm("GemmStridedBatched", NoTrans, NoTrans, a, b, c, true, 4, 7, 6, 4)
	wantErr(t, "A batch short", err, ErrLength, "A: a batch of 4")
	wantErr(t, "negative stride", checkBatch("GemmStridedBatched", 4, [3]int{6, -1, 4}), ErrStride, "B's batch stride -1")
	wantErr(t, "negative count", checkBatch("GemmStridedBatched", -1, [3]int{}), ErrArgument, "a batch of -1")
	wantErr(t, "overlap", checkBatchOut("GemmStridedBatched", 4, 3, shape{rows: 2, cols: 2, stride: 2}), ErrStride, "outputs would overlap")
	if err := checkBatchOut("GemmStridedBatched", 1, 0, shape{rows: 2, cols: 2, stride: 2}); err != nil {
		t.Errorf("one C of stride 0: %v", err)
	}
	wantErr(t, "same shape", sameShape("GemmBatched", "B", 2, shape{rows: 2, cols: 3, stride: 3}, shape{rows: 2, cols: 3, stride: 4}), ErrDimension, "B[2] is a row-major 2×3 with stride 4")

	// planStrided and planBatched on matrices with nil buffers: the
	// count and length checks come first.
	sa := Strided[float32]{Matrix: Matrix[float32]{Rows: 2, Cols: 2}, Count: 3}
	sc := Strided[float32]{Matrix: Matrix[float32]{Rows: 2, Cols: 2}, Count: 2}
	_, err = planStrided("GemmStridedBatched", NoTrans, NoTrans, sa, sa, sc, true)
	wantErr(t, "counts", err, ErrDimension, "batches of 3, 3 and 2 matrices")
	_, err = planStrided("GemmStridedBatched", NoTrans, NoTrans, sa, sa, sa, true)
	wantErr(t, "strided nil", err, ErrArgument, "A has a nil buffer")
	one := []Matrix[float32]{{Rows: 2, Cols: 2}}
	_, err = planBatched("GemmBatched", NoTrans, NoTrans, one, one, append(one, one...))
	wantErr(t, "batched lengths", err, ErrDimension, "batches of 1, 1 and 2 matrices")
	_, err = planBatched[float32]("GemmBatched", NoTrans, NoTrans, nil, nil, nil)
	wantErr(t, "batched empty", err, ErrArgument, "an empty batch")
	_, err = planBatched("GemmBatched", NoTrans, NoTrans, one, one, one)
	wantErr(t, "batched nil", err, ErrArgument, "A has a nil buffer")
}

// TestPublicChecksFirst: the calls refuse a nil handle, and a nil buffer,
// before anything else (a zero Handle: a call that passed its checks
// would fail in its stream, not here).
func TestPublicChecksFirst(t *testing.T) {
	var nilH *Handle
	x := Vector[float64]{N: 3}
	if err := Axpy(nilH, 1, x, x); err != ErrNilHandle {
		t.Errorf("nil handle: %v", err)
	}
	h := &Handle{}
	a := Matrix[float32]{Rows: 2, Cols: 2}
	for name, err := range map[string]error{
		"Axpy":  Axpy(h, 1, x, x),
		"Scal":  Scal(h, 2, x),
		"Copy":  Copy(h, x, x),
		"Swap":  Swap(h, x, x),
		"Gemm":  Gemm(h, NoTrans, NoTrans, 1, a, a, 0, a),
		"Gemv":  Gemv(h, NoTrans, 1, a, Vector[float32]{N: 2}, 0, Vector[float32]{N: 2}),
		"Ger":   Ger(h, 1, Vector[float32]{N: 2}, Vector[float32]{N: 2}, a),
		"GemmE": GemmEx(h, NoTrans, NoTrans, 1, a, a, 0, a),
		"DotTo": DotTo(h, x, x, nil),
		"Nrm2":  Nrm2To(h, x, (*cudaBufferF64)(nil)),
	} {
		wantErr(t, name, err, ErrArgument, "nil")
	}
	if _, err := Dot(h, x, x); !errors.Is(err, ErrArgument) {
		t.Errorf("Dot: %v", err)
	}
	if _, err := Iamax(h, x); !errors.Is(err, ErrArgument) {
		t.Errorf("Iamax: %v", err)
	}
	wantErr(t, "Nrm2To type", Nrm2To(h, x, (*cudaBufferF32)(nil)), ErrArgument, "a float32 result for a float64 vector")
	wantErr(t, "GemmEx types", GemmEx(h, NoTrans, NoTrans, 1, Matrix[cuda.Float16]{}, Matrix[cuda.Float16]{}, 0, Matrix[cuda.BFloat16]{}), ErrArgument, "GemmEx takes cuda.Float16, cuda.BFloat16 or float32")
	wantErr(t, "SetWorkspace", h.SetWorkspace(0), ErrArgument, "positive size")
}

// TestExTypes: GemmEx's type pairs.
func TestExTypes(t *testing.T) {
	if in, out, err := exTypes[cuda.Float16, float32]("GemmEx"); err != nil || in != 2 || out != 0 {
		t.Errorf("cuda.Float16 -> float32: %v %v %v", in, out, err)
	}
	if _, _, err := exTypes[cuda.BFloat16, cuda.BFloat16]("GemmEx"); err != nil {
		t.Errorf("cuda.BFloat16 -> cuda.BFloat16: %v", err)
	}
	if _, _, err := exTypes[float64, float64]("GemmEx"); err == nil {
		t.Errorf("float64: no error")
	}
	if !realFits[complex64, float32]() || realFits[complex128, float32]() || !realFits[float64, float64]() {
		t.Errorf("realFits")
	}
}

// TestPlanAllocs: the checks and plans of a call that passes them
// allocate nothing (the calls' hot path; the GPU half is TestGPUAllocs).
// Before: planGemm's shapes, addressed from a slice literal, moved to the
// heap (3 allocations per Gemm).
func TestPlanAllocs(t *testing.T) {
	a := shape{rows: 16, cols: 16, n: 256}
	x, y := vshape{n: 16, inc: 1, len: 16}, vshape{n: 16, inc: 1, len: 16}
	for name, f := range map[string]func(){
		"planGemm": func() { planGemm("Gemm", NoTrans, Trans, a, a, a, true, 1, 0, 0, 0) },
		"planGemv": func() { xx, yy := x, y; planGemv("Gemv", NoTrans, a, &xx, &yy, true) },
		"planGer":  func() { xx, yy := x, y; planGer("Ger", a, &xx, &yy, false) },
		"checkPair": func() {
			xx, yy := x, y
			checkPair("Dot", &xx, &yy)
		},
		"kindOf":   func() { _ = kindOf[complex64]() + kindOf[float64]() },
		"planTrsm": func() { planTrsm("Trsm", Right, Lower, Trans, Unit, a, a, true) },
		"planSyrk": func() { planSyrk("Syrk", Upper, Trans, a, a, true) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
}

// BenchmarkPlanGemm: the checks and plan of one Gemm.
func BenchmarkPlanGemm(b *testing.B) {
	a := shape{rows: 32, cols: 32, n: 1024}
	b.ReportAllocs()
	for range b.N {
		if _, err := planGemm("Gemm", NoTrans, NoTrans, a, a, a, true, 1, 0, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// tri is T(A)[i][j] of a triangular matrix indexed by at: the uplo
// triangle (its diagonal or ones), zero elsewhere.
func tri(at func(i, j int) complex128, upper, unit bool, i, j int) complex128 {
	switch {
	case i == j && unit:
		return 1
	case upper && i > j, !upper && i < j:
		return 0
	}
	return at(i, j)
}

// TestTrsmPlans: for both layouts, sides, triangles, diagonals and every
// op, the plan's column-major triangular product of X (cuBLAS's trsm
// solves exactly that) equals alpha·B where B was made as op(A)·X (or
// X·op(A)) in the operands' own layout. And the errors.
func TestTrsmPlans(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	const m, n = 3, 4
	for _, l := range []Layout{RowMajor, ColMajor} {
		for _, side := range []Side{Left, Right} {
			for _, uplo := range []Uplo{Upper, Lower} {
				for _, diag := range []Diag{NonUnit, Unit} {
					for _, ta := range []Transpose{NoTrans, Trans, ConjTrans} {
						order := m
						if side == Right {
							order = n
						}
						a, x := newMat(r, order, order, l), newMat(r, m, n, l)
						userA := func(i, j int) complex128 { return tri(a.at, uplo == Upper, diag == Unit, i, j) }
						opA := func(i, j int) complex128 {
							switch ta {
							case Trans:
								return userA(j, i)
							case ConjTrans:
								return cmplx.Conj(userA(j, i))
							}
							return userA(i, j)
						}
						b := newMat(r, m, n, l)
						for i := range m {
							for j := range n {
								var s complex128
								for q := range order {
									if side == Left {
										s += opA(i, q) * x.at(q, j)
									} else {
										s += x.at(i, q) * opA(q, j)
									}
								}
								if l == ColMajor {
									b.data[j*b.stride+i] = s
								} else {
									b.data[i*b.stride+j] = s
								}
							}
						}
						name := fmt.Sprintf("%v %v %v %v %v", l, side, uplo, diag, ta)
						p, err := planTrsm("Trsm", side, uplo, ta, diag, shapeOf2(a), shapeOf2(b), false)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						// cuBLAS's view: column-major arrays with lda, ldb.
						colA := func(i, j int) complex128 {
							return tri(func(i, j int) complex128 { return a.data[j*int(p.lda)+i] }, p.uplo == cublas.FillModeUpper, p.diag == cublas.DiagUnit, i, j)
						}
						colOpA := func(i, j int) complex128 {
							switch p.op {
							case cublas.OpT:
								return colA(j, i)
							case cublas.OpC:
								return cmplx.Conj(colA(j, i))
							}
							return colA(i, j)
						}
						colX := func(i, j int) complex128 { return x.data[j*x.stride+i] }
						corder := int(p.m)
						if p.side == cublas.SideRight {
							corder = int(p.n)
						}
						for i := range int(p.m) {
							for j := range int(p.n) {
								var s complex128
								for q := range corder {
									if p.side == cublas.SideLeft {
										s += colOpA(i, q) * colX(q, j)
									} else {
										s += colX(i, q) * colOpA(q, j)
									}
								}
								if want := b.data[j*int(p.ldb)+i]; !near(s, want) {
									t.Fatalf("%s: cuBLAS's product [%d][%d] = %v, want B's %v (plan %+v)", name, i, j, s, want, p)
								}
							}
						}
					}
				}
			}
		}
	}
	sq := shape{rows: 3, cols: 3, n: 9}
	_, err := planTrsm("Trsm", Left, Upper, NoTrans, NonUnit, shape{rows: 3, cols: 2, n: 6}, sq, true)
	wantErr(t, "square", err, ErrDimension, "a triangular matrix is square")
	_, err = planTrsm("Trsm", Right, Upper, NoTrans, NonUnit, sq, shape{rows: 3, cols: 4, n: 12}, true)
	wantErr(t, "order", err, ErrDimension, "A's order is B's columns (Right)")
	_, err = planTrsm("Trsm", Left, Upper, NoTrans, NonUnit, sq, shape{rows: 3, cols: 3, layout: ColMajor, n: 9}, true)
	wantErr(t, "layouts", err, ErrArgument, "one layout")
	_, err = planTrsm("Trsm", 2, Upper, NoTrans, NonUnit, sq, sq, true)
	wantErr(t, "side", err, ErrArgument, "unknown Side")
}

// TestSyrkPlans: C's uplo triangle = op(A)·op(A)ᵀ through the plan's
// column-major syrk, both layouts, both triangles, NoTrans and Trans;
// and the errors.
func TestSyrkPlans(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	const n, k = 4, 3
	for _, l := range []Layout{RowMajor, ColMajor} {
		for _, uplo := range []Uplo{Upper, Lower} {
			for _, ta := range []Transpose{NoTrans, Trans} {
				ar, ac := n, k
				if ta == Trans {
					ar, ac = k, n
				}
				a, c := newMat(r, ar, ac, l), newMat(r, n, n, l)
				name := fmt.Sprintf("%v %v %v", l, uplo, ta)
				p, err := planSyrk("Syrk", uplo, ta, shapeOf2(a), shapeOf2(c), false)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				colOp := func(i, q int) complex128 {
					if p.op == cublas.OpT {
						return a.data[i*int(p.lda)+q]
					}
					return a.data[q*int(p.lda)+i]
				}
				for i := range int(p.n) {
					for j := range int(p.n) {
						if p.uplo == cublas.FillModeUpper && i > j || p.uplo == cublas.FillModeLower && i < j {
							continue
						}
						var s complex128
						for q := range int(p.k) {
							s += colOp(i, q) * colOp(j, q)
						}
						c.data[j*int(p.ldc)+i] = s
					}
				}
				for i := range n {
					for j := range n {
						if uplo == Upper && i > j || uplo == Lower && i < j {
							continue
						}
						var want complex128
						for q := range k {
							want += opAt(a, ta, i, q) * opAt(a, ta, j, q)
						}
						if got := c.at(i, j); !near(got, want) {
							t.Fatalf("%s: C[%d][%d] = %v, want %v", name, i, j, got, want)
						}
					}
				}
			}
		}
	}
	_, err := planSyrk("Syrk", Upper, NoTrans, shape{rows: 4, cols: 3, n: 12}, shape{rows: 3, cols: 3, n: 9}, true)
	wantErr(t, "C size", err, ErrDimension, "op(A) is 4×3, so C is 4×4, not 3×3")
	_, err = planSyrk("Syrk", Upper, ConjTrans, shape{rows: 4, cols: 3, n: 12}, shape{rows: 3, cols: 3, n: 9}, false)
	wantErr(t, "conj", err, ErrArgument, "ConjTrans")
	_, err = planSyrk("Syrk", Upper, NoTrans, shape{rows: 3, cols: 3, n: 9}, shape{rows: 3, cols: 3, layout: ColMajor, n: 9}, true)
	wantErr(t, "layouts", err, ErrArgument, "one layout")
}
