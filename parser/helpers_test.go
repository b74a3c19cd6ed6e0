package parser_test

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
)

// lockPath is the repository's lock file, seen from the package directory.
const lockPath = "../headers.lock"

// lockEntry returns the entry of a header set in headers.lock.
func lockEntry(t testing.TB, set string) *lock.Entry {
	t.Helper()
	l, err := lock.ReadFile(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	e, err := l.Entry(set)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// headerDir returns the verified include directory of a locked header set,
// fetching it into the cache when needed. Without network or apt the test
// is skipped: `make test` fetches the sets before running go test.
func headerDir(t testing.TB, set string) string {
	t.Helper()
	e := lockEntry(t, set)
	cache, err := lock.DefaultCacheDir()
	if err != nil {
		t.Skipf("no cache directory for header set %s: %v", set, err)
	}
	dir, err := lock.Fetch(context.Background(), e, cache, io.Discard)
	if err != nil {
		t.Skipf("header set %s not available (run make headers): %v", set, firstLine(err.Error()))
	}
	return dir
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// parsed caches one parse per header set: the whole-header tests only read
// the IR, and a parse costs a tenth of a second.
var parsed struct {
	sync.Mutex
	apis map[string]*ir.API
}

func parseSet(t testing.TB, set string) (*ir.API, string) {
	t.Helper()
	dir := headerDir(t, set)
	parsed.Lock()
	defer parsed.Unlock()
	if api, ok := parsed.apis[set]; ok {
		return api, dir
	}
	api, err := parser.Parse(dir)
	if err != nil {
		t.Fatalf("Parse(%s): %v", set, err)
	}
	if parsed.apis == nil {
		parsed.apis = map[string]*ir.API{}
	}
	parsed.apis[set] = api
	return api, dir
}

func findFunction(api *ir.API, name string) *ir.Function {
	for _, f := range api.Functions {
		if f.Name == name {
			return f
		}
	}
	return nil
}

func findParam(f *ir.Function, name string) *ir.Param {
	for i := range f.Params {
		if f.Params[i].Name == name {
			return &f.Params[i]
		}
	}
	return nil
}

func findMacro(api *ir.API, name string) *ir.Macro {
	for _, m := range api.Macros {
		if m.Name == name {
			return m
		}
	}
	return nil
}
