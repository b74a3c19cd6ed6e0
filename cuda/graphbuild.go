package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// This file builds graphs node by node: NewGraph and the Add methods and
// functions. graphcond.go has conditional nodes, graphexec.go the
// instances' Upload, Update and parameter updates, graphdriver.go the
// driver calls; graph.go has capture, Instantiate and Launch.

// graphDriver is the driver's graph calls, part of the seam (driver).
type graphDriver interface {
	graphCreate() (cu.Graph, error)
	graphClone(g cu.Graph) (cu.Graph, error)
	// graphAdd adds the node n describes to g after deps.
	graphAdd(g cu.Graph, deps []cu.GraphNode, n *nodeSpec) (cu.GraphNode, error)
	condHandle(g cu.Graph, ctx cu.Context, def, flags uint32) (cu.GraphConditionalHandle, error)
	graphInstantiate(g cu.Graph, flags uint64) (cu.GraphExec, error)
	graphUpload(e cu.GraphExec, s cu.Stream) error
	graphExecUpdate(e cu.GraphExec, g cu.Graph, info *cu.GraphExecUpdateResultInfo) error
	// graphExecSet sets the parameters of the instance's node n: a kernel,
	// memcpy or memset node.
	graphExecSet(e cu.GraphExec, n cu.GraphNode, spec *nodeSpec) error
	graphLaunch(e cu.GraphExec, s cu.Stream) error
	graphDestroy(g cu.Graph) error
	// beginCapture is cuStreamBeginCapture in relaxed mode.
	beginCapture(s cu.Stream) error
	endCapture(s cu.Stream) (cu.Graph, error)
	// graphOwn makes g own a user object whose destructor is destroy
	// (cuUserObjectCreate, cuGraphRetainUserObject). On a failure destroy
	// has run, or runs once the driver drops the object.
	graphOwn(g cu.Graph, destroy func()) error
}

// NodeKind is what a graph node does.
type NodeKind uint8

const (
	NodeEmpty       NodeKind = iota // no work: a join point of dependencies
	NodeKernel                      // a kernel launch
	NodeMemcpy                      // a copy
	NodeMemset                      // a fill
	NodeHost                        // a Go func on a driver thread
	NodeChild                       // a child graph (a copy of it)
	NodeEventRecord                 // an event record
	NodeEventWait                   // a wait for an event
	NodeMemAlloc                    // a graph allocation
	NodeMemFree                     // the free of a graph allocation
	NodeConditional                 // an if, if/else, while or switch
)

func (k NodeKind) String() string {
	return [...]string{"empty", "kernel", "memcpy", "memset", "host", "child graph", "event record", "event wait", "mem alloc", "mem free", "conditional"}[k]
}

// nodeSpec is one node's parameters in the driver's form.
type nodeSpec struct {
	kind   NodeKind
	ctx    cu.Context
	kernel *cu.KernelNodeParams
	copy   *cu.CudaMemcpy3D
	set    *cu.MemsetNodeParams
	host   func()
	child  cu.Graph
	event  cu.Event
	alloc  *cu.MemAllocNodeParams
	free   cu.Deviceptr
	cond   *cu.GraphNodeParams
}

// graphBuild is what a Graph keeps for its nodes.
type graphBuild struct {
	root *Graph // a conditional node's body graph: the graph it is part of; nil for a root
	mu   sync.Mutex
	// keep is what the nodes use (buffers, modules, child graphs' keeps),
	// kept reachable as long as the graph and its instances: on the root.
	keep []any
}

// execState is what an instance keeps.
type execState struct {
	from *Graph // the graph instantiated, whose nodes its Set methods take
	mu   sync.Mutex
	keep []any // what from keeps
	// updated is what the graph of the last Update keeps, and set what the
	// last Set of each node took: replaced, so that a loop of updates
	// keeps no more than one.
	updated []any
	set     map[cu.GraphNode][]any
}

// GraphNode is a node of a graph built with [NewGraph]'s Add methods.
type GraphNode struct {
	h    cu.GraphNode
	g    *Graph
	kind NodeKind
	k    *Kernel // a kernel node's kernel
	mem  uint8   // a memcpy node's ends: 1 device to device, 2 host to device, 3 device to host
}

