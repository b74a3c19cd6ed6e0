package emit

import (
	"os"
	"strings"
	"testing"

	"github.com/cugen/cugen/parser/ir"
)

// FuzzGenerateIR: an IR read from a file either fails ir.Decode (bounds,
// ir.Validate) or Generate with a one-line error, or generates packages:
// never a panic, an endless recursion or a Go file gofmt rejects (whose
// error printed the whole file). The seeds (testdata/fuzz/FuzzGenerateIR)
// are the tiny real IR of parser/ir's tests and the hostile IRs of issue
// 24, whose nulls and cycles crashed Generate before ir.Validate.
func FuzzGenerateIR(f *testing.F) {
	tiny, err := os.ReadFile("../parser/ir/testdata/tiny.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(tiny)
	f.Fuzz(func(t *testing.T, b []byte) {
		api, err := ir.Decode(b)
		if err != nil {
			return // FuzzDecodeIR's
		}
		pkgs, err := Generate(api, Options{Origin: "CUDA 12.4 headers", Demo: true, ImportPath: "example.com/out"})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %.300q", err)
			}
			return
		}
		if len(pkgs) == 0 {
			t.Fatal("no packages and no error")
		}
	})
}
