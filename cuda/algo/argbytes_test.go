package algo

import (
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cugentest/standin"
)

// TestArgPartialsOfBytes: ArgMin over more than one tile of uint8 gives
// its partials kernel the pairs the tiles kernel wrote, not the input.
// For uint8, which is byte, the single and the partials kernels have the
// same Go type, so choosing the kernel's arguments by the func's type gave
// argMinPartials the samples (on the GPU: indices made of sample bytes).
// On the stand-in driver, with launch funcs that record their buffers.
func TestArgPartialsOfBytes(t *testing.T) {
	if !standin.Run(t, standin.Majors{}) {
		return
	}
	ctx, s, a := standinLib(t)
	type B = *cuda.Buffer[uint8]
	var wrote, read *cuda.Buffer[byte]
	var single bool
	a.fns["argMinTiles/uint8"] = func(_ cuda.Config, _ B, p *cuda.Buffer[byte], _ int32) error {
		wrote = p
		return nil
	}
	a.fns["argMinPartials/uint8"] = func(_ cuda.Config, p B, _ *cuda.Buffer[int32], _ B, _ int32, _ uint8) error {
		read = p
		return nil
	}
	a.fns["argMinSingle/uint8"] = func(cuda.Config, B, *cuda.Buffer[int32], B, int32, uint8) error {
		single = true
		return nil
	}
	in := standin.Must(cuda.Alloc[uint8](ctx, 1<<20))(t)
	defer in.Close()
	index := standin.Must(cuda.Alloc[int32](ctx, 1))(t)
	defer index.Close()
	value := standin.Must(cuda.Alloc[uint8](ctx, 1))(t)
	defer value.Close()
	if err := ArgMin(a, s, in, index, value); err != nil {
		t.Fatal(err)
	}
	if single {
		t.Fatal("ArgMin of 2^20 samples ran argMinSingle: want tiles, then partials")
	}
	if wrote == nil || read != wrote {
		t.Errorf("argMinPartials read %p, argMinTiles wrote %p (the input is %p): want the tiles' pairs", read, wrote, in)
	}
}
