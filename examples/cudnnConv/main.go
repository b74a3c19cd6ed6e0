// Command cudnnConv runs cuDNN 9's graph API from Go through the layer's
// dnn package (cuda/dnn): a 3×3 convolution forward of
// a small batch in NHWC, then a fused matmul + bias + ReLU, each built as
// an operation graph, given an engine by cuDNN's heuristics (mode A),
// finalized into a plan and executed on a stream. Both results are
// checked against a float64 computation on the host (relative error below
// 1e-2: cuDNN may use TF32 for float32; 2e-2 for the float16 matmul). It prints what it did and exits
// with status 1 on a wrong result.
//
// It needs an NVIDIA GPU and cuDNN 9 (libcudnn.so.9, with its
// libcudnn_graph.so.9 and engine libraries beside it: NVIDIA's
// nvidia-cudnn-cu13 wheel, found in a Python environment's site-packages,
// or CUGEN_LIBCUDNN).
//
//	go run ./examples/cudnnConv
package main

import (
	"fmt"
	"math"
	"os"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/dnn"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "cudnnConv:", err)
		os.Exit(1)
	}
}

func fill(n int64, seed int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32((i*7+seed*13)%17)/8 - 1
	}
	return v
}

func run() error {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		return err
	}
	defer ctx.Close()
	s, err := ctx.NewStream()
	if err != nil {
		return err
	}
	defer s.Close()
	h, err := dnn.New(ctx, s)
	if err != nil {
		return err
	}
	defer h.Close()
	fmt.Printf("cuDNN version %d\n", dnn.Version())

	// Y = conv(X, W): 4 images of 16 channels, 12×12, by 32 filters 3×3, padding 1, NHWC.
	const n, c, k, hw, rs = 4, 16, 32, 12, 3
	conv := dnn.Conv{
		X:   dnn.Image(1, dnn.Float32, dnn.NHWC, n, c, hw, hw),
		W:   dnn.Image(2, dnn.Float32, dnn.NHWC, k, c, rs, rs),
		Y:   dnn.Image(3, dnn.Float32, dnn.NHWC, n, k, hw, hw),
		Pad: [2]int64{1, 1},
	}
	p, err := h.ConvForward(conv)
	if err != nil {
		return err
	}
	defer p.Close()
	idx, rank := p.Engine()
	fmt.Printf("conv %v * %v -> %v (NHWC, float32): engine %d (heuristics choice %d), workspace %d bytes\n",
		conv.X.Dims, conv.W.Dims, conv.Y.Dims, idx, rank, p.WorkspaceSize())
	x, w := fill(conv.X.Elements(), 1), fill(conv.W.Elements(), 2)
	xb, err := cuda.AllocFrom(ctx, x)
	if err != nil {
		return err
	}
	defer xb.Close()
	wb, err := cuda.AllocFrom(ctx, w)
	if err != nil {
		return err
	}
	defer wb.Close()
	yb, err := cuda.Alloc[float32](ctx, int(conv.Y.Elements()))
	if err != nil {
		return err
	}
	defer yb.Close()
	if err := p.Execute(dnn.Bind(1, xb), dnn.Bind(2, wb), dnn.Bind(3, yb)); err != nil {
		return err
	}
	if err := s.Synchronize(); err != nil {
		return err
	}
	y := make([]float32, yb.Len())
	if err := yb.CopyTo(y); err != nil {
		return err
	}
	// NHWC: element (i, ch, r, q) of an image tensor is at ((i*H+r)*W+q)*C+ch.
	var maxErr, maxRef float64
	for i := range n {
		for o := range k {
			for r := range hw {
				for q := range hw {
					var sum float64
					for ch := range c {
						for dr := range rs {
							for dq := range rs {
								ir, iq := r+dr-1, q+dq-1
								if ir < 0 || ir >= hw || iq < 0 || iq >= hw {
									continue
								}
								sum += float64(x[((i*hw+ir)*hw+iq)*c+ch]) * float64(w[((o*rs+dr)*rs+dq)*c+ch])
							}
						}
					}
					got := float64(y[((i*hw+r)*hw+q)*k+o])
					maxErr = max(maxErr, math.Abs(got-sum))
					maxRef = max(maxRef, math.Abs(sum))
				}
			}
		}
	}
	fmt.Printf("conv: max |cuDNN - host| = %.3g (max |host| %.3g)\n", maxErr, maxRef)
	ok := maxErr <= 1e-2*maxRef

	// Y = relu(A·B + bias): 64 × 256 by 256 × 100 in float16, one fused graph.
	const m, kk, nn = 64, 256, 100
	mm := dnn.MatmulBiasReLU{
		A: dnn.Matrix(1, dnn.Float16, 1, m, kk), B: dnn.Matrix(2, dnn.Float16, 1, kk, nn),
		Bias: dnn.Matrix(3, dnn.Float16, 1, 1, nn), Y: dnn.Matrix(4, dnn.Float16, 1, m, nn),
	}
	mp, err := h.MatmulBiasReLU(mm)
	if err != nil {
		return err
	}
	defer mp.Close()
	idx, rank = mp.Engine()
	fmt.Printf("matmul+bias+ReLU %v x %v + %v (float16): engine %d (heuristics choice %d), workspace %d bytes\n",
		mm.A.Dims, mm.B.Dims, mm.Bias.Dims, idx, rank, mp.WorkspaceSize())
	half := func(v []float32) []cuda.Float16 {
		out := make([]cuda.Float16, len(v))
		for i, f := range v {
			out[i] = cuda.Float16Of(f)
		}
		return out
	}
	a, b, bias := half(fill(m*kk, 3)), half(fill(kk*nn, 4)), half(fill(nn, 5))
	bufs := make([]*cuda.Buffer[cuda.Float16], 0, 4)
	for _, v := range [][]cuda.Float16{a, b, bias, make([]cuda.Float16, m*nn)} {
		buf, err := cuda.AllocFrom(ctx, v)
		if err != nil {
			return err
		}
		defer buf.Close()
		bufs = append(bufs, buf)
	}
	if err := mp.Execute(dnn.Bind(1, bufs[0]), dnn.Bind(2, bufs[1]), dnn.Bind(3, bufs[2]), dnn.Bind(4, bufs[3])); err != nil {
		return err
	}
	if err := s.Synchronize(); err != nil {
		return err
	}
	out := make([]cuda.Float16, m*nn)
	if err := bufs[3].CopyTo(out); err != nil {
		return err
	}
	maxErr, maxRef = 0, 0
	for i := range m {
		for j := range nn {
			sum := float64(bias[j].Float32())
			for l := range kk {
				sum += float64(a[i*kk+l].Float32()) * float64(b[l*nn+j].Float32())
			}
			sum = max(sum, 0)
			maxErr = max(maxErr, math.Abs(float64(out[i*nn+j].Float32())-sum))
			maxRef = max(maxRef, math.Abs(sum))
		}
	}
	fmt.Printf("matmul+bias+ReLU: max |cuDNN - host| = %.3g (max |host| %.3g)\n", maxErr, maxRef)
	ok = ok && maxErr <= 2e-2*maxRef
	if !ok {
		fmt.Println("Result = FAIL")
		return fmt.Errorf("results differ from the host's")
	}
	fmt.Println("Result = PASS")
	return nil
}
