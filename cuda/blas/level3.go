package blas

import (
	"errors"
	"unsafe"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cublas"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/ffi"
)

// Gemm computes C = alpha·op(A)·op(B) + beta·C (cublas?gemm): op(A) is
// m×k, op(B) k×n and C m×n, each in its own layout (see the package doc).
func Gemm[T Scalar](h *Handle, ta, tb Transpose, alpha T, a, b Matrix[T], beta T, c Matrix[T]) error {
	if h == nil {
		return ErrClosed
	}
	p, err := planGemm("Gemm", ta, tb, shapeOf(a), shapeOf(b), shapeOf(c), isReal[T](), 1, 0, 0, 0)
	if err != nil {
		return err
	}
	pa, pb, pc_ := dptr(a.Buf), dptr(b.Buf), dptr(c.Buf)
	if p.swap {
		pa, pb = pb, pa
	}
	return h.call(cublas.PointerModeHost, func() error {
		var hsa, hsb cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		al, be := cuda.AlignScalar(&hsa, alpha), cuda.AlignScalar(&hsb, beta)
		switch kindOf[T]() {
		case kindS:
			return cublas.Sgemm(h.raw, p.opA, p.opB, p.m, p.n, p.k, hs(al), ps(pa), p.lda, ps(pb), p.ldb, hs(be), ps(pc_), p.ldc)
		case kindD:
			return cublas.Dgemm(h.raw, p.opA, p.opB, p.m, p.n, p.k, hd(al), pd(pa), p.lda, pd(pb), p.ldb, hd(be), pd(pc_), p.ldc)
		case kindC:
			return cublas.Cgemm(h.raw, p.opA, p.opB, p.m, p.n, p.k, hc(al), pc(pa), p.lda, pc(pb), p.ldb, hc(be), pc(pc_), p.ldc)
		}
		return cublas.Zgemm(h.raw, p.opA, p.opB, p.m, p.n, p.k, hz(al), pz(pa), p.lda, pz(pb), p.ldb, hz(be), pz(pc_), p.ldc)
	}, a.Buf, b.Buf, c.Buf)
}

// planStrided checks a strided batch of GEMMs and plans it.
func planStrided[T, U Element](op string, ta, tb Transpose, a, b Strided[T], c Strided[U], real bool) (gemmPlan, error) {
	if a.Count != c.Count || b.Count != c.Count {
		return gemmPlan{}, errs.Errorf(op, ErrDimension, "batches of %d, %d and %d matrices: A, B and C have one Count", a.Count, b.Count, c.Count)
	}
	if err := checkBatch(op, c.Count, [3]int{a.Stride, b.Stride, c.Stride}); err != nil {
		return gemmPlan{}, err
	}
	cs := shapeOf(c.Matrix)
	p, err := planGemm(op, ta, tb, shapeOf(a.Matrix), shapeOf(b.Matrix), cs, real, c.Count, a.Stride, b.Stride, c.Stride)
	if err != nil {
		return p, err
	}
	if err := checkMatrix(op, "C", &cs, 1, 0); err != nil { // resolves its stride
		return p, err
	}
	if err := checkBatchOut(op, c.Count, c.Stride, cs); err != nil {
		return p, err
	}
	return p, nil
}

