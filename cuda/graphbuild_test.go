package cuda

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// fakeGraph is the fake driver with graphs: it records each node added,
// with the kernel arguments as the driver would have read them.
type fakeGraph struct {
	*fakeDriver
	gmu     sync.Mutex
	next    uint64
	nodes   map[cu.Graph][]fakeNode
	execs   map[cu.GraphExec]cu.Graph
	sets    []fakeNode // graphExecSet's calls
	updates int
	// updateFail makes graphExecUpdate fail with this result.
	updateFail cu.GraphExecUpdateResult
	uploads    int
}

type fakeNode struct {
	h     cu.GraphNode
	kind  NodeKind
	deps  []cu.GraphNode
	args  [][]byte // a kernel node's arguments, at the kernel's param sizes
	grid  Dim3
	copy  cu.CudaMemcpy3D
	set   cu.MemsetNodeParams
	cond  cu.ConditionalNodeParams
	host  func()
	child cu.Graph
}

func newGraphFake(t testing.TB) (*fakeGraph, *Context) {
	// As newFake, without its Context, whose release would count.
	f := &fakeDriver{t: t, next: 0x10000, live: map[uint64]bool{}, host: map[unsafe.Pointer][]byte{}}
	g := &fakeGraph{fakeDriver: f, next: 0x70000, nodes: map[cu.Graph][]fakeNode{}, execs: map[cu.GraphExec]cu.Graph{}}
	return g, wrapCtx(&ctxState{drv: g}, Device{})
}

func (f *fakeGraph) handle() uint64 {
	f.next += 0x10
	return f.next
}

func (f *fakeGraph) graphCreate() (cu.Graph, error) {
	f.gmu.Lock()
	defer f.gmu.Unlock()
	g := cu.Graph(f.handle())
	f.nodes[g] = nil
	return g, nil
}

func (f *fakeGraph) graphClone(g cu.Graph) (cu.Graph, error) {
	f.gmu.Lock()
	defer f.gmu.Unlock()
	c := cu.Graph(f.handle())
	f.nodes[c] = append([]fakeNode(nil), f.nodes[g]...)
	return c, nil
}

func (f *fakeGraph) record(n *nodeSpec) fakeNode {
	fn := fakeNode{kind: n.kind, host: n.host, child: n.child}
	switch n.kind {
	case NodeKernel:
		p := n.kernel
		fn.grid = Dim3{p.GridDimX, p.GridDimY, p.GridDimZ}
		if p.KernelParams != nil {
			pp := unsafe.Slice(p.KernelParams, len(f.params))
			for i, ps := range f.params {
				fn.args = append(fn.args, append([]byte(nil), unsafe.Slice((*byte)(pp[i]), ps[1])...))
			}
		}
	case NodeMemcpy:
		fn.copy = *n.copy
	case NodeMemset:
		fn.set = *n.set
	case NodeConditional:
		fn.cond = *n.cond.Conditional()
	}
	return fn
}

func (f *fakeGraph) graphAdd(g cu.Graph, deps []cu.GraphNode, n *nodeSpec) (cu.GraphNode, error) {
	f.gmu.Lock()
	defer f.gmu.Unlock()
	ns, ok := f.nodes[g]
	if !ok {
		f.t.Errorf("node added to graph %#x, not created", g)
		return 0, cu.ErrorInvalidValue
	}
	fn := f.record(n)
	fn.h = cu.GraphNode(f.handle())
	fn.deps = append([]cu.GraphNode(nil), deps...)
	switch n.kind {
	case NodeMemAlloc:
		n.alloc.Dptr = cu.Deviceptr(f.handle() << 8)
	case NodeConditional:
		c := n.cond.Conditional()
		bodies := make([]cu.Graph, c.Size)
		for i := range bodies {
			bodies[i] = cu.Graph(f.handle())
			f.nodes[bodies[i]] = nil
		}
		c.PhGraph_out = &bodies[0]
	}
	f.nodes[g] = append(ns, fn)
	return fn.h, nil
}

func (f *fakeGraph) condHandle(g cu.Graph, ctx cu.Context, def, flags uint32) (cu.GraphConditionalHandle, error) {
	f.gmu.Lock()
	defer f.gmu.Unlock()
	return cu.GraphConditionalHandle(f.handle()), nil
}

