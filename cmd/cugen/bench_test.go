package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/cugen/cugen/internal/lock"
)

// BenchmarkGen12_4 is `cugen gen -set 12.4` as a whole, in process: the
// lock read and the header set verified, the parse, the emit (formatting
// included), the API diff against the packages written by the previous
// iteration and the write. Target (issue 14): at most 0.3 s a run on the
// 2-core machine; the whole process's time and memory are in BENCHMARKS.md.
// Skipped where set 12.4 is not in the shared header cache.
func BenchmarkGen12_4(b *testing.B) {
	l, err := lock.ReadFile("../../headers.lock")
	if err != nil {
		b.Fatal(err)
	}
	e, err := l.Entry("12.4")
	if err != nil {
		b.Fatal(err)
	}
	cache, err := lock.DefaultCacheDir()
	if err != nil {
		b.Skip(err)
	}
	if err := lock.Verify(filepath.Join(cache, "headers", e.Name, e.Root), e); err != nil {
		b.Skipf("set 12.4 not in the cache (make headers): %v", firstLine(err.Error()))
	}
	out := filepath.Join(b.TempDir(), "out")
	args := []string{"gen", "-set", "12.4", "-lock", "../../headers.lock", "-out", out, "-importpath", "example.com/out"}
	b.ReportAllocs()
	for b.Loop() {
		if code := run(args, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