// GemmStridedBatched computes C[i] = alpha·op(A[i])·op(B[i]) + beta·C[i]
// for the Count matrices of each batch (cublas?gemmStridedBatched).
func GemmStridedBatched[T Scalar](h *Handle, ta, tb Transpose, alpha T, a, b Strided[T], beta T, c Strided[T]) error {
	if h == nil {
		return ErrClosed
	}
	p, err := planStrided("GemmStridedBatched", ta, tb, a, b, c, isReal[T]())
	if err != nil {
		return err
	}
	pa, pb, pc_ := dptr(a.Buf), dptr(b.Buf), dptr(c.Buf)
	sa, sb, sc := int64(a.Stride), int64(b.Stride), int64(c.Stride)
	if p.swap {
		pa, pb, sa, sb = pb, pa, sb, sa
	}
	count := int32(c.Count)
	return h.call(cublas.PointerModeHost, func() error {
		var hsa, hsb cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		al, be := cuda.AlignScalar(&hsa, alpha), cuda.AlignScalar(&hsb, beta)
		switch kindOf[T]() {
		case kindS:
			return cublas.SgemmStridedBatched(h.raw, p.opA, p.opB, p.m, p.n, p.k, hs(al), ps(pa), p.lda, sa, ps(pb), p.ldb, sb, hs(be), ps(pc_), p.ldc, sc, count)
		case kindD:
			return cublas.DgemmStridedBatched(h.raw, p.opA, p.opB, p.m, p.n, p.k, hd(al), pd(pa), p.lda, sa, pd(pb), p.ldb, sb, hd(be), pd(pc_), p.ldc, sc, count)
		case kindC:
			return cublas.CgemmStridedBatched(h.raw, p.opA, p.opB, p.m, p.n, p.k, hc(al), pc(pa), p.lda, sa, pc(pb), p.ldb, sb, hc(be), pc(pc_), p.ldc, sc, count)
		}
		return cublas.ZgemmStridedBatched(h.raw, p.opA, p.opB, p.m, p.n, p.k, hz(al), pz(pa), p.lda, sa, pz(pb), p.ldb, sb, hz(be), pz(pc_), p.ldc, sc, count)
	}, a.Buf, b.Buf, c.Buf)
}

// planBatched checks a batch of GEMMs given matrix by matrix: one shape
// per operand across the batch, each buffer long enough.
func planBatched[T Scalar](op string, ta, tb Transpose, a, b, c []Matrix[T]) (gemmPlan, error) {
	if len(a) != len(c) || len(b) != len(c) {
		return gemmPlan{}, errs.Errorf(op, ErrDimension, "batches of %d, %d and %d matrices: A, B and C have one length", len(a), len(b), len(c))
	}
	if len(c) == 0 {
		return gemmPlan{}, errs.Errorf(op, ErrArgument, "an empty batch")
	}
	if err := checkBatch(op, len(c), [3]int{}); err != nil {
		return gemmPlan{}, err
	}
	p, err := planGemm(op, ta, tb, shapeOf(a[0]), shapeOf(b[0]), shapeOf(c[0]), isReal[T](), 1, 0, 0, 0)
	if err != nil {
		return p, err
	}
	for _, ms := range []struct {
		name string
		ms   []Matrix[T]
	}{{"A", a}, {"B", b}, {"C", c}} {
		first := shapeOf(ms.ms[0])
		checkMatrix(op, ms.name, &first, 1, 0) // checked by planGemm
		for i := 1; i < len(ms.ms); i++ {
			s := shapeOf(ms.ms[i])
			if err := checkMatrix(op, ms.name, &s, 1, 0); err != nil {
				return p, errs.Errorf(op, err.(*Error).Err, "%s[%d]: %s", ms.name, i, err.(*Error).Msg)
			}
			if err := sameShape(op, ms.name, i, first, s); err != nil {
				return p, err
			}
		}
	}
	return p, nil
}

