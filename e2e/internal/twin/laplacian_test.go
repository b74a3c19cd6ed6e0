package twin

import "testing"

// TestLaplacian: the system is what its doc says: CSR rows of -1 2 -1
// (two entries in the first and last), and A * Want = B.
func TestLaplacian(t *testing.T) {
	l := NewLaplacian(5)
	if len(l.RowPtr) != 6 || l.RowPtr[5] != 13 || len(l.Val) != 13 {
		t.Fatalf("row pointers %v, %d values; want 6 pointers ending at 13", l.RowPtr, len(l.Val))
	}
	for i := range 5 {
		var ax float64
		for k := l.RowPtr[i]; k < l.RowPtr[i+1]; k++ {
			j := l.ColInd[k]
			if d := int(j) - i; d < -1 || d > 1 || (d == 0) != (l.Val[k] == 2) {
				t.Fatalf("row %d: A[%d] = %g", i, j, l.Val[k])
			}
			ax += l.Val[k] * l.Want[j]
		}
		if ax != l.B[i] {
			t.Errorf("row %d: A * Want = %g, B = %g", i, ax, l.B[i])
		}
	}
	l.Check(t, []float64{1, 2, 3, 4, 5})
}
