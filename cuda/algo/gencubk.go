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

// templates are cub.cu's kernel templates, each instantiated for every
// type (cubk's Go names end in the type: ReduceSumTilesFloat).
var templates = []string{
	"reduceSumTiles", "reduceSumSingle", "reduceMinTiles", "reduceMinSingle", "reduceMaxTiles", "reduceMaxSingle",
	"argMinTiles", "argMinSingle", "argMinPartials", "argMaxTiles", "argMaxSingle", "argMaxPartials",
	"scanInit", "scanInclusiveSum", "scanExclusiveSum",
	"sortHistogramAsc", "sortHistogramDesc", "sortKeysAsc", "sortKeysDesc", "sortPairsAsc", "sortPairsDesc",
	"selectUnique", "selectFlagged", "partitionFlagged", "rleEncode",
	"histogramEvenSmem", "histogramEvenGmem", "histogramRangeSmem", "histogramRangeGmem",
	"scanByKeyInit", "scanByKeyInclusiveSum", "scanByKeyExclusiveSum", "segmentedSum", "segmentedMin", "segmentedMax",
}

// types are the element types, as C++ names them: int32, uint32, int64,
// uint64, float32, float64.
var types = []string{"int", "unsigned int", "long long", "unsigned long long", "float", "double"}

func main() {
	args := []string{"run", "../../cmd/cugen", "kernels", "-src", "cub.cu", "-arch", "sm_80,sm_90", "-I", "nvrtc",
		"-headers", "libcub-dev", "-headers", "libcu++-dev", "-headers", "cuda-rt-12.4"}
	for _, k := range templates {
		for _, t := range types {
			args = append(args, "-name", k+"<"+t+">")
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
