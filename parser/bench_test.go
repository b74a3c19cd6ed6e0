package parser_test

import (
	"strings"
	"testing"

	"github.com/cugen/cugen/internal/testset"
	"github.com/cugen/cugen/parser"
)

// BenchmarkParse12_4 measures a whole parse of the 12.4 header set: cc/v4's
// preprocessing and type checking plus the IR conversion. Target: < 200 ms
// on a 2-core machine.
func BenchmarkParse12_4(b *testing.B) {
	dir := testset.Dir(b, "12.4")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parser.Parse(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBoundRefusals measures how fast the parser refuses the inputs
// of the bounds tests (bounds_test.go), which assert only the error and a
// hang ceiling: an #include of itself, parentheses nested 100,000 deep,
// 3 MiB of NUL bytes, and the 12.4 headers with an exponential macro
// (the slowest: the expansion limit's 5,000,000 units of work). On a
// 2-core machine at load 21: 0.28 s, 0.017 s, 0.089 s and 2.7 s per
// refusal (219 MB allocated by the last); the same input took 7 s in
// TestBoundExpansionInUnusedMacro at load 20, which the old 5 s assert
// failed.
func BenchmarkBoundRefusals(b *testing.B) {
	n := 100_000
	for _, c := range []struct {
		name  string
		files func(testing.TB) string
	}{
		{"self-include", func(tb testing.TB) string {
			return writeHeaders(tb, map[string]string{"cuda.h": version + "int x;\n#include \"cuda.h\"\n"})
		}},
		{"nesting", func(tb testing.TB) string {
			return writeHeaders(tb, map[string]string{"cuda.h": version + "#define X " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\n"})
		}},
		{"NUL", func(tb testing.TB) string {
			return writeHeaders(tb, map[string]string{"cuda.h": version + "#include \"z.h\"\n", "z.h": "int a;" + strings.Repeat("\x00", 3<<20)})
		}},
		{"expansion-12.4", expansionHeaders},
	} {
		b.Run(c.name, func(b *testing.B) {
			dir := c.files(b)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parser.Parse(dir); err == nil {
					b.Fatal("Parse succeeded")
				}
			}
		})
	}
}
