package blas

import "math"

// Half is an IEEE 754 binary16 number (CUDA's __half, CUDA_R_16F), as its
// bits: the element of a half-precision matrix for [GemmEx].
type Half uint16

// BFloat16 is a bfloat16 number (CUDA's __nv_bfloat16, CUDA_R_16BF), as
// its bits: float32's upper half.
type BFloat16 uint16

// HalfOf returns f rounded to the nearest Half (ties to even); beyond
// Half's range, an infinity.
func HalfOf(f float32) Half {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b >> 23 & 0xff)
	mant := b & 0x7fffff
	if exp == 0xff {
		if mant != 0 {
			return Half(sign | 0x7e00) // a quiet NaN
		}
		return Half(sign | 0x7c00)
	}
	e := exp - 127 + 15
	if e <= 0 { // a subnormal Half, or 0
		if exp == 0 {
			return Half(sign) // float32's subnormals are below Half's
		}
		return Half(sign | uint16(roundShift(mant|0x800000, uint(14-e))))
	}
	h := uint32(e)<<10 + roundShift(mant, 13) // a carry goes into the exponent
	if h >= 0x7c00 {
		return Half(sign | 0x7c00)
	}
	return Half(sign | uint16(h))
}

// roundShift is v >> s rounded to the nearest, ties to even.
func roundShift(v uint32, s uint) uint32 {
	if s >= 32 {
		return 0
	}
	q := v >> s
	rem := v & (1<<s - 1)
	half := uint32(1) << (s - 1)
	if rem > half || rem == half && q&1 == 1 {
		q++
	}
	return q
}

// Float32 returns h's value, exactly.
func (h Half) Float32() float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0:
		v := float32(mant) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+112)<<23 | mant<<13)
}

// BFloat16Of returns f rounded to the nearest BFloat16 (ties to even).
func BFloat16Of(f float32) BFloat16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return BFloat16(b>>16 | 0x40) // a quiet NaN
	}
	return BFloat16((b + 0x7fff + (b>>16)&1) >> 16)
}

// Float32 returns b's value, exactly.
func (b BFloat16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }
