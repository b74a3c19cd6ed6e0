package blas

import (
	"unsafe"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cublas"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/ffi"
)

// Real is the type of a norm or a sum of magnitudes: float32 for
// float32 and complex64, float64 for float64 and complex128.
type Real interface{ float32 | float64 }

// kind is which of cuBLAS's S, D, C and Z functions serve T.
type kind uint8

const (
	kindS kind = iota
	kindD
	kindC
	kindZ
)

func kindOf[T Scalar]() kind {
	var z T
	switch any(z).(type) {
	case float32:
		return kindS
	case float64:
		return kindD
	case complex64:
		return kindC
	}
	return kindZ
}

func isReal[T Scalar]() bool { k := kindOf[T](); return k == kindS || k == kindD }

// realFits reports whether R is T's real type.
func realFits[T Scalar, R Real]() bool {
	var r R
	_, r32 := any(r).(float32)
	k := kindOf[T]()
	return r32 == (k == kindS || k == kindC)
}

// The device pointer types of cuBLAS's S, D, C and Z functions, from a
// device address: integer conversions, no unsafe.
func ps(p ffi.DeviceAddr) ffi.DevicePtr[float32]        { return ffi.DevicePtr[float32](p) }
func pd(p ffi.DeviceAddr) ffi.DevicePtr[float64]        { return ffi.DevicePtr[float64](p) }
func pc(p ffi.DeviceAddr) ffi.DevicePtr[cudart.Complex] { return ffi.DevicePtr[cudart.Complex](p) }
func pz(p ffi.DeviceAddr) ffi.DevicePtr[cudart.DoubleComplex] {
	return ffi.DevicePtr[cudart.DoubleComplex](p)
}

// pp is the device array of device pointers to E at a (the batched
// functions' Aarray).
func pp[E any](a ffi.DeviceAddr) ffi.DevicePtr[ffi.DevicePtr[E]] {
	return ffi.DevicePtr[ffi.DevicePtr[E]](a)
}

// The host scalars of cuBLAS's S, D, C and Z functions in host pointer
// mode, from the address of a Go value (cuda.AlignScalar's).
func hs(p unsafe.Pointer) ffi.HostOrDevice[float32]        { return ffi.Host((*float32)(p)) }
func hd(p unsafe.Pointer) ffi.HostOrDevice[float64]        { return ffi.Host((*float64)(p)) }
func hc(p unsafe.Pointer) ffi.HostOrDevice[cudart.Complex] { return ffi.Host((*cudart.Complex)(p)) }
func hz(p unsafe.Pointer) ffi.HostOrDevice[cudart.DoubleComplex] {
	return ffi.Host((*cudart.DoubleComplex)(p))
}

// result is where a reduction writes: a Go value's address in host pointer
// mode, else a device address (device pointer mode).
type result struct {
	host unsafe.Pointer
	dev  ffi.DeviceAddr
}

// at is r as the HostOrDevice of the reduction's result type E.
func at[E any](r result) ffi.HostOrDevice[E] {
	if r.host != nil {
		return ffi.Host((*E)(r.host))
	}
	return ffi.Device(ffi.DevicePtr[E](r.dev))
}

// dptr is the device address of b's first element.
func dptr[T any](b *cuda.Buffer[T]) ffi.DeviceAddr { return ffi.DeviceAddr(b.Ptr()) }

// checkPair checks two vectors of one length.
func checkPair(op string, x, y *vshape) error {
	if err := checkVector(op, "x", x); err != nil {
		return err
	}
	if err := checkVector(op, "y", y); err != nil {
		return err
	}
	if x.n != y.n {
		return errs.Errorf(op, ErrDimension, "x has %d elements, y %d", x.n, y.n)
	}
	return nil
}

// Axpy computes y = alpha·x + y (cublas?axpy).
func Axpy[T Scalar](h *Handle, alpha T, x, y Vector[T]) error {
	if h == nil {
		return ErrClosed
	}
	xs, ys := vshapeOf(x), vshapeOf(y)
	if err := checkPair("Axpy", &xs, &ys); err != nil {
		return err
	}
	px, py := dptr(x.Buf), dptr(y.Buf)
	n, ix, iy := int32(xs.n), int32(xs.inc), int32(ys.inc)
	return h.call(cublas.PointerModeHost, func() error {
		var hsa cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		a := cuda.AlignScalar(&hsa, alpha)
		switch kindOf[T]() {
		case kindS:
			return cublas.Saxpy(h.raw, n, hs(a), ps(px), ix, ps(py), iy)
		case kindD:
			return cublas.Daxpy(h.raw, n, hd(a), pd(px), ix, pd(py), iy)
		case kindC:
			return cublas.Caxpy(h.raw, n, hc(a), pc(px), ix, pc(py), iy)
		}
		return cublas.Zaxpy(h.raw, n, hz(a), pz(px), ix, pz(py), iy)
	}, x.Buf, y.Buf)
}

// Scal computes x = alpha·x (cublas?scal).
func Scal[T Scalar](h *Handle, alpha T, x Vector[T]) error {
	if h == nil {
		return ErrClosed
	}
	xs := vshapeOf(x)
	if err := checkVector("Scal", "x", &xs); err != nil {
		return err
	}
	px := dptr(x.Buf)
	n, ix := int32(xs.n), int32(xs.inc)
	return h.call(cublas.PointerModeHost, func() error {
		var hsa cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		a := cuda.AlignScalar(&hsa, alpha)
		switch kindOf[T]() {
		case kindS:
			return cublas.Sscal(h.raw, n, hs(a), ps(px), ix)
		case kindD:
			return cublas.Dscal(h.raw, n, hd(a), pd(px), ix)
		case kindC:
			return cublas.Cscal(h.raw, n, hc(a), pc(px), ix)
		}
		return cublas.Zscal(h.raw, n, hz(a), pz(px), ix)
	}, x.Buf)
}

// Copy copies x into y (cublas?copy).
func Copy[T Scalar](h *Handle, x, y Vector[T]) error {
	return copySwap(h, "Copy", x, y)
}

// Swap exchanges x and y (cublas?swap).
func Swap[T Scalar](h *Handle, x, y Vector[T]) error {
	return copySwap(h, "Swap", x, y)
}

func copySwap[T Scalar](h *Handle, op string, x, y Vector[T]) error {
	if h == nil {
		return ErrClosed
	}
	xs, ys := vshapeOf(x), vshapeOf(y)
	if err := checkPair(op, &xs, &ys); err != nil {
		return err
	}
	px, py := dptr(x.Buf), dptr(y.Buf)
	n, ix, iy := int32(xs.n), int32(xs.inc), int32(ys.inc)
	swap := op == "Swap"
	return h.call(anyMode, func() error {
		switch kindOf[T]() {
		case kindS:
			if swap {
				return cublas.Sswap(h.raw, n, ps(px), ix, ps(py), iy)
			}
			return cublas.Scopy(h.raw, n, ps(px), ix, ps(py), iy)
		case kindD:
			if swap {
				return cublas.Dswap(h.raw, n, pd(px), ix, pd(py), iy)
			}
			return cublas.Dcopy(h.raw, n, pd(px), ix, pd(py), iy)
		case kindC:
			if swap {
				return cublas.Cswap(h.raw, n, pc(px), ix, pc(py), iy)
			}
			return cublas.Ccopy(h.raw, n, pc(px), ix, pc(py), iy)
		}
		if swap {
			return cublas.Zswap(h.raw, n, pz(px), ix, pz(py), iy)
		}
		return cublas.Zcopy(h.raw, n, pz(px), ix, pz(py), iy)
	}, x.Buf, y.Buf)
}

// Dot returns x·y, Σ x[i]·y[i] (cublas?dot, cublas?dotu), waiting for
// it (host pointer mode: cuBLAS returns once the stream has computed
// it). See Dotc for the conjugated product of complex vectors.
func Dot[T Scalar](h *Handle, x, y Vector[T]) (T, error) {
	var s cuda.HostScalar // cuBLAS writes a cuDoubleComplex, 16-byte aligned
	err := dot(h, "Dot", false, x, y, cuda.AlignedIn(&s), nil)
	return *(*T)(cuda.AlignedIn(&s)), err
}

// Dotc returns xᴴ·y, Σ conj(x[i])·y[i] (cublas?dotc; Dot for a real T).
func Dotc[T Scalar](h *Handle, x, y Vector[T]) (T, error) {
	var s cuda.HostScalar // cuBLAS writes a cuDoubleComplex, 16-byte aligned
	err := dot(h, "Dotc", true, x, y, cuda.AlignedIn(&s), nil)
	return *(*T)(cuda.AlignedIn(&s)), err
}

