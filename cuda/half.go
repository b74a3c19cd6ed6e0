package cuda

import (
	"math"
	"strconv"
)

// Float16 is an IEEE 754 binary16 number (CUDA's __half, CUDA_R_16F,
// CUDNN_DATA_HALF), as its bits: a sign, 5 bits of exponent and 10 of
// fraction. It is the element of half-precision buffers for the math
// libraries (blas.GemmEx, algo's reductions and sorts, dnn's tensors).
// Go has no arithmetic on it: convert with [Float16Of] and
// [Float16.Float32].
type Float16 uint16

// BFloat16 is a bfloat16 number (CUDA's __nv_bfloat16, CUDA_R_16BF,
// CUDNN_DATA_BFLOAT16), as its bits: the upper half of a float32 (a
// sign, 8 bits of exponent and 7 of fraction). Convert with
// [BFloat16Of] and [BFloat16.Float32].
type BFloat16 uint16

// Float16Of returns f rounded to the nearest Float16, ties to even:
// beyond ±65504 by half a step or more, an infinity; below 2^-24, a
// subnormal or a zero of f's sign. A NaN gives a quiet NaN of the same
// sign and the fraction's upper bits (TestFloat16).
func Float16Of(f float32) Float16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff {
		if mant != 0 {
			return Float16(sign | 0x7e00 | uint16(mant>>13))
		}
		return Float16(sign | 0x7c00)
	}
	e := exp - 127 + 15 // the biased exponent of a Float16
	switch {
	case e >= 0x1f:
		return Float16(sign | 0x7c00)
	case e <= 0: // a subnormal Float16, or zero
		if exp == 0 {
			return Float16(sign) // float32's subnormals are below 2^-126
		}
		return Float16(sign | uint16(roundShift(mant|0x800000, uint(14-e))))
	}
	// a carry out of the fraction goes into the exponent, up to infinity
	return Float16(sign | uint16(uint32(e)<<10+roundShift(mant, 13)))
}

// roundShift is v >> s rounded to the nearest, ties to even (s >= 1).
func roundShift(v uint32, s uint) uint32 {
	if s >= 32 {
		return 0
	}
	q, rem, half := v>>s, v&(1<<s-1), uint32(1)<<(s-1)
	if rem > half || rem == half && q&1 == 1 {
		q++
	}
	return q
}

// Float32 returns h's value, exactly (a NaN keeps its sign and fraction).
func (h Float16) Float32() float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch exp {
	case 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case 0: // zero or subnormal: mant x 2^-24, exact in float32
		return math.Float32frombits(sign | math.Float32bits(float32(mant)/(1<<24)))
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// String formats h as the shortest decimal that reads back as it.
func (h Float16) String() string {
	return strconv.FormatFloat(float64(h.Float32()), 'g', -1, 32)
}

// BFloat16Of returns f rounded to the nearest BFloat16, ties to even
// (past the greatest finite BFloat16 by half a step or more, an
// infinity). A NaN gives a quiet NaN of the same sign and the fraction's
// upper bits (TestBFloat16).
func BFloat16Of(f float32) BFloat16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return BFloat16(b>>16 | 0x40)
	}
	return BFloat16((b + 0x7fff + (b>>16)&1) >> 16)
}

// Float32 returns b's value, exactly.
func (b BFloat16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// String formats b as the shortest decimal that reads back as it.
func (b BFloat16) String() string {
	return strconv.FormatFloat(float64(b.Float32()), 'g', -1, 32)
}
