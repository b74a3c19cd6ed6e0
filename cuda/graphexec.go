package cuda

import (
	"fmt"
	"runtime"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// A graph's instances: instantiation flags, Upload, Update and the
// updates of one node's parameters.

// InstantiateFlags are cuGraphInstantiateWithFlags' flags.
type InstantiateFlags uint64

const (
	// InstantiateAutoFreeOnLaunch frees the graph's unfreed allocations
	// before each launch.
	InstantiateAutoFreeOnLaunch = InstantiateFlags(cu.GraphInstantiateFlagAutoFreeOnLaunch)
	// InstantiateUseNodePriority launches kernel nodes at their own
	// priorities, not the stream's.
	InstantiateUseNodePriority = InstantiateFlags(cu.GraphInstantiateFlagUseNodePriority)
)

// InstantiateFlags makes an executable instance of the graph with flags
// (cuGraphInstantiateWithFlags). The instance keeps what the graph keeps
// reachable; a body graph cannot be instantiated on its own.
func (g *Graph) InstantiateFlags(flags InstantiateFlags) (*GraphExec, error) {
	const op = "Instantiate"
	ctx, err := g.begin(op)
	if err != nil {
		return nil, err
	}
	defer g.top().r.uses.release()
	if g.b.root != nil {
		return nil, &GraphError{Op: op, Reason: "a conditional node's body graph: instantiate the graph it is part of"}
	}
	var h cu.GraphExec
	err = onThread(ctx, func() (err error) {
		h, err = ctx.drv.graphInstantiate(cu.Graph(g.r.h), uint64(flags))
		return err
	})
	if err != nil {
		return nil, err
	}
	e := &GraphExec{}
	e.r = newResource(e, ctx, kindGraphExec, uint64(h), nil)
	e.x.from = g
	e.x.keep = g.kept()
	return e, nil
}

// Upload uploads the instance's work to the device on s (cuGraphUpload),
// so that its first launch starts sooner.
func (e *GraphExec) Upload(s *Stream) error {
	return s.deviceOp(e.r, func(h cu.Stream) error {
		return e.r.ctx.drv.graphUpload(cu.GraphExec(e.r.h), h)
	})
}

// UpdateError is an update of an instance from a graph that the driver
// refused (cuGraphExecUpdate): the graph's topology, a node's type or a
// kernel's context differs, or a change the driver does not support. The
// instance is unchanged.
type UpdateError struct {
	Result   cu.GraphExecUpdateResult // why, as the driver says it
	Node     cu.GraphNode             // the node of the graph that failed, when the driver names one
	FromNode cu.GraphNode             // the node of the instance it was paired with, when it names one
	Err      error                    // the driver's error
}

func (e *UpdateError) Error() string {
	return fmt.Sprintf("cuda: GraphExec.Update: %v (%v)", e.Result, e.Err)
}

func (e *UpdateError) Unwrap() error { return e.Err }

// Update sets the parameters of the instance's nodes to those of g's
// nodes (cuGraphExecUpdate), g having the topology of the graph
// instantiated: an *UpdateError when the driver refuses. The instance then
// keeps what g keeps reachable, too. Its Set methods still take the nodes
// of the graph it was instantiated from.
func (e *GraphExec) Update(g *Graph) error {
	const op = "Update"
	ctx, err := g.begin(op)
	if err != nil {
		return err
	}
	defer g.top().r.uses.release()
	if g.b.root != nil {
		return &GraphError{Op: op, Reason: "a conditional node's body graph"}
	}
	if err := e.r.use(); err != nil {
		return err
	}
	defer e.r.uses.release()
	if e.r.ctx.ctx != ctx.ctx {
		return &GraphError{Op: op, Reason: "the graph is of another context than the instance"}
	}
	var info cu.GraphExecUpdateResultInfo
	err = onThread(ctx, func() error {
		return ctx.drv.graphExecUpdate(cu.GraphExec(e.r.h), cu.Graph(g.r.h), &info)
	})
	if err != nil {
		return &UpdateError{Result: info.Result, Node: info.ErrorNode, FromNode: info.ErrorFromNode, Err: err}
	}
	kept := g.kept()
	e.x.mu.Lock()
	e.x.updated = kept
	e.x.mu.Unlock()
	return nil
}

// holdFor keeps xs reachable for node n, in place of what n's last Set
// took.
func (e *GraphExec) holdFor(n *GraphNode, xs ...any) {
	e.x.mu.Lock()
	if e.x.set == nil {
		e.x.set = map[cu.GraphNode][]any{}
	}
	e.x.set[n.h] = xs
	e.x.mu.Unlock()
}

// execNode begins a use of e for setting node n's parameters, checking
// that n is a node of kind k of the graph e was instantiated from.
func (e *GraphExec) execNode(op string, n *GraphNode, k NodeKind) (*ctxState, error) {
	if n == nil {
		return nil, &GraphError{Op: op, Reason: "nil *GraphNode"}
	}
	if e.x.from == nil || n.g != e.x.from {
		return nil, &GraphError{Op: op, Reason: "a node of another graph than the one instantiated"}
	}
	if n.kind != k {
		return nil, &GraphError{Op: op, Reason: fmt.Sprintf("a %v node, not a %v node", n.kind, k)}
	}
	if err := e.r.use(); err != nil {
		return nil, err
	}
	return e.r.ctx, nil
}

// SetKernelArgs sets the configuration and arguments of the instance's
// kernel node n (cuGraphExecKernelNodeSetParams), checked and packed as
// [Kernel.Launch] does them, for the node's kernel. The launches queued
// after it use them.
func (e *GraphExec) SetKernelArgs(n *GraphNode, cfg Config, args ...any) error {
	const op = "SetKernelArgs"
	ctx, err := e.execNode(op, n, NodeKernel)
	if err != nil {
		return err
	}
	defer e.r.uses.release()
	k := n.k
	var p cu.KernelNodeParams
	buf, pp, owner, held, err := k.nodeParams(ctx, &cfg, args, &p)
	if err != nil {
		return err
	}
	spec := &nodeSpec{kind: NodeKernel, ctx: ctx.ctx, kernel: &p}
	err = onThread(ctx, func() error { return ctx.drv.graphExecSet(cu.GraphExec(e.r.h), n.h, spec) })
	unhold(args, held)
	owner.release()
	runtime.KeepAlive(buf)
	runtime.KeepAlive(pp)
	if err != nil {
		return fmt.Errorf("cuda: GraphExec.%s: %w", op, err)
	}
	e.holdFor(n, args)
	return nil
}

// SetCopy sets the ends of the instance's memcpy node n
// (cuGraphExecMemcpyNodeSetParams): of the same kinds (device or host) as
// the node's. The instance keeps them reachable.
func SetCopy[T any](e *GraphExec, n *GraphNode, dst, src Memory[T]) error {
	const op = "SetCopy"
	ctx, err := e.execNode(op, n, NodeMemcpy)
	if err != nil {
		return err
	}
	defer e.r.uses.release()
	p, ends, err := copyParams(op, ctx, dst, src)
	if err != nil {
		return err
	}
	if copyKind(ends) != n.mem {
		return &GraphError{Op: op, Reason: "the ends are not of the kinds (device, host) of the node's"}
	}
	spec := &nodeSpec{kind: NodeMemcpy, ctx: ctx.ctx, copy: p}
	err = onThread(ctx, func() error { return ctx.drv.graphExecSet(cu.GraphExec(e.r.h), n.h, spec) })
	if err != nil {
		return fmt.Errorf("cuda: GraphExec.%s: %w", op, err)
	}
	e.holdFor(n, ends[0].keep, ends[1].keep)
	return nil
}

// SetFill sets the buffer and value of the instance's memset node n
// (cuGraphExecMemsetNodeSetParams). The instance keeps b reachable.
func SetFill[T any](e *GraphExec, n *GraphNode, b *Buffer[T], v T) error {
	const op = "SetFill"
	ctx, err := e.execNode(op, n, NodeMemset)
	if err != nil {
		return err
	}
	defer e.r.uses.release()
	p, err := fillParams(op, ctx, b, v)
	if err != nil {
		return err
	}
	spec := &nodeSpec{kind: NodeMemset, ctx: ctx.ctx, set: p}
	err = onThread(ctx, func() error { return ctx.drv.graphExecSet(cu.GraphExec(e.r.h), n.h, spec) })
	if err != nil {
		return fmt.Errorf("cuda: GraphExec.%s: %w", op, err)
	}
	e.holdFor(n, b)
	return nil
}