// DotTo writes x·y into out[0], in stream order (device pointer mode).
func DotTo[T Scalar](h *Handle, x, y Vector[T], out *cuda.Buffer[T]) error {
	return dot(h, "DotTo", false, x, y, nil, out)
}

// DotcTo writes xᴴ·y into out[0], in stream order (device pointer mode).
func DotcTo[T Scalar](h *Handle, x, y Vector[T], out *cuda.Buffer[T]) error {
	return dot(h, "DotcTo", true, x, y, nil, out)
}

// dot computes the dot product into host (host pointer mode) or, if host
// is nil, into out[0] (device pointer mode).
func dot[T Scalar](h *Handle, op string, conj bool, x, y Vector[T], host unsafe.Pointer, out *cuda.Buffer[T]) error {
	if h == nil {
		return ErrClosed
	}
	xs, ys := vshapeOf(x), vshapeOf(y)
	if err := checkPair(op, &xs, &ys); err != nil {
		return err
	}
	res, mode := result{host: host}, cublas.PointerModeHost
	var ops [3]cuda.Operand
	ops[0], ops[1] = x.Buf, y.Buf
	nops := 2
	if host == nil {
		if err := checkResult(op, bufLen(out)); err != nil {
			return err
		}
		res, mode = result{dev: dptr(out)}, cublas.PointerModeDevice
		ops[2] = out
		nops = 3
	}
	px, py := dptr(x.Buf), dptr(y.Buf)
	n, ix, iy := int32(xs.n), int32(xs.inc), int32(ys.inc)
	return h.call(mode, func() error {
		switch kindOf[T]() {
		case kindS:
			return cublas.Sdot(h.raw, n, ps(px), ix, ps(py), iy, at[float32](res))
		case kindD:
			return cublas.Ddot(h.raw, n, pd(px), ix, pd(py), iy, at[float64](res))
		case kindC:
			if conj {
				return cublas.Cdotc(h.raw, n, pc(px), ix, pc(py), iy, at[cudart.Complex](res))
			}
			return cublas.Cdotu(h.raw, n, pc(px), ix, pc(py), iy, at[cudart.Complex](res))
		}
		if conj {
			return cublas.Zdotc(h.raw, n, pz(px), ix, pz(py), iy, at[cudart.DoubleComplex](res))
		}
		return cublas.Zdotu(h.raw, n, pz(px), ix, pz(py), iy, at[cudart.DoubleComplex](res))
	}, ops[:nops]...)
}

// bufLen is b's length, -1 for nil.
func bufLen[T any](b *cuda.Buffer[T]) int {
	if b == nil {
		return -1
	}
	return b.Len()
}

// Nrm2 returns the Euclidean norm of x (cublas?nrm2, cublasScnrm2,
// cublasDznrm2), waiting for it (host pointer mode).
func Nrm2[T Scalar](h *Handle, x Vector[T]) (float64, error) {
	return realHost(h, "Nrm2", false, x)
}

// Asum returns Σ |x[i]|, |re|+|im| for a complex element (cublas?asum,
// cublasScasum, cublasDzasum), waiting for it (host pointer mode).
func Asum[T Scalar](h *Handle, x Vector[T]) (float64, error) {
	return realHost(h, "Asum", true, x)
}

// Nrm2To writes Nrm2 of x into out[0] in stream order (device pointer
// mode); R is T's real type (float32 for float32 and complex64).
func Nrm2To[T Scalar, R Real](h *Handle, x Vector[T], out *cuda.Buffer[R]) error {
	return realTo(h, "Nrm2To", false, x, out)
}

// AsumTo writes Asum of x into out[0] in stream order (device pointer
// mode); R is T's real type.
func AsumTo[T Scalar, R Real](h *Handle, x Vector[T], out *cuda.Buffer[R]) error {
	return realTo(h, "AsumTo", true, x, out)
}

func realHost[T Scalar](h *Handle, op string, asum bool, x Vector[T]) (float64, error) {
	if kindOf[T]() == kindS || kindOf[T]() == kindC {
		var r float32
		err := magnitude(h, op, asum, x, result{host: unsafe.Pointer(&r)}, cublas.PointerModeHost, nil)
		return float64(r), err
	}
	var r float64
	err := magnitude(h, op, asum, x, result{host: unsafe.Pointer(&r)}, cublas.PointerModeHost, nil)
	return r, err
}