// GemmBatched computes C[i] = alpha·op(A[i])·op(B[i]) + beta·C[i] for
// every i (cublas?gemmBatched): matrices anywhere, of one shape per
// operand. Their addresses go to the device through an array the handle
// keeps, copied on its stream before the call only when they differ from
// the ones it holds: a loop over the same matrices copies them once. When
// they differ and the stream has not yet passed the previous copy, the
// call waits for it (the copy reads the handle's host array). It
// allocates only when the batch outgrows the handle's arrays.
func GemmBatched[T Scalar](h *Handle, ta, tb Transpose, alpha T, a, b []Matrix[T], beta T, c []Matrix[T]) error {
	if h == nil {
		return ErrClosed
	}
	p, err := planBatched("GemmBatched", ta, tb, a, b, c)
	if err != nil {
		return err
	}
	n := len(c)
	first, second := a, b
	if p.swap {
		first, second = b, a
	}
	// The address arrays and the operand list are the handle's: held from
	// the comparison to the call.
	h.mu.Lock()
	defer h.mu.Unlock()
	o := h.own
	ptrs, err := h.addrArray(3 * n)
	if err != nil {
		return err
	}
	ops := append(o.ops[:0], ptrs)
	same := o.valid >= 3*n
	for i := range n {
		ops = append(ops, a[i].Buf, b[i].Buf, c[i].Buf)
		if same {
			same = o.host[i] == uint64(first[i].Buf.Ptr()) && o.host[n+i] == uint64(second[i].Buf.Ptr()) &&
				o.host[2*n+i] == uint64(c[i].Buf.Ptr())
		}
	}
	o.ops = ops
	defer clear(o.ops) // keep no buffer reachable
	base := dptr(ptrs)
	pa, pb, pc_ := base, base+ffi.DeviceAddr(8*n), base+ffi.DeviceAddr(16*n)
	count := int32(n)
	return h.callLocked(cublas.PointerModeHost, func() error {
		if !same {
			if err := copyAddrs(o, h.Stream().Raw(), first, second, c, ptrs); err != nil {
				return err
			}
		}
		var hsa, hsb cuda.HostScalar // cuDoubleComplex wants 16-byte alignment
		al, be := cuda.AlignScalar(&hsa, alpha), cuda.AlignScalar(&hsb, beta)
		switch kindOf[T]() {
		case kindS:
			return cublas.SgemmBatched(h.raw, p.opA, p.opB, p.m, p.n, p.k, hs(al), pp[float32](pa), p.lda, pp[float32](pb), p.ldb, hs(be), pp[float32](pc_), p.ldc, count)
		case kindD:
			return cublas.DgemmBatched(h.raw, p.opA, p.opB, p.m, p.n, p.k, hd(al), pp[float64](pa), p.lda, pp[float64](pb), p.ldb, hd(be), pp[float64](pc_), p.ldc, count)
		case kindC:
			return cublas.CgemmBatched(h.raw, p.opA, p.opB, p.m, p.n, p.k, hc(al), pp[cudart.Complex](pa), p.lda, pp[cudart.Complex](pb), p.ldb, hc(be), pp[cudart.Complex](pc_), p.ldc, count)
		}
		return cublas.ZgemmBatched(h.raw, p.opA, p.opB, p.m, p.n, p.k, hz(al), pp[cudart.DoubleComplex](pa), p.lda, pp[cudart.DoubleComplex](pb), p.ldb, hz(be), pp[cudart.DoubleComplex](pc_), p.ldc, count)
	}, ops)
}

// addrArray returns the handle's device address array, grown to at
// least n elements (stream-ordered memory, the old one freed in stream
// order), and its host copy as long; h.mu held. A grown array holds no
// addresses yet (valid 0).
func (h *Handle) addrArray(n int) (*cuda.Buffer[uint64], error) {
	o := h.own
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ptrs == nil || o.ptrs.Len() < n {
		grown, err := cuda.AllocAsync[uint64](h.Stream(), max(n, 2*bufLen(o.ptrs)))
		if err != nil {
			return nil, err
		}
		if o.ptrs != nil {
			o.ptrs.Close()
		}
		o.ptrs = grown
		o.valid = 0
	}
	if len(o.host) < o.ptrs.Len() {
		o.host = make([]uint64, o.ptrs.Len())
	}
	return o.ptrs, nil
}

// copyAddrs writes the batch's addresses into the host array and queues
// their copy into ptrs (cuMemcpyHtoDAsync), then records o.ev after it.
// The host array is rewritten only once the copy before has read it (the
// event's wait, when the stream has not passed it yet: the copy reads it
// in stream order). Called in the handle's Call, h.mu held.
func copyAddrs[T Scalar](o *owned, st cu.Stream, first, second, c []Matrix[T], ptrs *cuda.Buffer[uint64]) error {
	o.valid = 0 // until the copy is queued
	if o.ev == 0 {
		ev, err := cu.EventCreate(uint32(cu.EventDisableTiming))
		if err != nil {
			return err
		}
		o.ev = ev
	} else if err := cu.EventQuery(o.ev); err != nil {
		if !errors.Is(err, cu.ErrorNotReady) {
			return err
		}
		if err := cu.EventSynchronize(o.ev); err != nil {
			return err
		}
	}
	n := len(c)
	for i := range n {
		o.host[i] = uint64(first[i].Buf.Ptr())
		o.host[n+i] = uint64(second[i].Buf.Ptr())
		o.host[2*n+i] = uint64(c[i].Buf.Ptr())
	}
	if err := cu.MemcpyHtoDAsync(ptrs.Ptr(), unsafe.Pointer(&o.host[0]), uint64(24*n), st); err != nil {
		return err
	}
	if err := cu.EventRecord(o.ev, st); err != nil {
		return err
	}
	o.valid = 3 * n
	return nil
}

