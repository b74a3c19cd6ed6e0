// Package fft runs cuFFT transforms on device buffers: plans of 1, 2 or 3
// dimensions, batched, with cufftPlanMany's advanced layouts, complex to
// complex, real to complex and complex to real, in single and double
// precision, each bound to a stream of its context.
//
// Its CUDA major is the build's, as package cuda's is (-tags cuda12
// for CUDA 12, none for 13).
//
//	p, err := fft.New1D(ctx, stream, 1<<20, fft.C2C, 1)
//	defer p.Close()
//	err = p.C2C(in, out, fft.Forward) // *cuda.Buffer[complex64], queued on stream
//
// Every call checks what cuFFT would get wrong silently before it is
// made: the plan's type against the method, each buffer's length against
// the elements the plan reads or writes, buffers that partly overlap, a
// missing work area. A refused call returns an [*Error] that unwraps to
// the cufft.Result naming the problem.
//
// A [Cache] keeps plans by shape, type, layout and stream, as CuPy's plan
// cache does, so that code which transforms the same shapes again and
// again makes each plan once.
//
// Plans are safe to use from any goroutine; the calls on one plan run one
// at a time (cuFFT's plans are not safe for concurrent calls). Like the
// layer's resources, a Plan holds a reference to its context and is
// destroyed once, by Close or, when it becomes unreachable, by a cleanup.
package fft

import (
	"errors"
	"sync"

	cuda "github.com/cugen/cugen/cuda"
	mathlib "github.com/cugen/cugen/cuda/internal"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/cuda/sys/cufft"
	"github.com/cugen/cugen/ffi"
)

// Plan is a cuFFT plan (cufftHandle) whose transforms queue on one stream
// of its context.
type Plan struct {
	h        *cuda.Handle
	shape    shape
	workSize uint64

	mu sync.Mutex // one call at a time; guards ws
	ws *cuda.Buffer[byte]
}

// New1D makes a plan of batch transforms of n points each (batch 0 is 1).
func New1D(ctx *cuda.Context, s *cuda.Stream, n int, t Type, batch int) (*Plan, error) {
	return NewPlan(ctx, s, Desc{Type: t, Dims: []int{n}, Batch: batch})
}

// New2D makes a plan of one nx × ny transform (ny varies fastest).
func New2D(ctx *cuda.Context, s *cuda.Stream, nx, ny int, t Type) (*Plan, error) {
	return NewPlan(ctx, s, Desc{Type: t, Dims: []int{nx, ny}})
}

// New3D makes a plan of one nx × ny × nz transform (nz varies fastest).
func New3D(ctx *cuda.Context, s *cuda.Stream, nx, ny, nz int, t Type) (*Plan, error) {
	return NewPlan(ctx, s, Desc{Type: t, Dims: []int{nx, ny, nz}})
}

// NewPlan makes the plan d describes in ctx (cufftCreate,
// cufftMakePlanMany64) and binds it to s (cufftSetStream), which must be
// of ctx: pass ctx.DefaultStream() for the legacy default stream. cuFFT
// allocates the plan's work area unless d.ExternalWorkspace.
func NewPlan(ctx *cuda.Context, s *cuda.Stream, d Desc) (*Plan, error) {
	sh, err := check("NewPlan", &d)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errors.New("fft: NewPlan: nil stream (Context.DefaultStream returns the default stream)")
	}
	var work uint64
	h, err := cuda.NewStreamHandle(ctx, s, func() (uint64, error) {
		plan, err := cufft.Create()
		if err != nil {
			return 0, err
		}
		if work, err = makePlan(plan, &sh); err != nil {
			cufft.Destroy(plan)
			return 0, err
		}
		return uint64(plan), nil
	}, func(h uint64) error { return cufft.Destroy(cufft.Handle(h)) },
		func(h uint64, st cu.Stream) error { return cufft.SetStream(cufft.Handle(h), cudart.Stream(st)) })
	if err != nil {
		return nil, err
	}
	return &Plan{h: h, shape: sh, workSize: work}, nil
}

// makePlan sets up plan for sh (cufftMakePlanMany64) and returns its work
// size.
func makePlan(plan cufft.Handle, sh *shape) (uint64, error) {
	if sh.external {
		if err := cufft.SetAutoAllocation(plan, 0); err != nil {
			return 0, err
		}
	}
	n, in, out := sh.n, sh.inEmbed, sh.outEmbed
	var inp, outp *int64
	if sh.advanced {
		inp, outp = &in[0], &out[0]
	}
	return cufft.MakePlanMany64(plan, int32(sh.rank), &n[0], inp, sh.istride, sh.idist, outp, sh.ostride, sh.odist, sh.typ, sh.batch)
}

