package mathlib

import (
	"errors"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cudart"
)

// TestErrors: one Error type for every package, unwrapping to its kind;
// ErrClosed matches cuda.ErrFreed, and Closed maps ErrFreed to it.
func TestErrors(t *testing.T) {
	const p = Pkg("sparse")
	err := p.Shape("SpMV", "x has %d elements, want %d", 3, 4)
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrShape) || err.Error() != "sparse: SpMV: x has 3 elements, want 4" {
		t.Fatalf("Shape: %v", err)
	}
	kind := errors.New("kind")
	err = Pkg("dnn").Errorf("Build", kind, "bad %s", "tensor")
	if !errors.Is(err, kind) || err.Error() != "dnn: Build: bad tensor" {
		t.Fatalf("Errorf: %v", err)
	}
	e = &Error{Pkg: "dnn", Op: "Build", Msg: "failed", Detail: "cuDNN: no engine"}
	if e.Error() != "dnn: Build: failed (cuDNN: no engine)" {
		t.Fatalf("Detail: %v", e)
	}
	if !errors.Is(ErrClosed, cuda.ErrFreed) {
		t.Fatal("ErrClosed does not match cuda.ErrFreed")
	}
	if Closed(cuda.ErrFreed) != ErrClosed || Closed(kind) != kind || Closed(nil) != nil {
		t.Fatal("Closed maps the wrong errors")
	}
	if _, err := p.SetStream(nil, nil); !errors.Is(err, ErrShape) {
		t.Fatalf("SetStream(nil stream): %v", err)
	}
}

func TestDataType(t *testing.T) {
	for _, tc := range []struct {
		got  func() (cudart.DataType, bool)
		want cudart.DataType
		ok   bool
	}{
		{DataType[float32], cudart.R32F, true}, {DataType[float64], cudart.R64F, true},
		{DataType[complex64], cudart.C32F, true}, {DataType[complex128], cudart.C64F, true},
		{DataType[int32], 0, false}, {DataType[uint16], 0, false},
	} {
		if got, ok := tc.got(); got != tc.want || ok != tc.ok {
			t.Errorf("DataType = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
		}
	}
	if TypeOf[complex128]() != cudart.C64F {
		t.Error("TypeOf[complex128]")
	}
}
