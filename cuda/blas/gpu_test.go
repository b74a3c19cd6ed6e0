package blas

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cublas"
	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/cugentest/standin"
)

// The GPU tests: every call of the package, for every type and both
// layouts, against a reference computed in Go (in complex128, from the
// values the device got). They skip without a device or libcublas
// (cugentest.NeedDevice, NeedLibrary).

// gpuHandle returns a handle on device 0's context and a new stream.
func gpuHandle(tb testing.TB) (*cuda.Context, *cuda.Stream, *Handle) {
	tb.Helper()
	ctx, err := cuda.NewContext(0)
	cugentest.NeedDevice(tb, err)
	tb.Cleanup(func() { ctx.Close() })
	cugentest.NeedLibrary(tb, cublas.SharedLibrary().Load())
	s := standin.Keep(ctx.NewStream())(tb)
	h := standin.Keep(New(ctx, s))(tb)
	return ctx, s, h
}

func fromC[T Scalar](c complex128) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(real(c))).(T)
	case float64:
		return any(real(c)).(T)
	case complex64:
		return any(complex64(c)).(T)
	}
	return any(c).(T)
}

func toC[T Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	panic("unreachable")
}

// epsOf is T's unit roundoff.
func epsOf[T Scalar]() float64 {
	if k := kindOf[T](); k == kindS || k == kindC {
		return 0x1p-24
	}
	return 0x1p-53
}

func typeName[T Scalar]() string { var z T; return fmt.Sprintf("%T", z) }

// hmat is a matrix on the host, as T values in a layout.
type hmat[T Scalar] struct {
	rows, cols, stride int
	layout             Layout
	data               []T
}

func randMat[T Scalar](r *rand.Rand, rows, cols int, layout Layout, pad int) hmat[T] {
	m := hmat[T]{rows: rows, cols: cols, layout: layout, stride: cols + pad}
	if layout == ColMajor {
		m.stride = rows + pad
	}
	m.data = randSlice[T](r, shape{rows: rows, cols: cols, stride: m.stride, layout: layout}.footprint())
	return m
}

func randSlice[T Scalar](r *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = fromC[T](complex(r.Float64()*2-1, r.Float64()*2-1))
	}
	return s
}

func (m hmat[T]) at(i, j int) complex128 {
	if m.layout == ColMajor {
		return toC(m.data[j*m.stride+i])
	}
	return toC(m.data[i*m.stride+j])
}

func (m hmat[T]) opAt(t Transpose, i, j int) complex128 {
	switch t {
	case Trans:
		return m.at(j, i)
	case ConjTrans:
		return cmplx.Conj(m.at(j, i))
	}
	return m.at(i, j)
}

// upload copies m to the device and returns it as a Matrix.
func upload[T Scalar](tb testing.TB, ctx *cuda.Context, m hmat[T]) Matrix[T] {
	tb.Helper()
	return Matrix[T]{Buf: uploadSlice(tb, ctx, m.data), Rows: m.rows, Cols: m.cols, Stride: m.stride, Layout: m.layout}
}

func uploadSlice[T any](tb testing.TB, ctx *cuda.Context, s []T) *cuda.Buffer[T] {
	tb.Helper()
	b, err := cuda.AllocFrom(ctx, s)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { b.Close() })
	return b
}

func download[T any](tb testing.TB, s *cuda.Stream, b *cuda.Buffer[T]) []T {
	tb.Helper()
	if err := s.Synchronize(); err != nil {
		tb.Fatal(err)
	}
	out := make([]T, b.Len())
	if err := b.CopyTo(out); err != nil {
		tb.Fatal(err)
	}
	return out
}

// closeTo compares got with want, the tolerance scaled by mag (the sum of
// the magnitudes of the terms) and the number of terms k.
func closeTo[T Scalar](got, want complex128, mag float64, k int) bool {
	return cmplx.Abs(got-want) <= 4*float64(k+2)*epsOf[T]()*(mag+1)
}

var transposes = []Transpose{NoTrans, Trans, ConjTrans}

// TestGPUGemm: C = alpha·op(A)·op(B) + beta·C for every type, every
// op of A and B, and C, A, B each row- or column-major (padded strides),
// against Go.
func TestGPUGemm(t *testing.T) {
	ctx, s, h := gpuHandle(t)
	gemmCase[float32](t, ctx, s, h)
	gemmCase[float64](t, ctx, s, h)
	gemmCase[complex64](t, ctx, s, h)
	gemmCase[complex128](t, ctx, s, h)
}

