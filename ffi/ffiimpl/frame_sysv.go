//go:build linux && (amd64 || arm64)

package ffiimpl

// float adds a floating-point argument: the next vector register, counted
// apart from the integer ones (System V AMD64 and AAPCS64 alike), or a
// stack word once they are used up.
//
//go:nosplit
func (f *Frame) float(bits uint64) {
	if n := f.nfloat; n < numFloatRegs {
		f.floats[n] = bits
		f.nfloat = n + 1
		return
	}
	f.push(uintptr(bits))
}
