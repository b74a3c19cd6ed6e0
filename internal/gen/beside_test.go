package gen

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cugen/cugen/emit"
	"github.com/cugen/cugen/internal/panics"
)

// TestBesideGeneratePanics: a panic of emit.Generate reaches the caller
// and the layer's goroutine, waiting for the packages, ends. Was: Run
// raised it without closing the channel the layer waited on, and the
// goroutine was left blocked for the life of the process.
func TestBesideGeneratePanics(t *testing.T) {
	layerEnded := make(chan []*emit.Package, 1)
	got := recoverFrom(func() {
		beside(func() ([]*emit.Package, error) { panic("emit broke") },
			func(pkgs func() []*emit.Package) { layerEnded <- pkgs() })
	})
	if got == nil || got.Value != "emit broke" || got.Where != "emit.Generate" {
		t.Fatalf("recovered %v; want emit.Generate's panic", got)
	}
	select {
	case pkgs := <-layerEnded:
		if pkgs != nil {
			t.Errorf("the layer was given %d packages of a Generate that panicked", len(pkgs))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the layer's goroutine still waits for the packages of a Generate that panicked")
	}
}

// TestBesideLayerPanics: a panic of the layer reaches the caller with the
// stack of the function that raised it. Was: raised again bare, with only
// the stack of the re-raise in Run.
func TestBesideLayerPanics(t *testing.T) {
	got := recoverFrom(func() {
		beside(func() ([]*emit.Package, error) { return nil, nil }, func(func() []*emit.Package) { layerPanics() })
	})
	if got == nil || got.Value != "layer broke" {
		t.Fatalf("recovered %v; want the layer's panic", got)
	}
	if !strings.Contains(string(got.Stack), "gen.layerPanics(") {
		t.Errorf("the stack lacks the function that raised it:\n%s", got.Stack)
	}
}

func layerPanics() { panic("layer broke") }

// TestBesidePackages: without panics, generate's packages and error come
// back, and the layer sees the same packages.
func TestBesidePackages(t *testing.T) {
	want := []*emit.Package{{}, {}}
	errGen := errors.New("one package failed")
	var seen []*emit.Package
	pkgs, err := beside(func() ([]*emit.Package, error) { return want, errGen },
		func(p func() []*emit.Package) { seen = p() })
	if len(pkgs) != 2 || pkgs[0] != want[0] || !errors.Is(err, errGen) {
		t.Errorf("beside = %v, %v; want generate's packages and error", pkgs, err)
	}
	if len(seen) != 2 || seen[1] != want[1] {
		t.Errorf("the layer saw %v; want generate's packages", seen)
	}
	if pkgs, err := beside(func() ([]*emit.Package, error) { return want, nil }, nil); len(pkgs) != 2 || err != nil {
		t.Errorf("beside without a layer = %v, %v", pkgs, err)
	}
}

func recoverFrom(f func()) (p *panics.Panic) {
	defer func() {
		if r := recover(); r != nil {
			if p, _ = r.(*panics.Panic); p == nil {
				p = &panics.Panic{Value: r}
			}
		}
	}()
	f()
	return nil
}
