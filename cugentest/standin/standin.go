// Package standin builds stand-ins for CUDA's libraries, for tests and
// benchmarks of the layer's math packages on a machine without a GPU:
// small shared libraries, built with the C compiler, that export the
// functions the packages call, return success and count their calls.
// The driver's stand-in hands out C heap memory as device memory, so
// allocations, copies and fills work; the libraries compute nothing.
//
// A test or benchmark that uses them runs in a fresh process whose
// CUGEN_LIB* variables name the stand-ins ([Run]), so no real library is
// loaded before them and none after.
package standin

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/cugen/cugen/ffi"
)

// Majors are the major versions the stand-ins report (their
// *GetProperty(MAJOR_VERSION)): the VerMajor constants of the generated
// packages under test, which check them when they load.
type Majors struct {
	CUBLAS, CURAND, CUFFT, CUSPARSE, CUSOLVER int
}

// dirEnv, when set, is the directory the stand-ins are built into and
// left in, to run a test binary on them by hand (with the CUGEN_LIB*
// variables and CUGEN_STANDIN_CHILD set to the test's name), under a
// profiler say.
const dirEnv = "CUGEN_STANDIN_DIR"

// childEnv marks the fresh process; its value is the test's name.
const childEnv = "CUGEN_STANDIN_CHILD"

// Run runs tb in a fresh process of the test binary whose libraries are
// the stand-ins, built into a temporary directory: in that process it
// returns true, and tb goes on; in this one it relays the fresh
// process's output to tb's log, fails tb if it failed, and returns false
// (return then). It skips tb when no C compiler ($CC, else gcc) builds
// the stand-ins. A benchmark's fresh process runs it alone with this
// process's -test.benchtime and -test.benchmem.
func Run(tb testing.TB, m Majors) bool {
	tb.Helper()
	if os.Getenv(childEnv) == tb.Name() {
		return true
	}
	if runtime.GOOS != "linux" {
		tb.Skip("the stand-in libraries are built for Linux")
	}
	dir := os.Getenv(dirEnv)
	if dir == "" {
		dir = tb.TempDir()
	}
	env := []string{childEnv + "=" + tb.Name()}
	for _, l := range []struct {
		env, file, src string
		major          int
	}{
		{"CUGEN_LIBCUDA", "libcuda.so.1", driverSource, 0},
		{"CUGEN_LIBCUBLAS", "libcublas.so", cublasSource, m.CUBLAS},
		{"CUGEN_LIBCURAND", "libcurand.so", curandSource, m.CURAND},
		{"CUGEN_LIBCUFFT", "libcufft.so", cufftSource, m.CUFFT},
		{"CUGEN_LIBCUSPARSE", "libcusparse.so", cusparseSource, m.CUSPARSE},
		{"CUGEN_LIBCUSOLVER", "libcusolver.so", cusolverSource, m.CUSOLVER},
	} {
		lib, err := build(dir, l.file, l.src, l.major)
		if err != nil {
			tb.Skipf("cannot build the stand-in %s: %v", l.file, err)
		}
		env = append(env, l.env+"="+lib)
	}
	exe, err := os.Executable()
	if err != nil {
		tb.Fatalf("cannot re-execute the test binary: %v", err)
	}
	args := []string{"-test.run=^" + tb.Name() + "$", "-test.v", "-test.count=1"}
	if _, ok := tb.(*testing.B); ok {
		args = []string{"-test.run=^$", "-test.bench=^" + tb.Name() + "$", "-test.count=1"}
		for _, f := range []string{"test.benchtime", "test.benchmem", "test.cpu"} {
			if fl := flag.Lookup(f); fl != nil {
				args = append(args, "-"+f+"="+fl.Value.String())
			}
		}
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	text := string(out)
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		tb.Log("stand-in: " + l)
	}
	switch {
	case err != nil:
		tb.Fatalf("the process on the stand-ins failed (%v): its log above", err)
	case strings.Contains(text, "--- SKIP"):
		tb.Skip("skipped on the stand-ins (log above)")
	}
	return false
}

// build compiles src as the shared library file in dir.
func build(dir, file, src string, major int) (string, error) {
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	c := filepath.Join(dir, file+".c")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		return "", err
	}
	lib := filepath.Join(dir, file)
	out, err := exec.Command(cc, "-shared", "-fPIC", "-O2", "-DMAJOR="+strconv.Itoa(major), "-o", lib, c).CombinedOutput()
	if err != nil {
		return "", &buildError{err, string(out)}
	}
	return lib, nil
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + ": " + strings.TrimSpace(e.out) }

// Count returns how many times the stand-in loaded as lib (a generated
// package's SharedLibrary(), e.g. cublas.SharedLibrary()) has had its
// function fn called, for the functions the stand-ins count (the
// stream bindings, creates and destroys, a few library calls); -1 for
// another.
func Count(tb testing.TB, lib *ffi.Library, fn string) int {
	tb.Helper()
	f, err := lib.Lookup("standin_count")
	if err != nil {
		tb.Fatalf("%s is not a stand-in: %v", lib.Name(), err)
	}
	r, err := ffi.Call(f, append([]byte(fn), 0))
	if err != nil {
		tb.Fatal(err)
	}
	return int(int64(r))
}
