package dnn

import (
	"fmt"

	"github.com/cugen/cugen/cuda/sys/cudnn"
)

// DataType is the element type of a tensor.
type DataType int

const (
	Float32  DataType = iota // float, CUDNN_DATA_FLOAT
	Float16                  // __half, CUDNN_DATA_HALF: cuda.Float16
	BFloat16                 // __nv_bfloat16, CUDNN_DATA_BFLOAT16: cuda.BFloat16
)

// Size is the size of one element in bytes.
func (t DataType) Size() int64 {
	if t == Float32 {
		return 4
	}
	return 2
}

func (t DataType) String() string {
	switch t {
	case Float32:
		return "float32"
	case Float16:
		return "float16"
	case BFloat16:
		return "bfloat16"
	}
	return fmt.Sprintf("DataType(%d)", int(t))
}

func (t DataType) cudnn() (cudnn.DataType, bool) {
	switch t {
	case Float32:
		return cudnn.DataFloat, true
	case Float16:
		return cudnn.DataHalf, true
	case BFloat16:
		return cudnn.DataBfloat16, true
	}
	return 0, false
}

// Tensor describes a tensor of a graph (a CUDNN_BACKEND_TENSOR_DESCRIPTOR):
// its dimensions and strides in elements, outermost first as cuDNN takes
// them (N, C, H, W for an image batch, whatever the memory order), its
// element type and its unique id, which Execute binds a buffer to. A
// virtual tensor is an intermediate of the graph, never in memory.
type Tensor struct {
	UID     int64
	Type    DataType
	Dims    []int64
	Strides []int64
	Virtual bool
}

// Layout is the memory order of a 4-D image tensor.
type Layout int

const (
	NCHW Layout = iota // W varies fastest, then H, C, N
	NHWC               // C varies fastest, then W, H, N ("channels last")
)

func (l Layout) String() string {
	if l == NHWC {
		return "NHWC"
	}
	return "NCHW"
}

// Image returns the 4-D tensor of n images of c channels, h × w, packed in
// layout l: its Dims are always (n, c, h, w), its strides l's.
func Image(uid int64, t DataType, l Layout, n, c, h, w int64) Tensor {
	s := []int64{c * h * w, h * w, w, 1}
	if l == NHWC {
		s = []int64{h * w * c, 1, w * c, c}
	}
	return Tensor{UID: uid, Type: t, Dims: []int64{n, c, h, w}, Strides: s}
}

// Matrix returns the 3-D tensor of batch row-major rows × cols matrices,
// packed: what a matmul of cuDNN's graph takes.
func Matrix(uid int64, t DataType, batch, rows, cols int64) Tensor {
	return Tensor{UID: uid, Type: t, Dims: []int64{batch, rows, cols}, Strides: []int64{rows * cols, cols, 1}}
}

// Elements is the number of elements the tensor holds.
func (t Tensor) Elements() int64 {
	n := int64(1)
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

// Footprint is the number of elements a buffer needs to hold the tensor:
// one past its last element's offset.
func (t Tensor) Footprint() int64 {
	end := int64(1)
	for i, d := range t.Dims {
		end += (d - 1) * t.Strides[i]
	}
	return end
}

// check reports what cuDNN would refuse, or get wrong silently, in t.
func (t Tensor) check(op, name string) error {
	if _, ok := t.Type.cudnn(); !ok {
		return errs.Errorf(op, ErrBadTensor, "%s: unknown data type %v", name, t.Type)
	}
	if len(t.Dims) < 3 || len(t.Dims) > 8 {
		return errs.Errorf(op, ErrBadTensor, "%s: %d dimensions, cuDNN's graphs take 3 to 8", name, len(t.Dims))
	}
	if len(t.Strides) != len(t.Dims) {
		return errs.Errorf(op, ErrBadTensor, "%s: %d dimensions but %d strides", name, len(t.Dims), len(t.Strides))
	}
	if t.UID <= 0 {
		return errs.Errorf(op, ErrBadTensor, "%s: unique id %d, want one above 0", name, t.UID)
	}
	for i, d := range t.Dims {
		if d <= 0 || t.Strides[i] <= 0 {
			return errs.Errorf(op, ErrBadTensor, "%s: dimension %d is %d with stride %d, both must be positive", name, i, d, t.Strides[i])
		}
		if d > 1<<31-1 || t.Strides[i] > 1<<40 {
			return errs.Errorf(op, ErrBadTensor, "%s: dimension %d (%d, stride %d) is out of range", name, i, d, t.Strides[i])
		}
	}
	return nil
}

func sameDims(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
