package gen

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cugen/cugen/internal/testset"
)

// TestLibParsesOnlyItsLibraries: gen -lib cu,cudart,nvrtc parses only
// those libraries' headers (issue 39: every header was parsed and every
// package emitted, then the packages selected: 7-8 s and 500 MB), and
// writes the packages a parse of every library gives: those committed in
// generated/cuda12, but for the command line each file records. cudart
// keeps the types of cuComplex.h and cuda_fp16.h, which only the math
// libraries' headers include (library.Desc.Shared).
func TestLibParsesOnlyItsLibraries(t *testing.T) {
	testset.Set(t, "12.4") // cached, or skip
	root := testset.Root(t)
	out := filepath.Join(t.TempDir(), "cuda12")
	res, err := Run(Config{
		Source: Source{Set: "12.4", Lock: testset.LockPath(t)}, Parse: true, Libs: []string{"CU", "cudart", "nvrtc"},
		Out: out, ImportPath: "github.com/cugen/cugen/generated/cuda12", Demo: true, Stderr: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Parsed, []string{"cu", "cudart", "nvrtc"}) {
		t.Errorf("parsed the headers of %q, want cu, cudart and nvrtc only", res.Parsed)
	}
	recorded := []byte("cugen gen -set 12.4 -lib cu,cudart,nvrtc -out generated/cuda12\n")
	for _, pkg := range []string{"cu", "cudart", "nvrtc"} {
		ents, err := os.ReadDir(filepath.Join(out, pkg))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			got, _ := os.ReadFile(filepath.Join(out, pkg, e.Name()))
			want, err := os.ReadFile(filepath.Join(root, "generated", "cuda12", pkg, e.Name()))
			if err != nil {
				t.Errorf("%s/%s: %v", pkg, e.Name(), err)
				continue
			}
			got = bytes.Replace(got, recorded, []byte("cugen gen -set 12.4 -out generated/cuda12\n"), 1)
			if !bytes.Equal(got, want) {
				t.Errorf("%s/%s differs from generated/cuda12's", pkg, e.Name())
			}
		}
	}
	if _, err := os.Stat(filepath.Join(out, "cublas")); !os.IsNotExist(err) {
		t.Errorf("cublas written: %v", err)
	}
}
