//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package abitest_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cugen/cugen/emit/internal/abitest/cu"
	"github.com/cugen/cugen/emit/internal/abitest/cudart"
	"github.com/cugen/cugen/ffi/ffiimpl"
)

// TestNilCallbackIsNULL: a nil Go func reaches C as NULL, with no handle
// made, so C's own NULL behaviour applies: cuOccupancyMaxPotentialBlockSize
// uses dynamicSMemSize for every block size, the host function calls fail.
func TestNilCallbackIsNULL(t *testing.T) {
	need(t)
	live := ffiimpl.LiveHandles()
	sum, best, err := cu.OccupancyMaxPotentialBlockSize(0, nil, 777, 0)
	check(t, "OccupancyMaxPotentialBlockSize(nil)", err)
	if sum != 3*777 || best != 32 {
		t.Errorf("OccupancyMaxPotentialBlockSize with a nil callback: sum %d, block %d; want %d, 32 (C saw a non-NULL callback)", sum, best, 3*777)
	}
	for _, c := range []struct {
		name string
		err  error
	}{
		{"cu.LaunchHostFunc", cu.LaunchHostFunc(0, nil)},
		{"cu.StreamAddCallback", cu.StreamAddCallback(0, nil, 0)},
		{"cudart.LaunchHostFunc", cudart.LaunchHostFunc(0, nil)},
		{"cudart.StreamAddCallback", cudart.StreamAddCallback(0, nil, 0)},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), "nvalid") {
			t.Errorf("%s(nil) = %v, want the fixture's invalid-value error for a NULL callback", c.name, c.err)
		}
	}
	if got := ffiimpl.LiveHandles(); got != live {
		t.Errorf("LiveHandles() = %d after nil callbacks, want %d", got, live)
	}
}

// within fails the test if fn has not returned after 10 s (a deadlock).
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no return after 10 s (deadlock)", what)
	}
}

// TestSynchronousCallbackReentrant: a synchronous callback that calls the
// same API again gets its own func for the inner call, and the outer call
// continues with its own afterwards.
func TestSynchronousCallbackReentrant(t *testing.T) {
	need(t)
	within(t, "nested OccupancyMaxPotentialBlockSize", func() {
		var inner []int32
		sum, best, err := cu.OccupancyMaxPotentialBlockSize(0, func(block int32) uint64 {
			if block == 64 {
				s, b, err := cu.OccupancyMaxPotentialBlockSize(0, func(block int32) uint64 {
					inner = append(inner, block)
					return uint64(block) // least at 32
				}, 0, 0)
				if err != nil || s != 32+64+128 || b != 32 {
					t.Errorf("inner call: %d, %d, %v; want 224, 32", s, b, err)
				}
			}
			return uint64(1000 - block) // least at 128
		}, 0, 0)
		if err != nil || sum != 3000-224 || best != 128 {
			t.Errorf("outer call: %d, %d, %v; want 2776, 128", sum, best, err)
		}
		if len(inner) != 3 {
			t.Errorf("inner callback ran for blocks %v, want 32 64 128", inner)
		}
	})
}

// catch runs fn and returns what it panicked with.
func catch(fn func()) (r any) {
	defer func() { r = recover() }()
	fn()
	return nil
}

// TestCallbackPanicOnCallingThread: a callback that C runs on the calling
// thread and that panics does not unwind through C's frames: C returns
// normally (zero from the callback), then the wrapper panics with an
// error carrying the value and the callback's stack. The next calls work.
func TestCallbackPanicOnCallingThread(t *testing.T) {
	need(t)
	returns := data[int32](t, "abi_occupancy_returns")
	before := *returns
	boom := errors.New("boom in the occupancy callback")
	r := catch(func() {
		cu.OccupancyMaxPotentialBlockSize(0, func(block int32) uint64 {
			if block == 64 {
				panic(boom)
			}
			return 1
		}, 0, 0)
	})
	err, ok := r.(error)
	if !ok || !errors.Is(err, boom) || !strings.Contains(err.Error(), "TestCallbackPanicOnCallingThread") {
		t.Errorf("recovered %v (%T), want an error wrapping the callback's panic value, with its stack", r, r)
	}
	if got := *returns - before; got != 1 {
		t.Errorf("cuOccupancyMaxPotentialBlockSize returned %d times, want 1: the panic abandoned its C frames", got)
	}
	r = catch(func() { cu.LaunchHostFunc(0, func() { panic("boom in a host function") }) })
	if err, ok := r.(error); !ok || !strings.Contains(err.Error(), "boom in a host function") {
		t.Errorf("LaunchHostFunc on the calling thread: recovered %v (%T), want an error with the panic value", r, r)
	}
	within(t, "a call after the panics", func() {
		if _, _, err := cu.OccupancyMaxPotentialBlockSize(0, func(int32) uint64 { return 1 }, 0, 0); err != nil {
			t.Error(err)
		}
	})
}