func gemmCase[T Scalar](t *testing.T, ctx *cuda.Context, s *cuda.Stream, h *Handle) {
	r := rand.New(rand.NewPCG(7, 8))
	const m, n, k = 5, 7, 9
	alpha, beta := fromC[T](complex(1.5, -0.5)), fromC[T](complex(-0.25, 0.75))
	var worst float64
	cases := 0
	for _, lc := range []Layout{RowMajor, ColMajor} {
		for _, la := range []Layout{RowMajor, ColMajor} {
			for _, lb := range []Layout{RowMajor, ColMajor} {
				for _, ta := range transposes {
					for _, tb := range transposes {
						if !isReal[T]() && (ta == ConjTrans && la != lc || tb == ConjTrans && lb != lc) {
							continue // refused (TestGemmPlans)
						}
						ar, ac := m, k
						if ta != NoTrans {
							ar, ac = k, m
						}
						br, bc := k, n
						if tb != NoTrans {
							br, bc = n, k
						}
						ha, hb, hc := randMat[T](r, ar, ac, la, 1), randMat[T](r, br, bc, lb, 2), randMat[T](r, m, n, lc, 3)
						a, b, c := upload(t, ctx, ha), upload(t, ctx, hb), upload(t, ctx, hc)
						if err := Gemm(h, ta, tb, alpha, a, b, beta, c); err != nil {
							t.Fatalf("%s %v%v %v·%v->%v: %v", typeName[T](), ta, tb, la, lb, lc, err)
						}
						got := hmat[T]{rows: m, cols: n, stride: hc.stride, layout: lc, data: download(t, s, c.Buf)}
						for i := range m {
							for j := range n {
								want := toC(beta) * hc.at(i, j)
								mag := cmplx.Abs(want)
								for l := range k {
									p := toC(alpha) * ha.opAt(ta, i, l) * hb.opAt(tb, l, j)
									want += p
									mag += cmplx.Abs(p)
								}
								e := cmplx.Abs(got.at(i, j) - want)
								worst = max(worst, e/(mag+1))
								if !closeTo[T](got.at(i, j), want, mag, k) {
									t.Fatalf("%s %v%v %v·%v->%v: C[%d][%d] = %v, want %v", typeName[T](), ta, tb, la, lb, lc, i, j, got.at(i, j), want)
								}
							}
						}
						// The padding of C is untouched.
						for idx, v := range got.data {
							if inMatrix(idx, m, n, hc.stride, lc) {
								continue
							}
							if v != hc.data[idx] {
								t.Fatalf("%s: C's padding at %d changed", typeName[T](), idx)
							}
						}
						cases++
					}
				}
			}
		}
	}
	t.Logf("Gemm %s: %d cases (layouts × ops), worst relative error %.3g (unit roundoff %.3g)", typeName[T](), cases, worst, epsOf[T]())
}

// inMatrix reports whether buffer index idx is an element of the matrix.
func inMatrix(idx, rows, cols, stride int, l Layout) bool {
	outer, inner := idx/stride, idx%stride
	if l == ColMajor {
		return inner < rows && outer < cols
	}
	return inner < cols && outer < rows
}

// TestGPULevel1: the vector calls for every type with strided vectors:
// Axpy, Scal, Copy, Swap, and the reductions as Go values and into device
// buffers.
func TestGPULevel1(t *testing.T) {
	ctx, s, h := gpuHandle(t)
	level1Case[float32, float32](t, ctx, s, h)
	level1Case[float64, float64](t, ctx, s, h)
	level1Case[complex64, float32](t, ctx, s, h)
	level1Case[complex128, float64](t, ctx, s, h)
}

