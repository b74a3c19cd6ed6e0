package cuda

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// Conditional nodes: a Condition and the If, IfElse, While and Switch
// nodes whose bodies it picks.

// Condition is a conditional node's condition (CUgraphConditionalHandle):
// a kernel sets it with cudaGraphSetConditional(handle, value), the
// handle passed as the kernel argument Raw() returns.
type Condition struct {
	h cu.GraphConditionalHandle
	g *Graph
}

// Raw returns the handle, a kernel's cudaGraphConditionalHandle argument.
func (c *Condition) Raw() cu.GraphConditionalHandle { return c.h }

// NewCondition creates a condition for the conditional nodes of g
// (cuGraphConditionalHandleCreate, CUDA 12.3 and newer): for nodes added
// to g itself, and for the kernels anywhere in the graph that set it. With reset, it
// is set to value at the start of every launch; else it keeps the value
// the last launch left (value before the first).
func (g *Graph) NewCondition(value uint32, reset bool) (*Condition, error) {
	ctx, err := g.begin("NewCondition")
	if err != nil {
		return nil, err
	}
	defer g.top().r.uses.release()
	var flags uint32
	if reset {
		flags = cu.GraphCondAssignDefault
	}
	var h cu.GraphConditionalHandle
	err = onThread(ctx, func() (err error) {
		h, err = ctx.drv.condHandle(cu.Graph(g.r.h), ctx.ctx, value, flags)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("cuda: Graph.NewCondition: %w", err)
	}
	return &Condition{h: h, g: g}, nil
}

// condSwitch is CU_GRAPH_COND_TYPE_SWITCH (CUDA 12.8), which CUDA 12.4's
// headers do not name.
const condSwitch cu.GraphConditionalNodeType = 2

// AddIf adds a node that runs its body graph, returned empty to fill,
// when c is nonzero (CU_GRAPH_COND_TYPE_IF, CUDA 12.3).
func (g *Graph) AddIf(c *Condition, deps ...*GraphNode) (*GraphNode, *Graph, error) {
	n, b, err := g.addCond("AddIf", c, cu.GraphCondTypeIf, 1, deps)
	if err != nil {
		return nil, nil, err
	}
	return n, b[0], nil
}

// AddIfElse adds a node that runs then when c is nonzero and els when it
// is zero (an if node with two bodies, CUDA 12.8).
func (g *Graph) AddIfElse(c *Condition, deps ...*GraphNode) (n *GraphNode, then, els *Graph, err error) {
	n, b, err := g.addCond("AddIfElse", c, cu.GraphCondTypeIf, 2, deps)
	if err != nil {
		return nil, nil, nil, err
	}
	return n, b[0], b[1], nil
}

// AddWhile adds a node that runs its body graph while c is nonzero,
// testing c before each run (CU_GRAPH_COND_TYPE_WHILE, CUDA 12.3): a
// kernel of the body sets c to end the loop.
func (g *Graph) AddWhile(c *Condition, deps ...*GraphNode) (*GraphNode, *Graph, error) {
	n, b, err := g.addCond("AddWhile", c, cu.GraphCondTypeWhile, 1, deps)
	if err != nil {
		return nil, nil, err
	}
	return n, b[0], nil
}

// AddSwitch adds a node with cases body graphs that runs the one c
// selects, none when c >= cases (CU_GRAPH_COND_TYPE_SWITCH, CUDA 12.8).
func (g *Graph) AddSwitch(c *Condition, cases int, deps ...*GraphNode) (*GraphNode, []*Graph, error) {
	if cases < 1 || cases > 1<<16 {
		return nil, nil, &GraphError{Op: "AddSwitch", Reason: fmt.Sprintf("%d cases", cases)}
	}
	return g.addCond("AddSwitch", c, condSwitch, uint32(cases), deps)
}

func (g *Graph) addCond(op string, c *Condition, typ cu.GraphConditionalNodeType, size uint32, deps []*GraphNode) (*GraphNode, []*Graph, error) {
	if c == nil {
		return nil, nil, &GraphError{Op: op, Reason: "nil *Condition"}
	}
	if g == nil || c.g != g {
		// The driver ties a handle to the graph that holds its node.
		return nil, nil, &GraphError{Op: op, Reason: "a condition of another graph (make it with NewCondition of the graph the node goes into)"}
	}
	ctx, err := g.begin(op)
	if err != nil {
		return nil, nil, err
	}
	defer g.top().r.uses.release()
	p := &cu.GraphNodeParams{Type: cu.GraphNodeTypeConditional}
	*p.Conditional() = cu.ConditionalNodeParams{Handle: c.h, Type: typ, Size: size, Ctx: ctx.ctx}
	n, err := g.addLocked(ctx, op, deps, &nodeSpec{kind: NodeConditional, cond: p})
	if err != nil {
		return nil, nil, err
	}
	out := p.Conditional().PhGraph_out
	if out == nil {
		return nil, nil, fmt.Errorf("cuda: Graph.%s: the driver returned no body graphs", op)
	}
	bodies := make([]*Graph, size)
	for i, h := range unsafe.Slice(out, size) {
		// A body shares its root's resource state only through top(): its
		// own resource is never freed (Close refuses) and holds no
		// reference to the context.
		bodies[i] = &Graph{r: &resource{ctx: ctx, kind: kindNone, h: uint64(h)}, b: graphBuild{root: g.top()}}
	}
	return n, bodies, nil
}

// graphAddNode calls cuGraphAddNode, whose Go signature differs between
// CUDA 12 (cuGraphAddNode, no edge data) and 13 (cuGraphAddNode_v2 under
// the old name): one of the two cases compiles to a call.
func (realDriver) graphAddNode(g cu.Graph, deps []cu.GraphNode, p *cu.GraphNodeParams) (cu.GraphNode, error) {
	var dp *cu.GraphNode
	if len(deps) > 0 {
		dp = &deps[0]
	}
	switch f := any(cu.GraphAddNode).(type) {
	case func(cu.Graph, *cu.GraphNode, uint64, *cu.GraphNodeParams) (cu.GraphNode, error):
		return f(g, dp, uint64(len(deps)), p)
	case func(cu.Graph, *cu.GraphNode, *cu.GraphEdgeData, uint64, *cu.GraphNodeParams) (cu.GraphNode, error):
		return f(g, dp, nil, uint64(len(deps)), p)
	}
	return 0, errors.New("cuda: cuGraphAddNode has a signature this layer does not know")
}
