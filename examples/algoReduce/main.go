// Command algoReduce runs package cuda/algo's CUB reductions and scan on
// 2^26 float32 scores and prints each beside the same computed on the CPU:
// the greatest score and its index (ArgMax), the least (ArgMin), the sum
// and the last prefix sum (InclusiveSum). The scores are small integers,
// so every sum is exact in any order and the GPU must match the CPU to
// the bit. It exits with status 1 on a difference.
//
// It needs an NVIDIA GPU of compute capability 8.0 or later; the kernels
// are embedded (compiled from CUB by cugen kernels), so no NVRTC.
//
//	go run ./examples/algoReduce
package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/algo"
)

const n = 1 << 26

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "algoReduce:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		return err
	}
	defer ctx.Close()
	name, _ := ctx.Device().Name()
	a, err := algo.Load(ctx)
	if err != nil {
		return err
	}
	defer a.Close()
	s, err := ctx.NewStream()
	if err != nil {
		return err
	}
	defer s.Close()

	r := rand.New(rand.NewPCG(26, 26))
	scores := make([]float32, n)
	for i := range scores {
		scores[i] = float32(r.IntN(1001) - 500)
	}
	in, err := cuda.AllocFrom(ctx, scores)
	if err != nil {
		return err
	}
	defer in.Close()
	prefix, err := cuda.Alloc[float32](ctx, n)
	if err != nil {
		return err
	}
	defer prefix.Close()
	vals, err := cuda.Alloc[float32](ctx, 3)
	if err != nil {
		return err
	}
	defer vals.Close()
	idx, err := cuda.Alloc[int32](ctx, 2)
	if err != nil {
		return err
	}
	defer idx.Close()

	start := time.Now()
	for _, err := range []error{
		algo.ArgMax(a, s, in, idx.Slice(0, 1), vals.Slice(0, 1)),
		algo.ArgMin(a, s, in, idx.Slice(1, 2), vals.Slice(1, 2)),
		algo.Sum(a, s, in, vals.Slice(2, 3)),
		algo.InclusiveSum(a, s, in, prefix),
	} {
		if err != nil {
			return err
		}
	}
	if err := s.Synchronize(); err != nil {
		return err
	}
	gpuTime := time.Since(start)
	v, ix, last := make([]float32, 3), make([]int32, 2), make([]float32, 1)
	if err := vals.CopyTo(v); err != nil {
		return err
	}
	if err := idx.CopyTo(ix); err != nil {
		return err
	}
	if err := prefix.Slice(n-1, n).CopyTo(last); err != nil {
		return err
	}

	start = time.Now()
	hi, lo := 0, 0
	var sum float32
	for i, x := range scores {
		if x > scores[hi] {
			hi = i
		}
		if x < scores[lo] {
			lo = i
		}
		sum += x
	}
	cpuTime := time.Since(start)

	fmt.Printf("%s: %d float32 scores; GPU %v (4 calls, one wait), CPU %v\n", name, n, gpuTime.Round(time.Microsecond), cpuTime.Round(time.Microsecond))
	fmt.Printf("%-14s %-22s %s\n", "", "GPU", "CPU")
	ok := true
	line := func(what, gpu, cpu string) {
		mark := ""
		if gpu != cpu {
			mark, ok = "  MISMATCH", false
		}
		fmt.Printf("%-14s %-22s %s%s\n", what, gpu, cpu, mark)
	}
	line("ArgMax", fmt.Sprintf("%v at %d", v[0], ix[0]), fmt.Sprintf("%v at %d", scores[hi], hi))
	line("ArgMin", fmt.Sprintf("%v at %d", v[1], ix[1]), fmt.Sprintf("%v at %d", scores[lo], lo))
	line("Sum", fmt.Sprint(v[2]), fmt.Sprint(sum))
	line("InclusiveSum", fmt.Sprint(last[0]), fmt.Sprint(sum))
	if !ok {
		return fmt.Errorf("the GPU's results differ from the CPU's")
	}
	fmt.Println("Result = PASS")
	return nil
}
