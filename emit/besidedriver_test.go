package emit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser"
)

// generateBesideDriver generates the test library d, whose header (the
// file d.Include[0] names) is header, beside the driver of a one-function
// cuda.h, and returns the files of d's package, or the parser's or
// Generate's error.
func generateBesideDriver(t *testing.T, d *library.Desc, header string) (map[string]string, error) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"cuda.h": typesPrelude + "CUresult CUDAAPI cuInit(unsigned int Flags);\n", d.Include[0]: header} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	libs := []*library.Desc{library.Driver, d}
	api, err := parser.ParseWith(dir, parser.Options{Libraries: libs})
	if err != nil {
		return nil, err
	}
	pkgs, err := Generate(api, Options{Origin: "test", Libraries: libs})
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	for _, p := range pkgs {
		if p.Name == d.Package {
			for n, b := range p.Files {
				files[n] = string(b)
			}
		}
	}
	return files, nil
}
