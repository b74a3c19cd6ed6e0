package cuda

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// f16Value is a Float16's value by its definition: (-1)^s x 2^(e-15) x
// (1 + f/1024), or f x 2^-24 for e == 0 (no NaN or infinity).
func f16Value(h uint16) float64 {
	s, e, f := h>>15, int(h>>10&0x1f), float64(h&0x3ff)
	v := math.Ldexp(f, -24)
	if e != 0 {
		v = math.Ldexp(1+f/1024, e-15)
	}
	if s == 1 {
		v = -v
	}
	return v
}

// nearest is the rounding of x (not NaN) to the nearest of the values of
// bits ascending, the finite non-negative values of a 16-bit format in
// bit order, ties to the even bit pattern; past the greatest by half its
// step or more, inf. It compares 2|x| with lo+hi, exact in float64.
func nearest(x float32, vals []float64, inf uint16) uint16 {
	a := math.Abs(float64(x))
	sign := uint16(0)
	if math.Signbit(float64(x)) {
		sign = 0x8000
	}
	top := len(vals) - 1
	if a >= vals[top]+(vals[top]-vals[top-1])/2 {
		return sign | inf
	}
	lo := sort.SearchFloat64s(vals, a) // the first >= a
	if lo > top || vals[lo] != a {
		lo--
	}
	if lo == top || a == vals[lo] {
		return sign | uint16(lo)
	}
	switch m := vals[lo] + vals[lo+1]; {
	case 2*a < m:
		return sign | uint16(lo)
	case 2*a > m:
		return sign | uint16(lo+1)
	}
	if lo%2 == 0 {
		return sign | uint16(lo)
	}
	return sign | uint16(lo+1)
}

// Float16: every one of the 65536 bit patterns converts to float32 as
// its definition says, and back to itself (a NaN to a quiet NaN of its
// sign and fraction); every midpoint between neighbours rounds to the
// even one and a float32 step off it to the nearer; random float32s
// round to the nearest; and the known cases.
func TestFloat16(t *testing.T) {
	vals := make([]float64, 0x7c00) // the finite non-negative values
	for h := range 1 << 16 {
		f := Float16(h).Float32()
		exp := h >> 10 & 0x1f
		if exp == 0x1f {
			m := uint16(h) & 0x3ff
			if m == 0 && !math.IsInf(float64(f), 1-2*int(h>>15)) || m != 0 && !math.IsNaN(float64(f)) {
				t.Fatalf("%#04x.Float32() = %v", h, f)
			}
			back := Float16Of(f)
			if m != 0 && back != Float16(h)|0x200 || m == 0 && back != Float16(h) {
				t.Fatalf("Float16Of(%#04x.Float32()) = %#04x", h, uint16(back))
			}
			continue
		}
		if want := f16Value(uint16(h)); float64(f) != want || math.Signbit(float64(f)) != (h>>15 == 1) {
			t.Fatalf("%#04x.Float32() = %v, want %v", h, f, want)
		}
		if back := Float16Of(f); back != Float16(h) {
			t.Fatalf("Float16Of(%v) = %#04x, want %#04x", f, uint16(back), h)
		}
		if h < 0x7c00 {
			vals[h] = float64(f)
		}
	}
	checkMidpoints(t, "Float16", vals, 0x7c00, func(f float32) uint16 { return uint16(Float16Of(f)) })
	for _, c := range []struct {
		f    float32
		want uint16
	}{
		{1, 0x3c00}, {-2, 0xc000}, {0.1, 0x2e66}, {math.Pi, 0x4248}, {65504, 0x7bff},
		{65519.996, 0x7bff}, {65520, 0x7c00}, {1e10, 0x7c00}, {-1e10, 0xfc00},
		{float32(math.Ldexp(1, -24)), 0x0001}, {float32(math.Ldexp(1, -25)), 0x0000},
		{float32(math.Ldexp(1.0000001, -25)), 0x0001}, {float32(math.Ldexp(3, -25)), 0x0002},
		{float32(math.Ldexp(1, -14)), 0x0400}, {float32(math.Ldexp(1023, -24)), 0x03ff},
		{1 + 1.0/2048, 0x3c00}, {1 + 3.0/2048, 0x3c02}, {float32(math.Copysign(0, -1)), 0x8000},
		{math.SmallestNonzeroFloat32, 0}, {float32(math.Inf(1)), 0x7c00}, {float32(math.Inf(-1)), 0xfc00},
		{float32(math.NaN()), 0x7e00},
	} {
		if got := Float16Of(c.f); uint16(got) != c.want {
			t.Errorf("Float16Of(%v) = %#04x, want %#04x", c.f, uint16(got), c.want)
		}
	}
	if s := Float16(0x3555).String(); s != "0.33325195" {
		t.Errorf("Float16(0x3555).String() = %q", s)
	}
}

