package solver

import (
	"errors"
	"strings"
	"testing"
)

// The checks run on shapes, before the handle is locked or cuSOLVER
// called; each error is a *ShapeError naming what does not fit.

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

// mat is a rows×cols shape with ld and a buffer of n elements.
func mat(name string, rows, cols, ld, n int) shape {
	return shape{name: name, rows: rows, cols: cols, ld: ld, n: n, buf: true}
}

func sq(name string, n int) shape { return mat(name, n, n, n, n*n) }

func TestChecks(t *testing.T) {
	wantShape(t, shape{name: "A"}.check("Potrf"), "no buffer", "A has no buffer")
	wantShape(t, mat("A", 3, 4, 2, 12).check("X"), "ld", "A's leading dimension 2 is below its 3 rows")
	wantShape(t, mat("A", 3, 4, 5, 17).check("X"), "buffer", "A is 3×4 with leading dimension 5: 18 elements needed, its buffer has 17")
	wantShape(t, mat("A", -1, 4, 1, 0).check("X"), "negative", "A is -1×4")
	if err := mat("A", 3, 4, 5, 18).check("X"); err != nil {
		t.Errorf("3×4 with ld 5 in 18 elements: %v", err)
	}
	if err := mat("A", 0, 4, 1, 0).check("X"); err != nil {
		t.Errorf("empty matrix: %v", err)
	}

	wantShape(t, checkPotrf(mat("A", 3, 4, 3, 12), Lower), "Potrf square", "A is 3×4, not square")
	wantShape(t, checkPotrf(sq("A", 3), Fill(7)), "Potrf fill", "fill 7")
	wantShape(t, checkPotrs(sq("A", 3), mat("B", 4, 1, 4, 4), Lower), "Potrs B", "B has 4 rows for a 3×3 A")

	wantShape(t, checkGetrf(mat("A", 5, 3, 5, 15), 2), "Getrf ipiv", "ipiv has 2 elements for a 5×3 A (min(m, n) = 3 needed)")
	if err := checkGetrf(mat("A", 5, 3, 5, 15), 3); err != nil {
		t.Errorf("Getrf 5×3 with 3 pivots: %v", err)
	}
	wantShape(t, checkGetrs(sq("A", 4), mat("B", 4, 2, 4, 8), NoTrans, 3), "Getrs ipiv", "ipiv has 3 elements for a 4×4 A")
	wantShape(t, checkGetrs(sq("A", 4), mat("B", 3, 2, 3, 6), NoTrans, 4), "Getrs B", "B has 3 rows for a 4×4 A")
	wantShape(t, checkGetrs(sq("A", 4), mat("B", 4, 2, 4, 8), Op(9), 4), "Getrs op", "operation 9")

	wantShape(t, checkGeqrf(mat("A", 6, 4, 6, 24), 3), "Geqrf tau", "tau has 3 elements for a 6×4 A (min(m, n) = 4 needed)")
	wantShape(t, checkOrmqr(mat("A", 6, 4, 6, 24), mat("C", 5, 2, 5, 10), Left, Trans, false, 4), "Ormqr rows", "A is 6×4: for C 5×2 on the left, A needs 5 rows")
	wantShape(t, checkOrmqr(mat("A", 2, 2, 2, 4), mat("C", 5, 2, 5, 10), Right, Trans, false, 1), "Ormqr tau", "tau has 1 elements for 2 reflectors")
	wantShape(t, checkOrmqr(mat("A", 5, 2, 5, 10), mat("C", 5, 2, 5, 10), Left, Trans, true, 2), "Ormqr complex T", "NoTrans or ConjTrans")
	wantShape(t, checkOrmqr(mat("A", 5, 2, 5, 10), mat("C", 5, 2, 5, 10), Left, ConjTrans, false, 2), "Ormqr real C", "NoTrans or Trans")
	if err := checkOrmqr(mat("A", 5, 2, 5, 10), mat("C", 5, 3, 5, 15), Left, Trans, false, 2); err != nil {
		t.Errorf("Ormqr left 5×2 on 5×3: %v", err)
	}

	none := shape{}
	wantShape(t, checkGesvd(mat("A", 3, 4, 3, 12), none, none, NoVectors, NoVectors, 4), "Gesvd m<n", "needs m >= n")
	wantShape(t, checkGesvd(mat("A", 4, 3, 4, 12), none, none, NoVectors, NoVectors, 2), "Gesvd S", "S has 2 elements for 3 singular values")
	wantShape(t, checkGesvd(mat("A", 4, 3, 4, 12), sq("U", 3), none, AllVectors, NoVectors, 3), "Gesvd U", "U is 3×3, want 4×4")
	wantShape(t, checkGesvd(mat("A", 4, 3, 4, 12), mat("U", 4, 4, 4, 16), none, SomeVectors, NoVectors, 3), "Gesvd U some", "U is 4×4, want 4×3")
	wantShape(t, checkGesvd(mat("A", 4, 3, 4, 12), none, sq("VT", 4), NoVectors, AllVectors, 3), "Gesvd VT", "VT is 4×4, want 3×3")
	wantShape(t, checkGesvd(mat("A", 4, 3, 4, 12), none, none, Job('X'), NoVectors, 3), "Gesvd job", "job 'X'")
	wantShape(t, checkGesvd(mat("A", 4, 3, 4, 12), shape{name: "U"}, none, AllVectors, NoVectors, 3), "Gesvd no U", "U has no buffer")
	if err := checkGesvd(mat("A", 4, 3, 4, 12), sq("U", 4), sq("VT", 3), AllVectors, AllVectors, 3); err != nil {
		t.Errorf("Gesvd 4×3 with all vectors: %v", err)
	}

	wantShape(t, checkSyevd(sq("A", 4), Lower, 3), "Syevd W", "W has 3 elements for 4 eigenvalues")
}

