package gen

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGenCommand: the command a generated file records is run from the
// module root and names no machine path: make generate and make check
// (a temporary -out with -importpath) record the same line; a directory
// outside the module is DIR. (The tests run in cmd/cugen, inside the
// module github.com/cugen/cugen.)
func TestGenCommand(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join("..", "..")
	src := func(headers, set, lock string, with ...string) *Source {
		return &Source{Headers: headers, Set: set, Lock: lock, With: with}
	}
	for _, c := range []struct {
		name            string
		src             *Source
		ir, origin      string
		demo            bool
		out, importPath string
		want            string
		libs            []string
	}{
		{name: "make generate", src: src("", "12.4", filepath.Join(root, "headers.lock")), demo: true,
			out: filepath.Join(root, "generated", "cuda12"), importPath: "github.com/cugen/cugen/generated/cuda12",
			want: "cugen gen -set 12.4 -out generated/cuda12"},
		{name: "make check", src: src("", "12.4", filepath.Join(root, "headers.lock")), demo: true,
			out: filepath.Join(tmp, "cuda12"), importPath: "github.com/cugen/cugen/generated/cuda12",
			want: "cugen gen -set 12.4 -out generated/cuda12"},
		{name: "make check, the lock cugen carries", src: src("", "12.4", ""), demo: true,
			out: filepath.Join(tmp, "cuda12"), importPath: "github.com/cugen/cugen/generated/cuda12",
			want: "cugen gen -set 12.4 -out generated/cuda12"},
		{name: "another lock", src: src("", "12.4", filepath.Join(tmp, "my.lock")), demo: true,
			out: filepath.Join(tmp, "cuda12"), importPath: "github.com/cugen/cugen/generated/cuda12",
			want: "cugen gen -set 12.4 -lock DIR -out generated/cuda12"},
		{name: "from the IR", src: src("", "", "headers.lock"), ir: filepath.Join(root, "generated", "cuda13", "ir.json.gz"), demo: true,
			out: filepath.Join(root, "generated", "cuda13"), importPath: "github.com/cugen/cugen/generated/cuda13",
			want: "cugen gen -ir generated/cuda13/ir.json.gz -out generated/cuda13"},
		{name: "origin", src: src("", "", "headers.lock"), ir: filepath.Join(tmp, "ir.json"), origin: "set 13.0 (sha256 x)", demo: true,
			out: filepath.Join(tmp, "cuda13"), importPath: "github.com/cugen/cugen/generated/cuda13",
			want: "cugen gen -ir DIR -origin 'set 13.0 (sha256 x)' -out generated/cuda13"},
		{name: "one library's IR", src: src("", "", "headers.lock"), ir: filepath.Join(root, "generated", "cuda12", "ir-cudnn.json.gz"), demo: true,
			out: filepath.Join(tmp, "w"), importPath: "github.com/cugen/cugen/generated/cuda12", libs: []string{"cudnn"},
			want: "cugen gen -ir generated/cuda12/ir-cudnn.json.gz -lib cudnn -out generated/cuda12"},
		{name: "fixture headers", src: src(filepath.Join(root, "emit", "testdata", "abi"), "", "headers.lock"), demo: true,
			out: ".", importPath: "github.com/cugen/cugen/emit/internal/abitest",
			want: "cugen gen -headers emit/testdata/abi -out emit/internal/abitest"},
		{name: "toolkit headers", src: src("/usr/local/cuda/include", "", "headers.lock", "/opt/nccl/include"),
			out: filepath.Join(tmp, "cuda"), importPath: "example.com/downstream/cuda",
			want: "cugen gen -headers DIR -with DIR -demo=false -out DIR -importpath example.com/downstream/cuda"},
	} {
		if got := Command(c.src, c.ir, "", c.origin, c.demo, c.out, c.importPath, c.libs...); got != c.want {
			t.Errorf("%s: got  %s\nwant %s", c.name, got, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the test expects the module root two directories up: %v", err)
	}
}
