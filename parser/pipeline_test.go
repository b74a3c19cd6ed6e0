package parser_test

import (
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cugen/cugen/parser"
)

// gateLog records the gates the second pass went through.
type gateLog struct {
	mu    sync.Mutex
	gates []string // "after/units/done" each
	ahead []string // those opened before the first pass got there
}

func watchGates(t *testing.T) *gateLog {
	l := &gateLog{}
	t.Cleanup(parser.WatchGates(func(after, units int, done bool) {
		l.mu.Lock()
		defer l.mu.Unlock()
		g := strconv.Itoa(after) + "/" + strconv.Itoa(units) + "/" + strconv.FormatBool(done)
		l.gates = append(l.gates, g)
		if !done && (after < 0 || units < after) {
			l.ahead = append(l.ahead, g)
		}
	}))
	return l
}

// TestSecondPassBehindFirst: the second pass (the translation) runs
// beside the bounded first, but translates a top-level #include only
// once the first pass has finished it, and the initializers (and cc's
// EvalAllMacros after them) only once the first pass has ended: what it
// parses has been found within every bound.
func TestSecondPassBehindFirst(t *testing.T) {
	l := watchGates(t)
	var decls strings.Builder // for the first pass to be on cuda.h a while
	for i := range 5_000 {
		decls.WriteString("int a" + strconv.Itoa(i) + ";\n")
	}
	dir := writeHeaders(t, map[string]string{
		"cuda.h":         version + decls.String() + "int cuA(int x);\n",
		"cudaProfiler.h": "int cuProfilerStart(void);\n",
	})
	if _, err := parser.Parse(dir); err != nil {
		t.Fatal(err)
	}
	// cuda.h, cudaProfiler.h, the initializers.
	if len(l.gates) != 3 || len(l.ahead) > 0 {
		t.Errorf("gates (after/units/done) %v, opened ahead of the first pass %v; want 3, none ahead", l.gates, l.ahead)
	}
}

// TestSecondPassStopsAtFirstFailure: once the first pass fails, the
// second translates nothing more. Here the first pass never finishes
// cuda.h (it includes itself after 20,000 declarations, and a bound
// stops it): the second pass
// must not parse it at all, the self-inclusion that took 2.5 GB alone.
func TestSecondPassStopsAtFirstFailure(t *testing.T) {
	l := watchGates(t)
	var decls strings.Builder
	for i := range 20_000 {
		decls.WriteString("int a" + strconv.Itoa(i) + ";\n")
	}
	dir := writeHeaders(t, map[string]string{"cuda.h": version + decls.String() + "#include \"cuda.h\"\n"})
	_, err := parser.Parse(dir)
	if err == nil {
		t.Fatal("Parse: no error; want the first pass's")
	}
	if len(l.gates) > 0 {
		t.Errorf("gates opened %v; want none", l.gates)
	}
}
