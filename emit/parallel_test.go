package emit

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestInParallelPanic: a panic while generating one package is raised in
// Generate's caller, where a recover (FuzzParse's) reaches it. Was: it
// ended the process from the worker goroutine, and the fuzzer saw only
// "fuzzing process hung or terminated unexpectedly: exit status 2".
func TestInParallelPanic(t *testing.T) {
	ran := make([]bool, 8)
	var got any
	func() {
		defer func() { got = recover() }()
		inParallel(len(ran), func(i int) error {
			ran[i] = true
			if i == 5 {
				panic("boom in package five")
			}
			return nil
		})
	}()
	msg := fmt.Sprint(got)
	if !strings.Contains(msg, "boom in package five") || !strings.Contains(msg, "f(5)") {
		t.Fatalf("recovered %q; want the panic of f(5) with its value", msg)
	}
	for i, r := range ran {
		if !r {
			t.Errorf("f(%d) did not run: the others finish before the panic is raised", i)
		}
	}
}

// TestInParallelErrors: errors come back by index, nil where f succeeded.
func TestInParallelErrors(t *testing.T) {
	errs := inParallel(5, func(i int) error {
		if i%2 == 1 {
			return fmt.Errorf("odd %d", i)
		}
		return nil
	})
	for i, err := range errs {
		if want := i%2 == 1; (err != nil) != want || err != nil && err.Error() != fmt.Sprintf("odd %d", i) {
			t.Errorf("errs[%d] = %v", i, err)
		}
	}
	if errors.Join(errs...) == nil {
		t.Error("no error joined")
	}
}

// TestInParallelByOrder: the heaviest work starts first, equal weights by
// index, and the errors still come back by index.
func TestInParallelByOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // one at a time: the start order is the run order
	var mu sync.Mutex
	var started []int
	errs := inParallelBy([]int{3, 10, 0, 10, 7}, func(i int) error {
		mu.Lock()
		started = append(started, i)
		mu.Unlock()
		return fmt.Errorf("f(%d)", i)
	})
	if want := []int{1, 3, 4, 0, 2}; !slices.Equal(started, want) {
		t.Errorf("started %v; want %v", started, want)
	}
	for i, err := range errs {
		if err == nil || err.Error() != fmt.Sprintf("f(%d)", i) {
			t.Errorf("errs[%d] = %v", i, err)
		}
	}
}