// Raw returns the driver's handle, for the cu package.
func (n *GraphNode) Raw() cu.GraphNode { return n.h }

// Kind returns what the node does.
func (n *GraphNode) Kind() NodeKind { return n.kind }

// Graph returns the graph the node is in.
func (n *GraphNode) Graph() *Graph { return n.g }

// GraphError is a misuse of a graph the layer refuses before the driver
// sees it: a node of another graph, a kernel of another context, a body
// graph instantiated on its own.
type GraphError struct {
	Op     string // the method: "AddKernel", "Instantiate", ...
	Reason string
}

func (e *GraphError) Error() string { return "cuda: Graph." + e.Op + ": " + e.Reason }

var errBodyClose = errors.New("cuda: Close of a conditional node's body graph: close the graph it is part of")

// NewGraph creates an empty graph in c (cuGraphCreate), to build node by
// node with the Add methods and functions ([Graph.AddKernel], [AddCopy],
// ...). Each Add takes the nodes the new node depends on; a node of
// another graph is a *GraphError. The graph keeps what its nodes use
// (buffers, modules, Go funcs, the child graphs' own) reachable as long as
// it or an instance of it lives; closing such a buffer while an instance
// may still run is the caller's error, as it is for a kernel launch.
func NewGraph(c *Context) (*Graph, error) {
	var g *Graph
	err := c.do(func(s *ctxState) error {
		h, err := s.drv.graphCreate()
		if err == nil {
			g = &Graph{}
			g.r = newResource(g, s, kindGraph, uint64(h), nil)
		}
		return err
	})
	return g, err
}

