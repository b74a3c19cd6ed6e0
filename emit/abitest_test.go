package emit

import (
	"strings"
	"testing"

	"github.com/cugen/cugen/parser"
)

// abiTestDir holds the packages generated from the ABI fixture headers;
// emit/internal/abitest's own tests call them against a C implementation.
const (
	abiHeaders    = "testdata/abi"
	abiTestDir    = "internal/abitest"
	abiImportPath = "github.com/cugen/cugen/emit/internal/abitest"
)

// abiOptions are the Options cmd/cugen uses for
// `cugen gen -headers emit/testdata/abi -out emit/internal/abitest`.
func abiOptions(cudaVersion int64) Options {
	return Options{
		Origin:     versionLabel(cudaVersion),
		Command:    "cugen gen -headers emit/testdata/abi -out emit/internal/abitest",
		Demo:       true,
		ImportPath: abiImportPath,
	}
}

// versionLabel is cmd/cugen's Origin for a -headers run.
func versionLabel(v int64) string {
	return "CUDA " + versionString(v) + " headers"
}

// TestABIPackagesUpToDate regenerates emit/internal/abitest in memory and
// fails, listing the stale files, if the committed packages differ.
func TestABIPackagesUpToDate(t *testing.T) {
	api, err := parser.Parse(abiHeaders)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := Generate(api, abiOptions(api.CUDAVersion))
	if err != nil {
		t.Fatal(err)
	}
	stale, err := staleFiles(abiTestDir, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Errorf("emit/internal/abitest is stale; run go generate ./emit/internal/abitest:\n%s", strings.Join(stale, "\n"))
	}
	checkGeneratedFiles(t, pkgs)
}
