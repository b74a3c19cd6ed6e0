package cuda

import (
	"errors"
	"runtime"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// HostFunc queues fn on the stream (cuLaunchHostFunc): it runs on a
// driver thread once the work before it is done, and the work after it
// waits for it. fn must not call CUDA. Queued while the stream is captured,
// fn lives as long as the graph and every instance of it, and runs on each
// launch.
func (s *Stream) HostFunc(fn func()) error {
	if s == nil {
		return errNilStream
	}
	if fn == nil {
		return errors.New("cuda: nil host function")
	}
	st := s.st
	return st.do(func() error { return st.ctx.drv.launchHostFunc(st.h, fn) })
}

// BeginCapture starts capturing the work queued on the stream into a graph
// instead of running it (cuStreamBeginCapture, relaxed mode: the capture
// is not tied to an OS thread, which goroutines do not keep). While the
// stream is captured, an asynchronous copy from or to Go memory pins that
// memory for as long as the graph and its instances live.
func (s *Stream) BeginCapture() error {
	st := s.st
	return st.do(func() error {
		st.mu.Lock()
		defer st.mu.Unlock()
		if st.capturing {
			return errors.New("cuda: BeginCapture on a stream already captured")
		}
		if err := st.ctx.drv.beginCapture(st.h); err != nil {
			return err
		}
		st.capturing = true
		return nil
	})
}

// EndCapture ends the capture BeginCapture started and returns the graph
// (cuStreamEndCapture).
func (s *Stream) EndCapture() (*Graph, error) {
	st := s.st
	var g *Graph
	err := st.do(func() (err error) {
		g, err = st.endCapture()
		return err
	})
	return g, err
}

// endCapture is EndCapture on a locked thread, the context current.
func (st *streamState) endCapture() (*Graph, error) {
	st.mu.Lock()
	if !st.capturing {
		st.mu.Unlock()
		return nil, errors.New("cuda: EndCapture without BeginCapture")
	}
	st.capturing = false
	pins, keep := st.capturePins, st.captureKeep
	st.capturePins, st.captureKeep = nil, nil
	st.mu.Unlock()
	unpin := func() {
		for _, p := range pins {
			p.Unpin()
		}
		runtime.KeepAlive(keep)
	}
	d := st.ctx.drv
	h, err := d.endCapture(st.h)
	// The memory closed during the capture, freed now on the stream; a
	// failure here is the context's, which the next call reports.
	st.freeAfterCapture()
	if err != nil {
		unpin()
		return nil, err
	}
	if len(pins) > 0 {
		// The graph and each instance hold a reference to a user object
		// whose destructor unpins the Go memory.
		if err := d.graphOwn(h, unpin); err != nil {
			d.graphDestroy(h)
			return nil, err
		}
	}
	g := &Graph{}
	g.r = newResource(g, st.ctx, kindGraph, uint64(h), nil)
	return g, nil
}

// Graph is a CUDA graph (CUgraph): captured from a stream, or built node
// by node ([NewGraph], graphbuild.go).
type Graph struct {
	r *resource
	b graphBuild // graphbuild.go
}

// Raw returns the driver's handle, for the cu package.
func (g *Graph) Raw() cu.Graph { return cu.Graph(g.r.h) }

// Close destroys the graph (cuGraphDestroy); its instances stay usable. A
// conditional node's body graph is its parent's: its Close is an error.
func (g *Graph) Close() error {
	if g.b.root != nil {
		return errBodyClose
	}
	return g.r.free()
}

// Instantiate makes an executable instance of the graph (cuGraphInstantiate).
func (g *Graph) Instantiate() (*GraphExec, error) { return g.InstantiateFlags(0) }

// GraphExec is an executable graph (CUgraphExec).
type GraphExec struct {
	r *resource
	x execState // graphbuild.go
}

// Raw returns the driver's handle, for the cu package.
func (e *GraphExec) Raw() cu.GraphExec { return cu.GraphExec(e.r.h) }

// Launch queues the graph on s (cuGraphLaunch).
func (e *GraphExec) Launch(s *Stream) error {
	return s.deviceOp(e.r, func(h cu.Stream) error { return e.r.ctx.drv.graphLaunch(cu.GraphExec(e.r.h), h) })
}

// Close destroys the instance (cuGraphExecDestroy).
func (e *GraphExec) Close() error { return e.r.free() }
