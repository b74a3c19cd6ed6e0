package standin

import (
	"errors"
	"runtime"
	"testing"
)

type closer struct{ log *[]string }

func (c closer) Close() error { *c.log = append(*c.log, "close"); return nil }

// TestKeep: Keep returns the value and closes it when the test ends, the
// later ones first; Must and Keep fail the test on an error.
func TestKeep(t *testing.T) {
	var log []string
	t.Run("keep", func(t *testing.T) {
		a := Keep(closer{&log}, nil)(t)
		if Must(7, nil)(t) != 7 || a.log != &log {
			t.Fatal("Must or Keep changed the value")
		}
		t.Cleanup(func() { log = append(log, "later") })
		if len(log) != 0 {
			t.Errorf("closed before the test ended: %v", log)
		}
	})
	if len(log) != 2 || log[0] != "later" || log[1] != "close" {
		t.Errorf("after the test: %v, want [later close]", log)
	}
	for name, f := range map[string]func(testing.TB){
		"Must": func(tb testing.TB) { Must(0, errors.New("no"))(tb) },
		"Keep": func(tb testing.TB) { Keep(closer{&log}, errors.New("no"))(tb) },
	} {
		ft := &fatalTB{TB: t}
		done := make(chan struct{})
		go func() { defer close(done); f(ft) }()
		<-done
		if !ft.failed {
			t.Errorf("%s did not fail the test on an error", name)
		}
	}
}

// fatalTB records a Fatal and ends its goroutine, as testing's does.
type fatalTB struct {
	testing.TB
	failed bool
}

func (f *fatalTB) Helper()      {}
func (f *fatalTB) Fatal(...any) { f.failed = true; runtime.Goexit() }