func (p *Plan) raw() cufft.Handle { return cufft.Handle(p.h.Raw()) }

// Raw returns cuFFT's handle, for the cufft package.
func (p *Plan) Raw() cufft.Handle { return p.raw() }

// Type returns the plan's transform type.
func (p *Plan) Type() Type { return p.shape.typ }

// Dims returns the plan's sizes, outermost first.
func (p *Plan) Dims() []int {
	d := make([]int, p.shape.rank)
	for i := range d {
		d[i] = int(p.shape.n[i])
	}
	return d
}

// Batch returns how many transforms one call makes.
func (p *Plan) Batch() int { return int(p.shape.batch) }

// InLen and OutLen return the elements the input and output buffers need
// at least.
func (p *Plan) InLen() int  { return int(p.shape.inLen) }
func (p *Plan) OutLen() int { return int(p.shape.outLen) }

// WorkSize returns the bytes of the plan's work area: what cuFFT
// allocated, or what SetWorkArea must be given.
func (p *Plan) WorkSize() uint64 { return p.workSize }

// Stream returns the stream the plan's transforms queue on.
func (p *Plan) Stream() *cuda.Stream { return p.h.Stream() }

// SetStream moves the plan's later transforms to s (cufftSetStream),
// which must be of the plan's context. The transforms already queued on
// the old stream are waited for first, so the two never share the work
// area at once.
func (p *Plan) SetStream(s *cuda.Stream) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, err := errs.SetStream(p.h, s)
	return err
}