// BFloat16: as TestFloat16, a float32's upper half.
func TestBFloat16(t *testing.T) {
	vals := make([]float64, 0x7f80)
	for b := range 1 << 16 {
		f := BFloat16(b).Float32()
		if want := math.Float32frombits(uint32(b) << 16); math.Float32bits(f) != math.Float32bits(want) {
			t.Fatalf("%#04x.Float32() = %v, want %v", b, f, want)
		}
		back := BFloat16Of(f)
		switch {
		case math.IsNaN(float64(f)):
			if back != BFloat16(b)|0x40 {
				t.Fatalf("BFloat16Of(%#04x.Float32()) = %#04x", b, uint16(back))
			}
		case back != BFloat16(b):
			t.Fatalf("BFloat16Of(%v) = %#04x, want %#04x", f, uint16(back), b)
		}
		if b < 0x7f80 {
			vals[b] = float64(f)
		}
	}
	checkMidpoints(t, "BFloat16", vals, 0x7f80, func(f float32) uint16 { return uint16(BFloat16Of(f)) })
	for _, c := range []struct {
		f    float32
		want uint16
	}{
		{1, 0x3f80}, {0.1, 0x3dcd}, {math.Pi, 0x4049}, {1 + 1.0/256, 0x3f80}, {1 + 3.0/256, 0x3f82},
		{math.MaxFloat32, 0x7f80}, {-math.MaxFloat32, 0xff80}, {math.SmallestNonzeroFloat32, 0},
		{float32(math.Ldexp(1, -133)), 0x0001}, {float32(math.Copysign(0, -1)), 0x8000},
		{float32(math.NaN()), 0x7fc0},
	} {
		if got := BFloat16Of(c.f); uint16(got) != c.want {
			t.Errorf("BFloat16Of(%v) = %#04x, want %#04x", c.f, uint16(got), c.want)
		}
	}
}

// checkMidpoints checks round (Float16Of or BFloat16Of) against nearest:
// at each midpoint between neighbouring values of vals and a float32 step
// either side of it, both signs, and at 200,000 random float32 bit
// patterns.
func checkMidpoints(t *testing.T, name string, vals []float64, inf uint16, round func(float32) uint16) {
	t.Helper()
	bad := 0
	try := func(x float32) {
		if want, got := nearest(x, vals, inf), round(x); got != want && bad < 5 {
			bad++
			t.Errorf("%sOf(%v) = %#04x, want %#04x", name, x, got, want)
		}
	}
	next := append(vals[1:len(vals):len(vals)], 2*vals[len(vals)-1]-vals[len(vals)-2])
	for i, lo := range vals {
		m := float32((lo + next[i]) / 2) // exact: one bit more than the format
		for _, x := range []float32{m, math.Nextafter32(m, 0), math.Nextafter32(m, float32(math.Inf(1)))} {
			try(x)
			try(-x)
		}
	}
	r := rand.New(rand.NewPCG(7, 7))
	for range 200_000 {
		if x := math.Float32frombits(r.Uint32()); !math.IsNaN(float64(x)) {
			try(x)
		}
	}
}
