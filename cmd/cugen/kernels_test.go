package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/internal/kernels"
)

// kernels -check passes on the committed examples/vectorAddTyped/kernels
// and fails naming the file once one of them differs.
func TestKernelsCheck(t *testing.T) {
	if _, err := kernels.OpenNVRTC(); err != nil {
		cugentest.NeedLibrary(t, err)
	}
	ex := filepath.Join("..", "..", "examples", "vectorAddTyped")
	committed, err := os.ReadFile(filepath.Join(ex, "kernels", "kernels.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(committed, []byte(" with NVRTC 12.4.")) {
		t.Fatal("the example records another NVRTC: update this test")
	}
	args := []string{"-src", filepath.Join(ex, "vectorAdd.cu"), "-arch", "sm_80,sm_90", "-name", "axpy<float>", "-name", "axpy<double>",
		"-cuda", "github.com/cugen/cugen/cuda"}
	var out, errb bytes.Buffer
	if err := cmdKernels(append(args, "-check", "-out", filepath.Join(ex, "kernels")), &out, &errb); err != nil {
		if strings.Contains(err.Error(), "NVRTC") {
			t.Skipf("this machine's NVRTC: %v", err)
		}
		t.Fatalf("kernels -check on the committed package: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "kernels")
	os.Mkdir(dir, 0o755)
	ents, _ := os.ReadDir(filepath.Join(ex, "kernels"))
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(ex, "kernels", e.Name()))
		if e.Name() == "kernels.go" {
			b = bytes.Replace(b, []byte("func Load("), []byte("func LoadX("), 1)
		}
		os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644)
	}
	err = cmdKernels(append(args, "-check", "-out", dir), &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "kernels.go") || strings.Contains(err.Error(), "sm_90.cubin") {
		t.Errorf("kernels -check of a changed kernels.go: %v", err)
	}
}

// cugen kernels of a source whose kernel names collide with the
// generated Kernels type's methods fails naming both and writes nothing
// (before: it exited 0 with a package that does not compile).
func TestKernelsNameCollisionWritesNothing(t *testing.T) {
	if _, err := kernels.OpenNVRTC(); err != nil {
		cugentest.NeedLibrary(t, err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "k.cu")
	if err := os.WriteFile(src, []byte("extern \"C\" __global__ void close(int x) {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "k")
	var stdout, stderr bytes.Buffer
	err := cmdKernels([]string{"-src", src, "-arch", "sm_90", "-cuda", "example.com/cuda", "-out", out}, &stdout, &stderr)
	want := "cugen kernels: cugen's method Close and kernel close (k.cu:1) both become the Go name Close in type Kernels"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s written: %v", out, err)
	}
}

// cugen kernels -check, with the command line cuda/algo/internal/cubk
// records, regenerates CUB's kernels byte for byte from the headers
// headers.lock pins (fetched into the cache on first use). It compiles
// 210 kernels of CUB four times (8 minutes on a loaded 2-core machine),
// so it runs only with CUGEN_TEST_CUB=1.
func TestKernelsCheckAlgo(t *testing.T) {
	if os.Getenv("CUGEN_TEST_CUB") != "1" {
		t.Skip("compiles CUB's kernels for minutes: set CUGEN_TEST_CUB=1")
	}
	if _, err := kernels.OpenNVRTC(); err != nil {
		cugentest.NeedLibrary(t, err)
	}
	root := filepath.Join("..", "..")
	committed, err := os.ReadFile(filepath.Join(root, "cuda", "algo", "internal", "cubk", "kernels.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(committed), "\n", 4)
	cmd, ok := strings.CutPrefix(lines[2], "// cugen kernels ")
	if !ok || !strings.Contains(lines[0], " with NVRTC 12.4.") {
		t.Fatalf("kernels.go does not start as cugen kernels writes it with NVRTC 12.4: %q", lines[:3])
	}
	args, err := splitRecorded(cmd)
	if err != nil {
		t.Fatal(err)
	}
	// the recorded paths are relative to the module root
	for i := 1; i < len(args); i++ {
		if f := args[i-1]; f == "-src" || f == "-I" || f == "-out" {
			args[i] = filepath.Join(root, args[i])
		}
	}
	var out, errb bytes.Buffer
	if err := cmdKernels(append(args, "-check", "-lock", filepath.Join(root, "headers.lock")), &out, &errb); err != nil {
		if strings.Contains(err.Error(), "NVRTC 13") {
			t.Skipf("this machine's NVRTC is not the 12.4 the images were made with: %v", err)
		}
		t.Fatalf("kernels -check on cuda/algo/internal/cubk: %v\n%s", err, errb.String())
	}
}

// splitRecorded splits a command line as commandLine writes it: words,
// some in single quotes.
func splitRecorded(s string) ([]string, error) {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '\'' {
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unterminated quote in %q", s)
			}
			out = append(out, s[1:1+end])
			s = s[2+end:]
			continue
		}
		w, rest, _ := strings.Cut(s, " ")
		out = append(out, w)
		s = rest
	}
	return out, nil
}

// TestKernelsTemplateNote: a template kernel that no -name instantiates
// is not bound, and a note on stderr says so and how to bind it (issue
// 40: it was skipped with no word); one that -name names gets none.
func TestKernelsTemplateNote(t *testing.T) {
	src := filepath.Join(t.TempDir(), "k.cu")
	os.WriteFile(src, []byte("template <typename T> __global__ void axpy(T a, T *y) {}\ntemplate <typename T> __global__ void fill(T *y) {}\nextern \"C\" __global__ void k(float *x) {}\n"), 0o644)
	_, _, stderr := cugen(t, "kernels", "-src", src, "-name", "fill<float>", "-out", filepath.Join(t.TempDir(), "kernels"))
	want := "cugen kernels: note: k.cu:1: template kernel axpy<T> is not bound: -name 'axpy<...>' binds an instantiation (one argument for each of T)\n"
	if !strings.HasPrefix(stderr, want) || strings.Contains(stderr, "fill<T>") {
		t.Errorf("stderr %q; want it to start with %q and say nothing of fill", stderr, want)
	}
}
