package algo

import (
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cugentest/standin"
)

// TestHistogramOfBytesInSharedMemory: samples of one byte are privatized
// in 256 bins, one a byte, however many bins the output has (CUB's byte
// path, which cub.cu's HistogramDecode follows), so a histogram of int8
// or uint8 into more than 256 bins runs the shared-memory kernel and
// takes no temporary storage. Counting those bytes through the output's
// bins wrapped bin numbers past the byte's range (on the H100,
// TestGPUHistogram/int8 and uint8). On the stand-in driver, with launch
// funcs that record which kernel ran.
func TestHistogramOfBytesInSharedMemory(t *testing.T) {
	if !standin.Run(t, standin.Majors{}) {
		return
	}
	ctx, s, a := standinLib(t)
	ran := map[string]int{}
	for _, k := range []string{"histogramEvenSmem", "histogramEvenGmem"} {
		a.fns[k+"/int8"] = func(cuda.Config, *cuda.Buffer[int8], *cuda.Buffer[int32], *cuda.Buffer[int32], int32, int8, int8, int8, int8, int32, int32) error {
			ran[k]++
			return nil
		}
	}
	in := standin.Must(cuda.Alloc[int8](ctx, 1<<16))(t)
	defer in.Close()
	for _, bins := range []int{7, 256, 257, 1000} {
		clear(ran)
		hist := standin.Must(cuda.Alloc[int32](ctx, bins))(t)
		if err := HistogramEven(a, s, in, hist, -100, 100); err != nil {
			t.Fatal(err)
		}
		hist.Close()
		if ran["histogramEvenSmem"] != 1 || ran["histogramEvenGmem"] != 0 {
			t.Errorf("HistogramEven[int8] into %d bins ran %v: want histogramEvenSmem once", bins, ran)
		}
	}
}