// Clone returns a copy of the graph (cuGraphClone), which keeps what g
// keeps. The nodes of g are not the clone's: its instances' Set methods
// take none.
func (g *Graph) Clone() (*Graph, error) {
	const op = "Clone"
	ctx, err := g.begin(op)
	if err != nil {
		return nil, err
	}
	defer g.top().r.uses.release()
	if g.b.root != nil {
		return nil, &GraphError{Op: op, Reason: "a conditional node's body graph: clone the graph it is part of"}
	}
	var h cu.Graph
	err = onThread(ctx, func() (err error) {
		h, err = ctx.drv.graphClone(cu.Graph(g.r.h))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("cuda: Graph.%s: %w", op, err)
	}
	c := &Graph{}
	c.r = newResource(c, ctx, kindGraph, uint64(h), nil)
	c.b.keep = append([]any(nil), g.kept()...)
	return c, nil
}

// top returns the graph g is part of: g, or a body graph's root.
func (g *Graph) top() *Graph {
	if g.b.root != nil {
		return g.b.root
	}
	return g
}

// begin begins a use of the graph (of its root for a body graph), for op;
// g.top().r.uses.release() ends it.
func (g *Graph) begin(op string) (*ctxState, error) {
	if g == nil {
		return nil, &GraphError{Op: op, Reason: "nil *Graph"}
	}
	r := g.top().r
	if !r.uses.acquire() {
		return nil, fmt.Errorf("cuda: Graph.%s: %w", op, ErrFreed)
	}
	return r.ctx, nil
}

// hold keeps xs reachable as long as the graph, and the instances made
// from it after this call.
func (g *Graph) hold(xs ...any) {
	t := g.top()
	t.b.mu.Lock()
	t.b.keep = append(t.b.keep, xs...)
	t.b.mu.Unlock()
}

// kept returns what the graph keeps, to hand to an instance.
func (g *Graph) kept() []any {
	t := g.top()
	t.b.mu.Lock()
	defer t.b.mu.Unlock()
	return t.b.keep[:len(t.b.keep):len(t.b.keep)]
}

// depHandles checks that deps are nodes of g and returns their handles.
func (g *Graph) depHandles(op string, deps []*GraphNode) ([]cu.GraphNode, error) {
	if len(deps) == 0 {
		return nil, nil
	}
	hs := make([]cu.GraphNode, len(deps))
	for i, d := range deps {
		switch {
		case d == nil:
			return nil, &GraphError{Op: op, Reason: fmt.Sprintf("dependency %d is nil", i)}
		case d.g != g:
			return nil, &GraphError{Op: op, Reason: fmt.Sprintf("dependency %d is a node of another graph", i)}
		}
		hs[i] = d.h
	}
	return hs, nil
}

// add adds the node spec describes after deps, as a use of the graph.
func (g *Graph) add(op string, deps []*GraphNode, spec *nodeSpec, keep ...any) (*GraphNode, error) {
	ctx, err := g.begin(op)
	if err != nil {
		return nil, err
	}
	defer g.top().r.uses.release()
	return g.addLocked(ctx, op, deps, spec, keep...)
}

// addLocked is add during a use of the graph.
func (g *Graph) addLocked(ctx *ctxState, op string, deps []*GraphNode, spec *nodeSpec, keep ...any) (*GraphNode, error) {
	hs, err := g.depHandles(op, deps)
	if err != nil {
		return nil, err
	}
	spec.ctx = ctx.ctx
	var h cu.GraphNode
	err = onThread(ctx, func() (err error) {
		h, err = ctx.drv.graphAdd(cu.Graph(g.r.h), hs, spec)
		return err
	})
	runtime.KeepAlive(spec)
	if err != nil {
		return nil, fmt.Errorf("cuda: Graph.%s: %w", op, err)
	}
	if len(keep) > 0 {
		g.hold(keep...)
	}
	return &GraphNode{h: h, g: g, kind: spec.kind}, nil
}

// AddEmpty adds a node that does nothing (cuGraphAddEmptyNode): a join of
// its dependencies.
func (g *Graph) AddEmpty(deps ...*GraphNode) (*GraphNode, error) {
	return g.add("AddEmpty", deps, &nodeSpec{kind: NodeEmpty})
}

// AddHost adds a node that runs fn on a driver thread once its
// dependencies are done (cuGraphAddHostNode); fn must not call CUDA. fn
// stays reachable as long as the graph and its instances, and runs on
// every launch.
func (g *Graph) AddHost(fn func(), deps ...*GraphNode) (*GraphNode, error) {
	if fn == nil {
		return nil, &GraphError{Op: "AddHost", Reason: "nil func"}
	}
	return g.add("AddHost", deps, &nodeSpec{kind: NodeHost, host: fn}, fn)
}

// AddChild adds a node that runs a copy of child (cuGraphAddChildGraphNode):
// later changes to child do not reach the node. child must be of g's
// context; what it keeps, g keeps too.
func (g *Graph) AddChild(child *Graph, deps ...*GraphNode) (*GraphNode, error) {
	const op = "AddChild"
	if child == nil {
		return nil, &GraphError{Op: op, Reason: "nil child graph"}
	}
	ctx, err := g.begin(op)
	if err != nil {
		return nil, err
	}
	defer g.top().r.uses.release()
	if _, err := child.begin(op); err != nil {
		return nil, fmt.Errorf("cuda: Graph.%s: the child graph: %w", op, errors.Unwrap(err))
	}
	defer child.top().r.uses.release()
	if child.top() == g.top() {
		return nil, &GraphError{Op: op, Reason: "a graph cannot be its own child"}
	}
	if child.top().r.ctx.ctx != ctx.ctx {
		return nil, &GraphError{Op: op, Reason: "the child graph is of another context"}
	}
	return g.addLocked(ctx, op, deps, &nodeSpec{kind: NodeChild, child: cu.Graph(child.r.h)}, child.kept()...)
}

// AddEventRecord adds a node that records ev (cuGraphAddEventRecordNode).
func (g *Graph) AddEventRecord(ev *Event, deps ...*GraphNode) (*GraphNode, error) {
	return g.addEvent("AddEventRecord", NodeEventRecord, ev, deps)
}

// AddEventWait adds a node that waits for ev's last record
// (cuGraphAddEventWaitNode).
func (g *Graph) AddEventWait(ev *Event, deps ...*GraphNode) (*GraphNode, error) {
	return g.addEvent("AddEventWait", NodeEventWait, ev, deps)
}

func (g *Graph) addEvent(op string, k NodeKind, ev *Event, deps []*GraphNode) (*GraphNode, error) {
	if ev == nil {
		return nil, &GraphError{Op: op, Reason: "nil *Event"}
	}
	ctx, err := g.begin(op)
	if err != nil {
		return nil, err
	}
	defer g.top().r.uses.release()
	if err := ev.r.use(); err != nil {
		return nil, fmt.Errorf("cuda: Graph.%s: the event: %w", op, err)
	}
	defer ev.r.uses.release()
	if ev.r.ctx.ctx != ctx.ctx {
		return nil, &GraphError{Op: op, Reason: "the event is of another context"}
	}
	return g.addLocked(ctx, op, deps, &nodeSpec{kind: k, event: cu.Event(ev.r.h)}, ev)
}

// AddKernel adds a launch of k (cuGraphAddKernelNode) after deps, with
// args checked and packed as [Kernel.Launch] does them. cfg gives the
// grid, block and shared memory; a node has no stream and no launch
// attributes (a *ConfigError). The driver copies the arguments: the
// buffers among them and k's module are kept reachable as long as the
// graph and its instances.
func (g *Graph) AddKernel(k *Kernel, cfg Config, deps []*GraphNode, args ...any) (*GraphNode, error) {
	const op = "AddKernel"
	if k == nil {
		return nil, &GraphError{Op: op, Reason: "nil *Kernel"}
	}
	ctx, err := g.begin(op)
	if err != nil {
		return nil, err
	}
	defer g.top().r.uses.release()
	var p cu.KernelNodeParams
	buf, pp, owner, held, err := k.nodeParams(ctx, &cfg, args, &p)
	if err != nil {
		return nil, err
	}
	n, err := g.addLocked(ctx, op, deps, &nodeSpec{kind: NodeKernel, kernel: &p}, k.keeper(), args)
	unhold(args, held)
	owner.release()
	runtime.KeepAlive(buf)
	runtime.KeepAlive(pp)
	if err != nil {
		return nil, err
	}
	n.k = k
	return n, nil
}

// keeper is what keeps k's code loaded: its module or library.
func (k *Kernel) keeper() any {
	if k.lib != nil {
		return k.lib
	}
	return k.mod
}

// nodeParams checks cfg and args for a kernel node of k in ctx and fills
// p; the arguments are packed into buf, pointed to by pp, which p points
// to: the caller keeps them alive until the driver call, then ends the
// use of the module or library (owner) and the buffers (held).
func (k *Kernel) nodeParams(ctx *ctxState, cfg *Config, args []any, p *cu.KernelNodeParams) (buf []uint64, pp []unsafe.Pointer, owner *uses, held uint64, err error) {
	if cfg.Stream != nil {
		return nil, nil, nil, 0, &ConfigError{Kernel: k.name, Reason: "a graph node has no stream: leave Config.Stream nil"}
	}
	if cfg.hasAttrs() {
		return nil, nil, nil, 0, &ConfigError{Kernel: k.name, Reason: "a graph node takes no launch attributes"}
	}
	what := "module"
	if k.lib != nil {
		owner, what = &k.lib.st.uses, "library"
	} else {
		owner = &k.mod.r.uses
		if k.mod.r.ctx.ctx != ctx.ctx {
			return nil, nil, nil, 0, fmt.Errorf("cuda: kernel %s: the graph belongs to another context than the kernel's module", k.name)
		}
	}
	if !owner.acquire() {
		return nil, nil, nil, 0, fmt.Errorf("cuda: kernel %s: its %s: %w", k.name, what, ErrFreed)
	}
	_, size, err := k.pack(args, nil, nil) // measures: holds nothing
	if err != nil {
		owner.release()
		return nil, nil, nil, 0, err
	}
	buf = make([]uint64, (size+7)/8+1)
	offs := make([]int, len(args))
	if held, _, err = k.pack(args, buf, offs); err != nil {
		owner.release()
		return nil, nil, nil, 0, err
	}
	gr, bl := cfg.Grid.Norm(), cfg.Block.Norm()
	*p = cu.KernelNodeParams{
		GridDimX: gr.X, GridDimY: gr.Y, GridDimZ: gr.Z,
		BlockDimX: bl.X, BlockDimY: bl.Y, BlockDimZ: bl.Z,
		SharedMemBytes: cfg.SharedMem,
	}
	if k.lib != nil {
		p.Kern, p.Ctx = cu.Kernel(k.fn), ctx.ctx
	} else {
		p.Func = k.fn
	}
	if len(args) > 0 {
		pp = make([]unsafe.Pointer, len(args))
		for i, o := range offs {
			pp[i] = unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), o)
		}
		p.KernelParams = &pp[0]
	}
	return buf, pp, owner, held, nil
}

