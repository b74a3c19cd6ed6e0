// Command cusolverCholesky factors a known symmetric positive definite
// matrix, A = B*B^T + n*I for a fixed B, with cuSOLVER's dense Cholesky
// (cusolverDnSpotrf, its workspace from cusolverDnSpotrf_bufferSize), solves
// A*x = b with the factor (cusolverDnSpotrs), times the two, and checks the
// residual ||A*x - b|| / ||b|| on the CPU. The C program in c/ makes the
// same calls in the same order and prints the same lines.
//
//	go run ./examples/cusolverCholesky [-n 1024] [-reps 10]
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cublas"
	"github.com/cugen/cugen/cuda/sys/cusolver"
	"github.com/cugen/cugen/examples/internal/sample"
	"github.com/cugen/cugen/ffi"
)

func main() {
	n := flag.Int("n", 1024, "matrix size (n x n)")
	reps := flag.Int("reps", 10, "timed factorizations and solves")
	flag.Parse()
	N := *n
	if N <= 0 || N > 16384 || *reps <= 0 {
		log.Fatalf("-n %d -reps %d: want 1 <= n <= 16384 and at least one repetition", N, *reps)
	}

	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	name, _ := ctx.Device().Name()
	fmt.Printf("device 0: %s\n", name)

	// A = B*B^T + n*I (symmetric, so column-major is row-major) and
	// b = A*xWant, in float64, then rounded to float32.
	B := make([]float64, N*N) // row i at B[i*N:], entries in [-1, 1)
	for i := 0; i < N; i++ {
		for k := 0; k < N; k++ {
			B[i*N+k] = float64((131*i+71*k+29*i*k)%101-50) / 50
		}
	}
	a := make([]float32, N*N)
	for i := 0; i < N; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for k := 0; k < N; k++ {
				s += B[i*N+k] * B[j*N+k]
			}
			if i == j {
				s += float64(N)
			}
			a[i+j*N], a[j+i*N] = float32(s), float32(s)
		}
	}
	b := make([]float32, N)
	for i := range b {
		var s float64
		for j := 0; j < N; j++ {
			s += float64(a[i+j*N]) * float64(j%5-2)
		}
		b[i] = float32(s)
	}
	a0, err := cuda.AllocFrom(ctx, a)
	sample.Check(err)
	defer a0.Close()
	b0, err := cuda.AllocFrom(ctx, b)
	sample.Check(err)
	defer b0.Close()
	dA, err := cuda.Alloc[float32](ctx, N*N) // overwritten by the factor
	sample.Check(err)
	defer dA.Close()
	dB, err := cuda.Alloc[float32](ctx, N) // overwritten by x
	sample.Check(err)
	defer dB.Close()
	info, err := cuda.Alloc[int32](ctx, 2) // Spotrf's and Spotrs's devInfo
	sample.Check(err)
	defer info.Close()

	// cuSOLVER calls run with the context current on a locked thread.
	sample.Check(ctx.Do(func() error {
		h, err := cusolver.Create()
		if err != nil {
			return err
		}
		defer cusolver.Destroy(h)
		f32 := func(buf *cuda.Buffer[float32]) ffi.DevicePtr[float32] { return ffi.DevicePtr[float32](buf.Ptr()) }
		i32 := func(buf *cuda.Buffer[int32]) ffi.DevicePtr[int32] { return ffi.DevicePtr[int32](buf.Ptr()) }
		var lwork int32
		if lwork, err = cusolver.SpotrfBufferSize(h, cublas.FillModeLower, int32(N), f32(dA), int32(N)); err != nil {
			return err
		}
		work, err := cuda.Alloc[float32](ctx, int(lwork))
		if err != nil {
			return err
		}
		defer work.Close()
		reset := func() error {
			if err := dA.CopyFromBuffer(a0); err != nil {
				return err
			}
			return dB.CopyFromBuffer(b0)
		}
		solve := func() error {
			if err := cusolver.Spotrf(h, cublas.FillModeLower, int32(N), f32(dA), int32(N), f32(work), lwork, i32(info.Slice(0, 1))); err != nil {
				return err
			}
			return cusolver.Spotrs(h, cublas.FillModeLower, int32(N), 1, f32(dA), int32(N), f32(dB), int32(N), i32(info.Slice(1, 2)))
		}
		ms, err := sample.TimedEach(*reps, reset, solve)
		if err != nil {
			return err
		}
		fmt.Printf("Cholesky %dx%d (workspace %d floats): Spotrf+Spotrs %8.3f ms\n", N, N, lwork, ms)
		return nil
	}))

	infos := make([]int32, 2)
	sample.Check(info.CopyTo(infos))
	if infos[0] != 0 || infos[1] != 0 {
		log.Fatalf("devInfo: Spotrf %d, Spotrs %d, want 0 (Spotrf > 0: the leading minor of that order is not positive definite)", infos[0], infos[1])
	}

	// The residual ||A*x - b|| / ||b|| on the CPU, in float64.
	x := make([]float32, N)
	sample.Check(dB.CopyTo(x))
	var rr, bb float64
	for i := 0; i < N; i++ {
		r := -float64(b[i])
		for j := 0; j < N; j++ {
			r += float64(a[i+j*N]) * float64(x[j])
		}
		rr += r * r
		bb += float64(b[i]) * float64(b[i])
	}
	res := math.Sqrt(rr / bb)
	fmt.Printf("x[0:3] = %.4f %.4f %.4f (want -2 -1 0), ||Ax-b||/||b|| = %.2e (tolerance 1e-04)\n", x[0], x[min(1, N-1)], x[min(2, N-1)], res)
	if !(res < 1e-4) {
		fmt.Println("residual out of tolerance: Result = FAIL")
		os.Exit(1)
	}
	fmt.Println("Result = PASS")
}
