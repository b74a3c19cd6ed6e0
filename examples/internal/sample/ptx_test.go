package sample

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// TestPortsPTXEntries: the kernels each port looks up by name are the ones
// its embedded PTX declares, with the parameter count the port passes. A
// name or arity slip would otherwise show only on a GPU, as
// cudaErrorSymbolNotFound or a bad launch.
func TestPortsPTXEntries(t *testing.T) {
	want := map[string]map[string]int{ // file -> entry -> parameters
		"vectorAddDrv/vectorAdd_kernel.ptx": {"VecAdd_kernel": 4},
		"vectorAdd/vectorAdd_kernel.ptx":    {"vectorAdd": 4},
		"simpleCudaGraphs/reduce.ptx":       {"reduce": 4, "reduceFinal": 3},
		"simpleCudaGraphsLayer/reduce.ptx":  {"reduce": 4, "reduceFinal": 3},
		"asyncAPI/increment_kernel.ptx":     {"increment_kernel": 2},
		"cuptiTrace/kernels.ptx":            {"vadd": 4, "scale": 4},
	}
	entry := regexp.MustCompile(`(?m)^\.visible \.entry (\w+)\(([^)]*)\)`)
	param := regexp.MustCompile(`\.param `)
	for file, entries := range want {
		src, err := os.ReadFile(filepath.Join("..", "..", file))
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(src, 0) {
			t.Errorf("%s: has a NUL byte; the loaders append the only one", file)
		}
		got := map[string]int{}
		for _, m := range entry.FindAllSubmatch(src, -1) {
			got[string(m[1])] = len(param.FindAll(m[2], -1))
		}
		for name, n := range entries {
			if got[name] != n {
				t.Errorf("%s: entry %s has %d parameters (0: missing), the port passes %d", file, name, got[name], n)
			}
		}
		if len(got) != len(entries) {
			t.Errorf("%s: declares entries %v, the port uses %v", file, got, entries)
		}
	}
}
