package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
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

// maxFileLines is the most lines a hand-written Go file may have (issue
// 39): past it a file holds more than one job, and a reader cannot keep it
// in mind.
const maxFileLines = 1000

// oversizeAllowed are the hand-written files that may still be longer than
// maxFileLines, each with the work that shortens it. An entry that is no
// longer needed fails the test, so the list only shrinks.
var oversizeAllowed = map[string]string{}

// generatedRE is Go's marker of a generated file (go help generate), on a
// line before the package clause.
var generatedRE = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// TestFileSize: no hand-written Go file of the repository is over
// maxFileLines lines. Generated files (generated/, cuda/sys/, and any file
// marked as Go marks generated code) are the generator's to shape.
func TestFileSize(t *testing.T) {
	over, err := oversizeFiles("../..")
	if err != nil {
		t.Fatal(err)
	}
	for f, n := range over {
		if why, ok := oversizeAllowed[f]; ok {
			t.Logf("%s has %d lines, allowed until %s", f, n, why)
			continue
		}
		t.Errorf("%s has %d lines, more than %d: split it by role", f, n, maxFileLines)
	}
	for f, why := range oversizeAllowed {
		if _, ok := over[f]; !ok {
			t.Errorf("%s is allowed over %d lines (%s) but is not over: remove it from oversizeAllowed", f, maxFileLines, why)
		}
	}
}

// oversizeFiles maps each hand-written Go file under root longer than
// maxFileLines, by its slash path relative to root, to its line count.
func oversizeFiles(root string) (map[string]int, error) {
	over := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "generated" || rel == "cuda/sys" || rel != "." && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := strings.Count(string(b), "\n"); n > maxFileLines && !isGenerated(b) {
			over[rel] = n
		}
		return nil
	})
	return over, err
}

// isGenerated reports whether the Go source src is marked generated.
func isGenerated(src []byte) bool {
	for line := range strings.Lines(string(src)) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "package ") {
			return false
		}
		if generatedRE.MatchString(line) {
			return true
		}
	}
	return false
}
