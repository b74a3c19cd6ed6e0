package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cugen/cugen/internal/genfiles"
	"github.com/cugen/cugen/internal/testset"
)

// nvrtcHeaders is tinyHeaders with an nvrtc.h declaring one function: the
// layer's packages (cu, nvrtc) are all generated from it.
func nvrtcHeaders(t *testing.T) string {
	t.Helper()
	dir := tinyHeaders(t)
	h := "typedef enum { NVRTC_SUCCESS = 0, NVRTC_ERROR_OUT_OF_MEMORY = 1 } nvrtcResult;\nnvrtcResult nvrtcVersion(int *major, int *minor);\n"
	if err := os.WriteFile(filepath.Join(dir, "nvrtc.h"), []byte(h), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestGenLayer: gen writes the Go layer as OUT/cuda, its imports rewritten
// to OUT's import path, without its tests and, with no package nccl,
// without nccl.go; gen -check reports a stale or missing file of it;
// -layer=false neither writes nor checks it; without nvrtc (not declared,
// or left out by -lib) there is no layer and a note says why; the layer's
// files record gen's command line under their marker line, as the
// packages' files do. Was: gen wrote no layer (a module had to copy it by
// hand from generated/cudaN); then its files recorded no command.
func TestGenLayer(t *testing.T) {
	dir := nvrtcHeaders(t)
	gen := func(args ...string) (int, string, string) {
		t.Helper()
		return cugen(t, append([]string{"gen", "-headers", dir}, args...)...)
	}
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := gen("-out", out, "-importpath", "example.com/t")
	if code != 0 || !strings.Contains(stdout, "cuda (the Go layer) -> ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if got := dirNames(t, out); !slices.Equal(got, []string{"cu", "cuda", "cudart", "nvrtc"}) {
		t.Errorf("%s holds %q, want cu, cuda, cudart, nvrtc", out, got)
	}
	layer := filepath.Join(out, "cuda")
	names := dirNames(t, layer)
	if !slices.Contains(names, "rtc.go") || !slices.Contains(names, "context.go") {
		t.Errorf("%s holds %q, want the layer's files", layer, names)
	}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") || n == "nccl.go" {
			t.Errorf("%s has %s: the module's layer has no tests, and no NCCL without package nccl", layer, n)
		}
		b, _ := os.ReadFile(filepath.Join(layer, n))
		if !genfiles.IsGenerated(b) {
			t.Errorf("%s lacks cugen's marker line", n)
		}
		if strings.Contains(string(b), `"github.com/cugen/cugen/generated/`) {
			t.Errorf("%s still imports cugen's generated packages", n)
		}
	}
	// The layer's files record gen's command line, as the packages' do.
	secondLine := func(p string) string {
		b, _ := os.ReadFile(p)
		lines := strings.SplitN(string(b), "\n", 3)
		if len(lines) < 2 {
			return ""
		}
		return lines[1]
	}
	if got, want := secondLine(filepath.Join(layer, "rtc.go")), secondLine(filepath.Join(out, "cu", "funcs.go")); !strings.HasPrefix(want, "// cugen gen ") || got != want {
		t.Errorf("cuda/rtc.go's second line is %q; want cu/funcs.go's, gen's command line (%q)", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(layer, "rtc.go")); !strings.Contains(string(b), "\t\"example.com/t/nvrtc\"\n") {
		t.Errorf("rtc.go does not import example.com/t/nvrtc:\n%s", b)
	}
	if code, stdout, stderr := gen("-check", "-out", out, "-importpath", "example.com/t"); code != 0 {
		t.Fatalf("check after gen: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	// A stale layer: one file edited, one removed.
	rtc := filepath.Join(layer, "rtc.go")
	b, _ := os.ReadFile(rtc)
	os.WriteFile(rtc, append(b, "// edited\n"...), 0o644)
	os.Remove(filepath.Join(layer, "doc.go"))
	code, stdout, stderr = gen("-check", "-out", out, "-importpath", "example.com/t")
	if code != 1 || !strings.Contains(stdout, "cugen: stale cuda/rtc.go\n") || !strings.Contains(stdout, "cugen: missing cuda/doc.go\n") || !strings.Contains(stderr, "2 file(s) differ") {
		t.Errorf("check of a stale layer: exit %d, stdout %q, stderr %q; want 1, stale cuda/rtc.go, missing cuda/doc.go", code, stdout, stderr)
	}
	if code, stdout, stderr := gen("-check", "-layer=false", "-out", out, "-importpath", "example.com/t"); code != 0 {
		t.Errorf("check -layer=false: exit %d, stdout %q, stderr %q; the layer is not checked", code, stdout, stderr)
	}
	if code, _, stderr := gen("-layer=false", "-out", out, "-importpath", "example.com/t"); code != 0 {
		t.Fatalf("gen -layer=false: exit %d, %s", code, stderr)
	}
	if b, _ := os.ReadFile(rtc); !strings.HasSuffix(string(b), "// edited\n") {
		t.Errorf("gen -layer=false rewrote the layer")
	}
	if code, _, stderr := gen("-out", out, "-importpath", "example.com/t"); code != 0 {
		t.Fatalf("gen: exit %d, %s", code, stderr)
	}
	if code, stdout, stderr := gen("-check", "-out", out, "-importpath", "example.com/t"); code != 0 {
		t.Errorf("check after regenerating: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	for _, c := range []struct {
		name string
		args []string
		note string
	}{
		{"layer=false", []string{"-layer=false"}, ""},
		{"lib without nvrtc", []string{"-lib", "cu,cudart"}, "/cuda (the Go layer): it imports nvrtc; -lib leaves it out (add it to -lib, or give -layer=false)\n"},
	} {
		out := filepath.Join(t.TempDir(), "out")
		code, stdout, stderr := gen(append(c.args, "-out", out, "-importpath", "example.com/t")...)
		if code != 0 || slices.Contains(dirNames(t, out), "cuda") || !strings.Contains(stdout, c.note) {
			t.Errorf("%s: exit %d, wrote %q, stdout %q, stderr %q; want no cuda/ and %q", c.name, code, dirNames(t, out), stdout, stderr, c.note)
		}
	}
	out = filepath.Join(t.TempDir(), "out")
	code, stdout, _ = cugen(t, "gen", "-headers", tinyHeaders(t), "-out", out, "-importpath", "example.com/t")
	if want := "/cuda (the Go layer): it imports nvrtc; the headers declare no NVRTC (-layer=false leaves the layer out)\n"; code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("headers without nvrtc.h: exit %d, stdout %q; want the note %q", code, stdout, want)
	}
}

// TestGenSetInModule: the recipe of docs/generating.md in a module of its own with no
// headers.lock: gen -set 12.4 -lib cu,cudart,nvrtc -out cuda writes the
// three packages and the layer, imports from go.mod's module path; the
// module builds and vets with them, and gen -check passes. Was: "open
// headers.lock: no such file or directory", and no layer. With cublas in
// -lib the layer has its blas subpackage, which builds and vets; gen
// without it removes it (gen -check lists it as extra before).
func TestGenSetInModule(t *testing.T) {
	testset.Set(t, "12.4")
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip(err)
	}
	checkout, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(checkout, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	gomod := "module example.com/m\n\ngo 1.26\n\nrequire github.com/cugen/cugen v0.0.0\n\nreplace github.com/cugen/cugen => " + checkout + "\n"
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644)
	os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644)
	t.Chdir(mod)
	goRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command(gobin, args...)
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	// With cublas, the layer's blas subpackage: written, builds and vets.
	code, stdout, stderr := cugen(t, "gen", "-set", "12.4", "-lib", "cu,cudart,nvrtc,cublas", "-out", "cuda")
	if code != 0 || !strings.Contains(stdout, "cuda/blas") {
		t.Fatalf("gen with cublas: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join("cuda", "cuda", "blas", "blas.go")); !strings.Contains(string(b), "\t\"example.com/m/cuda/cublas\"\n") || !strings.Contains(string(b), "\t\"example.com/m/cuda/cuda\"\n") {
		t.Errorf("cuda/cuda/blas/blas.go does not import example.com/m/cuda/cublas and .../cuda:\n%.600s", b)
	}
	goRun("build", "./...")
	goRun("vet", "./cuda/cuda/blas")
	// Without it: gen -check lists blas's files as extra; gen removes
	// them (they would not build), and gen -check agrees.
	code, stdout, _ = cugen(t, "gen", "-check", "-set", "12.4", "-lib", "cu,cudart,nvrtc", "-out", "cuda")
	if code != 1 || !strings.Contains(stdout, "cugen: extra cuda/blas/blas.go\n") {
		t.Errorf("gen -check without cublas over a blas: exit %d, stdout %q", code, stdout)
	}
	code, stdout, stderr = cugen(t, "gen", "-set", "12.4", "-lib", "cu,cudart,nvrtc", "-out", "cuda")
	if code != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// cublas stays from the first run: gen replaces the packages it writes.
	if got := dirNames(t, "cuda"); !slices.Equal(got, []string{"cu", "cublas", "cuda", "cudart", "nvrtc"}) {
		t.Errorf("cuda/ holds %q, want cu, cublas, cuda, cudart, nvrtc", got)
	}
	if b, _ := os.ReadFile(filepath.Join("cuda", "cuda", "module.go")); !strings.Contains(string(b), "\t\"example.com/m/cuda/cu\"\n") {
		t.Errorf("cuda/cuda/module.go does not import example.com/m/cuda/cu")
	}
	if _, err := os.Stat(filepath.Join("cuda", "cuda", "blas")); !os.IsNotExist(err) {
		t.Errorf("cuda/cuda/blas is still there without cublas: %v", err)
	}
	goRun("build", "./...")
	goRun("vet", "./cuda/cuda")
	if code, stdout, stderr := cugen(t, "gen", "-check", "-set", "12.4", "-lib", "cu,cudart,nvrtc", "-out", "cuda"); code != 0 {
		t.Errorf("gen -check: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
