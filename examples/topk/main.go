// Command topk finds the ten best of 2^26 float32 scores on the GPU with
// package cuda/algo's TopK (CUB's onesweep radix sort, descending, of
// (score, position) pairs) and prints them beside the same found on the
// CPU. Equal
// scores keep their positions' order (the sort is stable), and so does
// the CPU's choice. It exits with status 1 on a difference.
//
// It needs an NVIDIA GPU of compute capability 8.0 or later; the kernels
// are embedded (compiled from CUB by cugen kernels), so no NVRTC.
//
//	go run ./examples/topk
package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/algo"
)

const (
	n = 1 << 26
	k = 10
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "topk:", err)
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

	r := rand.New(rand.NewPCG(1, 26))
	scores := make([]float32, n)
	for i := range scores {
		scores[i] = float32(r.IntN(1 << 24)) // ties among 2^26 scores
	}
	in, err := cuda.AllocFrom(ctx, scores)
	if err != nil {
		return err
	}
	defer in.Close()
	values, err := cuda.Alloc[float32](ctx, k)
	if err != nil {
		return err
	}
	defer values.Close()
	index, err := cuda.Alloc[int32](ctx, k)
	if err != nil {
		return err
	}
	defer index.Close()

	start := time.Now()
	if err := algo.TopK(a, s, in, values, index); err != nil {
		return err
	}
	if err := s.Synchronize(); err != nil {
		return err
	}
	gpuTime := time.Since(start)
	top := make([]int32, k)
	if err := index.CopyTo(top); err != nil {
		return err
	}
	topValues := make([]float32, k)
	if err := values.CopyTo(topValues); err != nil {
		return err
	}

	// the CPU: one pass keeping the k best, the earlier of equal scores first
	start = time.Now()
	best := make([]int32, 0, k)
	for i, x := range scores {
		if len(best) == k && x <= scores[best[k-1]] {
			continue
		}
		j := len(best)
		if j < k {
			best = append(best, 0)
		} else {
			j = k - 1
		}
		for j > 0 && x > scores[best[j-1]] {
			best[j] = best[j-1]
			j--
		}
		best[j] = int32(i)
	}
	cpuTime := time.Since(start)

	fmt.Printf("%s: the %d best of %d float32 scores; GPU top-k %v, CPU selection %v\n", name, k, n, gpuTime.Round(time.Microsecond), cpuTime.Round(time.Microsecond))
	fmt.Printf("%4s  %-22s %s\n", "rank", "GPU (score at position)", "CPU")
	ok := true
	for i := range k {
		g := fmt.Sprintf("%.0f at %d", topValues[i], top[i])
		c := fmt.Sprintf("%.0f at %d", scores[best[i]], best[i])
		mark := ""
		if g != c {
			mark, ok = "  MISMATCH", false
		}
		fmt.Printf("%4d  %-22s %s%s\n", i+1, g, c, mark)
	}
	if !ok {
		return fmt.Errorf("the GPU's top %d differs from the CPU's", k)
	}
	fmt.Println("Result = PASS")
	return nil
}
