package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandSize: cmd/cugen only parses flags and prints (issue 39):
// the pipeline is internal/gen. Its Go, tests left out, is at most 700
// lines, main.go at most 200.
func TestCommandSize(t *testing.T) {
	const maxTotal, maxMain = 700, 200
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n := strings.Count(string(b), "\n")
		total += n
		if f == "main.go" && n > maxMain {
			t.Errorf("main.go has %d lines, more than %d: move what is not flags and printing to internal/gen", n, maxMain)
		}
	}
	if total > maxTotal {
		t.Errorf("cmd/cugen has %d lines of Go besides its tests, more than %d: move what is not flags and printing to a package", total, maxTotal)
	}
}
