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
	"fmt"
	"strings"

	cuda "github.com/cugen/cugen/cuda"
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
	ErrNilHandle = errors.New("dnn: nil *Handle")
	ErrClosed    = errors.New("dnn: plan closed")
)

// Error is a refused or failed call: Op names it, Err is its kind (one of
// the Err values, or cuDNN's status), Msg says what was wrong, and Last
// is cuDNN's own text for a failed call, if it gave one.
type Error struct {
	Op   string
	Err  error
	Msg  string
	Last string
}

func (e *Error) Error() string {
	s := "dnn: " + e.Op + ": " + e.Msg
	if e.Last != "" {
		s += " (cuDNN: " + strings.TrimSpace(e.Last) + ")"
	}
	return s
}

// Unwrap returns the kind of the error.
func (e *Error) Unwrap() error { return e.Err }

func errorf(op string, kind error, format string, args ...any) error {
	return &Error{Op: op, Err: kind, Msg: fmt.Sprintf(format, args...)}
}

// failed wraps the error of a cuDNN call with cuDNN's last error text.
func failed(op, call string, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Op: op, Err: err, Msg: call + ": " + err.Error(), Last: lastError()}
}

// Handle is a cuDNN handle (cudnnHandle_t) bound to a context and a
// stream: the plans it builds execute on that stream. Close it when done;
// an unreachable Handle is destroyed by a cleanup.
type Handle struct {
	ch     *cuda.Handle
	ctx    *cuda.Context
	stream *cuda.Stream
	raw    cudnn.Handle
	b      backend
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
	ch, err := cuda.NewHandle(ctx, func() (uint64, error) {
		h, err := cudnn.Create()
		if err != nil {
			return 0, failed("New", "cudnnCreate", err)
		}
		return uint64(h), nil
	}, func(h uint64) error { return cudnn.Destroy(cudnn.Handle(h)) })
	if err != nil {
		return nil, err
	}
	h := &Handle{ch: ch, ctx: ctx, stream: stream, raw: cudnn.Handle(ch.Raw()), b: lib{}}
	if err := stream.Call(func(st cu.Stream) error {
		return failed("New", "cudnnSetStream", cudnn.SetStream(h.raw, cudart.Stream(st)))
	}, ch); err != nil {
		ch.Close()
		return nil, err
	}
	return h, nil
}

// Close destroys the handle (cudnnDestroy); a second Close returns
// cuda.ErrFreed. Close the handle's plans first.
func (h *Handle) Close() error {
	if h == nil {
		return ErrNilHandle
	}
	return h.ch.Close()
}

// Raw returns cuDNN's handle, for the cudnn package.
func (h *Handle) Raw() cudnn.Handle { return h.raw }

// Operand returns the handle as an operand of cuda.Stream.Call.
func (h *Handle) Operand() cuda.Operand { return h.ch }

// Stream returns the stream the handle's plans execute on.
func (h *Handle) Stream() *cuda.Stream { return h.stream }

// Version is the version of the cuDNN loaded (cudnnGetVersion):
// 91900 for 9.19.0.
func Version() int { return int(cudnn.GetVersion()) }
