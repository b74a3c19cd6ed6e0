// The Example prints what the GPU computes: TestMain leaves it out where
// no GPU or library is (cugentest.RunExamplesOnGPU; see package cuda's).

package fft_test

import (
	"fmt"
	"math"
	"math/cmplx"
	"os"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/fft"
	"github.com/cugen/cugen/cuda/sys/cufft"
	"github.com/cugen/cugen/cugentest"
)

func TestMain(m *testing.M) {
	os.Exit(cugentest.RunExamplesOnGPU(m, cuda.DeviceCount, cufft.SharedLibrary()))
}

func ExamplePlan_C2C() {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	s, err := ctx.NewStream()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	p, err := fft.New1D(ctx, s, 4, fft.C2C, 1) // one transform of 4 points
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	in, _ := cuda.AllocFrom(ctx, []complex64{1, 1i, -1, -1i}) // e^{2πi k/4}
	out, err := cuda.Alloc[complex64](ctx, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer in.Close()
	defer out.Close()
	if err := p.C2C(in, out, fft.Forward); err != nil {
		fmt.Println(err)
		return
	}
	got := make([]complex64, 4)
	if err := out.CopyToAsync(s, got); err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	// All the energy in frequency 1 (cuFFT does not normalise): the
	// magnitudes, rounded.
	mags := make([]float64, len(got))
	for k, v := range got {
		mags[k] = math.Round(cmplx.Abs(complex128(v)))
	}
	fmt.Println(mags)
	// Output: [0 4 0 0]
}
