package sparse

import (
	"errors"
	"strings"
	"testing"
)

// The checks below run before any allocation or cuSPARSE call: a nil
// context would fail the first allocation with another error than a
// *ShapeError, and the matrices and vectors are built by hand without a
// device.

func wantShape(t *testing.T, err error, what, substr string) {
	t.Helper()
	var se *ShapeError
	if !errors.As(err, &se) {
		t.Errorf("%s: got %v, want a *ShapeError", what, err)
		return
	}
	if !strings.Contains(se.Error(), substr) {
		t.Errorf("%s: %q does not say %q", what, se.Error(), substr)
	}
}

func TestNewCSRChecks(t *testing.T) {
	v3 := []float32{1, 2, 3}
	for _, c := range []struct {
		name          string
		rows, cols    int
		rowPtr, cols_ []int32
		vals          []float32
		say           string
	}{
		{"short rowPtr", 2, 2, []int32{0, 3}, []int32{0, 1, 1}, v3, "rowPtr has 2 elements, want rows+1 = 3"},
		{"nonzero base", 2, 2, []int32{1, 2, 3}, []int32{0, 1, 1}, v3, "rowPtr[0] is 1"},
		{"decreasing", 2, 2, []int32{0, 2, 1}, []int32{0, 1, 1}, v3, "rowPtr[2] = 1 is below rowPtr[1] = 2"},
		{"last offset", 2, 2, []int32{0, 1, 2}, []int32{0, 1, 1}, v3, "rowPtr[2] is 2, want the number of elements 3"},
		{"column out of range", 2, 2, []int32{0, 1, 3}, []int32{0, 2, 1}, v3, "colInd[1] = 2 out of [0, 2)"},
		{"negative column", 2, 2, []int32{0, 1, 3}, []int32{0, -1, 1}, v3, "colInd[1] = -1"},
		{"colInd vs values", 2, 2, []int32{0, 1, 3}, []int32{0, 1}, v3, "colInd has 2 elements, values 3"},
		{"negative rows", -1, 2, []int32{0}, nil, nil, "dimensions -1×2"},
	} {
		_, err := NewCSR(nil, c.rows, c.cols, c.rowPtr, c.cols_, c.vals)
		wantShape(t, err, c.name, c.say)
	}
	// A valid structure gets past the checks to the allocation.
	_, err := NewCSR(nil, 2, 2, []int32{0, 1, 3}, []int32{0, 0, 1}, v3)
	var se *ShapeError
	if err == nil || errors.As(err, &se) {
		t.Errorf("valid CSR with a nil context: %v, want the allocation's error", err)
	}
}

func TestNewCOOBSRChecks(t *testing.T) {
	_, err := NewCOO(nil, 3, 3, []int64{0, 1}, []int64{0, 1, 2}, []complex64{1, 2, 3})
	wantShape(t, err, "COO lengths", "have 2, 3 and 3 elements")
	_, err = NewCOO(nil, 3, 3, []int64{0, 3, 1}, []int64{0, 1, 2}, []complex64{1, 2, 3})
	wantShape(t, err, "COO row", "rowInd[1] = 3 out of [0, 3)")
	_, err = NewCOO(nil, 3, 3, []int64{0, 2, 1}, []int64{0, 1, 7}, []complex64{1, 2, 3})
	wantShape(t, err, "COO column", "colInd[2] = 7 out of [0, 3)")

	rp, ci := []int32{0, 1, 2}, []int32{0, 1}
	_, err = NewBSR(nil, 2, 2, 2, RowMajor, rp, ci, make([]float64, 7))
	wantShape(t, err, "BSR values", "values has 7 elements, want 2 blocks × 2² = 8")
	_, err = NewBSR[float64](nil, 2, 2, 0, RowMajor, rp, ci, nil)
	wantShape(t, err, "BSR block", "block dimension 0")
	_, err = NewBSR(nil, 2, 1, 2, RowMajor, rp, ci, make([]float64, 8))
	wantShape(t, err, "BSR column", "colInd[1] = 1 out of [0, 1)")
}

func TestDenseChecks(t *testing.T) {
	for _, c := range []struct {
		n, rows, cols, ld int
		order             Order
		say               string
	}{
		{12, 3, 4, 3, RowMajor, "leading dimension 3 below 4"},
		{12, 3, 4, 2, ColMajor, "leading dimension 2 below 3"},
		{11, 3, 4, 4, RowMajor, "buffer of 11 elements for a 3×4 matrix with leading dimension 4 (12 needed)"},
		{13, 3, 4, 5, RowMajor, "(14 needed)"},
		{12, 3, 4, 4, Order(9), "order 9"},
	} {
		wantShape(t, checkDense("NewDense", c.n, c.rows, c.cols, c.ld, c.order), "dense", c.say)
	}
	for _, c := range [][5]int{{12, 3, 4, 4, int(RowMajor)}, {12, 3, 4, 3, int(ColMajor)}, {18, 3, 4, 5, int(ColMajor)}, {0, 0, 4, 4, int(RowMajor)}} {
		if err := checkDense("NewDense", c[0], c[1], c[2], c[3], Order(c[4])); err != nil {
			t.Errorf("checkDense%v: %v", c, err)
		}
	}
	_, err := NewDense[float32](nil, 1, 1, 1, RowMajor)
	wantShape(t, err, "nil buffer", "nil buffer")
	_, err = NewVec[float32](nil)
	wantShape(t, err, "nil vector buffer", "nil buffer")
}

