// Command cublasGemm measures cuBLAS from Go the way the C program beside
// it in docs/gpu.md does: an FP32 SGEMM and a BF16 GemmEx (FP32 compute)
// at 8192 cubed, and 100,000 64x64 SGEMMs issued one by one, where the
// cost of each call shows. It uses the Go layer (package cuda) for the
// context and buffers and package cublas for the calls.
//
//	go run ./examples/cublasGemm [-n 8192] [-small 100000]
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cublas"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/examples/internal/sample"
	"github.com/cugen/cugen/ffi"
)

func main() {
	n := flag.Int("n", 8192, "size of the large GEMMs (n x n x n)")
	small := flag.Int("small", 100000, "number of 64x64 SGEMMs issued one by one")
	reps := flag.Int("reps", 10, "timed repetitions of each large GEMM")
	flag.Parse()

	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	name, _ := ctx.Device().Name()
	fmt.Printf("device 0: %s\n", name)

	// Host data: small integers, exact in FP32 and BF16 sums of this size.
	N := *n
	host := make([]float32, N*N)
	for i := range host {
		host[i] = float32(i%7) - 3
	}
	a, err := cuda.AllocFrom(ctx, host)
	sample.Check(err)
	defer a.Close()
	b, err := cuda.AllocFrom(ctx, host)
	sample.Check(err)
	defer b.Close()
	c, err := cuda.Alloc[float32](ctx, N*N)
	sample.Check(err)
	defer c.Close()
	bf := make([]uint16, N*N) // BF16: the high half of the FP32 bits
	for i, v := range host {
		bf[i] = uint16(math.Float32bits(v) >> 16)
	}
	a16, err := cuda.AllocFrom(ctx, bf)
	sample.Check(err)
	defer a16.Close()
	c16, err := cuda.Alloc[uint16](ctx, N*N)
	sample.Check(err)
	defer c16.Close()

	// cuBLAS calls run with the context current on a locked thread.
	sample.Check(ctx.Do(func() error {
		h, err := cublas.Create()
		if err != nil {
			return err
		}
		defer cublas.Destroy(h)
		f32 := func(buf *cuda.Buffer[float32]) ffi.DevicePtr[float32] { return ffi.DevicePtr[float32](buf.Ptr()) }
		alpha, beta := float32(1), float32(0)
		sgemm := func() error {
			return cublas.Sgemm(h, cublas.OpN, cublas.OpN, int32(N), int32(N), int32(N), ffi.Host(&alpha), f32(a), int32(N), f32(b), int32(N), ffi.Host(&beta), f32(c), int32(N))
		}
		gemmEx := func() error {
			return cublas.GemmEx(h, cublas.OpN, cublas.OpN, int32(N), int32(N), int32(N), ffi.Host(&alpha).Untyped(),
				ffi.DeviceAddr(a16.Ptr()), cudart.R16Bf, int32(N), ffi.DeviceAddr(a16.Ptr()), cudart.R16Bf, int32(N),
				ffi.Host(&beta).Untyped(), ffi.DeviceAddr(c16.Ptr()), cudart.R16Bf, int32(N), cublas.Compute32F, cublas.GemmDefault)
		}
		flops := 2 * float64(N) * float64(N) * float64(N)
		for _, g := range []struct {
			name string
			run  func() error
		}{{"SGEMM fp32", sgemm}, {"GemmEx bf16 (fp32 compute)", gemmEx}} {
			ms, err := sample.Timed(*reps, g.run)
			if err != nil {
				return err
			}
			fmt.Printf("%-28s %dx%dx%d: %8.3f ms/GEMM, %7.2f TFLOP/s\n", g.name, N, N, N, ms, flops/ms/1e9)
		}
		// Check one element of each: row 0 of A times column 0 of B.
		var want float64
		for k := 0; k < N; k++ {
			want += float64(host[k*N]) * float64(host[k])
		}
		got := make([]float32, 1)
		if err := c.Slice(0, 1).CopyTo(got); err != nil {
			return err
		}
		if float64(got[0]) != want {
			return fmt.Errorf("SGEMM C[0,0] = %v, want %v", got[0], want)
		}

		// Many small GEMMs, one call each: 64x64x64 on the first 64 columns.
		const s = 64
		ms, err := sample.Timed(1, func() error {
			for i := 0; i < *small; i++ {
				if err := cublas.Sgemm(h, cublas.OpN, cublas.OpN, s, s, s, ffi.Host(&alpha), f32(a), int32(N), f32(b), int32(N), ffi.Host(&beta), f32(c), int32(N)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		fmt.Printf("%d SGEMMs of %dx%dx%d one by one: %8.1f ms, %9.0f GEMMs/s\n", *small, s, s, s, ms, float64(*small)/ms*1e3)
		fmt.Printf("C[0,0] = %v (want %v): Result = PASS\n", got[0], want)
		return nil
	}))
}
