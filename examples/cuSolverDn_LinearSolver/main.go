// Command cuSolverDn_LinearSolver is NVIDIA's cuda-samples
// cuSolverDn_LinearSolver (Samples/4_CUDA_Libraries/cuSolverDn_LinearSolver)
// in Go, on package solver: it solves A·x = b, b all ones, for the
// sample's default matrix (gr_900_900_crg.mtx, the Harwell-Boeing
// LAPLACIANS group's 9-point finite difference Laplacian of a 30×30 grid:
// 8 on the diagonal, -1 for each of the up to 8 neighbours) by a dense
// Cholesky (-R=chol, the default), LU (-R=lu) or QR (-R=qr) factorization,
// prints each step, the time of the solve and the residual
// |b - A·x|/(|A|·|x|) in the infinity norm, and exits with status 1 when
// that is above 1e-10 or a factorization fails (the sample prints the
// residual without judging it).
//
// What differs from the C++ sample:
//   - The matrix is generated in Go, not read from the Matrix Market file
//     (step 1 says so), and there is no -file option; the CSR arrays are
//     one-based as the file's, so the lines printed after step 1 are the
//     sample's.
//   - The factorizations are solver.Potrf/Potrs, Getrf/Getrs and
//     Geqrf/Ormqr: cuSOLVER's 64-bit API (cusolverDnXpotrf, ...) where the
//     sample calls cusolverDnDpotrf and its kin, with the workspaces sized
//     and kept by the handle, so the QR path prints the handle's workspace
//     in bytes where the sample prints the two buffer sizes in doubles.
//     A failed factorization's typed error is printed after the sample's
//     message.
//   - The residual's GEMM is blas.Gemm (cublasDgemm) on the solver's
//     stream; the triangular solve of the QR path calls cublasDtrsm on the
//     generated cublas package through the blas handle's Stream().Call
//     (package blas has no TRSM yet).
//   - It uses device 0 and prints its line as findCudaDevice does.
//
// The C++ original builds with
//
//	nvcc -O2 -I Common -o cuSolverDn_LinearSolver Samples/4_CUDA_Libraries/cuSolverDn_LinearSolver/cuSolverDn_LinearSolver.cpp Samples/4_CUDA_Libraries/cuSolverDn_LinearSolver/mmio.c Samples/4_CUDA_Libraries/cuSolverDn_LinearSolver/mmio_wrapper.cpp -lcusolver -lcublas
//
// and runs beside its gr_900_900_crg.mtx (c/linearsolver.cu is our C
// reference of the same computation on the generated matrix). This one
// needs an NVIDIA GPU and CUDA 13's cuSOLVER and cuBLAS:
//
//	go run ./examples/cuSolverDn_LinearSolver [-R=chol|lu|qr] [-lda=N]
package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/blas"
	"github.com/cugen/cugen/cuda/solver"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cublas"
	"github.com/cugen/cugen/examples/internal/sample"
	"github.com/cugen/cugen/ffi"
)

// laplacian9 returns the one-based CSR arrays of gr_900_900_crg.mtx with
// its symmetric half extended, as the sample's loader leaves them: the
// 9-point Laplacian of a g×g grid, node i + g·j for the grid point (i, j),
// each row's columns ascending.
func laplacian9(g int) (rowPtr, colInd []int32, val []float64) {
	rowPtr = append(rowPtr, 1)
	for j := 0; j < g; j++ {
		for i := 0; i < g; i++ {
			for dj := -1; dj <= 1; dj++ {
				for di := -1; di <= 1; di++ {
					ni, nj := i+di, j+dj
					if ni < 0 || ni >= g || nj < 0 || nj >= g {
						continue
					}
					v := -1.0
					if di == 0 && dj == 0 {
						v = 8
					}
					colInd = append(colInd, int32(ni+g*nj+1))
					val = append(val, v)
				}
			}
			rowPtr = append(rowPtr, int32(len(val)+1))
		}
	}
	return
}