// Memory is device or pinned host memory a graph's copies take: a
// *Buffer[T] or a *HostBuffer[T].
type Memory[T any] interface {
	memEnd(*T) memEnd
}

// memEnd is one end of a copy.
type memEnd struct {
	dev   cu.Deviceptr
	host  unsafe.Pointer
	n     int
	r     *resource
	keep  any
	isDev bool
}

func (b *Buffer[T]) memEnd(*T) memEnd {
	return memEnd{dev: b.ptr, n: b.n, r: b.a.r, keep: b, isDev: true}
}

func (h *HostBuffer[T]) memEnd(*T) memEnd {
	return memEnd{host: h.p, n: h.n, r: h.r, keep: h}
}

// copyParams checks the ends of a copy of T and returns its parameters.
func copyParams[T any](op string, ctx *ctxState, dst, src Memory[T]) (*cu.CudaMemcpy3D, [2]memEnd, error) {
	var ends [2]memEnd
	if isNil(dst) || isNil(src) {
		return nil, ends, &GraphError{Op: op, Reason: "nil memory"}
	}
	d, s := dst.memEnd(nil), src.memEnd(nil)
	ends = [2]memEnd{d, s}
	if !d.isDev && !s.isDev {
		return nil, ends, &GraphError{Op: op, Reason: "a copy from host memory to host memory (one end must be a *Buffer)"}
	}
	if d.n != s.n {
		return nil, ends, &GraphError{Op: op, Reason: fmt.Sprintf("%d elements to %d", s.n, d.n)}
	}
	if d.n == 0 {
		return nil, ends, &GraphError{Op: op, Reason: "an empty copy"}
	}
	for i, e := range ends {
		if e.r.uses.closed() {
			return nil, ends, fmt.Errorf("cuda: Graph.%s: %s: %w", op, [...]string{"the destination", "the source"}[i], ErrFreed)
		}
		if e.isDev && e.r.ctx.ctx != ctx.ctx {
			return nil, ends, &GraphError{Op: op, Reason: "a buffer of another context"}
		}
	}
	bytes := uint64(d.n) * uint64(unsafe.Sizeof(*new(T)))
	p := &cu.CudaMemcpy3D{WidthInBytes: bytes, Height: 1, Depth: 1}
	if s.isDev {
		p.SrcMemoryType, p.SrcDevice = cu.MemorytypeDevice, s.dev
	} else {
		p.SrcMemoryType, p.SrcHost = cu.MemorytypeHost, s.host
	}
	if d.isDev {
		p.DstMemoryType, p.DstDevice = cu.MemorytypeDevice, d.dev
	} else {
		p.DstMemoryType, p.DstHost = cu.MemorytypeHost, d.host
	}
	return p, ends, nil
}

