package cuda

import (
	"fmt"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// The real driver's graph calls (graphDriver); the tests' fake driver
// implements the same interface.

func (realDriver) graphCreate() (cu.Graph, error) { return cu.GraphCreate(0) }

func (realDriver) graphClone(g cu.Graph) (cu.Graph, error) { return cu.GraphClone(g) }

func (d realDriver) graphAdd(g cu.Graph, deps []cu.GraphNode, n *nodeSpec) (cu.GraphNode, error) {
	var dp *cu.GraphNode
	if len(deps) > 0 {
		dp = &deps[0]
	}
	nd := uint64(len(deps))
	switch n.kind {
	case NodeEmpty:
		return cu.GraphAddEmptyNode(g, dp, nd)
	case NodeKernel:
		return cu.GraphAddKernelNode(g, dp, nd, n.kernel)
	case NodeMemcpy:
		return cu.GraphAddMemcpyNode(g, dp, nd, n.copy, n.ctx)
	case NodeMemset:
		return cu.GraphAddMemsetNode(g, dp, nd, n.set, n.ctx)
	case NodeHost:
		return cu.GraphAddHostNode(g, dp, nd, n.host)
	case NodeChild:
		return cu.GraphAddChildGraphNode(g, dp, nd, n.child)
	case NodeEventRecord:
		return cu.GraphAddEventRecordNode(g, dp, nd, n.event)
	case NodeEventWait:
		return cu.GraphAddEventWaitNode(g, dp, nd, n.event)
	case NodeMemAlloc:
		return cu.GraphAddMemAllocNode(g, dp, nd, n.alloc)
	case NodeMemFree:
		return cu.GraphAddMemFreeNode(g, dp, nd, n.free)
	case NodeConditional:
		return d.graphAddNode(g, deps, n.cond)
	}
	return 0, fmt.Errorf("cuda: no graph node of kind %v", n.kind)
}

func (realDriver) condHandle(g cu.Graph, ctx cu.Context, def, flags uint32) (cu.GraphConditionalHandle, error) {
	return cu.GraphConditionalHandleCreate(g, ctx, def, flags)
}

func (realDriver) graphInstantiate(g cu.Graph, flags uint64) (cu.GraphExec, error) {
	return cu.GraphInstantiateWithFlags(g, flags)
}

func (realDriver) graphUpload(e cu.GraphExec, s cu.Stream) error { return cu.GraphUpload(e, s) }

func (realDriver) graphExecUpdate(e cu.GraphExec, g cu.Graph, info *cu.GraphExecUpdateResultInfo) error {
	return cu.GraphExecUpdate(e, g, info)
}

func (realDriver) graphExecSet(e cu.GraphExec, n cu.GraphNode, spec *nodeSpec) error {
	switch spec.kind {
	case NodeKernel:
		return cu.GraphExecKernelNodeSetParams(e, n, spec.kernel)
	case NodeMemcpy:
		return cu.GraphExecMemcpyNodeSetParams(e, n, spec.copy, spec.ctx)
	case NodeMemset:
		return cu.GraphExecMemsetNodeSetParams(e, n, spec.set, spec.ctx)
	}
	return fmt.Errorf("cuda: no parameters to set for a %v node", spec.kind)
}

func (realDriver) graphLaunch(e cu.GraphExec, s cu.Stream) error { return cu.GraphLaunch(e, s) }

func (realDriver) graphDestroy(g cu.Graph) error { return cu.GraphDestroy(g) }

func (realDriver) beginCapture(s cu.Stream) error {
	return cu.StreamBeginCapture(s, cu.StreamCaptureModeRelaxed)
}

func (realDriver) endCapture(s cu.Stream) (cu.Graph, error) { return cu.StreamEndCapture(s) }

func (realDriver) graphOwn(g cu.Graph, destroy func()) error {
	obj, err := cu.UserObjectCreate(destroy, 1, uint32(cu.UserObjectNoDestructorSync))
	if err != nil {
		destroy()
		return err
	}
	if err := cu.GraphRetainUserObject(g, obj, 1, uint32(cu.GraphUserObjectMove)); err != nil {
		cu.UserObjectRelease(obj, 1) // runs destroy
		return err
	}
	return nil
}
