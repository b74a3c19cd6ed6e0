//go:build linux && (amd64 || arm64)

package reliability

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/ffi/ffiimpl"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
)

// outcome is what one call returned, reduced to comparable values: the
// results and, for an error, the C function it names and its code.
type outcome struct {
	val  string
	fn   string // CallError.Func
	code int64  // the cu.Result or cudart.Error inside
	text string // err.Error()
}

func (o outcome) String() string {
	if o.text == "" {
		return o.val
	}
	return fmt.Sprintf("%s / %s", o.val, o.text)
}

func result(val any, err error) outcome {
	o := outcome{val: fmt.Sprint(val)}
	if err == nil {
		return o
	}
	o.text = err.Error()
	var ce *ffi.CallError
	if errors.As(err, &ce) {
		o.fn = ce.Func
		switch c := ce.Code.(type) {
		case cu.Result:
			o.code = int64(c)
		case cudart.Error:
			o.code = int64(c)
		}
	}
	return o
}

// codes are the error codes the storm asks names and messages for; 99999
// is unknown to both libraries (cuGetErrorName fails on it).
var codes = []int32{0, 1, 2, 3, 100, 101, 200, 700, 999, 99999}

// calls are the generated functions the storm runs, each returning its
// outcome for argument k (an index into codes).
var calls = []struct {
	name string
	call func(k int) outcome
}{
	{"cu.DriverGetVersion", func(int) outcome { return result(cu.DriverGetVersion()) }},
	{"cu.GetErrorName", func(k int) outcome { return result(cu.GetErrorName(cu.Result(codes[k]))) }},
	{"cu.GetErrorString", func(k int) outcome { return result(cu.GetErrorString(cu.Result(codes[k]))) }},
	{"cudart.GetErrorString", func(k int) outcome { return result(cudart.GetErrorString(cudart.Error(codes[k])), nil) }},
	{"cudart.GetErrorName", func(k int) outcome { return result(cudart.GetErrorName(cudart.Error(codes[k])), nil) }},
	{"cudart.DriverGetVersion", func(int) outcome { return result(cudart.DriverGetVersion()) }},
	{"cudart.RuntimeGetVersion", func(int) outcome { return result(cudart.RuntimeGetVersion()) }},
	{"cu.CtxGetCurrent", func(int) outcome { return result(cu.CtxGetCurrent()) }},
	{"cudart.GetDeviceCount", func(int) outcome { return result(cudart.GetDeviceCount()) }},
	{"cu.DeviceGetCount", func(int) outcome { return result(cu.DeviceGetCount()) }},
}

// TestConcurrentCalls: 64 goroutines x 10,000 calls into the generated
// packages against Debian's libraries: success paths with out-parameters,
// error paths, and C strings, each result compared with the one the same
// call gave single-threaded before the storm, so no error is lost and no
// result or error reaches the wrong caller. Handles are made, read and
// deleted throughout, and none is left at the end. It runs in a child so
// that the state of CUDA is known (the runtime initialized the driver, on a
// machine without a GPU cuInit failed). `go test -race` runs it too.
func TestConcurrentCalls(t *testing.T) {
	needLibs(t)
	if !isChild(t) {
		runChild(t)
		return
	}
	goroutines, perG := 64, 10_000
	if s := os.Getenv("CUGEN_STORM_CALLS"); s != "" {
		perG, _ = strconv.Atoi(s)
	}
	if testing.Short() {
		perG = 1000
	}

	// The runtime's first call initializes the driver: make it now, so the
	// storm's results do not depend on which call comes first.
	n, devErr := cudart.GetDeviceCount()
	t.Logf("cudart.GetDeviceCount before the storm: %d, %v", n, devErr)
	want := make([][]outcome, len(calls))
	for i, c := range calls {
		want[i] = make([]outcome, len(codes))
		for k := range codes {
			want[i][k] = c.call(k)
		}
	}
	if devErr != nil { // no GPU: the error paths are the interesting ones
		if w := want[7][0]; w.fn != "cuCtxGetCurrent" || w.code != int64(cu.ErrorNotInitialized) {
			t.Fatalf("cu.CtxGetCurrent after a failed cuInit: %v, want CUDA_ERROR_NOT_INITIALIZED", w)
		}
		if w := want[8][0]; w.fn != "cudaGetDeviceCount" || w.code != int64(cudart.ErrorNoDevice) {
			t.Fatalf("cudart.GetDeviceCount without a device: %v", w)
		}
	}
	if w := want[1][len(codes)-1]; w.code != int64(cu.ErrorInvalidValue) {
		t.Fatalf("cu.GetErrorName(99999): %v, want CUDA_ERROR_INVALID_VALUE", w)
	}
	for i, c := range calls {
		t.Logf("%-26s %v", c.name, want[i][3])
	}

	liveBefore := ffiimpl.LiveHandles()
	var failures, errorsSeen, handlesMade atomic.Int64
	report := func(format string, args ...any) {
		if failures.Add(1) <= 10 {
			t.Errorf(format, args...)
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			type token struct{ g, i int }
			var ring [8]ffiimpl.Handle
			var ringVal [8]token
			for i := range perG {
				c := (g + i) % (len(calls) + 1)
				if c == len(calls) {
					// Handles: make one, check the oldest of the ring,
					// delete it and check it is gone (its slot may
					// already hold another goroutine's value).
					slot := i % len(ring)
					if old := ring[slot]; old != 0 {
						if v, ok := old.Value().(token); !ok || v != ringVal[slot] {
							report("goroutine %d: handle %#x = %v, want %v", g, old, old.Value(), ringVal[slot])
						}
						old.Delete()
						if v := old.Value(); v != nil {
							report("goroutine %d: deleted handle %#x still yields %v", g, old, v)
						}
					}
					ringVal[slot] = token{g, i}
					ring[slot] = ffiimpl.NewHandle(ringVal[slot])
					handlesMade.Add(1)
					continue
				}
				k := (g*7 + i) % len(codes)
				got := calls[c].call(k)
				if got.text != "" {
					errorsSeen.Add(1)
				}
				if got != want[c][k] {
					report("goroutine %d call %d: %s(code %d) = %v, want %v", g, i, calls[c].name, codes[k], got, want[c][k])
				}
			}
			for slot, h := range ring {
				if h != 0 {
					if v, _ := h.Value().(token); v != ringVal[slot] {
						report("goroutine %d: handle %#x = %v at the end", g, h, h.Value())
					}
					h.Delete()
				}
			}
		}()
	}
	wg.Wait()
	d := time.Since(start)
	total := int64(goroutines * perG)
	t.Logf("%d goroutines x %d calls in %v (%.0f ns/call, GOMAXPROCS %d): %d returned errors, %d handles made, %d failures",
		goroutines, perG, d.Round(time.Millisecond), float64(d.Nanoseconds())/float64(total), runtime.GOMAXPROCS(0), errorsSeen.Load(), handlesMade.Load(), failures.Load())
	if live := ffiimpl.LiveHandles(); live != liveBefore {
		t.Errorf("ffiimpl.LiveHandles = %d after the storm, want %d", live, liveBefore)
	}
	if errorsSeen.Load() == 0 {
		t.Error("no call returned an error: the error paths were not exercised")
	}
}
