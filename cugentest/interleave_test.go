package cugentest

import (
	"testing"
	"time"
)

// TestTimes: Total, Median (the upper middle of an even count) and Min,
// and 0 for no times.
func TestTimes(t *testing.T) {
	ts := Times{4, 1, 3, 2}
	if ts.Total() != 10 || ts.Median() != 3 || ts.Min() != 1 {
		t.Errorf("Times{4,1,3,2}: total %d, median %d, min %d; want 10, 3, 1", ts.Total(), ts.Median(), ts.Min())
	}
	if ts[0] != 4 {
		t.Errorf("Median sorted the times in place: %v", ts)
	}
	var none Times
	if none.Total() != 0 || none.Median() != 0 || none.Min() != 0 {
		t.Errorf("no times: %d, %d, %d; want 0s", none.Total(), none.Median(), none.Min())
	}
}

// BenchmarkInterleave: each way runs b.N times besides its warm-up, in
// alternating order, and gets one time a run.
func BenchmarkInterleave(b *testing.B) {
	var order []byte
	x := func() { order = append(order, 'x'); time.Sleep(time.Microsecond) }
	y := func() { order = append(order, 'y') }
	tx, ty := Interleave(b, x, y)
	if len(tx) != b.N || len(ty) != b.N {
		b.Fatalf("%d and %d times for b.N = %d", len(tx), len(ty), b.N)
	}
	for i := range b.N {
		want := "xy"
		if i%2 == 1 {
			want = "yx"
		}
		if got := string(order[2+2*i : 4+2*i]); got != want {
			b.Fatalf("iteration %d ran %s, want %s", i, got, want)
		}
	}
	if tx.Min() < time.Microsecond {
		b.Errorf("x's fastest run %v, shorter than its sleep", tx.Min())
	}
}
