package main

import "testing"

// TestCompareResults checks the sample's comparison (no GPU needed).
func TestCompareResults(t *testing.T) {
	cpu := []float32{0.5, 0.25, 1}
	if l1 := compareResults([]float32{0.5, 0.25, 1}, cpu); l1 != 0 {
		t.Fatalf("same numbers: L1 %v", l1)
	}
	if l1 := compareResults([]float32{0.5, 0.5, 1}, cpu); l1 != 0.25/1.75 {
		t.Fatalf("one differs by 0.25: L1 %v, want %v", l1, 0.25/1.75)
	}
}
