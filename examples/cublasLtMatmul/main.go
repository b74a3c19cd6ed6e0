// Command cublasLtMatmul multiplies two FP32 matrices with cublasLtMatmul,
// using the algorithm cublasLtMatmulAlgoGetHeuristic ranks first, and
// checks the product against cuBLAS's SGEMM on the same inputs (and its
// first column against the CPU). Both are timed. The C program in c/ makes
// the same calls in the same order and prints the same lines.
//
//	go run ./examples/cublasLtMatmul [-n 1024] [-reps 100]
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"unsafe"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cublas"
	"github.com/cugen/cugen/cuda/sys/cublaslt"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/examples/internal/sample"
	"github.com/cugen/cugen/ffi"
)

const workspaceBytes = 32 << 20 // the most cublasLt may use

func main() {
	n := flag.Int("n", 1024, "matrix size (n x n x n)")
	reps := flag.Int("reps", 100, "timed repetitions of each GEMM")
	flag.Parse()
	N := *n
	if N <= 0 || N > 32768 || *reps <= 0 {
		log.Fatalf("-n %d -reps %d: want 1 <= n <= 32768 and at least one repetition", N, *reps)
	}

	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	name, _ := ctx.Device().Name()
	fmt.Printf("device 0: %s\n", name)

	// A and B: fixed values in [-1, 1), column-major, leading dimension N.
	ha := make([]float32, N*N)
	hb := make([]float32, N*N)
	for i := range ha {
		ha[i] = float32((37*i+11)%101-50) / 50
		hb[i] = float32((53*i+29)%103-51) / 51
	}
	a, err := cuda.AllocFrom(ctx, ha)
	sample.Check(err)
	defer a.Close()
	b, err := cuda.AllocFrom(ctx, hb)
	sample.Check(err)
	defer b.Close()
	d, err := cuda.Alloc[float32](ctx, N*N) // cublasLt's product
	sample.Check(err)
	defer d.Close()
	c, err := cuda.Alloc[float32](ctx, N*N) // SGEMM's product
	sample.Check(err)
	defer c.Close()
	ws, err := cuda.Alloc[byte](ctx, workspaceBytes)
	sample.Check(err)
	defer ws.Close()

	// cuBLASLt and cuBLAS calls run with the context current on a locked thread.
	sample.Check(ctx.Do(func() error {
		lt, err := cublaslt.Create()
		if err != nil {
			return err
		}
		defer cublaslt.Destroy(lt)
		var desc cublaslt.MatmulDesc // FP32 compute and scale, no transposes
		if desc, err = cublaslt.MatmulDescCreate(cublas.Compute32F, cudart.R32F); err != nil {
			return err
		}
		defer cublaslt.MatmulDescDestroy(desc)
		var layout cublaslt.MatrixLayout // one layout serves A, B, C and D
		if layout, err = cublaslt.MatrixLayoutCreate(cudart.R32F, uint64(N), uint64(N), int64(N)); err != nil {
			return err
		}
		defer cublaslt.MatrixLayoutDestroy(layout)
		var pref cublaslt.MatmulPreference
		if pref, err = cublaslt.MatmulPreferenceCreate(); err != nil {
			return err
		}
		defer cublaslt.MatmulPreferenceDestroy(pref)
		maxWS := uint64(workspaceBytes)
		if err := cublaslt.MatmulPreferenceSetAttribute(pref, cublaslt.MatmulPrefMaxWorkspaceBytes, unsafe.Pointer(&maxWS), uint64(unsafe.Sizeof(maxWS))); err != nil {
			return err
		}

		// The heuristic's first choice.
		var heur [1]cublaslt.MatmulHeuristicResult
		count, err := cublaslt.MatmulAlgoGetHeuristic(lt, desc, layout, layout, layout, layout, pref, int32(len(heur)), &heur[0])
		if err != nil {
			return err
		}
		if count == 0 || heur[0].State != cublaslt.CublasStatusSuccess {
			return fmt.Errorf("cublasLtMatmulAlgoGetHeuristic: no algorithm (%d returned, state %v)", count, heur[0].State)
		}
		algo := &heur[0].Algo
		var id int32
		if _, err := cublaslt.MatmulAlgoConfigGetAttribute(algo, cublaslt.AlgoConfigId, unsafe.Pointer(&id), uint64(unsafe.Sizeof(id))); err != nil {
			return err
		}
		fmt.Printf("heuristic: algorithm %d, workspace %d bytes\n", id, heur[0].WorkspaceSize)

		h, err := cublas.Create()
		if err != nil {
			return err
		}
		defer cublas.Destroy(h)
		alpha, beta := float32(1), float32(0)
		ltMatmul := func() error {
			return cublaslt.Matmul(lt, desc, ffi.Host(&alpha).Untyped(), ffi.DeviceAddr(a.Ptr()), layout, ffi.DeviceAddr(b.Ptr()), layout,
				ffi.Host(&beta).Untyped(), ffi.DeviceAddr(d.Ptr()), layout, ffi.DeviceAddr(d.Ptr()), layout, algo, ffi.DeviceAddr(ws.Ptr()), workspaceBytes, 0)
		}
		f32 := func(buf *cuda.Buffer[float32]) ffi.DevicePtr[float32] { return ffi.DevicePtr[float32](buf.Ptr()) }
		sgemm := func() error {
			return cublas.Sgemm(h, cublas.OpN, cublas.OpN, int32(N), int32(N), int32(N), ffi.Host(&alpha), f32(a), int32(N), f32(b), int32(N), ffi.Host(&beta), f32(c), int32(N))
		}
		flops := 2 * float64(N) * float64(N) * float64(N)
		for _, g := range []struct {
			name string
			run  func() error
		}{{"cublasLtMatmul fp32", ltMatmul}, {"cublasSgemm", sgemm}} {
			ms, err := sample.Timed(*reps, g.run)
			if err != nil {
				return err
			}
			fmt.Printf("%-20s %dx%dx%d: %8.4f ms/GEMM, %7.2f TFLOP/s\n", g.name, N, N, N, ms, flops/ms/1e9)
		}
		return nil
	}))

	// D against C everywhere, and both against the CPU in column 0.
	hd := make([]float32, N*N)
	sample.Check(d.CopyTo(hd))
	hc := make([]float32, N*N)
	sample.Check(c.CopyTo(hc))
	var diff, maxC, cpuErr float64
	for i := range hc {
		diff = max(diff, math.Abs(float64(hd[i])-float64(hc[i])))
		maxC = max(maxC, math.Abs(float64(hc[i])))
	}
	for i := 0; i < N; i++ {
		var want float64
		for k := 0; k < N; k++ {
			want += float64(ha[i+k*N]) * float64(hb[k])
		}
		cpuErr = max(cpuErr, math.Abs(float64(hd[i])-want), math.Abs(float64(hc[i])-want))
	}
	fmt.Printf("max |Lt - SGEMM| = %.2e, max |CPU - GPU| in column 0 = %.2e, max |C| = %.2f (tolerance 1e-05 relative)\n", diff, cpuErr, maxC)
	if !(diff <= 1e-5*maxC && cpuErr <= 1e-5*maxC) {
		fmt.Println("products differ: Result = FAIL")
		os.Exit(1)
	}
	fmt.Println("Result = PASS")
}
