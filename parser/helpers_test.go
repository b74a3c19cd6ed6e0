package parser_test

import (
	"sync"
	"testing"

	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/internal/testset"
	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
)

// lockEntry returns the entry of a header set in headers.lock.
func lockEntry(t testing.TB, set string) *lock.Entry {
	t.Helper()
	e, err := testset.Lock(t).Entry(set)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// parsed caches one parse per header set: the whole-header tests only read
// the IR, and a parse costs a tenth of a second.
var parsed struct {
	sync.Mutex
	apis map[string]*ir.API
}

func parseSet(t testing.TB, set string) (*ir.API, string) {
	t.Helper()
	dir := testset.Dir(t, set)
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