// TestCallbackPanicOnCThread: a callback that panics on a thread of C's
// own has no Go caller to hand the panic to: the process exits with
// status 2, printing the value and the callback's stack.
func TestCallbackPanicOnCThread(t *testing.T) {
	need(t)
	if os.Getenv("ABITEST_PANIC_CHILD") == "1" {
		cu.LaunchHostFunc(1, func() { panic("boom on a C thread") })
		cu.CtxSynchronize()
		time.Sleep(time.Second)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCallbackPanicOnCThread$")
	cmd.Env = append(os.Environ(), "ABITEST_PANIC_CHILD=1")
	out, err := cmd.CombinedOutput()
	if errors.Is(err, syscall.ENOEXEC) {
		// Under qemu-user (make test-arm64) the binary is not native: the
		// child would need the emulator.
		t.Skipf("cannot run the test binary as a child here: %v", err)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("child: %v, want exit status 2\n%s", err, out)
	}
	for _, want := range []string{"panic: boom on a C thread", "in a Go callback called from C", "TestCallbackPanicOnCThread.func"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("child output lacks %q:\n%s", want, out)
		}
	}
}

// TestCapturedHostFuncLivesWithGraph: a host function launched into a
// capturing stream becomes a graph node that runs on every launch of every
// exec made from the graph or its clones; its handle is released exactly
// when the last of the graph, its clones and its execs is destroyed,
// whatever the order.
func TestCapturedHostFuncLivesWithGraph(t *testing.T) {
	need(t)
	const capture = cu.Stream(0xCA9)
	objects := data[int64](t, "abi_user_objects")
	for _, order := range []string{"graph exec clone", "exec clone graph", "clone graph exec"} {
		t.Run(strings.ReplaceAll(order, " ", "-"), func(t *testing.T) {
			live, objs := ffiimpl.LiveHandles(), *objects
			check(t, "StreamBeginCapture", cu.StreamBeginCapture(capture, cu.StreamCaptureModeGlobal))
			calls := 0
			check(t, "LaunchHostFunc", cu.LaunchHostFunc(capture, func() { calls++ }))
			graph, err := cu.StreamEndCapture(capture)
			check(t, "StreamEndCapture", err)
			if calls != 0 {
				t.Fatalf("the captured host function ran during capture")
			}
			exec, err := cu.GraphInstantiate(graph, 0)
			check(t, "GraphInstantiate", err)
			clone, err := cu.GraphClone(graph)
			check(t, "GraphClone", err)
			for range 6 {
				check(t, "GraphLaunch", cu.GraphLaunch(exec, 0))
			}
			if calls != 6 {
				t.Fatalf("6 launches of the graph ran the Go func %d times", calls)
			}
			destroy := map[string]func() error{
				"graph": func() error { return cu.GraphDestroy(graph) },
				"exec":  func() error { return cu.GraphExecDestroy(exec) },
				"clone": func() error {
					// The clone's exec runs the Go func too.
					e, err := cu.GraphInstantiate(clone, 0)
					check(t, "GraphInstantiate(clone)", err)
					check(t, "GraphLaunch(clone exec)", cu.GraphLaunch(e, 0))
					check(t, "GraphExecDestroy(clone exec)", cu.GraphExecDestroy(e))
					return cu.GraphDestroy(clone)
				},
			}
			want := 6
			for i, what := range strings.Fields(order) {
				if *objects-objs != 1 {
					t.Fatalf("%d user objects alive before destroying the %s, want 1", *objects-objs, what)
				}
				if ffiimpl.LiveHandles() == live {
					t.Fatalf("the handle was released before destroying the %s", what)
				}
				check(t, "destroy "+what, destroy[what]())
				if what == "clone" {
					want++
				}
				if i < 2 && what != "exec" {
					// what is left still runs the Go func
					if left := strings.Fields(order)[i+1:]; contains(left, "exec") {
						check(t, "GraphLaunch", cu.GraphLaunch(exec, 0))
						want++
					}
				}
			}
			if calls != want {
				t.Errorf("the Go func ran %d times, want %d", calls, want)
			}
			if got := ffiimpl.LiveHandles(); got != live || *objects != objs {
				t.Errorf("after destroying all: %d handles, %d user objects live; want %d, %d", got, *objects, live, objs)
			}
		})
	}
	// Outside capture the same call is one-shot, as before.
	live := ffiimpl.LiveHandles()
	ran := 0
	check(t, "LaunchHostFunc", cu.LaunchHostFunc(0, func() { ran++ }))
	if ran != 1 || ffiimpl.LiveHandles() != live {
		t.Errorf("outside capture: ran %d times, %d handles live; want 1, %d", ran, ffiimpl.LiveHandles(), live)
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestGraphHostNodes: graph host nodes take Go funcs. A node added to a
// graph runs on every launch; a node's new func reaches execs instantiated
// afterwards, an exec's new func only that exec; every handle is released
// when its last owner (graph, exec made after the change, or the exec
// itself) is destroyed.
func TestGraphHostNodes(t *testing.T) {
	need(t)
	objects := data[int64](t, "abi_user_objects")
	live, objs := ffiimpl.LiveHandles(), *objects
	var a, b, c int
	graph, err := cu.GraphCreate(0)
	check(t, "GraphCreate", err)
	node, err := cu.GraphAddHostNode(graph, nil, 0, func() { a++ })
	check(t, "GraphAddHostNode", err)
	exec1, err := cu.GraphInstantiate(graph, 0)
	check(t, "GraphInstantiate", err)
	for range 5 {
		check(t, "GraphLaunch", cu.GraphLaunch(exec1, 0))
	}
	if a != 5 {
		t.Fatalf("5 launches ran the node's Go func %d times", a)
	}
	check(t, "GraphHostNodeSetParams", cu.GraphHostNodeSetParams(node, func() { b++ }, graph))
	check(t, "GraphLaunch", cu.GraphLaunch(exec1, 0))
	exec2, err := cu.GraphInstantiate(graph, 0)
	check(t, "GraphInstantiate", err)
	check(t, "GraphLaunch", cu.GraphLaunch(exec2, 0))
	check(t, "GraphExecHostNodeSetParams", cu.GraphExecHostNodeSetParams(exec1, node, func() { c++ }))
	check(t, "GraphLaunch", cu.GraphLaunch(exec1, 0))
	if a != 6 || b != 1 || c != 1 {
		t.Fatalf("calls a=%d b=%d c=%d, want 6 1 1", a, b, c)
	}
	if _, err := cu.GraphAddHostNode(graph, nil, 0, nil); err == nil {
		t.Error("GraphAddHostNode with a nil func succeeded: C saw a non-NULL fn")
	}
	if got := ffiimpl.LiveHandles() - live; got < 3 {
		t.Fatalf("%d handles live for 3 Go funcs", got)
	}
	check(t, "GraphExecDestroy(exec1)", cu.GraphExecDestroy(exec1))
	check(t, "GraphDestroy", cu.GraphDestroy(graph))
	// exec2 still runs the node's second func.
	check(t, "GraphLaunch", cu.GraphLaunch(exec2, 0))
	if b != 2 {
		t.Fatalf("exec2 after its graph was destroyed: b=%d, want 2", b)
	}
	check(t, "GraphExecDestroy(exec2)", cu.GraphExecDestroy(exec2))
	if got := ffiimpl.LiveHandles(); got != live || *objects != objs {
		t.Errorf("after destroying all: %d handles, %d user objects; want %d, %d", got, *objects, live, objs)
	}
}

// TestGraphNodeParamsSetHost: the generic node calls (cuGraphAddNode,
// cuGraphNodeSetParams, cuGraphExecNodeSetParams) take a host node's Go
// func through GraphNodeParams.SetHost and SetHostForExec. The func runs on
// every launch of the graph's execs and of a clone's, and each is released
// exactly when the last of the graph, execs and clones holding it is
// destroyed: the graph's through its user object, the exec's through
// GraphExecDestroy.
func TestGraphNodeParamsSetHost(t *testing.T) {
	need(t)
	objects := data[int64](t, "abi_user_objects")
	live, objs := ffiimpl.LiveHandles(), *objects
	var a, b, c int
	graph, err := cu.GraphCreate(0)
	check(t, "GraphCreate", err)
	var p cu.GraphNodeParams
	check(t, "SetHost", p.SetHost(graph, func() { a++ }))
	if p.Type != cu.GraphNodeTypeHost || p.Host().Fn == 0 {
		t.Fatalf("SetHost: type %v, fn %#x; want the host type and a function", p.Type, p.Host().Fn)
	}
	node, err := cu.GraphAddNode(graph, nil, 0, &p)
	check(t, "GraphAddNode", err)
	exec1, err := cu.GraphInstantiate(graph, 0)
	check(t, "GraphInstantiate", err)
	for range 10 {
		check(t, "GraphLaunch", cu.GraphLaunch(exec1, 0))
	}
	if a != 10 {
		t.Fatalf("10 launches ran the node's Go func %d times", a)
	}
	clone, err := cu.GraphClone(graph)
	check(t, "GraphClone", err)

	var q cu.GraphNodeParams
	check(t, "SetHost", q.SetHost(graph, func() { b++ }))
	check(t, "GraphNodeSetParams", cu.GraphNodeSetParams(node, &q))
	exec2, err := cu.GraphInstantiate(graph, 0)
	check(t, "GraphInstantiate", err)
	check(t, "GraphLaunch", cu.GraphLaunch(exec2, 0))

	var r cu.GraphNodeParams
	r.SetHostForExec(exec1, func() { c++ })
	check(t, "GraphExecNodeSetParams", cu.GraphExecNodeSetParams(exec1, node, &r))
	check(t, "GraphLaunch", cu.GraphLaunch(exec1, 0))
	if a != 10 || b != 1 || c != 1 {
		t.Fatalf("calls a=%d b=%d c=%d, want 10 1 1", a, b, c)
	}

	// nil: NULL fn and userData, no handle; C rejects a host node without one.
	n := cu.GraphNodeParams{Type: cu.GraphNodeTypeEmpty}
	before := ffiimpl.LiveHandles()
	check(t, "SetHost(nil)", n.SetHost(graph, nil))
	n.SetHostForExec(exec1, nil)
	if n.Type != cu.GraphNodeTypeHost || *n.Host() != (cu.HostNodeParamsV2{}) || ffiimpl.LiveHandles() != before {
		t.Fatalf("SetHost(nil): type %v, host %+v, %d new handles; want the host type, NULL fn and userData, none", n.Type, *n.Host(), ffiimpl.LiveHandles()-before)
	}
	if _, err := cu.GraphAddNode(graph, nil, 0, &n); err == nil {
		t.Error("GraphAddNode with a nil func succeeded: C saw a non-NULL fn")
	}

	check(t, "GraphExecDestroy(exec1)", cu.GraphExecDestroy(exec1))
	check(t, "GraphDestroy", cu.GraphDestroy(graph))
	// exec2 still runs the second func, the clone's exec the first.
	check(t, "GraphLaunch", cu.GraphLaunch(exec2, 0))
	exec3, err := cu.GraphInstantiate(clone, 0)
	check(t, "GraphInstantiate(clone)", err)
	check(t, "GraphDestroy(clone)", cu.GraphDestroy(clone))
	check(t, "GraphLaunch", cu.GraphLaunch(exec3, 0))
	if a != 11 || b != 2 || c != 1 {
		t.Fatalf("after destroying the graph: calls a=%d b=%d c=%d, want 11 2 1", a, b, c)
	}
	// exec2 holds the user objects of both graph funcs; exec3 only the
	// first's (the clone was made before the second).
	if got := *objects - objs; got != 2 {
		t.Fatalf("%d user objects live while exec2 and exec3 hold 2 Go funcs", got)
	}
	check(t, "GraphExecDestroy(exec2)", cu.GraphExecDestroy(exec2))
	if got := *objects - objs; got != 1 {
		t.Fatalf("%d user objects live while exec3 holds 1 Go func", got)
	}
	check(t, "GraphLaunch", cu.GraphLaunch(exec3, 0))
	if a != 12 || b != 2 {
		t.Fatalf("exec3 alone: calls a=%d b=%d, want 12 2", a, b)
	}
	check(t, "GraphExecDestroy(exec3)", cu.GraphExecDestroy(exec3))
	if got := ffiimpl.LiveHandles(); got != live || *objects != objs {
		t.Errorf("after destroying all: %d handles, %d user objects; want %d, %d", got, *objects, live, objs)
	}
}

// BenchmarkSynchronousCallback: one cuOccupancyMaxPotentialBlockSize call,
// which calls its Go func 3 times.
func BenchmarkSynchronousCallback(b *testing.B) {
	need(b)
	f := func(block int32) uint64 { return uint64(block) }
	for b.Loop() {
		cu.OccupancyMaxPotentialBlockSize(0, f, 0, 0)
	}
}
