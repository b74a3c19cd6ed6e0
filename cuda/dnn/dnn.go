// Package dnn runs cuDNN 9's graph (backend) API from Go: tensors
// described by Go shapes, strides and types, an operation graph (a 2-D
// convolution forward, NCHW or NHWC, in float32, float16 or bfloat16; a
// matmul with a bias added and a ReLU), cuDNN's heuristics (mode A) to
// pick an engine, a finalized plan with its workspace as a *cuda.Buffer,
// and the plan executed on a stream of the layer.
//
// Its CUDA major is the build's, as package cuda's is (-tags cuda12
// for CUDA 12, none for 13); libcudnn.so.9 is found as the cudnn
// package finds it (CUGEN_LIBCUDNN, the wheel's nvidia/cudnn/lib).
//
//	h, err := dnn.New(ctx, stream)
//	x := dnn.Image(1, dnn.Float16, dnn.NHWC, 32, 64, 56, 56)
//	w := dnn.Image(2, dnn.Float16, dnn.NHWC, 64, 64, 3, 3)
//	y := dnn.Image(3, dnn.Float16, dnn.NHWC, 32, 64, 56, 56)
//	p, err := h.ConvForward(dnn.Conv{X: x, W: w, Y: y, Pad: [2]int64{1, 1}})
//	defer p.Close()
//	err = p.Execute(dnn.Bind(1, xbuf), dnn.Bind(2, wbuf), dnn.Bind(3, ybuf))
//
// Every build and call checks first what cuDNN would refuse with a bare
// CUDNN_STATUS_BAD_PARAM, or get wrong silently: shapes that do not
// agree, a missing or duplicated unique id, a buffer smaller than its
// tensor or not 16-byte aligned. A refused call returns an [*Error]
// naming the problem; a failed cuDNN call one that unwraps to the cudnn
// package's status, with cuDNN's own text (cudnnGetLastErrorString).
package dnn

import (
	"errors"
	"strings"
	"sync"

	cuda "github.com/cugen/cugen/cuda"
	mathlib "github.com/cugen/cugen/cuda/internal"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/cuda/sys/cudnn"
)

// The kinds of a refused call, for errors.Is.
var (
	ErrBadTensor = errors.New("bad tensor")
	ErrBadShape  = errors.New("shapes do not agree")
	ErrBadArg    = errors.New("bad argument")
	ErrNoEngine  = errors.New("no engine of cuDNN's heuristics could run the graph")
	// ErrClosed is returned by a call through a nil *Handle, the use of
	// a closed plan and a second Close: one value for every math package
	// (errors.Is(ErrClosed, cuda.ErrFreed) is true).
	ErrClosed = mathlib.ErrClosed
	// ErrNilHandle is ErrClosed.
	//
	// Deprecated: use ErrClosed.
	ErrNilHandle = ErrClosed
)

// Error is a refused or failed call: Op names it, Err is its kind (one of
// the Err values, or cuDNN's status), Msg says what was wrong, and Detail
// is cuDNN's own text for a failed call ("cuDNN: ..."), if it gave one. It
// is one type for every math package.
type Error = mathlib.Error

// errs makes the package's errors.
const errs = mathlib.Pkg("dnn")

// withLast returns e with cuDNN's last error text last, if any, as its
// Detail.
func withLast(e error, last string) error {
	if last = strings.TrimSpace(last); last != "" {
		e.(*Error).Detail = "cuDNN: " + last
	}
	return e
}

// failed wraps the error of a cuDNN call with cuDNN's last error text.
func failed(op, call string, err error) error {
	if err == nil {
		return nil
	}
	return withLast(&Error{Pkg: string(errs), Op: op, Err: err, Msg: call + ": " + err.Error()}, lastError())
}

// Handle is a cuDNN handle (cudnnHandle_t) bound to a context and a
// stream: the plans it builds execute on that stream. Close it when done;
// an unreachable Handle is destroyed by a cleanup.
type Handle struct {
	ch  *cuda.Handle // bound to the handle's stream (ch.Stream())
	ctx *cuda.Context
	raw cudnn.Handle
	b   backend
	mu  sync.Mutex // orders SetStream and the calls on the handle
}

// New creates a cuDNN handle in ctx (cudnnCreate) bound to stream
// (cudnnSetStream), which must be of ctx.
func New(ctx *cuda.Context, stream *cuda.Stream) (*Handle, error) {
	if ctx == nil || stream == nil {
		return nil, errors.New("dnn: New: nil context or stream")
	}
	if err := cudnn.SharedLibrary().Load(); err != nil {
		return nil, err
	}
	ch, err := cuda.NewStreamHandle(ctx, stream, func() (uint64, error) {
		h, err := cudnn.Create()
		if err != nil {
			return 0, failed("New", "cudnnCreate", err)
		}
		return uint64(h), nil
	}, func(h uint64) error { return cudnn.Destroy(cudnn.Handle(h)) },
		func(h uint64, st cu.Stream) error {
			return failed("New", "cudnnSetStream", cudnn.SetStream(cudnn.Handle(h), cudart.Stream(st)))
		})
	if err != nil {
		return nil, err
	}
	return &Handle{ch: ch, ctx: ctx, raw: cudnn.Handle(ch.Raw()), b: lib{}}, nil
}

// Close destroys the handle (cudnnDestroy); a second Close returns
// cuda.ErrFreed. Close the handle's plans first.
func (h *Handle) Close() error {
	if h == nil {
		return ErrClosed
	}
	return mathlib.Closed(h.ch.Close())
}

// Raw returns cuDNN's handle, for the cudnn package.
func (h *Handle) Raw() cudnn.Handle { return h.raw }

// Operand returns the handle as an operand of cuda.Stream.Call.
func (h *Handle) Operand() cuda.Operand { return h.ch }

// Stream returns the stream the handle's plans execute on.
func (h *Handle) Stream() *cuda.Stream { return h.ch.Stream() }

// SetStream makes s, a stream of the handle's context, the one its plans
// execute on (cudnnSetStream), after the work queued on the old one (a
// plan's workspace serves one stream at a time). TestGPUSetStream.
func (h *Handle) SetStream(s *cuda.Stream) error {
	if h == nil {
		return ErrClosed
	}
	_, err := errs.SetStreamLocked(&h.mu, h.ch, s)
	return err
}

// call runs fn, a cuDNN call of the handle, on its stream, with the
// handle and ops in use (cuda.Handle.Call), in turn with SetStream.
func (h *Handle) call(fn func(cu.Stream) error, ops ...cuda.Operand) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ch.Call(fn, ops...)
}

// Version is the version of the cuDNN loaded (cudnnGetVersion):
// 91900 for 9.19.0.
func Version() int { return int(cudnn.GetVersion()) }
