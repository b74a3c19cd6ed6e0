package parser_test

import (
	"testing"

	"github.com/cugen/cugen/parser"
)

// BenchmarkParse12_4 measures a whole parse of the 12.4 header set: cc/v4's
// preprocessing and type checking plus the IR conversion. Target: < 200 ms
// on a 2-core machine.
func BenchmarkParse12_4(b *testing.B) {
	dir := headerDir(b, "12.4")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parser.Parse(dir); err != nil {
			b.Fatal(err)
		}
	}
}
