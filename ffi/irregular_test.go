//go:build linux && (amd64 || arm64)

package ffi

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mkfifo makes a named pipe at path.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// loadGuarded is d.load(se) with a hang ceiling: if the load has not
// returned after 20 s (the loader is blocked reading a FIFO), each FIFO is
// opened for writing and closed, which ends the loader's read, and t
// fails.
func loadGuarded(t *testing.T, d *LibraryDesc, se searchEnv, fifos ...string) *loadResult {
	t.Helper()
	done := make(chan *loadResult, 1)
	go func() { done <- d.load(se) }()
	select {
	case r := <-done:
		return r
	case <-time.After(20 * time.Second):
		for _, f := range fifos {
			if fd, err := syscall.Open(f, syscall.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				syscall.Close(fd)
			}
		}
		<-done
		t.Fatalf("the load hung in dlopen (a FIFO handed to the loader)")
		return nil
	}
}

// TestIrregularFilesNotLoaded: only regular files (after links) are handed
// to the loader, from the override variable and from the search alike. A
// FIFO named by CUGEN_LIB* (directly or through a link), or found in a
// searched directory, or on LD_LIBRARY_PATH under the soname, is refused
// with its kind, promptly; the search goes on to the next candidate.
// Before, dlopen opened the FIFO and blocked in read forever (cugen doctor
// and every program hung), holding the loader's lock.
func TestIrregularFilesNotLoaded(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	fifo := filepath.Join(base, "pipe", "libcuda.so.1")
	mkfifo(t, fifo)
	link := filepath.Join(base, "link", "libcuda.so.1")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	const reason = "a named pipe (FIFO), not a library file"
	for _, p := range []string{fifo, link} {
		env := map[string]string{"CUGEN_TEST_SEARCH": p}
		r := loadGuarded(t, runtimeDesc(), fakeSearch(root, env), fifo)
		le, _ := r.err.(*LoadError)
		if le == nil {
			t.Fatalf("%s: loaded %q (%v), want a *LoadError", p, r.path, r.err)
		}
		want := "cugen: cannot load test runtime library: CUGEN_TEST_SEARCH=" + p + " is " + reason + ": fix or unset CUGEN_TEST_SEARCH"
		if le.Error() != want {
			t.Errorf("%s:\n got %s\nwant %s", p, le.Error(), want)
		}
		if _, ok := le.Unopenable(); ok {
			t.Errorf("%s: Unopenable: the file was never handed to the loader", p)
		}
	}
	if st, err := os.Stat("/dev/null"); err == nil && st.Mode()&os.ModeCharDevice != 0 {
		r := loadGuarded(t, runtimeDesc(), fakeSearch(root, map[string]string{"CUGEN_TEST_SEARCH": "/dev/null"}))
		if r.err == nil || !strings.Contains(r.err.Error(), "CUGEN_TEST_SEARCH=/dev/null is a character device, not a library file") {
			t.Errorf("/dev/null: %v", r.err)
		}
	}

	// Found by the search: a FIFO in CUDA_HOME's lib64 and, under the
	// soname, on LD_LIBRARY_PATH, are passed over for the copy in conda.
	env := map[string]string{
		"CUDA_HOME":       filepath.Join(base, "cuda"),
		"CONDA_PREFIX":    filepath.Join(base, "conda"),
		"LD_LIBRARY_PATH": filepath.Join(base, "nothere") + "::" + filepath.Join(base, "ldpath"),
	}
	inDir := filepath.Join(base, "cuda", "lib64", testSoname)
	onPath := filepath.Join(base, "ldpath", testSoname)
	mkfifo(t, inDir)
	mkfifo(t, onPath)
	install(t, base, filepath.Join("conda", "lib", testSoname))
	r := loadGuarded(t, runtimeDesc(), fakeSearch(root, env), inDir, onPath)
	if want := filepath.Join(base, "conda", "lib", testSoname); r.err != nil || r.path != want {
		t.Fatalf("loaded %q (%v), want %q", r.path, r.err, want)
	}
	// The LoadError of the same search without conda's copy names both.
	os.Remove(filepath.Join(base, "conda", "lib", testSoname))
	r = loadGuarded(t, runtimeDesc(), fakeSearch(root, env), inDir, onPath)
	le, _ := r.err.(*LoadError)
	if le == nil {
		t.Fatalf("loaded %q (%v), want a *LoadError", r.path, r.err)
	}
	for _, want := range []string{
		testSoname + ": LD_LIBRARY_PATH has " + onPath + ", " + reason,
		inDir + ": " + reason,
	} {
		found := false
		for _, tr := range le.Tried {
			found = found || tr == want
		}
		if !found {
			t.Errorf("Tried lacks %q:\n %s", want, strings.Join(le.Tried, "\n "))
		}
	}
}

const irregularChildEnv = "CUGEN_FFI_IRREGULAR_CHILD"

// TestIrregularLoaderPath: the real loader, in a process started with
// LD_LIBRARY_PATH holding a FIFO under the soname searched for, is never
// handed the bare soname: the load fails at once naming the FIFO. Before,
// the child hung in dlopen and was killed.
func TestIrregularLoaderPath(t *testing.T) {
	if os.Getenv(irregularChildEnv) != "" {
		t.Skip("the child runs TestIrregularLoaderPathChild")
	}
	if e := os.Getenv("CUGEN_EMULATED"); e != "" {
		t.Skipf("under %s (CUGEN_EMULATED) the test binary cannot start itself as a child; the test runs natively", e)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, testSoname)
	mkfifo(t, fifo)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-test.run=^TestIrregularLoaderPathChild$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), irregularChildEnv+"=1", "LD_LIBRARY_PATH="+dir)
	out, err := cmd.CombinedOutput()
	text := string(out)
	if ctx.Err() != nil {
		t.Fatalf("the child hung in dlopen (killed after 60 s):\n%s", text)
	}
	if err != nil || !strings.Contains(text, "--- PASS: TestIrregularLoaderPathChild") {
		t.Fatalf("child: %v\n%s", err, text)
	}
}

// TestIrregularLoaderPathChild is the child of TestIrregularLoaderPath.
func TestIrregularLoaderPathChild(t *testing.T) {
	if os.Getenv(irregularChildEnv) == "" {
		t.Skip("run by TestIrregularLoaderPath")
	}
	err := NewLibrary(LibraryDesc{Name: "test", Files: []string{testSoname}}).Load()
	le, _ := err.(*LoadError)
	fifo := filepath.Join(os.Getenv("LD_LIBRARY_PATH"), testSoname)
	if le == nil || len(le.Tried) == 0 || le.Tried[0] != testSoname+": LD_LIBRARY_PATH has "+fifo+", a named pipe (FIFO), not a library file" {
		t.Fatalf("Load = %v, want the FIFO on LD_LIBRARY_PATH named first", err)
	}
}