func (f *fakeGraph) graphInstantiate(g cu.Graph, flags uint64) (cu.GraphExec, error) {
	f.gmu.Lock()
	defer f.gmu.Unlock()
	e := cu.GraphExec(f.handle())
	f.execs[e] = g
	return e, nil
}

func (f *fakeGraph) graphUpload(e cu.GraphExec, s cu.Stream) error {
	f.gmu.Lock()
	defer f.gmu.Unlock()
	f.uploads++
	return nil
}

func (f *fakeGraph) graphExecUpdate(e cu.GraphExec, g cu.Graph, info *cu.GraphExecUpdateResultInfo) error {
	f.gmu.Lock()
	defer f.gmu.Unlock()
	if f.updateFail != 0 {
		info.Result = f.updateFail
		info.ErrorNode = 0x77
		return cu.ErrorGraphExecUpdateFailure
	}
	f.updates++
	return nil
}

func (f *fakeGraph) graphExecSet(e cu.GraphExec, n cu.GraphNode, spec *nodeSpec) error {
	f.gmu.Lock()
	defer f.gmu.Unlock()
	fn := f.record(spec)
	fn.h = n
	f.sets = append(f.sets, fn)
	return nil
}

func (f *fakeGraph) graph(g *Graph) []fakeNode {
	f.gmu.Lock()
	defer f.gmu.Unlock()
	return f.nodes[g.Raw()]
}

