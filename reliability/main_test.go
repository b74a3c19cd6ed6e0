//go:build linux && (amd64 || arm64)

// Package reliability holds the tests of the issue "nothing lost, nothing
// crashes" that need the generated packages and real CUDA libraries: what a
// program sees when a library is absent, the wrong one or too old, which
// argument checks happen in Go and which in CUDA, heavy concurrent use, and
// (on a GPU machine) sticky device faults. docs/reliability.md lists every
// case with its test.
//
// The libraries are Debian's libcuda1 and libcudart12, which load without a
// GPU; `make test` points CUGEN_LIBCUDA and CUGEN_LIBCUDART at them. A
// generated package loads its library once per process, so every case that
// needs a different library, or a process in which CUDA was never
// initialized, runs in a child process: the test binary re-executed for
// that one test with another environment.
package reliability

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// childEnv names the test a re-executed test binary runs as a child.
const childEnv = "CUGEN_RELIABILITY_CHILD"

// isChild reports whether this process is the child of the running test.
func isChild(t *testing.T) bool {
	return os.Getenv(childEnv) == t.Name()
}

// runChild re-executes the test binary for t alone with the environment
// changed by env ("NAME=value" sets, "NAME=" unsets) and fails t unless the
// child passes. It returns the child's output.
func runChild(t *testing.T, env ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = childEnviron(append([]string{childEnv + "=" + t.Name()}, env...))
	out, err := cmd.CombinedOutput()
	text := string(out)
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		t.Log("child: " + l)
	}
	if err != nil {
		t.Fatalf("child process failed (%v): a panic or a crash is a failure of this test", err)
	}
	if strings.Contains(text, "--- SKIP") {
		t.Skip("the child skipped")
	}
	if !strings.Contains(text, "--- PASS: "+t.Name()) {
		t.Fatalf("child did not run %s", t.Name())
	}
	return text
}

func childEnviron(env []string) []string {
	set := map[string]string{}
	var order []string
	for _, kv := range append(os.Environ(), env...) {
		k, v, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; !ok {
			order = append(order, k)
		}
		set[k] = v
	}
	var out []string
	for _, k := range order {
		if v := set[k]; v != "" {
			out = append(out, k+"="+v)
		}
	}
	return out
}

// needLibs skips t unless CUGEN_LIBCUDA and CUGEN_LIBCUDART name existing
// files, and returns them.
func needLibs(t *testing.T) (libcuda, libcudart string) {
	t.Helper()
	libcuda, libcudart = os.Getenv("CUGEN_LIBCUDA"), os.Getenv("CUGEN_LIBCUDART")
	for name, p := range map[string]string{"CUGEN_LIBCUDA": libcuda, "CUGEN_LIBCUDART": libcudart} {
		if p == "" {
			t.Skipf("%s is not set (make test sets it to Debian's library, which loads without a GPU)", name)
		}
		if _, err := os.Stat(p); err != nil {
			t.Skipf("%s: %v", name, err)
		}
	}
	return libcuda, libcudart
}
