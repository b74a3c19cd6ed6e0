// Command allocBench is the mixed-size allocation benchmark of issue 27:
// 100,000 stream-ordered allocations and frees of 256 B to 64 MiB on one
// stream, the same sequence in every program that runs it:
//
//   - this program, in alternating rounds in one process, three ways:
//     through the layer (cuda.AllocAsync and Buffer.Close: a driver
//     round trip each), through the layer's caching allocator
//     (cuda.AllocCached and Buffer.Close, "layer-caching": blocks reused
//     on the stream without the driver, like CuPy's MemoryPool), and
//     through the raw driver calls (cu.MemAllocAsync and
//     cu.MemFreeAsync);
//   - c/allocbench.cu, the same loop in C (cuMemAllocAsync,
//     cuMemFreeAsync);
//   - py/allocbench.py, the same loop through CuPy's MemoryPool and
//     MemoryAsyncPool.
//
// The sequence: size i is 256 << (x_i >> 33 % 19) bytes, where x_0 = 1 and
// x_i = x_{i-1} * 6364136223846793005 + 1442695040888963407 (mod 2^64),
// the same as the layer's BenchmarkAllocAsyncMixed. Sixteen buffers are
// live at a time: allocation i frees allocation i-16 first. A round is the
// 100,000 pairs and a stream synchronisation at its end; each way runs
// -rounds rounds after one warm-up round, and the program prints each
// round's time per pair and the medians. The memory comes from the
// device's default pool, its release threshold raised to the maximum in
// every program, so that memory freed stays in the pool across the
// synchronisations.
//
// Like is compared with like: "layer" and "raw" against the C loop (each
// pair a driver round trip), "layer-caching" against CuPy's MemoryPool
// (each pair, once warm, a hit in the program's own cache). The caching
// allocator takes its blocks from the same default pool; after the
// warm-up round every allocation is a hit, and it holds its blocks until
// the program ends: as many of each size class as were live at once, at
// most 8 (768 MiB for this sequence).
//
// It needs an NVIDIA GPU and the CUDA 13 driver:
//
//	go run ./examples/allocBench [-rounds 5]
//
// and the references, on the same machine:
//
//	nvcc -O2 -o allocbench examples/allocBench/c/allocbench.cu -lcuda && ./allocbench 5
//	python3 examples/allocBench/py/allocbench.py --rounds 5
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
)

const (
	pairs = 100_000
	live  = 16
)

// sizes returns the benchmark's sequence of sizes in bytes.
func sizes() []int {
	s := make([]int, pairs)
	x := uint64(1)
	for i := range s {
		x = x*6364136223846793005 + 1442695040888963407
		s[i] = 256 << (x >> 33 % 19) // 256 B .. 64 MiB
	}
	return s
}

func main() {
	rounds := flag.Int("rounds", 5, "timed rounds of each way")
	flag.Parse()
	if err := run(*rounds); err != nil {
		fmt.Fprintln(os.Stderr, "allocBench:", err)
		os.Exit(1)
	}
}

func run(rounds int) error {
	c, err := cuda.NewContext(0)
	if err != nil {
		return err
	}
	defer c.Close()
	s, err := c.NewStream()
	if err != nil {
		return err
	}
	defer s.Close()
	pool, err := c.DefaultMemPool()
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := pool.SetReleaseThreshold(math.MaxUint64); err != nil {
		return err
	}
	name, _ := c.Device().Name()
	sz := sizes()
	fmt.Printf("allocBench: %d alloc/free pairs of 256 B to 64 MiB, %d live, on one stream of %s\n", pairs, live, name)

	cache, err := c.NewCachingAllocator(cuda.CachingOptions{})
	if err != nil {
		return err
	}
	defer cache.Close()
	// loop is one round through the layer, alloc the allocation.
	loop := func(alloc func(n int) (*cuda.Buffer[byte], error)) error {
		var ring [live]*cuda.Buffer[byte]
		for i, n := range sz {
			if x := ring[i%live]; x != nil {
				if err := x.Close(); err != nil {
					return err
				}
			}
			x, err := alloc(n)
			if err != nil {
				return fmt.Errorf("allocation of %d bytes: %w", n, err)
			}
			ring[i%live] = x
		}
		for _, x := range ring {
			if err := x.Close(); err != nil {
				return err
			}
		}
		return s.Synchronize()
	}
	layer := func() error {
		return loop(func(n int) (*cuda.Buffer[byte], error) { return cuda.AllocAsync[byte](s, n) })
	}
	caching := func() error {
		return loop(func(n int) (*cuda.Buffer[byte], error) { return cuda.AllocCached[byte](cache, s, n) })
	}
	raw := func() error {
		return c.Do(func() error {
			var ring [live]cu.Deviceptr
			h := s.Raw()
			for i, n := range sz {
				if x := ring[i%live]; x != 0 {
					if err := cu.MemFreeAsync(x, h); err != nil {
						return err
					}
				}
				x, err := cu.MemAllocAsync(uint64(n), h)
				if err != nil {
					return fmt.Errorf("cuMemAllocAsync(%d): %w", n, err)
				}
				ring[i%live] = x
			}
			for _, x := range ring {
				if err := cu.MemFreeAsync(x, h); err != nil {
					return err
				}
			}
			return cu.StreamSynchronize(h)
		})
	}
	ways := []struct {
		name   string
		fn     func() error
		ns     []float64
		allocs []float64
	}{{name: "layer", fn: layer}, {name: "raw", fn: raw}, {name: "layer-caching", fn: caching}}
	for i := range ways { // warm-up: the pool grows to the sequence's need
		if err := ways[i].fn(); err != nil {
			return fmt.Errorf("%s: %w", ways[i].name, err)
		}
	}
	var ms runtime.MemStats
	for r := range rounds {
		fmt.Printf("round %d:", r+1)
		for k := range ways {
			w := &ways[(k+r)%len(ways)] // alternate which way goes first
			runtime.ReadMemStats(&ms)
			m0 := ms.Mallocs
			t0 := time.Now()
			if err := w.fn(); err != nil {
				return fmt.Errorf("%s: %w", w.name, err)
			}
			ns := float64(time.Since(t0).Nanoseconds()) / pairs
			runtime.ReadMemStats(&ms)
			w.ns = append(w.ns, ns)
			w.allocs = append(w.allocs, float64(ms.Mallocs-m0)/pairs)
			fmt.Printf("  %s %.0f ns/pair", w.name, ns)
		}
		fmt.Println()
	}
	med := func(v []float64) float64 {
		v = slices.Clone(v)
		slices.Sort(v)
		return v[len(v)/2]
	}
	l, r, k := med(ways[0].ns), med(ways[1].ns), med(ways[2].ns)
	fmt.Printf("median: layer %.0f ns/pair (%.2f Go allocations a pair), raw %.0f ns/pair (%.2f); layer/raw %.3f, layer rate %.1f%% of raw\n",
		l, med(ways[0].allocs), r, med(ways[1].allocs), l/r, 100*r/l)
	st := cache.Stats()
	fmt.Printf("median: layer-caching %.0f ns/pair (%.2f Go allocations a pair); %d hits, %d misses, %d MiB cached\n",
		k, med(ways[2].allocs), st.Hits, st.Misses, st.Cached>>20)
	return nil
}
