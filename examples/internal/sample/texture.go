package sample

import (
	"bufio"
	"fmt"
	"math"
	"os"
)

// RingImage is the texture examples' input image, in place of the
// samples' teapot512.pgm: concentric rings about the centre, darker on
// every other square of a 64-pixel checkerboard, values in [0, 1], w*h
// of them, row after row.
func RingImage(w, h int) []float32 {
	img := make([]float32, w*h)
	for y := range h {
		for x := range w {
			dx, dy := float64(x-w/2), float64(y-h/2)
			ring := 0.5 + 0.5*math.Cos(math.Hypot(dx, dy)/9)
			if (x/64+y/64)%2 == 1 {
				ring *= 0.6
			}
			img[y*w+x] = float32(ring)
		}
	}
	return img
}

// BilinearWrap is what tex2D<float> returns from a float texture of img
// (w × h) with linear filtering at normalized coordinates (u, v),
// wrapping: the four nearest texels, their indices modulo the size,
// weighted in 8-bit fixed point as the texture unit computes them.
func BilinearWrap(img []float32, w, h int, u, v float32) float32 {
	x, y := float64(u*float32(w)-0.5), float64(v*float32(h)-0.5)
	fx, fy := math.Floor(x), math.Floor(y)
	a := float32(math.Round((x-fx)*256) / 256)
	b := float32(math.Round((y-fy)*256) / 256)
	wrap := func(i, n int) int { return ((i % n) + n) % n }
	i0, j0 := wrap(int(fx), w), wrap(int(fy), h)
	i1, j1 := wrap(int(fx)+1, w), wrap(int(fy)+1, h)
	at := func(i, j int) float32 { return img[j*w+i] }
	return (1-a)*(1-b)*at(i0, j0) + a*(1-b)*at(i1, j0) + (1-a)*b*at(i0, j1) + a*b*at(i1, j1)
}

// CompareImages prints the largest difference of got from want and how
// many pixels differ by more than eps, and reports whether none does.
func CompareImages(got, want []float32, eps float64) bool {
	var maxErr float64
	bad := 0
	for i := range want {
		e := math.Abs(float64(got[i] - want[i]))
		maxErr = max(maxErr, e)
		if e > eps {
			bad++
		}
	}
	fmt.Printf("\tmax |GPU - reference| = %.3g, %d of %d pixels above %g\n", maxErr, bad, len(want), eps)
	return bad == 0 && len(got) == len(want)
}

// WritePGM writes img (w × h, values in [0, 1]) as an 8-bit binary PGM.
func WritePGM(name string, img []float32, w, h int) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	fmt.Fprintf(bw, "P5\n%d %d\n255\n", w, h)
	for _, v := range img {
		bw.WriteByte(byte(math.Round(float64(min(max(v, 0), 1)) * 255)))
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
