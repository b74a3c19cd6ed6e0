// Command conjugateGradient is NVIDIA's cuda-samples conjugateGradient
// (Samples/4_CUDA_Libraries/conjugateGradient) in Go, on the layer's
// buffers: the sparse matrix-vector products through package sparse
// (cuSPARSE's SpMV), the vector operations through package blas
// (cuBLAS's Saxpy, Sdot, Sscal, Scopy). It solves
// A·x = 1 for the sample's random symmetric tridiagonal matrix of
// 1048576 rows (glibc's rand(), so the same matrix as the C++ sample's)
// by conjugate gradients, prints the residual of each iteration, then the
// largest |A·x - b| over the rows computed on the CPU, as the sample does.
// It exits with status 1 when the iteration does not converge within
// 10000 iterations, as the sample does, and also when that error is above
// 1e-4 (the sample prints it without judging it).
//
// What differs from the C++ sample:
//   - The matrix lives in a sparse.CSR that owns its buffers, built from Go
//     slices (checked on the host), and x, p, Ax are sparse.Vec over
//     cuda.Buffers; sparse.SpMV asks cuSPARSE for the workspace and keeps it.
//   - cuSPARSE and cuBLAS share one stream the program creates (the sample
//     uses the legacy default stream); blas.Dot waits for its result, as
//     cublasSdot in host pointer mode does.
//   - It uses device 0 and prints its line as findCudaDevice does.
//
// The C++ original builds with
//
//	nvcc -O2 -I Common -o conjugateGradient Samples/4_CUDA_Libraries/conjugateGradient/main.cpp -lcublas -lcusparse
//
// (Common is cuda-samples' Common directory, for helper_cuda.h; c/cg.cu is
// our C reference of the same computation). This one needs an NVIDIA GPU
// and CUDA 13's cuSPARSE and cuBLAS:
//
//	go run ./examples/conjugateGradient
package main

import (
	"fmt"
	"math"
	"os"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/blas"
	"github.com/cugen/cugen/cuda/sparse"
	"github.com/cugen/cugen/examples/internal/sample"
)

// genTridiag fills the CSR arrays of a random symmetric tridiagonal N×N
// matrix with nz elements, drawing from rnd in the sample's order.
func genTridiag(rowPtr, colInd []int32, val []float32, n, nz int, rnd *sample.CRand) {
	rowPtr[0], colInd[0], colInd[1] = 0, 0, 1
	val[0] = rnd.Float32() + 10
	val[1] = rnd.Float32()
	for i := 1; i < n; i++ {
		if i > 1 {
			rowPtr[i] = rowPtr[i-1] + 3
		} else {
			rowPtr[1] = 2
		}
		start := (i-1)*3 + 2
		colInd[start] = int32(i - 1)
		colInd[start+1] = int32(i)
		if i < n-1 {
			colInd[start+2] = int32(i + 1)
		}
		val[start] = val[start-1]
		val[start+1] = rnd.Float32() + 10
		if i < n-1 {
			val[start+2] = rnd.Float32()
		}
	}
	rowPtr[n] = int32(nz)
}

func main() {
	const (
		tol     = float32(1e-5)
		maxIter = 10000
	)
	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	props, err := ctx.Device().Properties()
	sample.Check(err)
	major, minor := props.ComputeCapabilityMajor, props.ComputeCapabilityMinor
	fmt.Printf("GPU Device %d: %q with compute capability %d.%d\n\n", 0, sample.ArchName(int32(major), int32(minor)), major, minor)
	fmt.Printf("> GPU device has %d Multi-Processors, SM %d.%d compute capabilities\n\n", props.MultiprocessorCount, major, minor)

	// A random tridiagonal symmetric matrix in CSR format.
	n := 1048576
	nz := (n-2)*3 + 4
	I, J, val := make([]int32, n+1), make([]int32, nz), make([]float32, nz)
	genTridiag(I, J, val, n, nz, sample.NewCRand(1))
	x, rhs := make([]float32, n), make([]float32, n)
	for i := range rhs {
		rhs[i] = 1
	}

	s, err := ctx.NewStream()
	sample.Check(err)
	defer s.Close()
	sp, err := sparse.NewHandle(ctx, s)
	sample.Check(err)
	defer sp.Close()
	A, err := sparse.NewCSR(ctx, n, n, I, J, val)
	sample.Check(err)
	defer A.Close()
	vec := func(init []float32) (*cuda.Buffer[float32], *sparse.Vec[float32]) {
		b, err := cuda.Alloc[float32](ctx, n)
		sample.Check(err)
		if init != nil {
			sample.Check(b.CopyFrom(init))
		}
		v, err := sparse.NewVec(b)
		sample.Check(err)
		return b, v
	}
	dx, vx := vec(x)
	dr, _ := vec(rhs)
	dp, vp := vec(nil)
	dAx, vAx := vec(nil)
	for _, b := range []*cuda.Buffer[float32]{dx, dr, dp, dAx} {
		defer b.Close()
	}

	// cuBLAS on the same stream.
	bl, err := blas.New(ctx, s)
	sample.Check(err)
	defer bl.Close()
	xv, r, p, Ax := blas.Vec(dx), blas.Vec(dr), blas.Vec(dp), blas.Vec(dAx)

	alpha, alpham1, beta := float32(1), float32(-1), float32(0)
	var r0, r1, dot float32
	sample.Check(sparse.SpMV(sp, sparse.NoTrans, alpha, A, vx, beta, vAx))
	sample.Check(blas.Axpy(bl, alpham1, Ax, r))
	r1, err = blas.Dot(bl, r, r)
	sample.Check(err)

	k := 1
	for r1 > tol*tol && k <= maxIter {
		if k > 1 {
			b := r1 / r0
			sample.Check(blas.Scal(bl, b, p))
			sample.Check(blas.Axpy(bl, alpha, r, p))
		} else {
			sample.Check(blas.Copy(bl, r, p))
		}
		sample.Check(sparse.SpMV(sp, sparse.NoTrans, alpha, A, vp, beta, vAx))
		dot, err = blas.Dot(bl, p, Ax)
		sample.Check(err)
		a := r1 / dot
		sample.Check(blas.Axpy(bl, a, p, xv))
		na := -a
		sample.Check(blas.Axpy(bl, na, Ax, r))
		r0 = r1
		r1, err = blas.Dot(bl, r, r)
		sample.Check(err)
		sample.Check(s.Synchronize())
		fmt.Printf("iteration = %3d, residual = %e\n", k, math.Sqrt(float64(r1)))
		k++
	}

	sample.Check(dx.CopyTo(x))
	var maxErr float32
	for i := 0; i < n; i++ {
		var rsum float32
		for j := I[i]; j < I[i+1]; j++ {
			rsum += float32(val[j] * x[J[j]]) // rounded as C does, never fused
		}
		maxErr = max(maxErr, float32(math.Abs(float64(rsum-rhs[i]))))
	}
	for _, v := range []*sparse.Vec[float32]{vx, vp, vAx} {
		sample.Check(v.Close())
	}
	fmt.Printf("Test Summary:  Error amount = %f\n", maxErr)
	if k > maxIter || !(maxErr <= 1e-4) {
		os.Exit(1)
	}
}