func main() {
	method := flag.String("R", "chol", "solver: chol (Cholesky), lu (LU) or qr (QR)")
	ldaFlag := flag.Int("lda", 0, "leading dimension of A (default: its rows)")
	flag.Parse()
	if *method != "chol" && *method != "lu" && *method != "qr" {
		fmt.Printf("\nIncorrect argument passed to -R option\n")
		flag.Usage()
		os.Exit(1)
	}

	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	major, minor, err := ctx.Device().ComputeCapability()
	sample.Check(err)
	fmt.Printf("GPU Device %d: %q with compute capability %d.%d\n\n", 0, sample.ArchName(int32(major), int32(minor)), major, minor)

	fmt.Printf("step 1: generate gr_900_900_crg.mtx's matrix (the 9-point Laplacian of a 30x30 grid)\n")
	rowPtr, colInd, val := laplacian9(30)
	rowsA, colsA, nnzA, baseA := len(rowPtr)-1, len(rowPtr)-1, len(val), int(rowPtr[0])
	fmt.Printf("sparse matrix A is %d x %d with %d nonzeros, base=%d\n", rowsA, colsA, nnzA, baseA)

	fmt.Printf("step 2: convert CSR(A) to dense matrix\n")
	lda := rowsA
	if *ldaFlag != 0 {
		lda = *ldaFlag
	}
	if lda < rowsA {
		fmt.Fprintf(os.Stderr, "Error: lda must be greater or equal to dimension of A\n")
		os.Exit(1)
	}
	hA := make([]float64, lda*colsA)
	for row := 0; row < rowsA; row++ {
		for k := int(rowPtr[row]) - baseA; k < int(rowPtr[row+1])-baseA; k++ {
			col := int(colInd[k]) - baseA
			hA[row+col*lda] = val[k]
		}
	}

	fmt.Printf("step 3: set right hand side vector (b) to 1\n")
	hB := make([]float64, rowsA)
	for i := range hB {
		hB[i] = 1
	}
	if *method == "chol" {
		for j := 0; j < colsA; j++ {
			for i := j; i < rowsA; i++ {
				if hA[i+j*lda] != hA[j+i*lda] {
					fmt.Printf("Error: A has no symmetric pattern, please use LU or QR \n")
					os.Exit(1)
				}
			}
		}
	}

	s, err := ctx.NewStream()
	sample.Check(err)
	defer s.Close()
	h, err := solver.NewHandle(ctx, s)
	sample.Check(err)
	defer h.Close()
	bl, err := blas.New(ctx, s)
	sample.Check(err)
	defer bl.Close()

	fmt.Printf("step 4: prepare data on device\n")
	dA, err := cuda.AllocFrom(ctx, hA)
	sample.Check(err)
	defer dA.Close()
	dB, err := cuda.AllocFrom(ctx, hB)
	sample.Check(err)
	defer dB.Close()
	dX, err := cuda.Alloc[float64](ctx, colsA)
	sample.Check(err)
	defer dX.Close()
	dR, err := cuda.Alloc[float64](ctx, rowsA)
	sample.Check(err)
	defer dR.Close()

	fmt.Printf("step 5: solve A*x = b \n")
	// dA and dB are read-only: each solver factors a copy of A.
	A := solver.Matrix[float64]{Buf: dA, Rows: rowsA, Cols: colsA, LD: lda}
	X := solver.NewMatrix(dX, colsA, 1)
	switch *method {
	case "chol":
		linearSolverCHOL(ctx, h, A, dB, X)
	case "lu":
		linearSolverLU(ctx, h, A, dB, X)
	case "qr":
		linearSolverQR(ctx, h, bl, A, dB, X)
	}

	fmt.Printf("step 6: evaluate residual\n")
	sample.Check(dR.CopyFromBuffer(dB))
	// r = b - A*x
	bA := blas.Matrix[float64]{Buf: dA, Rows: rowsA, Cols: colsA, Stride: lda, Layout: blas.ColMajor}
	sample.Check(blas.Gemm(bl, blas.NoTrans, blas.NoTrans, -1, bA, blas.DenseCol(dX, colsA, 1), 1, blas.DenseCol(dR, rowsA, 1)))
	sample.Check(s.Synchronize())
	hX, hR := make([]float64, colsA), make([]float64, rowsA)
	sample.Check(dX.CopyTo(hX))
	sample.Check(dR.CopyTo(hR))
	xInf, rInf := normInf(hX), normInf(hR)
	var aInf float64 // the largest row sum of |A|
	for i := 0; i < rowsA; i++ {
		var sum float64
		for j := 0; j < colsA; j++ {
			sum += math.Abs(hA[i+j*lda])
		}
		aInf = max(aInf, sum)
	}
	rel := rInf / (aInf * xInf)
	fmt.Printf("|b - A*x| = %E \n", rInf)
	fmt.Printf("|A| = %E \n", aInf)
	fmt.Printf("|x| = %E \n", xInf)
	fmt.Printf("|b - A*x|/(|A|*|x|) = %E \n", rel)
	if !(rel <= 1e-10) {
		fmt.Printf("residual above 1e-10: FAIL\n")
		os.Exit(1)
	}
}