// isNil reports whether m is nil or a nil *Buffer or *HostBuffer.
func isNil[T any](m Memory[T]) bool {
	switch v := m.(type) {
	case nil:
		return true
	case *Buffer[T]:
		return v == nil
	case *HostBuffer[T]:
		return v == nil
	}
	return false
}

// AddCopy adds a copy of src to dst (cuGraphAddMemcpyNode): a *Buffer or
// a *HostBuffer each, of one length, at least one of them a Buffer. Both
// stay reachable as long as the graph and its instances.
func AddCopy[T any](g *Graph, dst, src Memory[T], deps ...*GraphNode) (*GraphNode, error) {
	const op = "AddCopy"
	ctx, err := g.begin(op)
	if err != nil {
		return nil, err
	}
	defer g.top().r.uses.release()
	p, ends, err := copyParams(op, ctx, dst, src)
	if err != nil {
		return nil, err
	}
	n, err := g.addLocked(ctx, op, deps, &nodeSpec{kind: NodeMemcpy, copy: p}, ends[0].keep, ends[1].keep)
	if err == nil {
		n.mem = copyKind(ends)
	}
	return n, err
}

func copyKind(ends [2]memEnd) uint8 {
	switch {
	case ends[0].isDev && ends[1].isDev:
		return 1
	case ends[0].isDev:
		return 2
	}
	return 3
}

