package sample

import (
	"math"
	"testing"
)

// TestBilinearWrap: the reference sampler reads a texel exactly at its
// centre, wraps coordinates by whole images, and halves between two
// texels at their shared edge.
func TestBilinearWrap(t *testing.T) {
	const w, h = 8, 4
	img := make([]float32, w*h)
	for i := range img {
		img[i] = float32(i)
	}
	for j := range h {
		for i := range w {
			u, v := (float32(i)+0.5)/w, (float32(j)+0.5)/h
			for _, shift := range []float32{0, 1, -1, 2} {
				if got := BilinearWrap(img, w, h, u+shift, v-shift); got != img[j*w+i] {
					t.Fatalf("texel (%d, %d) shifted by %v: %v, want %v", i, j, shift, got, img[j*w+i])
				}
			}
		}
	}
	// Between texels 2 and 3 of row 1: their mean; past the right edge
	// (x = w - 0.5 + 0.5), the mean of the last texel and the first.
	if got := BilinearWrap(img, w, h, 3.0/w, 1.5/h); got != (img[w+2]+img[w+3])/2 {
		t.Errorf("between texels: %v", got)
	}
	if got := BilinearWrap(img, w, h, 1, 1.5/h); got != (img[w+w-1]+img[w])/2 {
		t.Errorf("at the wrap: %v, want %v", got, (img[w+w-1]+img[w])/2)
	}
}

// TestImage: the test image is deterministic, in [0, 1], and not flat.
func TestImage(t *testing.T) {
	a, b := RingImage(64, 64), RingImage(64, 64)
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("two calls differ")
		}
		lo, hi = min(lo, a[i]), max(hi, a[i])
	}
	if lo < 0 || hi > 1 || hi-lo < 0.5 {
		t.Errorf("values in [%v, %v]", lo, hi)
	}
}

// TestCompareImages: a difference above eps fails, one at it passes, and
// images of different sizes never match.
func TestCompareImages(t *testing.T) {
	want := []float32{0, 0.5, 1}
	if !CompareImages([]float32{0, 0.5, 1.004}, want, 5e-3) {
		t.Error("within eps: not equal")
	}
	if CompareImages([]float32{0, 0.51, 1}, want, 5e-3) {
		t.Error("0.01 off: equal")
	}
	if CompareImages([]float32{0, 0.5, 1, 7}, want, 5e-3) {
		t.Error("a longer image: equal")
	}
}