// TestInfoErrors: each info > 0 reads as its own error, naming the
// number cuSOLVER gave.
func TestInfoErrors(t *testing.T) {
	for _, c := range []struct {
		err error
		say string
	}{
		{&NotPositiveDefiniteError{Op: "Potrf", Order: 3}, "solver: Potrf: the leading minor of order 3 is not positive definite (info 3)"},
		{&SingularError{Op: "Getrf", Index: 2}, "solver: Getrf: U(2,2) is exactly zero: the matrix is singular (info 2)"},
		{&ConvergenceError{Op: "Syevd", Count: 5}, "solver: Syevd: 5 elements of the intermediate form did not converge (info 5)"},
		{&ParamError{Op: "Getrs", Param: 4}, "solver: Getrs: cuSOLVER says parameter 4 is wrong (info -4)"},
	} {
		if c.err.Error() != c.say {
			t.Errorf("%q, want %q", c.err.Error(), c.say)
		}
	}
}

func TestTranspose(t *testing.T) {
	// [1 2 3; 4 5 6] row-major is 1 4 2 5 3 6 column-major.
	got := Transpose(2, 3, []float64{1, 2, 3, 4, 5, 6})
	want := []float64{1, 4, 2, 5, 3, 6}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Transpose: %v, want %v", got, want)
		}
	}
	back := Transpose(3, 2, got)
	for i, v := range []float64{1, 2, 3, 4, 5, 6} {
		if back[i] != v {
			t.Fatalf("Transpose back: %v", back)
		}
	}
}

// TestClosedHandle: a call through a closed or nil handle is an error
// after its checks, before cuSOLVER.
func TestClosedHandle(t *testing.T) {
	if err := (&Handle{closed: true}).lock(); !errors.Is(err, ErrClosed) {
		t.Errorf("closed handle: %v, want ErrClosed", err)
	}
	if err := (*Handle)(nil).lock(); err == nil {
		t.Errorf("nil handle: no error")
	}
	var h Handle
	h.closed = true
	if err := h.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
}
