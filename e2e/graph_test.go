package e2e

import (
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cugen/cugen/ffi/ffiimpl"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
)

// must fails t on err.
func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// handlesBackTo waits until ffiimpl.LiveHandles() is want: CUDA may run a user
// object's destructor (which releases a Go func's handle) on a thread of
// its own, after the destroy call has returned.
func handlesBackTo(t *testing.T, want int, after string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for ffiimpl.LiveHandles() != want {
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %d handles live, want %d (the graph's Go func was not released)", after, ffiimpl.LiveHandles(), want)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestGraphCapturedHostFunc12: cuLaunchHostFunc inside stream capture
// becomes a graph host node; the Go func runs on each of 6 launches, and
// its handle is released exactly when the last of the graph, a clone and
// an exec is destroyed, in every order (NVIDIA's simpleCudaGraphs prints a
// line per launch).
func TestGraphCapturedHostFunc12(t *testing.T) {
	_, done := gpu12(t)
	defer done()
	ctx, err := cu.CtxGetCurrent()
	must(t, "cuCtxGetCurrent", err)
	stream, err := cu.StreamCreate(0)
	must(t, "cuStreamCreate", err)
	defer cu.StreamDestroy(stream)
	for _, order := range []string{"graph clone exec", "exec graph clone", "clone exec graph"} {
		t.Run(strings.ReplaceAll(order, " ", "-"), func(t *testing.T) {
			// A subtest is a goroutine of its own: the context is the
			// OS thread's, so make it current on this one.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			must(t, "cuCtxSetCurrent", cu.CtxSetCurrent(ctx))
			live := ffiimpl.LiveHandles()
			var calls atomic.Int64
			must(t, "cuStreamBeginCapture", cu.StreamBeginCapture(stream, cu.StreamCaptureModeGlobal))
			if err := cu.LaunchHostFunc(stream, func() { calls.Add(1) }); err != nil {
				cu.StreamEndCapture(stream)
				t.Fatalf("cuLaunchHostFunc during capture: %v", err)
			}
			graph, err := cu.StreamEndCapture(stream)
			must(t, "cuStreamEndCapture", err)
			exec, err := cu.GraphInstantiate(graph, 0)
			must(t, "cuGraphInstantiate", err)
			clone, err := cu.GraphClone(graph)
			must(t, "cuGraphClone", err)
			for range 6 {
				must(t, "cuGraphLaunch", cu.GraphLaunch(exec, stream))
			}
			must(t, "cuStreamSynchronize", cu.StreamSynchronize(stream))
			if n := calls.Load(); n != 6 {
				t.Fatalf("6 graph launches ran the Go func %d times", n)
			}
			destroy := map[string]func() error{
				"graph": func() error { return cu.GraphDestroy(graph) },
				"exec":  func() error { return cu.GraphExecDestroy(exec) },
				"clone": func() error { return cu.GraphDestroy(clone) },
			}
			steps := strings.Fields(order)
			for i, what := range steps {
				if ffiimpl.LiveHandles() == live {
					t.Fatalf("the Go func's handle was released before destroying the %s", what)
				}
				must(t, "destroy "+what, destroy[what]())
				if i < len(steps)-1 {
					// What is left still runs the Go func: a new exec of the
					// clone or graph, or the exec.
					before := calls.Load()
					for _, left := range steps[i+1:] {
						switch left {
						case "exec":
							must(t, "cuGraphLaunch", cu.GraphLaunch(exec, stream))
						default:
							g := graph
							if left == "clone" {
								g = clone
							}
							e, err := cu.GraphInstantiate(g, 0)
							must(t, "cuGraphInstantiate", err)
							must(t, "cuGraphLaunch", cu.GraphLaunch(e, stream))
							must(t, "cuStreamSynchronize", cu.StreamSynchronize(stream))
							must(t, "cuGraphExecDestroy", cu.GraphExecDestroy(e))
						}
					}
					must(t, "cuStreamSynchronize", cu.StreamSynchronize(stream))
					if got, want := calls.Load()-before, int64(len(steps)-1-i); got != want {
						t.Fatalf("after destroying the %s: %d runs of the Go func, want %d", what, got, want)
					}
				}
			}
			handlesBackTo(t, live, "destroying "+order)
		})
	}
}

// TestGraphCapturedHostFuncRuntime12 is TestGraphCapturedHostFunc12's
// first half through the runtime API (cudaLaunchHostFunc in capture, 6
// launches of the instantiated graph).
func TestGraphCapturedHostFuncRuntime12(t *testing.T) {
	_, done := gpu12(t)
	defer done()
	must(t, "cudaSetDevice", cudart.SetDevice(0))
	stream, err := cudart.StreamCreate()
	must(t, "cudaStreamCreate", err)
	defer cudart.StreamDestroy(stream)
	live := ffiimpl.LiveHandles()
	var calls atomic.Int64
	must(t, "cudaStreamBeginCapture", cudart.StreamBeginCapture(stream, cudart.StreamCaptureModeGlobal))
	if err := cudart.LaunchHostFunc(stream, func() { calls.Add(1) }); err != nil {
		cudart.StreamEndCapture(stream)
		t.Fatalf("cudaLaunchHostFunc during capture: %v", err)
	}
	graph, err := cudart.StreamEndCapture(stream)
	must(t, "cudaStreamEndCapture", err)
	exec, err := cudart.GraphInstantiate(graph, 0)
	must(t, "cudaGraphInstantiate", err)
	for range 6 {
		must(t, "cudaGraphLaunch", cudart.GraphLaunch(exec, stream))
	}
	must(t, "cudaStreamSynchronize", cudart.StreamSynchronize(stream))
	if n := calls.Load(); n != 6 {
		t.Fatalf("6 graph launches ran the Go func %d times", n)
	}
	must(t, "cudaGraphDestroy", cudart.GraphDestroy(graph))
	must(t, "cudaGraphExecDestroy", cudart.GraphExecDestroy(exec))
	handlesBackTo(t, live, "destroying the graph and its exec")
}

// TestGraphHostNode12: cuGraphAddHostNode takes a Go func that runs on
// every one of 10 launches; cuGraphHostNodeSetParams changes the node for
// execs made afterwards, cuGraphExecHostNodeSetParams only the exec; every
// handle is released once its graph, execs and clones are destroyed.
func TestGraphHostNode12(t *testing.T) {
	_, done := gpu12(t)
	defer done()
	stream, err := cu.StreamCreate(0)
	must(t, "cuStreamCreate", err)
	defer cu.StreamDestroy(stream)
	live := ffiimpl.LiveHandles()
	var a, b, c atomic.Int64
	graph, err := cu.GraphCreate(0)
	must(t, "cuGraphCreate", err)
	node, err := cu.GraphAddHostNode(graph, nil, 0, func() { a.Add(1) })
	must(t, "cuGraphAddHostNode", err)
	exec1, err := cu.GraphInstantiate(graph, 0)
	must(t, "cuGraphInstantiate", err)
	for range 10 {
		must(t, "cuGraphLaunch", cu.GraphLaunch(exec1, stream))
	}
	must(t, "cuStreamSynchronize", cu.StreamSynchronize(stream))
	if n := a.Load(); n != 10 {
		t.Fatalf("10 launches ran the host node's Go func %d times", n)
	}
	must(t, "cuGraphHostNodeSetParams", cu.GraphHostNodeSetParams(node, func() { b.Add(1) }, graph))
	exec2, err := cu.GraphInstantiate(graph, 0)
	must(t, "cuGraphInstantiate", err)
	must(t, "cuGraphExecHostNodeSetParams", cu.GraphExecHostNodeSetParams(exec1, node, func() { c.Add(1) }))
	must(t, "cuGraphLaunch", cu.GraphLaunch(exec1, stream))
	must(t, "cuGraphLaunch", cu.GraphLaunch(exec2, stream))
	must(t, "cuStreamSynchronize", cu.StreamSynchronize(stream))
	if a.Load() != 10 || b.Load() != 1 || c.Load() != 1 {
		t.Fatalf("runs a=%d b=%d c=%d, want 10 1 1", a.Load(), b.Load(), c.Load())
	}
	must(t, "cuGraphDestroy", cu.GraphDestroy(graph))
	must(t, "cuGraphLaunch", cu.GraphLaunch(exec2, stream)) // exec2 keeps its Go func
	must(t, "cuStreamSynchronize", cu.StreamSynchronize(stream))
	if b.Load() != 2 {
		t.Fatalf("exec2 after its graph was destroyed: b=%d, want 2", b.Load())
	}
	must(t, "cuGraphExecDestroy", cu.GraphExecDestroy(exec1))
	must(t, "cuGraphExecDestroy", cu.GraphExecDestroy(exec2))
	handlesBackTo(t, live, "destroying the graph and its execs")
}

// TestGraphAddNodeHost12: cuGraphAddNode takes a host node whose Go func
// GraphNodeParams.SetHost set; it runs on every one of 10 launches, and of
// a clone's exec after the graph is destroyed. cuGraphNodeSetParams
// (SetHost) changes the node for execs made afterwards,
// cuGraphExecNodeSetParams (SetHostForExec) only the exec; every handle is
// released once its graph, execs and clones are destroyed.
func TestGraphAddNodeHost12(t *testing.T) {
	_, done := gpu12(t)
	defer done()
	stream, err := cu.StreamCreate(0)
	must(t, "cuStreamCreate", err)
	defer cu.StreamDestroy(stream)
	live := ffiimpl.LiveHandles()
	var a, b, c atomic.Int64
	graph, err := cu.GraphCreate(0)
	must(t, "cuGraphCreate", err)
	var p cu.GraphNodeParams
	must(t, "SetHost", p.SetHost(graph, func() { a.Add(1) }))
	node, err := cu.GraphAddNode(graph, nil, 0, &p)
	must(t, "cuGraphAddNode", err)
	exec1, err := cu.GraphInstantiate(graph, 0)
	must(t, "cuGraphInstantiate", err)
	for range 10 {
		must(t, "cuGraphLaunch", cu.GraphLaunch(exec1, stream))
	}
	must(t, "cuStreamSynchronize", cu.StreamSynchronize(stream))
	if n := a.Load(); n != 10 {
		t.Fatalf("10 launches ran the host node's Go func %d times", n)
	}
	clone, err := cu.GraphClone(graph)
	must(t, "cuGraphClone", err)
	var q cu.GraphNodeParams
	must(t, "SetHost", q.SetHost(graph, func() { b.Add(1) }))
	must(t, "cuGraphNodeSetParams", cu.GraphNodeSetParams(node, &q))
	exec2, err := cu.GraphInstantiate(graph, 0)
	must(t, "cuGraphInstantiate", err)
	var r cu.GraphNodeParams
	r.SetHostForExec(exec1, func() { c.Add(1) })
	must(t, "cuGraphExecNodeSetParams", cu.GraphExecNodeSetParams(exec1, node, &r))
	must(t, "cuGraphLaunch", cu.GraphLaunch(exec1, stream))
	must(t, "cuGraphLaunch", cu.GraphLaunch(exec2, stream))
	must(t, "cuStreamSynchronize", cu.StreamSynchronize(stream))
	if a.Load() != 10 || b.Load() != 1 || c.Load() != 1 {
		t.Fatalf("runs a=%d b=%d c=%d, want 10 1 1", a.Load(), b.Load(), c.Load())
	}
	must(t, "cuGraphDestroy", cu.GraphDestroy(graph))
	exec3, err := cu.GraphInstantiate(clone, 0)
	must(t, "cuGraphInstantiate(clone)", err)
	must(t, "cuGraphDestroy(clone)", cu.GraphDestroy(clone))
	must(t, "cuGraphLaunch", cu.GraphLaunch(exec2, stream)) // exec2 keeps its Go func
	must(t, "cuGraphLaunch", cu.GraphLaunch(exec3, stream)) // and the clone's exec the first
	must(t, "cuStreamSynchronize", cu.StreamSynchronize(stream))
	if a.Load() != 11 || b.Load() != 2 {
		t.Fatalf("after the graph was destroyed: a=%d b=%d, want 11 2", a.Load(), b.Load())
	}
	must(t, "cuGraphExecDestroy", cu.GraphExecDestroy(exec1))
	must(t, "cuGraphExecDestroy", cu.GraphExecDestroy(exec2))
	must(t, "cuGraphExecDestroy", cu.GraphExecDestroy(exec3))
	handlesBackTo(t, live, "destroying the graph, its clone and their execs")
}
