package parser

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"sync"

	"modernc.org/cc/v4"
)

// The two passes of a parse (parse.run) run at once, the second behind
// the first: the first pass preprocesses, bounded, what the second then
// translates, and so the second may translate only what the first has
// finished and found within every bound. Its translation unit is the
// first's <cugen> source cut into sources of one #include each (and
// one for the initializer variables), each at its own line, so that cc
// opens one only when it reaches it: there a gate waits until the first
// pass has finished that #include, and for the initializers, which cc's
// EvalAllMacros follows, until the first pass has ended. Once the first
// pass fails, the second stops at its next gate (a panic that translate
// recovers) and the first pass's error is the parse's, as when the
// second pass ran after it. Between gates the second pass reads only the
// files the first one has read (sourceFS.Open waits for the first pass
// to end before it reads a file of its own), so the parse's state
// (the files read, the first bound broken) is the first pass's.

// pipeline is where the first pass stands, for the second.
type pipeline struct {
	mu     sync.Mutex
	cond   *sync.Cond
	units  int  // top-level #includes the first pass has finished
	done   bool // the first pass has ended
	failed bool // ... with an error: the second pass stops
}

func newPipeline() *pipeline {
	pl := &pipeline{}
	pl.cond = sync.NewCond(&pl.mu)
	return pl
}

// unitDone records that the first pass has finished a top-level
// #include (outputBound saw its end marker).
func (pl *pipeline) unitDone() {
	pl.mu.Lock()
	pl.units++
	pl.mu.Unlock()
	pl.cond.Broadcast()
}

// finish records the end of the first pass, failed or not.
func (pl *pipeline) finish(failed bool) {
	pl.mu.Lock()
	pl.done, pl.failed = true, failed
	pl.mu.Unlock()
	pl.cond.Broadcast()
}

// wait waits until the first pass has finished n top-level #includes
// (n < 0: until it has ended) and stops the second pass if the first
// failed.
func (pl *pipeline) wait(n int) {
	pl.mu.Lock()
	for !pl.done && (n < 0 || pl.units < n) {
		pl.cond.Wait()
	}
	failed := pl.failed
	pl.mu.Unlock()
	if failed {
		panic(stopSecondPass{})
	}
}

// stopSecondPass is the panic that ends the second pass once the first
// has failed.
type stopSecondPass struct{}

// gateFS serves one source of the second pass, text, once the first
// pass has finished `after` top-level #includes (after < 0: has ended).
type gateFS struct {
	pl    *pipeline
	after int
	text  string
}

func (g gateFS) Open(name string) (fs.File, error) {
	g.pl.wait(g.after)
	if gateOpened != nil {
		g.pl.mu.Lock()
		units, done := g.pl.units, g.pl.done
		g.pl.mu.Unlock()
		gateOpened(g.after, units, done)
	}
	return newMemFile(name, []byte(g.text)), nil
}

// gateOpened, when not nil, is told where the first pass stood each time
// a gate let the second pass on (tests).
var gateOpened func(after, units int, done bool)

// unitPrefix names the sources of the second pass cut from <cugen>:
// <cugen>#1, ..., <cugen>#init. Errors name them <cugen>, at the same
// line (cugenUnits pads each with empty lines).
const unitPrefix = "<cugen>#"

var unitName = regexp.MustCompile(`<cugen>#(?:\d+|init)`)

// cugenUnits cuts the text of the <cugen> source, head (lines before the
// first #include), the #include lines and tail (the initializers), into
// the second pass's sources: head as <cugen>, then each #include behind
// the gate of the ones before it, then tail behind the end of the first
// pass.
func cugenUnits(pl *pipeline, head string, includes []string, tail string) []cc.Source {
	srcs := []cc.Source{{Name: "<cugen>", Value: head}}
	line := strings.Count(head, "\n")
	for i, inc := range includes {
		// Include i once the first pass has finished it.
		srcs = append(srcs, cc.Source{Name: fmt.Sprintf("%s%d", unitPrefix, i+1), FS: gateFS{pl, i + 1, strings.Repeat("\n", line) + inc}})
		line += strings.Count(inc, "\n")
	}
	return append(srcs, cc.Source{Name: unitPrefix + "init", FS: gateFS{pl, -1, strings.Repeat("\n", line) + tail}})
}