// dataType is CUDA's type of the element type T of GemmEx, and whether
// it has one there.
func dataType[T Element]() (cudart.DataType, bool) {
	var z T
	switch any(z).(type) {
	case cuda.Float16:
		return cudart.R16F, true
	case cuda.BFloat16:
		return cudart.R16Bf, true
	case float32:
		return cudart.R32F, true
	}
	return 0, false
}

// exTypes checks GemmEx's element types: In is cuda.Float16,
// cuda.BFloat16 or float32, Out is In or float32.
func exTypes[In, Out Element](op string) (in, out cudart.DataType, err error) {
	in, ok := dataType[In]()
	out, ok2 := dataType[Out]()
	var i In
	var o Out
	if !ok || !ok2 || out != in && out != cudart.R32F {
		return 0, 0, errs.Errorf(op, ErrArgument, "%T inputs and a %T result: GemmEx takes cuda.Float16, cuda.BFloat16 or float32 inputs and a result of their type or float32", i, o)
	}
	return in, out, nil
}

// GemmEx computes C = alpha·op(A)·op(B) + beta·C (cublasGemmEx) with A
// and B of In ([cuda.Float16], [cuda.BFloat16] or float32) and C of Out
// (In or float32), accumulating in float32 (CUBLAS_COMPUTE_32F) on tensor
// cores where the device has them. alpha and beta are float32.
func GemmEx[In, Out Element](h *Handle, ta, tb Transpose, alpha float32, a, b Matrix[In], beta float32, c Matrix[Out]) error {
	if h == nil {
		return ErrClosed
	}
	tin, tout, err := exTypes[In, Out]("GemmEx")
	if err != nil {
		return err
	}
	p, err := planGemm("GemmEx", ta, tb, shapeOf(a), shapeOf(b), shapeOf(c), true, 1, 0, 0, 0)
	if err != nil {
		return err
	}
	pa, pb, pc_ := dptr(a.Buf), dptr(b.Buf), dptr(c.Buf)
	if p.swap {
		pa, pb = pb, pa
	}
	return h.call(cublas.PointerModeHost, func() error {
		return cublas.GemmEx(h.raw, p.opA, p.opB, p.m, p.n, p.k, ffi.Host(&alpha).Untyped(), pa, tin, p.lda, pb, tin, p.ldb, ffi.Host(&beta).Untyped(), pc_, tout, p.ldc, cublas.Compute32F, cublas.GemmDefault)
	}, a.Buf, b.Buf, c.Buf)
}

// GemmStridedBatchedEx is GemmEx over strided batches
// (cublasGemmStridedBatchedEx).
func GemmStridedBatchedEx[In, Out Element](h *Handle, ta, tb Transpose, alpha float32, a, b Strided[In], beta float32, c Strided[Out]) error {
	if h == nil {
		return ErrClosed
	}
	tin, tout, err := exTypes[In, Out]("GemmStridedBatchedEx")
	if err != nil {
		return err
	}
	p, err := planStrided("GemmStridedBatchedEx", ta, tb, a, b, c, true)
	if err != nil {
		return err
	}
	pa, pb, pc_ := dptr(a.Buf), dptr(b.Buf), dptr(c.Buf)
	sa, sb, sc := int64(a.Stride), int64(b.Stride), int64(c.Stride)
	if p.swap {
		pa, pb, sa, sb = pb, pa, sb, sa
	}
	count := int32(c.Count)
	return h.call(cublas.PointerModeHost, func() error {
		return cublas.GemmStridedBatchedEx(h.raw, p.opA, p.opB, p.m, p.n, p.k, ffi.Host(&alpha).Untyped(), pa, tin, p.lda, sa, pb, tin, p.ldb, sb, ffi.Host(&beta).Untyped(), pc_, tout, p.ldc, sc, count, cublas.Compute32F, cublas.GemmDefault)
	}, a.Buf, b.Buf, c.Buf)
}
