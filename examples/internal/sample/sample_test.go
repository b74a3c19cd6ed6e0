package sample

import "testing"

// TestCRandMatchesGlibc: the first rand() values of a C program that never
// calls srand, as glibc prints them (the well-known 1804289383, ...), and
// srand(2)'s first value, and a sum far past the generator's first turn.
func TestCRandMatchesGlibc(t *testing.T) {
	want := []int32{1804289383, 846930886, 1681692777, 1714636915, 1957747793, 424238335, 719885386, 1649760492, 596516649, 1189641421}
	g := NewCRand(1)
	for i, w := range want {
		if got := g.Int(); got != w {
			t.Fatalf("rand() #%d = %d, want %d", i, got, w)
		}
	}
	if got := NewCRand(2).Int(); got != 1505335290 {
		t.Fatalf("srand(2); rand() = %d, want 1505335290", got)
	}
	// Far past the ring's first turn: the sum of the first 100,000 values
	// glibc's rand() returns without srand.
	g = NewCRand(1)
	var sum int64
	for range 100000 {
		sum += int64(g.Int())
	}
	if sum != 107345864261546 {
		t.Fatalf("sum of 100000 rand() = %d, want 107345864261546", sum)
	}
}