// SetWorkArea gives the plan ws as its work area (cufftSetWorkArea): at
// least WorkSize bytes of the plan's context, used by every later
// transform until another SetWorkArea. The plan keeps ws; its transforms
// return cuda.ErrFreed once ws is closed. For a plan of cuFFT's own work
// area, cuFFT frees that one.
func (p *Plan) SetWorkArea(ws *cuda.Buffer[byte]) error {
	if ws == nil {
		return errs.Errorf("Plan.SetWorkArea", cufft.InvalidValue, "nil work area")
	}
	if ws.Bytes() < p.workSize {
		return errs.Errorf("Plan.SetWorkArea", cufft.InvalidValue, "%d bytes for a plan that needs %d", ws.Bytes(), p.workSize)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	err := p.h.Call(func(cu.Stream) error { return cufft.SetWorkArea(p.raw(), ffi.DeviceAddr(ws.Ptr())) }, ws)
	if err == nil {
		p.ws = ws
	}
	return err
}

// Close destroys the plan (cufftDestroy) once the calls in flight have
// returned. A second Close returns ErrClosed.
func (p *Plan) Close() error { return mathlib.Closed(p.h.Close()) }

// C2C queues on the plan's stream the transform of in into out in the
// given direction (cufftExecC2C). in and out may be the same buffer (an
// in-place transform).
func (p *Plan) C2C(in, out *cuda.Buffer[complex64], dir Direction) error {
	return execute(p, "Plan.C2C", C2C, in, out, dir, func(i, o ffi.DeviceAddr) error {
		return cufft.ExecC2C(p.raw(), ffi.DevicePtr[cufft.Complex](i), ffi.DevicePtr[cufft.Complex](o), int32(dir))
	})
}

// R2C queues on the plan's stream the forward transform of the real in
// into the complex out (cufftExecR2C): the non-redundant half of the
// spectrum, InLen/n*(n/2+1) elements for a last size n.
func (p *Plan) R2C(in *cuda.Buffer[float32], out *cuda.Buffer[complex64]) error {
	return execute(p, "Plan.R2C", R2C, in, out, Forward, func(i, o ffi.DeviceAddr) error {
		return cufft.ExecR2C(p.raw(), ffi.DevicePtr[cufft.Real](i), ffi.DevicePtr[cufft.Complex](o))
	})
}

// C2R queues on the plan's stream the inverse transform of the half
// spectrum in into the real out (cufftExecC2R). cuFFT may overwrite in.
func (p *Plan) C2R(in *cuda.Buffer[complex64], out *cuda.Buffer[float32]) error {
	return execute(p, "Plan.C2R", C2R, in, out, Inverse, func(i, o ffi.DeviceAddr) error {
		return cufft.ExecC2R(p.raw(), ffi.DevicePtr[cufft.Complex](i), ffi.DevicePtr[cufft.Real](o))
	})
}

// Z2Z is C2C in double precision (cufftExecZ2Z).
func (p *Plan) Z2Z(in, out *cuda.Buffer[complex128], dir Direction) error {
	return execute(p, "Plan.Z2Z", Z2Z, in, out, dir, func(i, o ffi.DeviceAddr) error {
		return cufft.ExecZ2Z(p.raw(), ffi.DevicePtr[cufft.DoubleComplex](i), ffi.DevicePtr[cufft.DoubleComplex](o), int32(dir))
	})
}

// D2Z is R2C in double precision (cufftExecD2Z).
func (p *Plan) D2Z(in *cuda.Buffer[float64], out *cuda.Buffer[complex128]) error {
	return execute(p, "Plan.D2Z", D2Z, in, out, Forward, func(i, o ffi.DeviceAddr) error {
		return cufft.ExecD2Z(p.raw(), ffi.DevicePtr[cufft.DoubleReal](i), ffi.DevicePtr[cufft.DoubleComplex](o))
	})
}

// Z2D is C2R in double precision (cufftExecZ2D).
func (p *Plan) Z2D(in *cuda.Buffer[complex128], out *cuda.Buffer[float64]) error {
	return execute(p, "Plan.Z2D", Z2D, in, out, Inverse, func(i, o ffi.DeviceAddr) error {
		return cufft.ExecZ2D(p.raw(), ffi.DevicePtr[cufft.DoubleComplex](i), ffi.DevicePtr[cufft.DoubleReal](o))
	})
}

// execute checks a transform's plan type, direction and buffers, then
// calls it on the plan's stream as a use of the plan, the stream, the
// buffers and the work area.
func execute[I, O any](p *Plan, op string, t Type, in *cuda.Buffer[I], out *cuda.Buffer[O], dir Direction, call func(i, o ffi.DeviceAddr) error) error {
	if p == nil || in == nil || out == nil {
		return errs.Errorf(op, cufft.InvalidValue, "nil plan or buffer")
	}
	if err := p.checkExec(op, t, dir, in.Len(), out.Len(), in.Ptr(), in.Bytes(), out.Ptr(), out.Bytes()); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ws != nil {
		return p.h.Call(func(cu.Stream) error { return call(ffi.DeviceAddr(in.Ptr()), ffi.DeviceAddr(out.Ptr())) }, in, out, p.ws)
	}
	if p.shape.external {
		return errs.Errorf(op, cufft.NoWorkspace, "the plan's work area is external and not set: call SetWorkArea with %d bytes", p.workSize)
	}
	return p.h.Call(func(cu.Stream) error { return call(ffi.DeviceAddr(in.Ptr()), ffi.DeviceAddr(out.Ptr())) }, in, out)
}

// checkExec checks a transform of type t from in (inLen elements at
// inPtr) to out before cuFFT sees it.
func (p *Plan) checkExec(op string, t Type, dir Direction, inLen, outLen int, inPtr cu.Deviceptr, inBytes uint64, outPtr cu.Deviceptr, outBytes uint64) error {
	if p.shape.typ != t {
		return errs.Errorf(op, cufft.InvalidType, "the plan is %v, not %v", p.shape.typ, t)
	}
	if dir != Forward && dir != Inverse {
		return errs.Errorf(op, cufft.InvalidValue, "direction %d: want Forward or Inverse", dir)
	}
	if int64(inLen) < p.shape.inLen {
		return errs.Errorf(op, cufft.InvalidSize, "input of %d elements for a plan that reads %d", inLen, p.shape.inLen)
	}
	if int64(outLen) < p.shape.outLen {
		return errs.Errorf(op, cufft.InvalidSize, "output of %d elements for a plan that writes %d", outLen, p.shape.outLen)
	}
	if inPtr < outPtr+cu.Deviceptr(outBytes) && outPtr < inPtr+cu.Deviceptr(inBytes) {
		switch {
		case t != C2C && t != Z2Z:
			return errs.Errorf(op, cufft.InvalidValue, "input and output overlap: real transforms here are out of place")
		case inPtr != outPtr:
			return errs.Errorf(op, cufft.InvalidValue, "input and output overlap at different addresses: in place means the same buffer")
		}
	}
	return nil
}
