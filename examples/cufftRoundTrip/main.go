// Command cufftRoundTrip runs a 2^24-point complex-to-complex FFT forward
// and back with cuFFT, times the pair, and checks the result: the input is
// two tones, so the spectrum has two known peaks, and the inverse of the
// spectrum, scaled by 1/N, must give the input back. The C program in c/
// makes the same calls in the same order and prints the same lines.
//
//	go run ./examples/cufftRoundTrip [-reps 10]
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/cmplx"
	"os"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cufft"
	"github.com/cugen/cugen/examples/internal/sample"
	"github.com/cugen/cugen/ffi"
)

const (
	N  = 1 << 24 // transform length
	f1 = 1000    // x[k] = exp(2πi f1 k/N) + 0.5 exp(-2πi f2 k/N):
	f2 = 12345   // X[f1] = N, X[N-f2] = N/2, every other bin 0.
)

func main() {
	reps := flag.Int("reps", 10, "timed forward+inverse pairs")
	flag.Parse()
	if *reps <= 0 {
		log.Fatalf("-reps %d: want at least one repetition", *reps)
	}

	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	name, _ := ctx.Device().Name()
	fmt.Printf("device 0: %s\n", name)

	x := make([]cufft.Complex, N)
	for k := range x {
		v := cmplx.Rect(1, 2*math.Pi*float64(f1*k%N)/N) + cmplx.Rect(0.5, -2*math.Pi*float64(f2*k%N)/N)
		x[k] = cufft.Complex{X: float32(real(v)), Y: float32(imag(v))}
	}
	in, err := cuda.AllocFrom(ctx, x)
	sample.Check(err)
	defer in.Close()
	freq, err := cuda.Alloc[cufft.Complex](ctx, N)
	sample.Check(err)
	defer freq.Close()
	out, err := cuda.Alloc[cufft.Complex](ctx, N)
	sample.Check(err)
	defer out.Close()

	// cuFFT calls run with the context current on a locked thread.
	sample.Check(ctx.Do(func() error {
		var plan cufft.Handle
		if plan, err = cufft.Plan1d(N, cufft.C2C, 1); err != nil {
			return err
		}
		defer cufft.Destroy(plan)
		ptr := func(b *cuda.Buffer[cufft.Complex]) ffi.DevicePtr[cufft.Complex] {
			return ffi.DevicePtr[cufft.Complex](b.Ptr())
		}
		ms, err := sample.Timed(*reps, func() error {
			if err := cufft.ExecC2C(plan, ptr(in), ptr(freq), cufft.Forward); err != nil {
				return err
			}
			return cufft.ExecC2C(plan, ptr(freq), ptr(out), cufft.Inverse)
		})
		if err != nil {
			return err
		}
		fmt.Printf("%d-point C2C FFT forward+inverse: %8.3f ms\n", N, ms)
		return nil
	}))

	// The two peaks of the spectrum, relative to N.
	X := make([]cufft.Complex, N)
	sample.Check(freq.CopyTo(X))
	// X[freq.Len()-f2], not X[N-f2]: Go 1.26's arm64 back end fails on the
	// constant 128 MB offset ("constant is not in pool").
	p1, p2 := X[f1], X[freq.Len()-f2]
	peak1 := cmplx.Abs(complex(float64(p1.X)-N, float64(p1.Y))) / N
	peak2 := cmplx.Abs(complex(float64(p2.X)-N/2, float64(p2.Y))) / N
	fmt.Printf("X[%d] = %.1f%+.1fi, X[N-%d] = %.1f%+.1fi\n", f1, p1.X, p1.Y, f2, p2.X, p2.Y)

	// The round trip: out/N against x, relative to max |x| = 1.5.
	y := make([]cufft.Complex, N)
	sample.Check(out.CopyTo(y))
	var maxErr float64
	for k := range y {
		d := complex(float64(y[k].X)/N-float64(x[k].X), float64(y[k].Y)/N-float64(x[k].Y))
		maxErr = max(maxErr, cmplx.Abs(d)/1.5)
	}
	fmt.Printf("peak errors %.2e %.2e, round trip max error %.2e (tolerance 1e-04)\n", peak1, peak2, maxErr)
	if peak1 >= 1e-4 || peak2 >= 1e-4 || maxErr >= 1e-4 {
		fmt.Println("error out of tolerance: Result = FAIL")
		os.Exit(1)
	}
	fmt.Println("Result = PASS")
}
