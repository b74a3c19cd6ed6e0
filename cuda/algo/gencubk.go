//go:build ignore

// gencubk runs cugen kernels on cub.cu, every kernel template of the list
// below instantiated for every element type, into internal/cubk: go
// generate reads at most 4096 bytes of a //go:generate line, fewer than
// the command line takes. Its arguments go to cugen kernels after the
// others (-check, -pin).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// templates are cub.cu's kernel templates, each instantiated for the
// types of its list (cubk's Go names end in the type:
// ReduceSumTilesFloat, SortKeysAscHalf).
var templates = []struct {
	names []string
	types []string
}{
	{[]string{"reduceMinTiles", "reduceMinSingle", "reduceMaxTiles", "reduceMaxSingle",
		"argMinTiles", "argMinSingle", "argMinPartials", "argMaxTiles", "argMaxSingle", "argMaxPartials",
		"sortHistogramAsc", "sortHistogramDesc", "sortKeysAsc", "sortKeysDesc", "sortPairsAsc", "sortPairsDesc",
		"segmentedMin", "segmentedMax", "segmentedArgMin", "segmentedArgMax"}, all},
	{[]string{"reduceSumTiles", "reduceSumSingle", "scanInit", "scanInclusiveSum", "scanExclusiveSum", "segmentedSum"}, sums},
	{[]string{"selectUnique", "selectIf", "selectFlagged", "partitionFlagged", "partitionIf", "rleEncode",
		"scanByKeyInit", "scanByKeyInclusiveSum", "scanByKeyExclusiveSum"}, wide},
	{[]string{"segmentedSortKeysAsc", "segmentedSortKeysAscAlt", "segmentedSortKeysDesc", "segmentedSortKeysDescAlt",
		"segmentedSortPairsAsc", "segmentedSortPairsAscAlt", "segmentedSortPairsDesc", "segmentedSortPairsDescAlt"}, wide},
	{[]string{"histogramEvenSmem", "histogramEvenGmem", "histogramRangeSmem", "histogramRangeGmem"}, samples},
}

// The element types, as C++ names them. wide: int32, uint32, int64,
// uint64, float32, float64; samples: those and int8, uint8, int16,
// uint16; sums: wide and float16, bfloat16 (__half and __nv_bfloat16);
// all: every one.
var (
	wide    = []string{"int", "unsigned int", "long long", "unsigned long long", "float", "double"}
	samples = append(wide[:len(wide):len(wide)], "signed char", "unsigned char", "short", "unsigned short")
	sums    = append(wide[:len(wide):len(wide)], "__half", "__nv_bfloat16")
	all     = append(samples[:len(samples):len(samples)], "__half", "__nv_bfloat16")
)

func main() {
	args := []string{"run", "../../cmd/cugen", "kernels", "-src", "cub.cu", "-arch", "sm_80,sm_90", "-I", "nvrtc",
		"-headers", "libcub-dev", "-headers", "libcu++-dev", "-headers", "cuda-rt-12.4"}
	for _, g := range templates {
		for _, k := range g.names {
			for _, t := range g.types {
				args = append(args, "-name", k+"<"+t+">")
			}
		}
	}
	args = append(args, "-out", "internal/cubk")
	args = append(args, os.Args[1:]...)
	cmd := exec.Command(goTool(), args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "gencubk:", err)
		os.Exit(1)
	}
}

// goTool is the go command of the toolchain running this program.
func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