func level1Case[T Scalar, R Real](t *testing.T, ctx *cuda.Context, s *cuda.Stream, h *Handle) {
	r := rand.New(rand.NewPCG(9, 10))
	const n = 37
	hx, hy := randSlice[T](r, 2*n), randSlice[T](r, 3*n)
	x := Vector[T]{Buf: uploadSlice(t, ctx, hx), N: n, Inc: 2}
	y := Vector[T]{Buf: uploadSlice(t, ctx, hy), N: n, Inc: 3}
	name := typeName[T]()
	check := func(what string, got, want complex128, mag float64) {
		t.Helper()
		if !closeTo[T](got, want, mag, n) {
			t.Errorf("%s %s = %v, want %v", name, what, got, want)
		}
	}

	var dot, dotc, mag complex128
	var nrm, asum, amag float64
	best, bestAt := -1.0, -1
	for i := range n {
		xi, yi := toC(hx[2*i]), toC(hy[3*i])
		dot += xi * yi
		dotc += cmplx.Conj(xi) * yi
		mag += complex(cmplx.Abs(xi)*cmplx.Abs(yi), 0)
		nrm += real(xi)*real(xi) + imag(xi)*imag(xi)
		a := math.Abs(real(xi)) + math.Abs(imag(xi))
		asum += a
		amag += cmplx.Abs(xi)
		if a > best {
			best, bestAt = a, i
		}
	}
	nrm = math.Sqrt(nrm)
	if got, err := Dot(h, x, y); err != nil {
		t.Fatal(err)
	} else {
		check("Dot", toC(got), dot, real(mag))
	}
	if got, err := Dotc(h, x, y); err != nil {
		t.Fatal(err)
	} else {
		check("Dotc", toC(got), dotc, real(mag))
	}
	if got, err := Nrm2(h, x); err != nil {
		t.Fatal(err)
	} else {
		check("Nrm2", complex(got, 0), complex(nrm, 0), nrm)
	}
	if got, err := Asum(h, x); err != nil {
		t.Fatal(err)
	} else {
		check("Asum", complex(got, 0), complex(asum, 0), asum)
	}
	if got, err := Iamax(h, x); err != nil || got != bestAt {
		t.Errorf("%s Iamax = %d, %v; want %d", name, got, err, bestAt)
	}
	// The To forms: device pointer mode, then back to host mode.
	dres := uploadSlice(t, ctx, make([]T, 2))
	rres := uploadSlice(t, ctx, make([]R, 2))
	ires := uploadSlice(t, ctx, make([]int32, 1))
	if err := DotTo(h, x, y, dres); err != nil {
		t.Fatal(err)
	}
	if err := DotcTo(h, x, y, dres.Slice(1, 2)); err != nil {
		t.Fatal(err)
	}
	if err := Nrm2To(h, x, rres); err != nil {
		t.Fatal(err)
	}
	if err := AsumTo(h, x, rres.Slice(1, 2)); err != nil {
		t.Fatal(err)
	}
	if err := IamaxTo(h, x, ires); err != nil {
		t.Fatal(err)
	}
	dv, rv, iv := download(t, s, dres), download(t, s, rres), download(t, s, ires)
	check("DotTo", toC(dv[0]), dot, real(mag))
	check("DotcTo", toC(dv[1]), dotc, real(mag))
	check("Nrm2To", complex(float64(rv[0]), 0), complex(nrm, 0), nrm)
	check("AsumTo", complex(float64(rv[1]), 0), complex(asum, 0), asum)
	if iv[0] != int32(bestAt+1) {
		t.Errorf("%s IamaxTo = %d, want %d (from 1)", name, iv[0], bestAt+1)
	}
	if got, err := Dot(h, x, y); err != nil {
		t.Fatal(err)
	} else {
		check("Dot after DotTo", toC(got), dot, real(mag))
	}

	// y = alpha·x + y; x = alpha·x; copy; swap.
	alpha := fromC[T](complex(0.5, 2))
	if err := Axpy(h, alpha, x, y); err != nil {
		t.Fatal(err)
	}
	gy := download(t, s, y.Buf)
	for i := range n {
		want := toC(alpha)*toC(hx[2*i]) + toC(hy[3*i])
		check(fmt.Sprintf("Axpy y[%d]", i), toC(gy[3*i]), want, cmplx.Abs(want)+1)
		if toC(gy[3*i+1]) != toC(hy[3*i+1]) {
			t.Errorf("%s Axpy wrote between y's elements", name)
		}
	}
	if err := Scal(h, alpha, x); err != nil {
		t.Fatal(err)
	}
	gx := download(t, s, x.Buf)
	for i := range n {
		check(fmt.Sprintf("Scal x[%d]", i), toC(gx[2*i]), toC(alpha)*toC(hx[2*i]), 3)
	}
	if err := Copy(h, x, y); err != nil {
		t.Fatal(err)
	}
	gy = download(t, s, y.Buf)
	for i := range n {
		if gy[3*i] != gx[2*i] {
			t.Fatalf("%s Copy y[%d] = %v, want %v", name, i, gy[3*i], gx[2*i])
		}
	}
	z := Vec(uploadSlice(t, ctx, randSlice[T](r, n)))
	hz := download(t, s, z.Buf)
	if err := Swap(h, x, z); err != nil {
		t.Fatal(err)
	}
	gx2, gz := download(t, s, x.Buf), download(t, s, z.Buf)
	for i := range n {
		if gx2[2*i] != hz[i] || gz[i] != gx[2*i] {
			t.Fatalf("%s Swap at %d", name, i)
		}
	}
	t.Logf("level 1 %s: Dot, Dotc, Nrm2, Asum, Iamax (values and To), Axpy, Scal, Copy, Swap on %d elements, Inc 2 and 3: ok", name, n)
}

