package main

import (
	"bytes"
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
