// Command cusparseSpMV multiplies a known sparse matrix, the 1D Laplacian
// (2 on the diagonal, -1 beside it) of size 2^20 in CSR, by a vector with
// cuSPARSE's generic API (cusparseCreateCsr, cusparseCreateDnVec,
// cusparseSpMV_bufferSize, cusparseSpMV), times the product, and checks
// it against the same product on the CPU. The C program in c/ makes the
// same calls in the same order and prints the same lines.
//
//	go run ./examples/cusparseSpMV [-n 1048576] [-reps 100]
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/cuda/sys/cusparse"
	"github.com/cugen/cugen/examples/internal/sample"
	"github.com/cugen/cugen/ffi"
)

func main() {
	n := flag.Int("n", 1<<20, "matrix size (n x n)")
	reps := flag.Int("reps", 100, "timed products")
	flag.Parse()
	N := *n
	if N < 3 || N > math.MaxInt32/3 || *reps <= 0 {
		log.Fatalf("-n %d -reps %d: want 3 <= n <= %d and at least one repetition", N, *reps, math.MaxInt32/3)
	}

	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	name, _ := ctx.Device().Name()
	fmt.Printf("device 0: %s\n", name)

	// The matrix in CSR (zero-based, 32-bit indices) and x: small integers,
	// so every product is exact in FP32.
	rowPtr := make([]int32, 0, N+1)
	colInd := make([]int32, 0, 3*N)
	vals := make([]float32, 0, 3*N)
	x := make([]float32, N)
	for i := 0; i < N; i++ {
		rowPtr = append(rowPtr, int32(len(vals)))
		for j := max(i-1, 0); j <= min(i+1, N-1); j++ {
			v := float32(-1)
			if j == i {
				v = 2
			}
			colInd = append(colInd, int32(j))
			vals = append(vals, v)
		}
		x[i] = float32(7*i%11 - 5)
	}
	nnz := len(vals)
	rowPtr = append(rowPtr, int32(nnz))
	dRowPtr, err := cuda.AllocFrom(ctx, rowPtr)
	sample.Check(err)
	defer dRowPtr.Close()
	dColInd, err := cuda.AllocFrom(ctx, colInd)
	sample.Check(err)
	defer dColInd.Close()
	dVals, err := cuda.AllocFrom(ctx, vals)
	sample.Check(err)
	defer dVals.Close()
	dx, err := cuda.AllocFrom(ctx, x)
	sample.Check(err)
	defer dx.Close()
	dy, err := cuda.Alloc[float32](ctx, N)
	sample.Check(err)
	defer dy.Close()

	// cuSPARSE calls run with the context current on a locked thread.
	sample.Check(ctx.Do(func() error {
		h, err := cusparse.Create()
		if err != nil {
			return err
		}
		defer cusparse.Destroy(h)
		var A cusparse.SpMatDescr
		if A, err = cusparse.CreateCsr(int64(N), int64(N), int64(nnz), ffi.DeviceAddr(dRowPtr.Ptr()), ffi.DeviceAddr(dColInd.Ptr()), ffi.DeviceAddr(dVals.Ptr()),
			cusparse.Index32I, cusparse.Index32I, cusparse.IndexBaseZero, cudart.R32F); err != nil {
			return err
		}
		defer cusparse.DestroySpMat(A)
		var X, Y cusparse.DnVecDescr
		if X, err = cusparse.CreateDnVec(int64(N), ffi.DeviceAddr(dx.Ptr()), cudart.R32F); err != nil {
			return err
		}
		defer cusparse.DestroyDnVec(X)
		if Y, err = cusparse.CreateDnVec(int64(N), ffi.DeviceAddr(dy.Ptr()), cudart.R32F); err != nil {
			return err
		}
		defer cusparse.DestroyDnVec(Y)

		// y = alpha*A*x + beta*y, alpha and beta in host memory (the default).
		alpha, beta := float32(1), float32(0)
		var size uint64
		if size, err = cusparse.SpMVBufferSize(h, cusparse.OperationNonTranspose, ffi.Host(&alpha).Untyped(), A, X,
			ffi.Host(&beta).Untyped(), Y, cudart.R32F, cusparse.SpmvAlgDefault); err != nil {
			return err
		}
		work, err := cuda.Alloc[byte](ctx, int(size))
		if err != nil {
			return err
		}
		defer work.Close()
		ms, err := sample.Timed(*reps, func() error {
			return cusparse.SpMV(h, cusparse.OperationNonTranspose, ffi.Host(&alpha).Untyped(), A, X,
				ffi.Host(&beta).Untyped(), Y, cudart.R32F, cusparse.SpmvAlgDefault, ffi.DeviceAddr(work.Ptr()))
		})
		if err != nil {
			return err
		}
		fmt.Printf("SpMV 1D Laplacian %dx%d, %d nonzeros (%d bytes of work buffer): %8.4f ms\n", N, N, nnz, size, ms)
		return nil
	}))

	// The same product on the CPU, in float64.
	y := make([]float32, N)
	sample.Check(dy.CopyTo(y))
	var maxErr, maxRef float64
	for i := 0; i < N; i++ {
		var ref float64
		for k := rowPtr[i]; k < rowPtr[i+1]; k++ {
			ref += float64(vals[k]) * float64(x[colInd[k]])
		}
		maxErr = max(maxErr, math.Abs(float64(y[i])-ref))
		maxRef = max(maxRef, math.Abs(ref))
	}
	fmt.Printf("y[0:3] = %.1f %.1f %.1f, max |y - CPU| = %.2e (max |y| %.1f, tolerance 1e-06 relative)\n", y[0], y[1], y[2], maxErr, maxRef)
	if maxErr > 1e-6*maxRef {
		fmt.Println("product differs from the CPU's: Result = FAIL")
		os.Exit(1)
	}
	fmt.Println("Result = PASS")
}
