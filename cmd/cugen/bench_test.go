package main

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/cugen/cugen/internal/testset"
)

// BenchmarkGen12_4 is `cugen gen -set 12.4` as a whole, in process: the
// lock read and the header set verified, the parse, the emit (formatting
// included), the API diff against the packages written by the previous
// iteration and the write. Target (issue 14): at most 0.3 s a run on the
// 2-core machine; the whole process's time and memory are in BENCHMARKS.md.
// Skipped where set 12.4 is not in the shared header cache.
func BenchmarkGen12_4(b *testing.B) {
	testset.Set(b, "12.4") // in the cache, or skip: gen must not fetch here
	out := filepath.Join(b.TempDir(), "out")
	args := []string{"gen", "-set", "12.4", "-lock", testset.LockPath(b), "-out", out, "-importpath", "example.com/out"}
	b.ReportAllocs()
	for b.Loop() {
		if code := run(args, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkGenHeaders12_4 is `cugen gen -headers DIR` for the whole
// family, in process: the parse of set 12.4's headers (NPP's included)
// and the emit, into a fresh directory each run. Target (issue 39): the
// whole process at most 4 s on the 2-core machine (BENCHMARKS.md,
// "Generator speed"). Skipped where set 12.4 is not in the cache.
func BenchmarkGenHeaders12_4(b *testing.B) {
	dir := testset.Dir(b, "12.4")
	tmp := b.TempDir()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n++
		out := filepath.Join(tmp, fmt.Sprint(n))
		args := []string{"gen", "-headers", dir, "-out", out, "-importpath", "example.com/out"}
		if code := run(args, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