// graphKernel is a fake kernel taking (float32, *T, *T, int32).
func graphKernel(t *testing.T, f *fakeGraph, c *Context) *Kernel {
	t.Helper()
	f.params = [][2]uint64{{0, 4}, {8, 8}, {16, 8}, {24, 4}}
	k, err := fakeModule(c).Kernel("saxpy")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestGraphBuildNodes builds a graph of every kind of node but the
// conditional ones: each reaches the driver with its dependencies and
// parameters, the kernel's arguments packed as Launch packs them.
func TestGraphBuildNodes(t *testing.T) {
	f, c := newGraphFake(t)
	defer c.Close()
	k := graphKernel(t, f, c)
	g, err := NewGraph(c)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := Alloc[float32](c, 64)
	y, _ := Alloc[float32](c, 64)
	h, _ := AllocHost[float32](c, 64)
	ev := &Event{} // NewEvent calls the driver itself
	ev.r = newResource(ev, c.ref.s, kindEvent, 0x99, nil)
	defer func() {
		for _, cl := range []interface{ Close() error }{x, y, h, ev, g} {
			cl.Close()
		}
	}()

	up, err := AddCopy(g, x, h)
	if err != nil {
		t.Fatal(err)
	}
	fill, err := AddFill(g, y, float32(0))
	if err != nil {
		t.Fatal(err)
	}
	kn, err := g.AddKernel(k, ForN(64, 32), []*GraphNode{up, fill}, float32(2), x, y, int32(64))
	if err != nil {
		t.Fatal(err)
	}
	down, err := AddCopy(g, h, y, kn)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	hn, err := g.AddHost(func() { ran++ }, down)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := g.AddEventRecord(ev, hn)
	if err != nil {
		t.Fatal(err)
	}
	wait, err := g.AddEventWait(ev, rec)
	if err != nil {
		t.Fatal(err)
	}
	an, tmp, err := AddAlloc[int32](g, 100, wait)
	if err != nil {
		t.Fatal(err)
	}
	fn, err := AddFree(g, tmp, an)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.AddEmpty(fn, kn); err != nil {
		t.Fatal(err)
	}

	ns := f.graph(g)
	want := []NodeKind{NodeMemcpy, NodeMemset, NodeKernel, NodeMemcpy, NodeHost, NodeEventRecord, NodeEventWait, NodeMemAlloc, NodeMemFree, NodeEmpty}
	if len(ns) != len(want) {
		t.Fatalf("%d nodes reached the driver, want %d", len(ns), len(want))
	}
	for i, n := range ns {
		if n.kind != want[i] {
			t.Errorf("node %d: %v, want %v", i, n.kind, want[i])
		}
	}
	if d := ns[2].deps; len(d) != 2 || d[0] != up.Raw() || d[1] != fill.Raw() {
		t.Errorf("kernel node's dependencies %v, want [%#x %#x]", d, up.Raw(), fill.Raw())
	}
	a := ns[2].args
	if len(a) != 4 || *(*float32)(unsafe.Pointer(&a[0][0])) != 2 || *(*cu.Deviceptr)(unsafe.Pointer(&a[1][0])) != x.Ptr() ||
		*(*cu.Deviceptr)(unsafe.Pointer(&a[2][0])) != y.Ptr() || *(*int32)(unsafe.Pointer(&a[3][0])) != 64 {
		t.Errorf("kernel node's arguments %v, want 2, %#x, %#x, 64", a, x.Ptr(), y.Ptr())
	}
	if ns[2].grid != (Dim3{2, 1, 1}) {
		t.Errorf("kernel node's grid %v, want 2x1x1", ns[2].grid)
	}
	if p := ns[0].copy; p.SrcMemoryType != cu.MemorytypeHost || p.SrcHost != h.Ptr() || p.DstMemoryType != cu.MemorytypeDevice || p.DstDevice != x.Ptr() || p.WidthInBytes != 256 {
		t.Errorf("host to device copy: %+v", p)
	}
	if p := ns[3].copy; p.SrcMemoryType != cu.MemorytypeDevice || p.SrcDevice != y.Ptr() || p.DstHost != h.Ptr() {
		t.Errorf("device to host copy: %+v", p)
	}
	if p := ns[1].set; p.Dst != y.Ptr() || p.ElementSize != 4 || p.Width != 64 || p.Value != 0 {
		t.Errorf("memset: %+v, want 256 bytes of 0 at %#x", p, y.Ptr())
	}
	if tmp.Ptr() == 0 || tmp.Len() != 100 {
		t.Errorf("graph allocation: %#x, %d elements", tmp.Ptr(), tmp.Len())
	}
	ns[4].host()
	if ran != 1 {
		t.Errorf("host node's func ran %d times, want 1", ran)
	}
	if err := tmp.Close(); err != nil {
		t.Errorf("Close of a graph allocation: %v", err)
	}
}

// TestGraphMisuse: a node of another graph, a closed graph, a wrong
// argument, a foreign condition and a body graph's Close are typed errors
// before any driver call.
func TestGraphMisuse(t *testing.T) {
	f, c := newGraphFake(t)
	defer c.Close()
	k := graphKernel(t, f, c)
	g1, _ := NewGraph(c)
	g2, _ := NewGraph(c)
	defer g2.Close()
	x, _ := Alloc[float32](c, 8)
	defer x.Close()
	n1, err := g1.AddEmpty()
	if err != nil {
		t.Fatal(err)
	}
	var ge *GraphError
	if _, err := g2.AddEmpty(n1); !errors.As(err, &ge) || !strings.Contains(err.Error(), "another graph") {
		t.Errorf("a dependency of another graph: %v, want a *GraphError", err)
	}
	if _, err := g2.AddKernel(k, ForN(8, 8), nil, float32(1), x, x, int64(8)); err == nil {
		t.Error("an int64 for a 4-byte parameter: no error")
	} else if ae := (*ArgError)(nil); !errors.As(err, &ae) || ae.Index != 3 {
		t.Errorf("an int64 for a 4-byte parameter: %v, want an *ArgError for argument 3", err)
	}
	if _, err := g2.AddKernel(k, Config{Cooperative: true}, nil, float32(1), x, x, int32(8)); err == nil {
		t.Error("a kernel node with launch attributes: no error")
	}
	cond, err := g1.NewCondition(0, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := g2.AddIf(cond); !errors.As(err, &ge) {
		t.Errorf("a condition of another graph: %v, want a *GraphError", err)
	}
	_, body, err := g1.AddWhile(cond)
	if err != nil {
		t.Fatal(err)
	}
	if err := body.Close(); !errors.Is(err, errBodyClose) {
		t.Errorf("Close of a body graph: %v", err)
	}
	if _, err := body.Instantiate(); !errors.As(err, &ge) {
		t.Errorf("Instantiate of a body graph: %v, want a *GraphError", err)
	}
	before := len(f.graph(g2))
	if err := g1.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := g1.AddEmpty(); !errors.Is(err, ErrFreed) {
		t.Errorf("AddEmpty on a closed graph: %v, want ErrFreed", err)
	}
	if _, err := body.AddEmpty(); !errors.Is(err, ErrFreed) {
		t.Errorf("AddEmpty on the body of a closed graph: %v, want ErrFreed", err)
	}
	if _, err := AddCopy(g2, x, x.Slice(0, 4)); !errors.As(err, &ge) {
		t.Errorf("a copy of 4 elements to 8: %v, want a *GraphError", err)
	}
	type rgb [3]byte
	if _, err := AddFill(g2, graphTestBuffer[rgb](t, c), rgb{1, 2, 3}); !errors.As(err, &ge) {
		t.Errorf("a fill with a 3-byte pattern: %v, want a *GraphError", err)
	}
	if _, err := AddFill(g2, x, float32(0)); err != nil {
		t.Errorf("a fill: %v", err)
	}
	if n := len(f.graph(g2)) - before; n != 1 {
		t.Errorf("%d nodes reached the driver, want 1 (the fill)", n)
	}
}

// TestGraphConditional: if, if/else, while and switch nodes reach the
// driver with the condition's handle, and their bodies are graphs to fill.
func TestGraphConditional(t *testing.T) {
	f, c := newGraphFake(t)
	defer c.Close()
	g, _ := NewGraph(c)
	defer g.Close()
	cond, err := g.NewCondition(1, true)
	if err != nil {
		t.Fatal(err)
	}
	in, then, err := g.AddIf(cond)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := then.AddEmpty(); err != nil {
		t.Fatal(err)
	}
	if _, err := then.AddEmpty(in); err == nil {
		t.Error("the if node as a dependency inside its own body: no error")
	}
	_, t2, e2, err := g.AddIfElse(cond, in)
	if err != nil {
		t.Fatal(err)
	}
	_, w, err := g.AddWhile(cond)
	if err != nil {
		t.Fatal(err)
	}
	_, cases, err := g.AddSwitch(cond, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 4 || t2 == e2 || w.Raw() == 0 {
		t.Fatalf("bodies: %d cases", len(cases))
	}
	ns := f.graph(g)
	types := []cu.GraphConditionalNodeType{cu.GraphCondTypeIf, cu.GraphCondTypeIf, cu.GraphCondTypeWhile, condSwitch}
	sizes := []uint32{1, 2, 1, 4}
	for i, n := range ns {
		if n.kind != NodeConditional || n.cond.Handle != cond.Raw() || n.cond.Type != types[i] || n.cond.Size != sizes[i] {
			t.Errorf("node %d: %v %+v", i, n.kind, n.cond)
		}
	}
	if len(f.graph(then)) != 1 {
		t.Errorf("the if body has %d nodes, want 1", len(f.graph(then)))
	}
	if _, _, err := then.AddWhile(cond); !errors.As(err, new(*GraphError)) {
		t.Errorf("a body's while node on its root's condition: %v, want a *GraphError", err)
	}
	inner, err := then.NewCondition(0, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := then.AddWhile(inner); err != nil {
		t.Errorf("a body's while node on the body's condition: %v", err)
	}
	if _, err := cases[0].Clone(); !errors.As(err, new(*GraphError)) {
		t.Errorf("Clone of a body graph: %v, want a *GraphError", err)
	}
	// A body's kernel nodes keep their buffers through the root.
	x, _ := Alloc[byte](c, 1)
	defer x.Close()
	if _, err := AddFill(cases[2], x, 7); err != nil {
		t.Fatal(err)
	}
	if kept := g.kept(); len(kept) == 0 || kept[len(kept)-1] != any(x) {
		t.Errorf("the root keeps %v, want the body's buffer last", kept)
	}
}

// TestGraphExecUpdates: an instance's Upload, Update (and its typed
// error) and the parameter updates of its kernel, memcpy and memset
// nodes, with the misuses each refuses.
func TestGraphExecUpdates(t *testing.T) {
	f, c := newGraphFake(t)
	defer c.Close()
	k := graphKernel(t, f, c)
	g, _ := NewGraph(c)
	defer g.Close()
	x, _ := Alloc[float32](c, 16)
	y, _ := Alloc[float32](c, 16)
	h, _ := AllocHost[float32](c, 16)
	defer x.Close()
	defer y.Close()
	defer h.Close()
	kn, err := g.AddKernel(k, ForN(16, 16), nil, float32(1), x, y, int32(16))
	if err != nil {
		t.Fatal(err)
	}
	cp, err := AddCopy(g, h, y, kn)
	if err != nil {
		t.Fatal(err)
	}
	fl, err := AddFill(g, x, float32(0), cp)
	if err != nil {
		t.Fatal(err)
	}
	e, err := g.InstantiateFlags(InstantiateAutoFreeOnLaunch)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s, closeS := fakeStream(c, 0x51)
	defer closeS()
	if err := e.Upload(s); err != nil || f.uploads != 1 {
		t.Errorf("Upload: %v, %d uploads", err, f.uploads)
	}
	if err := e.SetKernelArgs(kn, ForN(16, 16), float32(3), y, x, int32(8)); err != nil {
		t.Fatal(err)
	}
	if err := SetCopy(e, cp, h, x); err != nil {
		t.Fatal(err)
	}
	if err := SetFill(e, fl, y, float32(1)); err != nil {
		t.Fatal(err)
	}
	if len(f.sets) != 3 {
		t.Fatalf("%d parameter updates reached the driver, want 3", len(f.sets))
	}
	if a := f.sets[0].args; f.sets[0].h != kn.Raw() || *(*float32)(unsafe.Pointer(&a[0][0])) != 3 || *(*cu.Deviceptr)(unsafe.Pointer(&a[1][0])) != y.Ptr() || *(*int32)(unsafe.Pointer(&a[3][0])) != 8 {
		t.Errorf("kernel update: node %#x, args %v", f.sets[0].h, a)
	}
	if p := f.sets[1].copy; p.SrcDevice != x.Ptr() || p.DstHost != h.Ptr() {
		t.Errorf("memcpy update: %+v", p)
	}
	if p := f.sets[2].set; p.Dst != y.Ptr() || p.Value != 0x3f800000 || p.ElementSize != 4 {
		t.Errorf("memset update: %+v", p)
	}

	var ge *GraphError
	if err := e.SetKernelArgs(cp, ForN(16, 16)); !errors.As(err, &ge) {
		t.Errorf("SetKernelArgs of a memcpy node: %v, want a *GraphError", err)
	}
	if err := e.SetKernelArgs(kn, ForN(16, 16), float32(3), y, x); err == nil {
		t.Error("SetKernelArgs with 3 arguments of 4: no error")
	}
	if err := SetCopy(e, cp, x, y); !errors.As(err, &ge) {
		t.Errorf("SetCopy device to device on a device to host node: %v, want a *GraphError", err)
	}
	g2, _ := NewGraph(c)
	defer g2.Close()
	other, _ := AddFill(g2, x, float32(0))
	if err := SetFill(e, other, x, float32(0)); !errors.As(err, &ge) {
		t.Errorf("SetFill of another graph's node: %v, want a *GraphError", err)
	}
	if len(f.sets) != 3 {
		t.Errorf("%d parameter updates reached the driver after the misuses, want 3", len(f.sets))
	}

	if err := e.Update(g2); err != nil || f.updates != 1 {
		t.Errorf("Update: %v (%d updates)", err, f.updates)
	}
	f.updateFail = cu.GraphExecUpdateErrorTopologyChanged
	var ue *UpdateError
	if err := e.Update(g2); !errors.As(err, &ue) || ue.Result != cu.GraphExecUpdateErrorTopologyChanged || ue.Node != 0x77 || !errors.Is(err, cu.ErrorGraphExecUpdateFailure) {
		t.Errorf("a refused Update: %v, want an *UpdateError with the topology changed", err)
	}
}

// TestGraphKeepsBuffers: a buffer only a graph's instance references
// stays allocated after the graph is closed, until the instance goes.
func TestGraphKeepsBuffers(t *testing.T) {
	f, c := newGraphFake(t)
	defer c.Close()
	g, _ := NewGraph(c)
	x, _ := Alloc[float32](c, 16)
	if _, err := AddFill(g, x, float32(0)); err != nil {
		t.Fatal(err)
	}
	x = nil
	// The clone keeps the buffer too, after g and its instance go.
	cl, err := g.Clone()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.graph(cl)) != 1 {
		t.Errorf("the clone has %d nodes, want 1", len(f.graph(cl)))
	}
	e, err := g.Instantiate()
	if err != nil {
		t.Fatal(err)
	}
	g.Close()
	g = nil
	// Give the cleanups time to run, as they would for an unreachable
	// buffer.
	for range 20 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	if live, _, _ := f.state(); live != 1 {
		t.Errorf("%d allocations live while the instance lives, want 1", live)
	}
	runtime.KeepAlive(e)
	e = nil
	for range 20 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	if live, _, _ := f.state(); live != 1 {
		t.Errorf("%d allocations live while the clone lives, want 1", live)
	}
	runtime.KeepAlive(cl)
}

// TestGraphBuildAllocs: adding a kernel node and setting an instance's
// kernel arguments stay within a few allocations (not a hot path; a
// ceiling against regressions).
func TestGraphBuildAllocs(t *testing.T) {
	f, c := newGraphFake(t)
	defer c.Close()
	k := graphKernel(t, f, c)
	g, _ := NewGraph(c)
	defer g.Close()
	x, _ := Alloc[float32](c, 16)
	defer x.Close()
	kn, _ := g.AddKernel(k, ForN(16, 16), nil, float32(1), x, x, int32(16))
	e, _ := g.Instantiate()
	defer e.Close()
	n := testing.AllocsPerRun(100, func() {
		e.SetKernelArgs(kn, ForN(16, 16), float32(1), x, x, int32(16))
	})
	t.Logf("SetKernelArgs: %.0f allocations", n)
	if n > 20 {
		t.Errorf("SetKernelArgs: %.0f allocations", n)
	}
}

// graphTestBuffer allocates 4 elements of T, closed at the test's end.
func graphTestBuffer[T any](t *testing.T, c *Context) *Buffer[T] {
	b, err := Alloc[T](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// TestFindDeviceRuntime finds libcudadevrt.a under CUDA_HOME's
// targets/*/lib, where the toolkit's packages put it.
func TestFindDeviceRuntime(t *testing.T) {
	d := t.TempDir()
	t.Setenv("CUDA_HOME", d)
	t.Setenv("CUDA_PATH", "")
	lib := filepath.Join(d, "targets", "x86_64-linux", "lib")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(lib, "libcudadevrt.a")
	if err := os.WriteFile(want, []byte("!<arch>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := FindDeviceRuntime(); err != nil || got != want {
		t.Errorf("FindDeviceRuntime() = %q, %v, want %q", got, err, want)
	}
}

// TestGraphAddNodeSignature: cuGraphAddNode's Go signature, which differs
// between CUDA 12 and 13, is one graphAddNode calls (this test runs in
// each major's copy of the layer).
func TestGraphAddNodeSignature(t *testing.T) {
	switch f := any(cu.GraphAddNode).(type) {
	case func(cu.Graph, *cu.GraphNode, uint64, *cu.GraphNodeParams) (cu.GraphNode, error),
		func(cu.Graph, *cu.GraphNode, *cu.GraphEdgeData, uint64, *cu.GraphNodeParams) (cu.GraphNode, error):
	default:
		t.Errorf("cu.GraphAddNode is a %T, which graphAddNode does not call", f)
	}
}

// TestGraphClosedOperands: a kernel node of a closed buffer or of an
// unloaded module, a copy of a closed buffer and an event node of a closed
// event are errors before the driver call.
func TestGraphClosedOperands(t *testing.T) {
	f, c := newGraphFake(t)
	defer c.Close()
	k := graphKernel(t, f, c)
	g, _ := NewGraph(c)
	defer g.Close()
	x, _ := Alloc[float32](c, 8)
	y, _ := Alloc[float32](c, 8)
	defer y.Close()
	x.Close()
	var ae *ArgError
	if _, err := g.AddKernel(k, ForN(8, 8), nil, float32(1), x, y, int32(8)); !errors.As(err, &ae) || ae.Index != 1 {
		t.Errorf("a kernel node of a closed buffer: %v, want an *ArgError for argument 1", err)
	}
	if _, err := AddCopy(g, y, x); !errors.Is(err, ErrFreed) {
		t.Errorf("a copy of a closed buffer: %v, want ErrFreed", err)
	}
	ev := &Event{}
	ev.r = newResource(ev, c.ref.s, kindEvent, 0x99, nil)
	ev.Close()
	if _, err := g.AddEventRecord(ev); !errors.Is(err, ErrFreed) {
		t.Errorf("an event node of a closed event: %v, want ErrFreed", err)
	}
	k.mod.Close()
	if _, err := g.AddKernel(k, ForN(8, 8), nil, float32(1), y, y, int32(8)); !errors.Is(err, ErrFreed) {
		t.Errorf("a kernel node of an unloaded module: %v, want ErrFreed", err)
	}
	if n := len(f.graph(g)); n != 0 {
		t.Errorf("%d nodes reached the driver, want 0", n)
	}
	if _, err := c.ModuleWithDeviceRuntime(Source{Code: "x"}, ""); err == nil {
		t.Error("ModuleWithDeviceRuntime without a library: no error")
	}
}