func normInf(v []float64) float64 {
	var m float64
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	return m
}

// copyOf returns a new buffer holding A's elements: the factorizations
// overwrite their matrix.
func copyOf(ctx *cuda.Context, A solver.Matrix[float64]) solver.Matrix[float64] {
	b, err := cuda.Alloc[float64](ctx, A.Buf.Len())
	sample.Check(err)
	sample.Check(b.CopyFromBuffer(A.Buf))
	A.Buf = b
	return A
}

// failed prints the sample's message and the typed error, and exits.
func failed(what string, err error) {
	var shape *solver.ShapeError
	if err != nil && !errors.As(err, &shape) {
		fmt.Fprintf(os.Stderr, "Error: %s factorization failed\n", what)
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func linearSolverCHOL(ctx *cuda.Context, h *solver.Handle, A0 solver.Matrix[float64], b *cuda.Buffer[float64], X solver.Matrix[float64]) {
	A := copyOf(ctx, A0)
	defer A.Buf.Close()
	start := time.Now()
	if err := solver.Potrf(h, solver.Lower, A); err != nil {
		failed("Cholesky", err)
	}
	sample.Check(X.Buf.CopyFromBuffer(b))
	sample.Check(solver.Potrs(h, solver.Lower, A, X))
	sample.Check(h.Stream().Synchronize())
	fmt.Printf("timing: cholesky = %10.6f sec\n", time.Since(start).Seconds())
}

func linearSolverLU(ctx *cuda.Context, h *solver.Handle, A0 solver.Matrix[float64], b *cuda.Buffer[float64], X solver.Matrix[float64]) {
	A := copyOf(ctx, A0)
	defer A.Buf.Close()
	ipiv, err := cuda.Alloc[int64](ctx, A.Rows)
	sample.Check(err)
	defer ipiv.Close()
	start := time.Now()
	if err := solver.Getrf(h, A, ipiv); err != nil {
		failed("LU", err)
	}
	sample.Check(X.Buf.CopyFromBuffer(b))
	sample.Check(solver.Getrs(h, solver.NoTrans, A, ipiv, X))
	sample.Check(h.Stream().Synchronize())
	fmt.Printf("timing: LU = %10.6f sec\n", time.Since(start).Seconds())
}

func linearSolverQR(ctx *cuda.Context, h *solver.Handle, bl *blas.Handle, A0 solver.Matrix[float64], b *cuda.Buffer[float64], X solver.Matrix[float64]) {
	A := copyOf(ctx, A0)
	defer A.Buf.Close()
	n := A.Rows
	tau, err := cuda.Alloc[float64](ctx, n)
	sample.Check(err)
	defer tau.Close()
	start := time.Now()
	if err := solver.Geqrf(h, A, tau); err != nil {
		failed("QR", err)
	}
	sample.Check(X.Buf.CopyFromBuffer(b))
	// x = Qᵀ·b, then x = R \ x.
	sample.Check(solver.Ormqr(h, solver.Left, solver.Trans, A, tau, X))
	one := 1.0
	sample.Check(bl.Stream().Call(func(cu.Stream) error {
		return cublas.Dtrsm(bl.Raw(), cublas.SideLeft, cublas.FillModeUpper, cublas.OpN, cublas.DiagNonUnit, int32(n), 1, ffi.Host(&one),
			ffi.DevicePtr[float64](A.Buf.Ptr()), int32(A.LD), ffi.DevicePtr[float64](X.Buf.Ptr()), int32(n))
	}, bl.Operand(), A.Buf, X.Buf))
	sample.Check(h.Stream().Synchronize())
	elapsed := time.Since(start).Seconds()
	fmt.Printf("workspace = %d bytes \n", h.Workspace())
	fmt.Printf("timing: QR = %10.6f sec\n", elapsed)
}