// TestGPULevel2: Gemv for every op and layout, Ger and Gerc, every type.
func TestGPULevel2(t *testing.T) {
	ctx, s, h := gpuHandle(t)
	level2Case[float32](t, ctx, s, h)
	level2Case[float64](t, ctx, s, h)
	level2Case[complex64](t, ctx, s, h)
	level2Case[complex128](t, ctx, s, h)
}

func level2Case[T Scalar](t *testing.T, ctx *cuda.Context, s *cuda.Stream, h *Handle) {
	r := rand.New(rand.NewPCG(11, 12))
	const rows, cols = 6, 11
	name := typeName[T]()
	alpha, beta := fromC[T](complex(0.75, 0.25)), fromC[T](complex(-1, 0.5))
	for _, la := range []Layout{RowMajor, ColMajor} {
		for _, ta := range transposes {
			if ta == ConjTrans && la == RowMajor && !isReal[T]() {
				continue
			}
			ha := randMat[T](r, rows, cols, la, 2)
			m, n := rows, cols
			if ta != NoTrans {
				m, n = cols, rows
			}
			hx, hy := randSlice[T](r, n), randSlice[T](r, 2*m)
			a := upload(t, ctx, ha)
			x := Vec(uploadSlice(t, ctx, hx))
			y := Vector[T]{Buf: uploadSlice(t, ctx, hy), N: m, Inc: 2}
			if err := Gemv(h, ta, alpha, a, x, beta, y); err != nil {
				t.Fatalf("%s Gemv %v %v: %v", name, la, ta, err)
			}
			got := download(t, s, y.Buf)
			for i := range m {
				want := toC(beta) * toC(hy[2*i])
				mag := cmplx.Abs(want)
				for l := range n {
					p := toC(alpha) * ha.opAt(ta, i, l) * toC(hx[l])
					want += p
					mag += cmplx.Abs(p)
				}
				if !closeTo[T](toC(got[2*i]), want, mag, n) {
					t.Fatalf("%s Gemv %v %v: y[%d] = %v, want %v", name, la, ta, i, got[2*i], want)
				}
			}
		}
		for _, conj := range []bool{false, true} {
			if conj && la == RowMajor && !isReal[T]() {
				continue
			}
			ha := randMat[T](r, rows, cols, la, 1)
			hx, hy := randSlice[T](r, rows), randSlice[T](r, cols)
			a := upload(t, ctx, ha)
			x, y := Vec(uploadSlice(t, ctx, hx)), Vec(uploadSlice(t, ctx, hy))
			ger := Ger[T]
			if conj {
				ger = Gerc[T]
			}
			if err := ger(h, alpha, x, y, a); err != nil {
				t.Fatalf("%s Ger conj %v %v: %v", name, conj, la, err)
			}
			got := hmat[T]{rows: rows, cols: cols, stride: ha.stride, layout: la, data: download(t, s, a.Buf)}
			for i := range rows {
				for j := range cols {
					yj := toC(hy[j])
					if conj {
						yj = cmplx.Conj(yj)
					}
					want := ha.at(i, j) + toC(alpha)*toC(hx[i])*yj
					if !closeTo[T](got.at(i, j), want, cmplx.Abs(want)+2, 1) {
						t.Fatalf("%s Ger conj %v %v: A[%d][%d] = %v, want %v", name, conj, la, i, j, got.at(i, j), want)
					}
				}
			}
		}
	}
	t.Logf("level 2 %s: Gemv (both layouts, every op), Ger, Gerc: ok", name)
}

// TestGPUBatched: strided-batched and pointer-batched GEMM for every type,
// both layouts, against Go, with a batch whose A is one repeated matrix
// (stride 0).
func TestGPUBatched(t *testing.T) {
	ctx, s, h := gpuHandle(t)
	batchedCase[float32](t, ctx, s, h)
	batchedCase[float64](t, ctx, s, h)
	batchedCase[complex64](t, ctx, s, h)
	batchedCase[complex128](t, ctx, s, h)
}

