package solver

import "math"

// shape is what the checks know of a Matrix: pure values, so that the
// checks run (and are tested) without a device.
type shape struct {
	name           string
	rows, cols, ld int
	n              int // the buffer's elements
	buf            bool
}

func shapeOf[T Scalar](name string, m Matrix[T]) shape {
	return shape{name: name, rows: m.Rows, cols: m.Cols, ld: m.ld(), n: lenOf(m.Buf), buf: m.Buf != nil}
}

// check checks the matrix fits its buffer.
func (s shape) check(op string) error {
	if !s.buf {
		return errs.Shape(op, "%s has no buffer", s.name)
	}
	if s.rows < 0 || s.cols < 0 || s.rows > math.MaxInt32 || s.cols > math.MaxInt32 {
		return errs.Shape(op, "%s is %d×%d", s.name, s.rows, s.cols)
	}
	if s.ld < max(1, s.rows) || s.ld > math.MaxInt32 {
		return errs.Shape(op, "%s's leading dimension %d is below its %d rows", s.name, s.ld, s.rows)
	}
	if s.rows == 0 || s.cols == 0 {
		return nil
	}
	if need := (s.cols-1)*s.ld + s.rows; s.n < need {
		return errs.Shape(op, "%s is %d×%d with leading dimension %d: %d elements needed, its buffer has %d", s.name, s.rows, s.cols, s.ld, need, s.n)
	}
	return nil
}

func (s shape) square(op string) error {
	if err := s.check(op); err != nil {
		return err
	}
	if s.rows != s.cols {
		return errs.Shape(op, "%s is %d×%d, not square", s.name, s.rows, s.cols)
	}
	return nil
}

func checkPotrf(a shape, fill Fill) error {
	if err := a.square("Potrf"); err != nil {
		return err
	}
	if !fill.valid() {
		return errs.Shape("Potrf", "fill %d", fill)
	}
	return nil
}

func checkPotrs(a, b shape, fill Fill) error {
	const op = "Potrs"
	if err := a.square(op); err != nil {
		return err
	}
	if err := b.check(op); err != nil {
		return err
	}
	if !fill.valid() {
		return errs.Shape(op, "fill %d", fill)
	}
	if b.rows != a.rows {
		return errs.Shape(op, "B has %d rows for a %d×%d A", b.rows, a.rows, a.cols)
	}
	return nil
}

func checkGetrf(a shape, ipiv int) error {
	const op = "Getrf"
	if err := a.check(op); err != nil {
		return err
	}
	if ipiv < min(a.rows, a.cols) {
		return errs.Shape(op, "ipiv has %d elements for a %d×%d A (min(m, n) = %d needed)", ipiv, a.rows, a.cols, min(a.rows, a.cols))
	}
	return nil
}

func checkGetrs(a, b shape, trans Op, ipiv int) error {
	const op = "Getrs"
	if err := a.square(op); err != nil {
		return err
	}
	if err := b.check(op); err != nil {
		return err
	}
	if !trans.valid() {
		return errs.Shape(op, "operation %d", trans)
	}
	if ipiv < a.rows {
		return errs.Shape(op, "ipiv has %d elements for a %d×%d A", ipiv, a.rows, a.cols)
	}
	if b.rows != a.rows {
		return errs.Shape(op, "B has %d rows for a %d×%d A", b.rows, a.rows, a.cols)
	}
	return nil
}

func checkGeqrf(a shape, tau int) error {
	const op = "Geqrf"
	if err := a.check(op); err != nil {
		return err
	}
	if tau < min(a.rows, a.cols) {
		return errs.Shape(op, "tau has %d elements for a %d×%d A (min(m, n) = %d needed)", tau, a.rows, a.cols, min(a.rows, a.cols))
	}
	return nil
}

func checkOrmqr(a, c shape, side Side, trans Op, complexT bool, tau int) error {
	const op = "Ormqr"
	if err := a.check(op); err != nil {
		return err
	}
	if err := c.check(op); err != nil {
		return err
	}
	if side != Left && side != Right {
		return errs.Shape(op, "side %d", side)
	}
	if want := map[bool]Op{true: ConjTrans, false: Trans}[complexT]; trans != NoTrans && trans != want {
		return errs.Shape(op, "operation %d: NoTrans or %s for this element type", trans, map[bool]string{true: "ConjTrans", false: "Trans"}[complexT])
	}
	q := c.rows // Q is q×q
	if side == Right {
		q = c.cols
	}
	if a.rows != q || a.cols > q {
		return errs.Shape(op, "A is %d×%d: for C %d×%d on the %s, A needs %d rows and at most as many columns", a.rows, a.cols, c.rows, c.cols, sideName(side), q)
	}
	if tau < a.cols {
		return errs.Shape(op, "tau has %d elements for %d reflectors", tau, a.cols)
	}
	return nil
}

func checkGesvd(a, u, vt shape, jobu, jobvt Job, s int) error {
	const op = "Gesvd"
	if err := a.check(op); err != nil {
		return err
	}
	m, n := a.rows, a.cols
	if m < n {
		return errs.Shape(op, "A is %d×%d: cuSOLVER's gesvd needs m >= n (take the SVD of Aᵀ)", m, n)
	}
	if s < n {
		return errs.Shape(op, "S has %d elements for %d singular values", s, n)
	}
	uc := map[Job]int{AllVectors: m, SomeVectors: n}
	for _, j := range []Job{jobu, jobvt} {
		if j != AllVectors && j != SomeVectors && j != NoVectors {
			return errs.Shape(op, "job %q", byte(j))
		}
	}
	if jobu != NoVectors {
		if err := u.check(op); err != nil {
			return err
		}
		if u.rows != m || u.cols != uc[jobu] {
			return errs.Shape(op, "U is %d×%d, want %d×%d for jobu %q", u.rows, u.cols, m, uc[jobu], byte(jobu))
		}
	}
	if jobvt != NoVectors {
		if err := vt.check(op); err != nil {
			return err
		}
		if vt.rows != n || vt.cols != n {
			return errs.Shape(op, "VT is %d×%d, want %d×%d", vt.rows, vt.cols, n, n)
		}
	}
	return nil
}

func checkSyevd(a shape, fill Fill, w int) error {
	const op = "Syevd"
	if err := a.square(op); err != nil {
		return err
	}
	if !fill.valid() {
		return errs.Shape(op, "fill %d", fill)
	}
	if w < a.rows {
		return errs.Shape(op, "W has %d elements for %d eigenvalues", w, a.rows)
	}
	return nil
}
