package main

import (
	"math"
	"math/cmplx"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/nvrtc"
	"github.com/cugen/cugen/cugentest"
)

// TestPaddedConvolution checks the port's host side without a GPU: the
// FFT convolution of the padded inputs (a Go DFT standing in for cuFFT,
// the kernel's multiply and 1/n scale in Go) matches convolve.
func TestPaddedConvolution(t *testing.T) {
	signal := make([]complex64, signalSize)
	filter := make([]complex64, filterSize)
	for i := range signal {
		signal[i] = complex(float32(math.Sin(float64(i))), 0)
	}
	for i := range filter {
		filter[i] = complex(float32(i+1)/filterSize, 0)
	}
	ps, pf := padData(signal, filter)
	if len(ps) != 56 || len(pf) != 56 {
		t.Fatalf("padded to %d and %d, want 56", len(ps), len(pf))
	}
	S, F := dft(ps, -1), dft(pf, -1)
	for i := range S {
		S[i] *= F[i] / complex(float64(len(S)), 0)
	}
	y := dft64(S, 1)
	got := make([]complex64, signalSize)
	for i := range got {
		got[i] = complex64(y[i])
	}
	if !compareL2fe(convolve(signal, filter), got, 1e-5) {
		t.Fatal("the FFT convolution of the padded data differs from convolve")
	}
}

func dft(x []complex64, sign float64) []complex128 {
	y := make([]complex128, len(x))
	for i, v := range x {
		y[i] = complex128(v)
	}
	return dft64(y, sign)
}

func dft64(x []complex128, sign float64) []complex128 {
	n := len(x)
	y := make([]complex128, n)
	for k := range n {
		for j := range n {
			y[k] += x[j] * cmplx.Rect(1, sign*2*math.Pi*float64(j*k%n)/float64(n))
		}
	}
	return y
}

// TestKernelCompiles compiles the kernel with NVRTC, which needs no GPU.
func TestKernelCompiles(t *testing.T) {
	cugentest.NeedLibrary(t, nvrtc.SharedLibrary().Load())
	out, err := cuda.Compile(cuda.Source{Code: kernelSource, Arch: "compute_52"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Image) == 0 {
		t.Fatal("empty PTX")
	}
}
