package testset_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/internal/testset"
)

// ending records how a helper ended a test: "skip", "fail" or "" (it
// returned), and the message.
type ending struct {
	testing.TB
	how, msg string
}

func (e *ending) Helper()                   {}
func (e *ending) Skip(a ...any)             { e.end("skip", fmt.Sprint(a...)) }
func (e *ending) Skipf(f string, a ...any)  { e.end("skip", fmt.Sprintf(f, a...)) }
func (e *ending) Fatal(a ...any)            { e.end("fail", fmt.Sprint(a...)) }
func (e *ending) Fatalf(f string, a ...any) { e.end("fail", fmt.Sprintf(f, a...)) }
func (e *ending) end(how, msg string)       { e.how, e.msg = how, msg; runtime.Goexit() }

func run(f func(testing.TB)) *ending {
	e := &ending{}
	done := make(chan struct{})
	go func() { defer close(done); f(e) }()
	<-done
	return e
}

// TestRoot: the module root is found from a package directory and from
// below it; from outside the module the test skips, or fails under
// CUGEN_REQUIRE_HEADERS=1. (Before, e2e read ../headers.lock and failed
// when its binary ran from anywhere but e2e/.)
func TestRoot(t *testing.T) {
	root := testset.Root(t)
	if _, err := os.Stat(filepath.Join(root, "headers.lock")); err != nil {
		t.Fatalf("Root = %s: %v", root, err)
	}
	t.Chdir(filepath.Join(root, "e2e", "e2e13"))
	if got := testset.Root(t); got != root {
		t.Errorf("Root from e2e/e2e13 = %s, want %s", got, root)
	}
	t.Chdir(t.TempDir())
	for _, require := range []string{"", "1"} {
		t.Setenv(cugentest.RequireHeadersEnv, require)
		e := run(func(tb testing.TB) { testset.Root(tb) })
		want := map[string]string{"": "skip", "1": "fail"}[require]
		if e.how != want || !strings.Contains(e.msg, "make quick") {
			t.Errorf("%s=%q outside the module: %s %q, want %s naming make quick", cugentest.RequireHeadersEnv, require, e.how, e.msg, want)
		}
	}
}

// TestSetNotCached: a set missing from the cache skips naming the make
// targets (or fails under the switch), and nothing is fetched.
func TestSetNotCached(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("CUGEN_CACHE", cache)
	t.Setenv(testset.SetsEnv, "") // every set wanted
	for _, require := range []string{"", "1"} {
		t.Setenv(cugentest.RequireHeadersEnv, require)
		e := run(func(tb testing.TB) { testset.Set(tb, "11.8") })
		want := map[string]string{"": "skip", "1": "fail"}[require]
		if e.how != want || !strings.Contains(e.msg, "set 11.8 not in the cache: run make test (or make headers CUDA=11.8)") {
			t.Errorf("%s=%q: %s %q, want %s naming the targets", cugentest.RequireHeadersEnv, require, e.how, e.msg, want)
		}
	}
	if ents, _ := os.ReadDir(cache); len(ents) != 0 {
		t.Errorf("the cache has %d entries after Set: it fetched", len(ents))
	}
	if e := run(func(tb testing.TB) { testset.Set(tb, "99.9") }); e.how != "fail" {
		t.Errorf("a set headers.lock lacks: %s %q, want a failure", e.how, e.msg)
	}
}

// TestSetsEnv: CUGEN_TEST_SETS (make quick) leaves out the other sets.
func TestSetsEnv(t *testing.T) {
	t.Setenv(testset.SetsEnv, "12.4")
	t.Setenv(cugentest.RequireHeadersEnv, "1") // make quick sets both: left out is not missing
	e := run(func(tb testing.TB) { testset.Set(tb, "11.8") })
	if e.how != "skip" || !strings.Contains(e.msg, "set 11.8 left out") {
		t.Errorf("set 11.8 under CUGEN_TEST_SETS=12.4: %s %q, want a skip", e.how, e.msg)
	}
}