func batchedCase[T Scalar](t *testing.T, ctx *cuda.Context, s *cuda.Stream, h *Handle) {
	r := rand.New(rand.NewPCG(13, 14))
	const m, n, k, count = 4, 3, 5, 6
	name := typeName[T]()
	alpha, beta := fromC[T](complex(1, 1)), fromC[T](complex(0.5, 0))
	for _, l := range []Layout{RowMajor, ColMajor} {
		for _, repeatA := range []bool{false, true} {
			as := make([]hmat[T], count)
			bs := make([]hmat[T], count)
			cs := make([]hmat[T], count)
			var abuf, bbuf, cbuf []T
			for i := range count {
				as[i], bs[i], cs[i] = randMat[T](r, m, k, l, 0), randMat[T](r, k, n, l, 0), randMat[T](r, m, n, l, 0)
				if repeatA {
					as[i] = as[0]
				}
				if !repeatA || i == 0 {
					abuf = append(abuf, as[i].data...)
				}
				bbuf = append(bbuf, bs[i].data...)
				cbuf = append(cbuf, cs[i].data...)
			}
			sa := m * k
			if repeatA {
				sa = 0
			}
			a := Strided[T]{Matrix: Matrix[T]{Buf: uploadSlice(t, ctx, abuf), Rows: m, Cols: k, Layout: l}, Stride: sa, Count: count}
			b := Strided[T]{Matrix: Matrix[T]{Buf: uploadSlice(t, ctx, bbuf), Rows: k, Cols: n, Layout: l}, Stride: k * n, Count: count}
			c := Strided[T]{Matrix: Matrix[T]{Buf: uploadSlice(t, ctx, cbuf), Rows: m, Cols: n, Layout: l}, Stride: m * n, Count: count}
			if err := GemmStridedBatched(h, NoTrans, NoTrans, alpha, a, b, beta, c); err != nil {
				t.Fatalf("%s strided %v: %v", name, l, err)
			}
			got := download(t, s, c.Buf)
			verify := func(what string, got []T, off func(i int) int) {
				for bi := range count {
					g := hmat[T]{rows: m, cols: n, stride: cs[bi].stride, layout: l, data: got[off(bi):]}
					for i := range m {
						for j := range n {
							want := toC(beta) * cs[bi].at(i, j)
							mag := cmplx.Abs(want)
							for q := range k {
								p := toC(alpha) * as[bi].at(i, q) * bs[bi].at(q, j)
								want += p
								mag += cmplx.Abs(p)
							}
							if !closeTo[T](g.at(i, j), want, mag, k) {
								t.Fatalf("%s %s %v: C[%d][%d][%d] = %v, want %v", name, what, l, bi, i, j, g.at(i, j), want)
							}
						}
					}
				}
			}
			verify("strided", got, func(i int) int { return i * m * n })

			// The same products matrix by matrix, each in its own buffer.
			var am, bm, cm []Matrix[T]
			for i := range count {
				am = append(am, upload(t, ctx, as[i]))
				bm = append(bm, upload(t, ctx, bs[i]))
				cm = append(cm, upload(t, ctx, cs[i]))
			}
			if err := GemmBatched(h, NoTrans, NoTrans, alpha, am, bm, beta, cm); err != nil {
				t.Fatalf("%s batched %v: %v", name, l, err)
			}
			var all []T
			for i := range count {
				all = append(all, download(t, s, cm[i].Buf)...)
			}
			verify("batched", all, func(i int) int { return i * m * n })
		}
	}
	t.Logf("batched %s: GemmStridedBatched and GemmBatched of %d, both layouts, A repeated or not: ok", name, count)
}

// TestGPUGemmEx: half and bfloat16 GEMM (float32 accumulation), into
// float32 and into the input type, both layouts, against Go on the
// rounded inputs.
func TestGPUGemmEx(t *testing.T) {
	ctx, s, h := gpuHandle(t)
	r := rand.New(rand.NewPCG(15, 16))
	const m, n, k = 33, 17, 64
	half := func(f float32) cuda.Float16 { return cuda.Float16Of(f) }
	bf := func(f float32) cuda.BFloat16 { return cuda.BFloat16Of(f) }
	for _, l := range []Layout{RowMajor, ColMajor} {
		exCase(t, ctx, s, h, r, l, m, n, k, half, cuda.Float16.Float32, "Float16", 0x1p-11)
		exCase(t, ctx, s, h, r, l, m, n, k, bf, cuda.BFloat16.Float32, "BFloat16", 0x1p-8)
	}
}

