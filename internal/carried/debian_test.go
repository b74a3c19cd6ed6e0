package carried

import (
	"bytes"
	"testing"

	cugen "github.com/cugen/cugen"
	"github.com/cugen/cugen/internal/lock"
)

// TestDebian: the sets whose headers Debian packages are fetched anywhere
// (their drift is checked wherever make test runs); a toolkit's and a
// wheel's are read in place.
func TestDebian(t *testing.T) {
	l, err := lock.Parse(bytes.NewReader(cugen.HeadersLock), "headers.lock")
	if err != nil {
		t.Fatal(err)
	}
	for set, want := range map[string]bool{"11.8": true, "12.4": true, "12.5": true, "13.0": false, "12.4+cudnn9": false, "12.4+cusparselt0": false} {
		e, err := l.Entry(set)
		if err != nil {
			t.Fatal(err)
		}
		if got := Debian(l, e); got != want {
			t.Errorf("Debian(%s) = %v, want %v", set, got, want)
		}
	}
}