// fakeCSR is a rows×cols matrix with no device memory behind it.
func fakeCSR(rows, cols int) *CSR[float32, int32] {
	return &CSR[float32, int32]{spMat: spMat{format: "CSR", rows: rows, cols: cols}}
}

func TestOpChecks(t *testing.T) {
	h := &Handle{} // never reached: every call below fails its checks
	A := fakeCSR(3, 4)
	x4, x3 := &Vec[float32]{n: 4}, &Vec[float32]{n: 3}
	wantShape(t, SpMV(h, NoTrans, 1, A, x3, 0, x3), "SpMV N", "NoTrans of a 3×4 CSR is 3×4: x has 3 elements (want 4), y 3 (want 3)")
	wantShape(t, SpMV(h, Trans, 1, A, x4, 0, x3), "SpMV T", "Trans of a 3×4 CSR is 4×3: x has 4 elements (want 3), y 3 (want 4)")
	wantShape(t, SpMV(h, Op(7), 1, A, x4, 0, x3), "SpMV op", "operation Op(7)")
	wantShape(t, SpMV(h, NoTrans, 1, nil, x4, 0, x3), "SpMV nil A", "nil matrix")
	wantShape(t, SpMV(h, NoTrans, 1, (*CSR[float32, int32])(nil), x4, 0, x3), "SpMV typed nil A", "nil matrix")
	wantShape(t, SpMV(h, NoTrans, 1, A, nil, 0, x3), "SpMV nil x", "nil vector x")
	wantShape(t, SpMV(h, NoTrans, 1, fakeCSR(4, 4), x4, 0, x4), "SpMV x is y", "x and y are the same memory")

	B := &Dense[float32]{rows: 4, cols: 5}
	C := &Dense[float32]{rows: 3, cols: 5}
	wantShape(t, SpMM(h, NoTrans, NoTrans, 1, A, B, 0, &Dense[float32]{rows: 3, cols: 4}), "SpMM C", "C is 3×4 (want 3×5)")
	wantShape(t, SpMM(h, Trans, NoTrans, 1, A, B, 0, C), "SpMM opA", "Trans of a 3×4 CSR is 4×3, NoTrans of B 4×5")
	wantShape(t, SpMM(h, NoTrans, Trans, 1, A, B, 0, C), "SpMM opB", "Trans of B 5×4")
	wantShape(t, SpMM(h, NoTrans, NoTrans, 1, fakeCSR(5, 5), C, 0, C), "SpMM B is C", "NoTrans of B 3×5")
	sqB := &Dense[float32]{rows: 5, cols: 5}
	wantShape(t, SpMM(h, NoTrans, NoTrans, 1, fakeCSR(5, 5), sqB, 0, sqB), "SpMM B is C", "B and C are the same memory")

	_, err := SpGEMM(h, 1, A, fakeCSR(3, 4))
	wantShape(t, err, "SpGEMM", "A is 3×4, B 3×4: A's columns are not B's rows")
	_, err = SpGEMM(h, 1, A, nil)
	wantShape(t, err, "SpGEMM nil", "nil matrix")

	_, err = NewSpSV(h, NoTrans, 1, A, Lower, NonUnit, x4, x3)
	wantShape(t, err, "SpSV square", "a 3×4 CSR is not square")
	sq := fakeCSR(4, 4)
	_, err = NewSpSV(h, NoTrans, 1, sq, Lower, NonUnit, x4, x3)
	wantShape(t, err, "SpSV lengths", "x has 4 elements, y 3, for a 4×4 matrix")
	_, err = NewSpSV(h, NoTrans, 1, sq, Fill(5), NonUnit, x4, &Vec[float32]{n: 4, b: nil})
	if err == nil {
		t.Errorf("SpSV with fill 5: no error")
	}
	bsr := &BSR[float32, int32]{spMat: spMat{format: "BSR", rows: 4, cols: 4}}
	_, err = NewSpSV(h, NoTrans, 1, bsr, Lower, NonUnit, x4, x3)
	wantShape(t, err, "SpSV BSR", "cuSPARSE's SpSV takes CSR or COO")
	var p *SpSV[float32]
	wantShape(t, p.Solve(x4, x4), "nil plan", "nil plan")
}

// TestClosedHandle: an operation through a closed handle is ErrClosed,
// after its checks and before any call.
func TestClosedHandle(t *testing.T) {
	h := &Handle{closed: true}
	A := fakeCSR(2, 2)
	x := &Vec[float32]{n: 2}
	y := &Vec[float32]{n: 2}
	x.b, y.b = nil, nil
	if err := SpMV(h, NoTrans, 1, A, x, 0, y); !errors.Is(err, ErrClosed) {
		t.Errorf("SpMV on a closed handle: %v, want ErrClosed", err)
	}
	if err := SpMV(nil, NoTrans, 1, A, x, 0, y); err == nil {
		t.Errorf("SpMV on a nil handle: no error")
	}
	A.g.closed = true
	if err := SpMV(&Handle{}, NoTrans, 1, A, x, 0, y); !errors.Is(err, ErrClosed) {
		t.Errorf("SpMV of a closed matrix: %v, want ErrClosed", err)
	}
	if err := A.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
}