func realTo[T Scalar, R Real](h *Handle, op string, asum bool, x Vector[T], out *cuda.Buffer[R]) error {
	if h == nil {
		return ErrClosed
	}
	if !realFits[T, R]() {
		var t T
		var r R
		return errs.Errorf(op, ErrArgument, "a %T result for a %T vector (float32 for float32 and complex64, float64 for float64 and complex128)", r, t)
	}
	if err := checkResult(op, bufLen(out)); err != nil {
		return err
	}
	return magnitude(h, op, asum, x, result{dev: dptr(out)}, cublas.PointerModeDevice, out)
}

// magnitude computes a norm or a sum of magnitudes into res.
func magnitude[T Scalar](h *Handle, op string, asum bool, x Vector[T], res result, mode cublas.PointerMode, out cuda.Operand) error {
	if h == nil {
		return ErrClosed
	}
	xs := vshapeOf(x)
	if err := checkVector(op, "x", &xs); err != nil {
		return err
	}
	var ops [2]cuda.Operand
	ops[0] = x.Buf
	nops := 1
	if out != nil {
		ops[1] = out
		nops = 2
	}
	px := dptr(x.Buf)
	n, ix := int32(xs.n), int32(xs.inc)
	return h.call(mode, func() error {
		switch kindOf[T]() {
		case kindS:
			if asum {
				return cublas.Sasum(h.raw, n, ps(px), ix, at[float32](res))
			}
			return cublas.Snrm2(h.raw, n, ps(px), ix, at[float32](res))
		case kindD:
			if asum {
				return cublas.Dasum(h.raw, n, pd(px), ix, at[float64](res))
			}
			return cublas.Dnrm2(h.raw, n, pd(px), ix, at[float64](res))
		case kindC:
			if asum {
				return cublas.Scasum(h.raw, n, pc(px), ix, at[float32](res))
			}
			return cublas.Scnrm2(h.raw, n, pc(px), ix, at[float32](res))
		}
		if asum {
			return cublas.Dzasum(h.raw, n, pz(px), ix, at[float64](res))
		}
		return cublas.Dznrm2(h.raw, n, pz(px), ix, at[float64](res))
	}, ops[:nops]...)
}

// Iamax returns the index (from 0) of the first element of largest
// magnitude, |re|+|im| for a complex one (cublasI?amax), waiting for it
// (host pointer mode); -1 for an empty x.
func Iamax[T Scalar](h *Handle, x Vector[T]) (int, error) {
	var r int32
	err := iamax(h, "Iamax", x, result{host: unsafe.Pointer(&r)}, cublas.PointerModeHost, nil)
	return int(r) - 1, err
}

// IamaxTo writes the index of Iamax into out[0] in stream order (device
// pointer mode) as cuBLAS writes it: from 1, 0 for an empty x.
func IamaxTo[T Scalar](h *Handle, x Vector[T], out *cuda.Buffer[int32]) error {
	if h == nil {
		return ErrClosed
	}
	if err := checkResult("IamaxTo", bufLen(out)); err != nil {
		return err
	}
	return iamax(h, "IamaxTo", x, result{dev: dptr(out)}, cublas.PointerModeDevice, out)
}

func iamax[T Scalar](h *Handle, op string, x Vector[T], res result, mode cublas.PointerMode, out cuda.Operand) error {
	if h == nil {
		return ErrClosed
	}
	xs := vshapeOf(x)
	if err := checkVector(op, "x", &xs); err != nil {
		return err
	}
	var ops [2]cuda.Operand
	ops[0] = x.Buf
	nops := 1
	if out != nil {
		ops[1] = out
		nops = 2
	}
	px := dptr(x.Buf)
	n, ix := int32(xs.n), int32(xs.inc)
	r := at[int32](res)
	return h.call(mode, func() error {
		switch kindOf[T]() {
		case kindS:
			return cublas.Isamax(h.raw, n, ps(px), ix, r)
		case kindD:
			return cublas.Idamax(h.raw, n, pd(px), ix, r)
		case kindC:
			return cublas.Icamax(h.raw, n, pc(px), ix, r)
		}
		return cublas.Izamax(h.raw, n, pz(px), ix, r)
	}, ops[:nops]...)
}