func exCase[E cuda.Float16 | cuda.BFloat16](t *testing.T, ctx *cuda.Context, s *cuda.Stream, h *Handle, r *rand.Rand, l Layout, m, n, k int, to func(float32) E, from func(E) float32, name string, eps float64) {
	mk := func(rows, cols int) ([]E, Matrix[E]) {
		v := make([]E, rows*cols)
		for i := range v {
			v[i] = to(float32(r.Float64()*2 - 1))
		}
		mat := Matrix[E]{Buf: uploadSlice(t, ctx, v), Rows: rows, Cols: cols, Layout: l}
		return v, mat
	}
	at := func(v []E, rows, cols, i, j int) float64 {
		if l == ColMajor {
			return float64(from(v[j*rows+i]))
		}
		return float64(from(v[i*cols+j]))
	}
	ha, a := mk(m, k)
	hb, b := mk(k, n)
	c32 := Matrix[float32]{Buf: uploadSlice(t, ctx, make([]float32, m*n)), Rows: m, Cols: n, Layout: l}
	if err := GemmEx(h, NoTrans, NoTrans, 1, a, b, 0, c32); err != nil {
		t.Fatalf("GemmEx %s->float32 %v: %v", name, l, err)
	}
	_, c16 := mk(m, n)
	if err := GemmEx(h, NoTrans, NoTrans, 1, a, b, 0, c16); err != nil {
		t.Fatalf("GemmEx %s->%s %v: %v", name, name, l, err)
	}
	g32, g16 := download(t, s, c32.Buf), download(t, s, c16.Buf)
	var worst32, worst16 float64
	for i := range m {
		for j := range n {
			var want, mag float64
			for q := range k {
				p := at(ha, m, k, i, q) * at(hb, k, n, q, j)
				want += p
				mag += math.Abs(p)
			}
			idx := i*n + j
			if l == ColMajor {
				idx = j*m + i
			}
			e32 := math.Abs(float64(g32[idx]) - want)
			e16 := math.Abs(float64(from(g16[idx])) - want)
			worst32, worst16 = max(worst32, e32/(mag+1)), max(worst16, e16/(mag+1))
			if e32 > float64(k)*0x1p-22*(mag+1) {
				t.Fatalf("GemmEx %s->float32 %v: C[%d][%d] = %v, want %v", name, l, i, j, g32[idx], want)
			}
			if e16 > 2*eps*(math.Abs(want)+1)+float64(k)*0x1p-22*(mag+1) {
				t.Fatalf("GemmEx %s->%s %v: C[%d][%d] = %v, want %v", name, name, l, i, j, from(g16[idx]), want)
			}
		}
	}
	t.Logf("GemmEx %s %v %d×%d×%d: worst relative error into float32 %.3g, into %s %.3g", name, l, m, n, k, worst32, name, worst16)
}

// TestGPUSettings: math mode set and read back, a workspace of our own
// and cuBLAS's pool again, with a GEMM through each.
func TestGPUSettings(t *testing.T) {
	ctx, s, h := gpuHandle(t)
	if err := h.SetMathMode(cublas.Tf32TensorOpMath); err != nil {
		t.Fatal(err)
	}
	if m, err := h.MathMode(); err != nil || m != cublas.Tf32TensorOpMath {
		t.Errorf("MathMode = %v, %v; want Tf32TensorOpMath", m, err)
	}
	if err := h.SetMathMode(cublas.DefaultMath); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(17, 18))
	a := upload(t, ctx, randMat[float64](r, 64, 64, RowMajor, 0))
	c := upload(t, ctx, randMat[float64](r, 64, 64, RowMajor, 0))
	for _, step := range []func() error{
		func() error { return h.SetWorkspace(32 << 20) },
		func() error { return h.SetWorkspace(4 << 20) }, // the first freed in stream order
		h.ResetWorkspace,
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
		if err := Gemm(h, NoTrans, Trans, 1, a, a, 0, c); err != nil {
			t.Fatal(err)
		}
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("math mode TF32 set and read back; GEMM with a 32 MiB, a 4 MiB and cuBLAS's workspace: ok")
}

