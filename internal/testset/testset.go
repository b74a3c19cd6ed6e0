// Package testset finds, for cugen's own tests, the repository's
// headers.lock and the locked header sets in the cache, the same way from
// every package and from any working directory below the module root. It
// never fetches: make fetches (make test, make headers CUDA=X.Y), and a
// test whose set is not in the cache skips naming the target, or fails
// under CUGEN_REQUIRE_HEADERS=1 (make test sets it). Test-only.
package testset

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/internal/lock"
)

// SetsEnv, when set, lists the header sets the tests may use (make quick:
// "12.4"); a test of another set skips. Unset, every set in the cache is
// used.
const SetsEnv = "CUGEN_TEST_SETS"

// module is the module path whose go.mod marks the root.
const module = "github.com/cugen/cugen"

// Root returns the cugen module root: the nearest directory at or above
// the working directory whose go.mod declares the cugen module. Where
// there is none (a test binary run from elsewhere), it skips tb, or fails
// it under CUGEN_REQUIRE_HEADERS=1.
func Root(tb testing.TB) string {
	tb.Helper()
	root, skip, err := findRoot()
	end(tb, skip, err)
	return root
}

// LockPath is the path of the repository's headers.lock.
func LockPath(tb testing.TB) string {
	tb.Helper()
	return filepath.Join(Root(tb), "headers.lock")
}

// Lock reads the repository's headers.lock.
func Lock(tb testing.TB) *lock.Lock {
	tb.Helper()
	l, err := lock.ReadFile(LockPath(tb))
	end(tb, "", err)
	return l
}

// Set returns locked header set name (and its headers entries) as it is in
// the cache, verified. Not there, it skips tb naming the make target that
// fetches it, or fails tb under CUGEN_REQUIRE_HEADERS=1. A set the run
// leaves out (SetsEnv) skips whatever the switch says.
func Set(tb testing.TB, name string) *lock.FetchedSet {
	tb.Helper()
	if r := LeftOut(name); r != "" {
		tb.Skip(r) // chosen by the run, never a failure
	}
	fs, skip, err := Find(name)
	end(tb, skip, err)
	return fs
}

// Dir is the include directory of set name (Set(tb, name).Dir).
func Dir(tb testing.TB, name string) string {
	tb.Helper()
	return Set(tb, name).Dir
}

// LeftOut is why a test of set name skips in this run (SetsEnv does not
// list it), or "".
func LeftOut(name string) string {
	if only := os.Getenv(SetsEnv); only != "" && !slices.Contains(strings.Fields(only), name) {
		return fmt.Sprintf("set %s left out (%s=%q, make quick): make test runs it", name, SetsEnv, only)
	}
	return ""
}

// Find is Set for a caller that decides later (a set parsed once for many
// tests): the set, or why a test should skip (skip), or what is wrong
// with headers.lock (err).
func Find(name string) (fs *lock.FetchedSet, skip string, err error) {
	root, skip, err := findRoot()
	if skip != "" || err != nil {
		return nil, skip, err
	}
	l, err := lock.ReadFile(filepath.Join(root, "headers.lock"))
	if err != nil {
		return nil, "", err
	}
	e, err := l.Entry(name)
	if err != nil {
		return nil, "", err
	}
	fs, err = l.CachedSetEntry(e, "")
	if err != nil {
		first, _, _ := strings.Cut(err.Error(), "\n")
		return nil, fmt.Sprintf("set %s not in the cache: run make test (or make headers CUDA=%s): %s", name, name, first), nil
	}
	return fs, "", nil
}

// end fails tb with err, or skips it with skip (SkipNoHeaders), or returns.
func end(tb testing.TB, skip string, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
	if skip != "" {
		cugentest.SkipNoHeaders(tb, "%s", skip)
	}
}

func findRoot() (root, skip string, err error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && modulePath(b) == module {
			return d, "", nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return "", fmt.Sprintf("no %s module (go.mod, headers.lock) at or above %s: run the test in the repository (go test, make quick)", module, wd), nil
}

func modulePath(gomod []byte) string {
	for _, l := range bytes.Split(gomod, []byte("\n")) {
		if f := strings.Fields(string(l)); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}
