package parser_test

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/parser"
)

func TestParseMissingDir(t *testing.T) {
	api, err := parser.Parse(filepath.Join("testdata", "does-not-exist"))
	if err == nil || api != nil {
		t.Fatalf("Parse of a missing directory: %v, %v; want an error", api, err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %q does not wrap fs.ErrNotExist", err)
	}
}

func TestParseNotADir(t *testing.T) {
	_, err := parser.Parse(filepath.Join("testdata", "aliases", "cuda.h"))
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("Parse of a file: %v; want a not-a-directory error", err)
	}
}

func TestParseNoCudaH(t *testing.T) {
	_, err := parser.Parse(filepath.Join("testdata", "bad_nocuda"))
	if err == nil || !strings.Contains(err.Error(), "has no cuda.h") {
		t.Fatalf("Parse of a directory without cuda.h: %v; want a no-cuda.h error", err)
	}
}

func TestParseNoVersion(t *testing.T) {
	_, err := parser.Parse(filepath.Join("testdata", "bad_noversion"))
	var pe *parser.Error
	if !errors.As(err, &pe) {
		t.Fatalf("Parse without CUDA_VERSION: %v (%T); want a *parser.Error", err, err)
	}
	if pe.File != "cuda.h" || !strings.Contains(pe.Msg, "CUDA_VERSION") {
		t.Errorf("error %+v; want file cuda.h and a message about CUDA_VERSION", *pe)
	}
}

// TestParseSyntaxError checks that a header that does not parse yields a
// *parser.Error located relative to the header directory, also for a file in
// a subdirectory, and that its text starts with file:line:col:.
func TestParseSyntaxError(t *testing.T) {
	for _, c := range []struct {
		dir       string
		file      string
		line, col int
	}{
		{"bad_syntax", "cuda.h", 7, 10},             // CUresult is not declared
		{"bad_include", "crt/host_defines.h", 5, 8}, // dim3 dim3;
	} {
		t.Run(c.dir, func(t *testing.T) {
			api, err := parser.Parse(filepath.Join("testdata", c.dir))
			if err == nil || api != nil {
				t.Fatalf("Parse: %v, %v; want an error", api, err)
			}
			var pe *parser.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %q is %T, want *parser.Error", err, err)
			}
			if pe.File != c.file || pe.Line != c.line || pe.Col != c.col || pe.Msg == "" {
				t.Errorf("error %+v; want %s:%d:%d", *pe, c.file, c.line, c.col)
			}
			prefix := fmt.Sprintf("%s:%d:%d: ", c.file, c.line, c.col)
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error text %q does not start with %q", err, prefix)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error text has several lines: %q", err)
			}
		})
	}
}