// TestGPULifetime: a call with a closed buffer is ErrFreed before cuBLAS;
// the handle's second Close is ErrFreed, and a call after it too; a
// handle on a stream of another context is refused.
func TestGPULifetime(t *testing.T) {
	ctx, s, h := gpuHandle(t)
	x := Vec(uploadSlice(t, ctx, []float32{1, 2, 3}))
	gone, _ := cuda.AllocFrom(ctx, []float32{1, 2, 3})
	gone.Close()
	if _, err := Dot(h, x, Vector[float32]{Buf: gone, N: 3}); !errors.Is(err, cuda.ErrFreed) {
		t.Errorf("Dot with a closed buffer: %v, want ErrFreed", err)
	}
	h2, err := New(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := h2.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h2.Close(); !errors.Is(err, cuda.ErrFreed) {
		t.Errorf("second Close: %v", err)
	}
	if _, err := Dot(h2, x, x); !errors.Is(err, cuda.ErrFreed) {
		t.Errorf("Dot after Close: %v", err)
	}
	if got, err := Dot(h, x, x); err != nil || got != 14 {
		t.Errorf("Dot = %v, %v; want 14", got, err)
	}
}

// TestGPUAllocs: Gemm and a host-mode Dot allocate nothing in Go.
func TestGPUAllocs(t *testing.T) {
	ctx, s, h := gpuHandle(t)
	r := rand.New(rand.NewPCG(19, 20))
	a := upload(t, ctx, randMat[float32](r, 16, 16, RowMajor, 0))
	c := upload(t, ctx, randMat[float32](r, 16, 16, RowMajor, 0))
	x := Vec(uploadSlice(t, ctx, randSlice[float32](r, 16)))
	gemm := testing.AllocsPerRun(200, func() {
		if err := Gemm(h, NoTrans, NoTrans, 1, a, a, 0, c); err != nil {
			t.Fatal(err)
		}
	})
	dot := testing.AllocsPerRun(200, func() {
		if _, err := Dot(h, x, x); err != nil {
			t.Fatal(err)
		}
	})
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	t.Logf("allocations per call: Gemm %v, Dot %v", gemm, dot)
	if gemm != 0 || dot != 0 {
		t.Errorf("Gemm %v, Dot %v allocations per call, want 0", gemm, dot)
	}
}

// TestGPUTrsmSyrk: Trsm recovers X from B = op(A)·X/alpha (or
// X·op(A)/alpha) for both layouts, sides and triangles, every op, both
// diagonals; Syrk writes op(A)·op(A)ᵀ on its triangle and leaves the
// other; every type, against Go.
func TestGPUTrsmSyrk(t *testing.T) {
	ctx, s, h := gpuHandle(t)
	trsmCase[float32](t, ctx, s, h)
	trsmCase[float64](t, ctx, s, h)
	trsmCase[complex64](t, ctx, s, h)
	trsmCase[complex128](t, ctx, s, h)
}

func trsmCase[T Scalar](t *testing.T, ctx *cuda.Context, s *cuda.Stream, h *Handle) {
	r := rand.New(rand.NewPCG(25, 26))
	const m, n = 6, 5
	name := typeName[T]()
	alpha := fromC[T](complex(2, -1))
	worst := 0.0
	for _, l := range []Layout{RowMajor, ColMajor} {
		for _, side := range []Side{Left, Right} {
			for _, uplo := range []Uplo{Upper, Lower} {
				for _, diag := range []Diag{NonUnit, Unit} {
					for _, ta := range transposes {
						order := m
						if side == Right {
							order = n
						}
						ha := randMat[T](r, order, order, l, 1)
						for i, v := range ha.data { // well conditioned: small off the diagonal,
							ha.data[i] = fromC[T](toC(v) / 4)
						}
						for i := range order { // a heavy diagonal
							idx := i*ha.stride + i
							ha.data[idx] = fromC[T](complex(4, 1))
						}
						hx := randMat[T](r, m, n, l, 2)
						triA := func(i, j int) complex128 { return tri(ha.at, uplo == Upper, diag == Unit, i, j) }
						op := func(i, j int) complex128 {
							switch ta {
							case Trans:
								return triA(j, i)
							case ConjTrans:
								return cmplx.Conj(triA(j, i))
							}
							return triA(i, j)
						}
						hb := hmat[T]{rows: m, cols: n, stride: hx.stride, layout: l, data: make([]T, len(hx.data))}
						for i := range m {
							for j := range n {
								var v complex128
								for q := range order {
									if side == Left {
										v += op(i, q) * hx.at(q, j)
									} else {
										v += hx.at(i, q) * op(q, j)
									}
								}
								v /= toC(alpha)
								if l == ColMajor {
									hb.data[j*hb.stride+i] = fromC[T](v)
								} else {
									hb.data[i*hb.stride+j] = fromC[T](v)
								}
							}
						}
						a, b := upload(t, ctx, ha), upload(t, ctx, hb)
						if err := Trsm(h, side, uplo, ta, diag, alpha, a, b); err != nil {
							t.Fatalf("%s Trsm %v %v %v %v %v: %v", name, l, side, uplo, diag, ta, err)
						}
						got := hmat[T]{rows: m, cols: n, stride: hb.stride, layout: l, data: download(t, s, b.Buf)}
						for i := range m {
							for j := range n {
								e := cmplx.Abs(got.at(i, j) - hx.at(i, j))
								worst = max(worst, e)
								if e > 64*float64(order)*epsOf[T]()*(cmplx.Abs(hx.at(i, j))+1) {
									t.Fatalf("%s Trsm %v %v %v %v %v: X[%d][%d] = %v, want %v", name, l, side, uplo, diag, ta, i, j, got.at(i, j), hx.at(i, j))
								}
							}
						}
					}
				}
			}
		}
		for _, uplo := range []Uplo{Upper, Lower} {
			for _, ta := range []Transpose{NoTrans, Trans} {
				const n, k = 7, 4
				ar, ac := n, k
				if ta == Trans {
					ar, ac = k, n
				}
				ha, hc := randMat[T](r, ar, ac, l, 1), randMat[T](r, n, n, l, 2)
				a, c := upload(t, ctx, ha), upload(t, ctx, hc)
				beta := fromC[T](complex(0.5, 0.5))
				if err := Syrk(h, uplo, ta, alpha, a, beta, c); err != nil {
					t.Fatalf("%s Syrk %v %v %v: %v", name, l, uplo, ta, err)
				}
				got := hmat[T]{rows: n, cols: n, stride: hc.stride, layout: l, data: download(t, s, c.Buf)}
				for i := range n {
					for j := range n {
						if uplo == Upper && i > j || uplo == Lower && i < j {
							if got.at(i, j) != hc.at(i, j) {
								t.Fatalf("%s Syrk %v %v %v: C[%d][%d] outside the triangle changed", name, l, uplo, ta, i, j)
							}
							continue
						}
						want := toC(beta) * hc.at(i, j)
						mag := cmplx.Abs(want)
						for q := range k {
							p := toC(alpha) * ha.opAt(ta, i, q) * ha.opAt(ta, j, q)
							want += p
							mag += cmplx.Abs(p)
						}
						if !closeTo[T](got.at(i, j), want, mag, k) {
							t.Fatalf("%s Syrk %v %v %v: C[%d][%d] = %v, want %v", name, l, uplo, ta, i, j, got.at(i, j), want)
						}
					}
				}
			}
		}
	}
	t.Logf("%s: Trsm (both layouts, sides, triangles, diagonals, every op; worst |X error| %.3g), Syrk (both layouts, triangles, NoTrans and Trans): ok", name, worst)
}

// TestGPUConcurrent: one handle used from 8 goroutines at once, each
// alternating a host-mode Dot and a device-mode DotTo (the handle's
// pointer mode switched under its lock between them), every result right.
func TestGPUConcurrent(t *testing.T) {
	ctx, s, h := gpuHandle(t)
	x := Vec(uploadSlice(t, ctx, []float64{1, 2, 3, 4}))
	const workers, rounds = 8, 50
	outs := make([]*cuda.Buffer[float64], workers)
	for i := range outs {
		outs[i] = uploadSlice(t, ctx, make([]float64, 1))
	}
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			for range rounds {
				v, err := Dot(h, x, x)
				if err == nil && v != 30 {
					err = fmt.Errorf("Dot = %v, want 30", v)
				}
				if err == nil {
					err = DotTo(h, x, x, outs[w])
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for i, o := range outs {
		if v := download(t, s, o); v[0] != 30 {
			t.Errorf("DotTo of worker %d: %v, want 30", i, v[0])
		}
	}
	t.Logf("%d goroutines × %d rounds of Dot and DotTo on one handle: ok", workers, rounds)
}