// fillParams checks a fill of b with v and returns its parameters.
func fillParams[T any](op string, ctx *ctxState, b *Buffer[T], v T) (*cu.MemsetNodeParams, error) {
	if b == nil {
		return nil, &GraphError{Op: op, Reason: "nil *Buffer"}
	}
	if b.n == 0 {
		return nil, &GraphError{Op: op, Reason: "an empty buffer"}
	}
	if b.a.r.uses.closed() {
		return nil, fmt.Errorf("cuda: Graph.%s: %w", op, ErrFreed)
	}
	if b.a.r.ctx.ctx != ctx.ctx {
		return nil, &GraphError{Op: op, Reason: "a buffer of another context"}
	}
	vb := unsafe.Slice((*byte)(unsafe.Pointer(&v)), unsafe.Sizeof(v))
	w := pattern(vb)
	var x uint32
	switch w {
	case 4:
		x = *(*uint32)(unsafe.Pointer(&vb[0]))
	case 2:
		x = uint32(*(*uint16)(unsafe.Pointer(&vb[0])))
	case 1:
		x = uint32(vb[0])
	default:
		return nil, &GraphError{Op: op, Reason: fmt.Sprintf("a %d-byte value that is no repetition of 1, 2 or 4 bytes", len(vb))}
	}
	bytes := b.Bytes()
	return &cu.MemsetNodeParams{Dst: b.ptr, Pitch: bytes, Value: x, ElementSize: uint32(w), Width: bytes / uint64(w), Height: 1}, nil
}

// AddFill adds a node that sets every element of b to v
// (cuGraphAddMemsetNode); v must be as [Buffer.Fill] takes it.
func AddFill[T any](g *Graph, b *Buffer[T], v T, deps ...*GraphNode) (*GraphNode, error) {
	const op = "AddFill"
	ctx, err := g.begin(op)
	if err != nil {
		return nil, err
	}
	defer g.top().r.uses.release()
	p, err := fillParams(op, ctx, b, v)
	if err != nil {
		return nil, err
	}
	return g.addLocked(ctx, op, deps, &nodeSpec{kind: NodeMemset, set: p}, b)
}

// AddAlloc adds a node that allocates n elements of device memory
// (cuGraphAddMemAllocNode) and returns it with the buffer: its address is
// fixed when the node is added, and the memory is valid for the nodes
// that depend on the allocation, up to its free ([AddFree], or
// cuMemFreeAsync after the launch). The buffer's Close frees nothing.
func AddAlloc[T any](g *Graph, n int, deps ...*GraphNode) (*GraphNode, *Buffer[T], error) {
	const op = "AddAlloc"
	size, err := elemSize[T]("Buffer", n)
	if err != nil {
		return nil, nil, err
	}
	if n == 0 {
		return nil, nil, &GraphError{Op: op, Reason: "0 elements"}
	}
	ctx, err := g.begin(op)
	if err != nil {
		return nil, nil, err
	}
	defer g.top().r.uses.release()
	p := &cu.MemAllocNodeParams{Bytesize: uint64(n) * size}
	p.PoolProps.AllocType = cu.MemAllocationTypePinned
	p.PoolProps.Location = cu.MemLocation{Type: cu.MemLocationTypeDevice, Id: int32(ctx.dev)}
	node, err := g.addLocked(ctx, op, deps, &nodeSpec{kind: NodeMemAlloc, alloc: p})
	if err != nil {
		return nil, nil, err
	}
	a := &devAlloc{}
	a.r = newResource(a, ctx, kindNone, uint64(p.Dptr), nil)
	return node, &Buffer[T]{a: a, ptr: p.Dptr, n: n}, nil
}

// AddFree adds a node that frees b, which an AddAlloc node of the graph
// allocated (cuGraphAddMemFreeNode).
func AddFree[T any](g *Graph, b *Buffer[T], deps ...*GraphNode) (*GraphNode, error) {
	if b == nil {
		return nil, &GraphError{Op: "AddFree", Reason: "nil *Buffer"}
	}
	return g.add("AddFree", deps, &nodeSpec{kind: NodeMemFree, free: b.ptr})
}
