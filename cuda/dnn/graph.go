package dnn

import (
	"fmt"
	"slices"
	"sync"
	"unsafe"

	cuda "github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudnn"
)

// alignment is the byte alignment every tensor is described with, and
// Execute checks its buffers for: cuDNN's engines assume it.
const alignment = 16

// Conv is a 2-D convolution forward (cross-correlation, as deep learning
// frameworks compute it): Y = conv(X, W). X is (n, c, h, w), W (k, c, r, s),
// Y (n, k, p, q), each in its own layout (Image). Pad, Stride and
// Dilation are (along h, along w); a zero stride or dilation is 1.
// Compute is the accumulation type (Float32 for every input type).
type Conv struct {
	X, W, Y  Tensor
	Pad      [2]int64
	Stride   [2]int64
	Dilation [2]int64
	Compute  DataType
}

// ConvOutput is the height and width of a convolution's output: p, q of
// (n, k, p, q) for an input h × w, a filter r × s and the padding, stride
// and dilation given (zero: 1).
func ConvOutput(h, w, r, s int64, pad, stride, dilation [2]int64) (p, q int64) {
	for i := range 2 {
		if stride[i] == 0 {
			stride[i] = 1
		}
		if dilation[i] == 0 {
			dilation[i] = 1
		}
	}
	p = (h+2*pad[0]-dilation[0]*(r-1)-1)/stride[0] + 1
	q = (w+2*pad[1]-dilation[1]*(s-1)-1)/stride[1] + 1
	return p, q
}

func (c *Conv) check() error {
	const op = "ConvForward"
	for _, t := range []struct {
		name string
		t    Tensor
	}{{"X", c.X}, {"W", c.W}, {"Y", c.Y}} {
		if err := t.t.check(op, t.name); err != nil {
			return err
		}
		if len(t.t.Dims) != 4 {
			return errs.Errorf(op, ErrBadTensor, "%s has %d dimensions, a 2-D convolution's tensors have 4 (n, c, h, w)", t.name, len(t.t.Dims))
		}
		if t.t.Virtual {
			return errs.Errorf(op, ErrBadTensor, "%s is virtual: a one-operation graph reads and writes memory", t.name)
		}
	}
	if c.X.Type != c.W.Type || c.X.Type != c.Y.Type {
		return errs.Errorf(op, ErrBadTensor, "types X %v, W %v, Y %v: want one type", c.X.Type, c.W.Type, c.Y.Type)
	}
	if c.X.UID == c.W.UID || c.X.UID == c.Y.UID || c.W.UID == c.Y.UID {
		return errs.Errorf(op, ErrBadTensor, "unique ids X %d, W %d, Y %d: want three different", c.X.UID, c.W.UID, c.Y.UID)
	}
	for i := range 2 {
		if c.Stride[i] < 0 || c.Dilation[i] < 0 || c.Pad[i] < 0 {
			return errs.Errorf(op, ErrBadArg, "negative padding, stride or dilation")
		}
		if c.Stride[i] == 0 {
			c.Stride[i] = 1
		}
		if c.Dilation[i] == 0 {
			c.Dilation[i] = 1
		}
	}
	x, w, y := c.X.Dims, c.W.Dims, c.Y.Dims
	if w[1] != x[1] {
		return errs.Errorf(op, ErrBadShape, "X has %d channels, W takes %d (W is k, c, r, s)", x[1], w[1])
	}
	p, q := ConvOutput(x[2], x[3], w[2], w[3], c.Pad, c.Stride, c.Dilation)
	if p <= 0 || q <= 0 {
		return errs.Errorf(op, ErrBadShape, "a %d×%d filter does not fit a %d×%d input with padding %v and dilation %v", w[2], w[3], x[2], x[3], c.Pad, c.Dilation)
	}
	if want := []int64{x[0], w[0], p, q}; !sameDims(y, want) {
		return errs.Errorf(op, ErrBadShape, "Y is %v, the convolution of X %v by W %v gives %v", y, x, w, want)
	}
	if _, ok := c.Compute.cudnn(); !ok {
		return errs.Errorf(op, ErrBadArg, "unknown compute type %v", c.Compute)
	}
	return nil
}

// MatmulBiasReLU is Y = relu(A·B + Bias): A is batch × m × k, B batch × k
// × n, Bias 1 × 1 × n or batch × 1 × n (added to every row), Y batch × m ×
// n (Matrix). The product and the sum are virtual tensors of Compute's
// type (Float32), never in memory: cuDNN fuses the three operations.
type MatmulBiasReLU struct {
	A, B, Bias, Y Tensor
	Compute       DataType
}

func (m *MatmulBiasReLU) check() error {
	const op = "MatmulBiasReLU"
	ts := []struct {
		name string
		t    Tensor
	}{{"A", m.A}, {"B", m.B}, {"Bias", m.Bias}, {"Y", m.Y}}
	uids := map[int64]string{}
	for _, t := range ts {
		if err := t.t.check(op, t.name); err != nil {
			return err
		}
		if len(t.t.Dims) != 3 {
			return errs.Errorf(op, ErrBadTensor, "%s has %d dimensions, a matmul's tensors have 3 (batch, rows, columns)", t.name, len(t.t.Dims))
		}
		if t.t.Virtual {
			return errs.Errorf(op, ErrBadTensor, "%s is virtual: the graph reads and writes it in memory", t.name)
		}
		if other, ok := uids[t.t.UID]; ok {
			return errs.Errorf(op, ErrBadTensor, "%s and %s have one unique id, %d", other, t.name, t.t.UID)
		}
		uids[t.t.UID] = t.name
	}
	a, b, bias, y := m.A.Dims, m.B.Dims, m.Bias.Dims, m.Y.Dims
	if b[0] != a[0] || b[1] != a[2] {
		return errs.Errorf(op, ErrBadShape, "A is %v and B %v: want B batch × %d × n", a, b, a[2])
	}
	if !sameDims(y, []int64{a[0], a[1], b[2]}) {
		return errs.Errorf(op, ErrBadShape, "Y is %v, A·B is %v", y, []int64{a[0], a[1], b[2]})
	}
	if (bias[0] != 1 && bias[0] != a[0]) || bias[1] != 1 || bias[2] != b[2] {
		return errs.Errorf(op, ErrBadShape, "Bias is %v: want 1 × 1 × %d or %d × 1 × %d", bias, b[2], a[0], b[2])
	}
	if _, ok := m.Compute.cudnn(); !ok {
		return errs.Errorf(op, ErrBadArg, "unknown compute type %v", m.Compute)
	}
	return nil
}

// builder makes the descriptors of one graph and its plan, keeping each
// to destroy them together.
type builder struct {
	b     backend
	op    string
	descs []cudnn.BackendDescriptor
	err   error // the first failure; later calls do nothing
}

func (g *builder) fail(call string, err error) {
	if g.err == nil && err != nil {
		g.err = failed(g.op, call, err)
	}
}

func (g *builder) create(t cudnn.BackendDescriptorType) cudnn.BackendDescriptor {
	if g.err != nil {
		return 0
	}
	d, err := g.b.create(t)
	g.fail("cudnnBackendCreateDescriptor", err)
	if err == nil {
		g.descs = append(g.descs, d)
	}
	return d
}

func (g *builder) set(d cudnn.BackendDescriptor, name cudnn.BackendAttributeName, typ cudnn.BackendAttributeType, n int, p unsafe.Pointer) {
	if g.err != nil {
		return
	}
	g.fail(fmt.Sprintf("cudnnBackendSetAttribute(%v)", name), g.b.set(d, name, typ, int64(n), p))
}

func (g *builder) int64s(d cudnn.BackendDescriptor, name cudnn.BackendAttributeName, v ...int64) {
	g.set(d, name, cudnn.TypeInt64, len(v), unsafe.Pointer(&v[0]))
}

func (g *builder) dataType(d cudnn.BackendDescriptor, name cudnn.BackendAttributeName, t DataType) {
	ct, _ := t.cudnn()
	g.set(d, name, cudnn.TypeDataType, 1, unsafe.Pointer(&ct))
}

func (g *builder) descriptors(d cudnn.BackendDescriptor, name cudnn.BackendAttributeName, v ...cudnn.BackendDescriptor) {
	g.set(d, name, cudnn.TypeBackendDescriptor, len(v), unsafe.Pointer(&v[0]))
}

func (g *builder) finalize(d cudnn.BackendDescriptor) {
	if g.err != nil {
		return
	}
	g.fail("cudnnBackendFinalize", g.b.finalize(d))
}

// tensor describes t (CUDNN_BACKEND_TENSOR_DESCRIPTOR), finalized.
func (g *builder) tensor(t Tensor) cudnn.BackendDescriptor {
	d := g.create(cudnn.BackendTensorDescriptor)
	g.dataType(d, cudnn.AttrTensorDataType, t.Type)
	g.int64s(d, cudnn.AttrTensorDimensions, t.Dims...)
	g.int64s(d, cudnn.AttrTensorStrides, t.Strides...)
	g.int64s(d, cudnn.AttrTensorUniqueId, t.UID)
	g.int64s(d, cudnn.AttrTensorByteAlignment, alignment)
	virtual := t.Virtual
	g.set(d, cudnn.AttrTensorIsVirtual, cudnn.TypeBoolean, 1, unsafe.Pointer(&virtual))
	g.finalize(d)
	return d
}

// pointwise is one pointwise operation y = mode(x[, b]) in math type prec.
func (g *builder) pointwise(mode cudnn.PointwiseMode, prec DataType, x, b, y cudnn.BackendDescriptor) cudnn.BackendDescriptor {
	pw := g.create(cudnn.BackendPointwiseDescriptor)
	g.set(pw, cudnn.AttrPointwiseMode, cudnn.TypePointwiseMode, 1, unsafe.Pointer(&mode))
	g.dataType(pw, cudnn.AttrPointwiseMathPrec, prec)
	g.finalize(pw)
	op := g.create(cudnn.BackendOperationPointwiseDescriptor)
	g.descriptors(op, cudnn.AttrOperationPointwisePwDescriptor, pw)
	g.descriptors(op, cudnn.AttrOperationPointwiseXdesc, x)
	if b != 0 {
		g.descriptors(op, cudnn.AttrOperationPointwiseBdesc, b)
	}
	g.descriptors(op, cudnn.AttrOperationPointwiseYdesc, y)
	g.finalize(op)
	return op
}

// Plan is a finalized execution plan of one graph (a
// CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR) with its workspace: Execute
// runs it on its handle's stream. A Plan is for one goroutine at a time.
type Plan struct {
	h       *Handle
	b       backend
	op      string
	descs   []cudnn.BackendDescriptor
	plan    cudnn.BackendDescriptor
	tensors []Tensor // the graph's tensors in memory, by Execute's order of checks
	ws      *cuda.Buffer[byte]
	wsSize  int64
	engine  int64
	tried   int

	mu     sync.Mutex
	closed bool
	uids   []int64
	ptrs   []uintptr
	pack   variantPack // the last Execute's, reused while its pointers are the same
}

// variantPack is a finalized variant pack and the pointers it holds.
type variantPack struct {
	d    cudnn.BackendDescriptor
	ptrs []uintptr
	ws   uintptr
}

// ConvForward builds the plan of one convolution forward.
func (h *Handle) ConvForward(c Conv) (*Plan, error) {
	if h == nil {
		return nil, ErrClosed
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return h.build("ConvForward", []Tensor{c.X, c.W, c.Y}, func(g *builder) []cudnn.BackendDescriptor {
		return convGraph(g, &c)
	})
}

func convGraph(g *builder, c *Conv) []cudnn.BackendDescriptor {
	x, w, y := g.tensor(c.X), g.tensor(c.W), g.tensor(c.Y)
	conv := g.create(cudnn.BackendConvolutionDescriptor)
	g.dataType(conv, cudnn.AttrConvolutionCompType, c.Compute)
	mode := cudnn.CrossCorrelation
	g.set(conv, cudnn.AttrConvolutionConvMode, cudnn.TypeConvolutionMode, 1, unsafe.Pointer(&mode))
	g.int64s(conv, cudnn.AttrConvolutionSpatialDims, 2)
	g.int64s(conv, cudnn.AttrConvolutionDilations, c.Dilation[:]...)
	g.int64s(conv, cudnn.AttrConvolutionFilterStrides, c.Stride[:]...)
	g.int64s(conv, cudnn.AttrConvolutionPrePaddings, c.Pad[:]...)
	g.int64s(conv, cudnn.AttrConvolutionPostPaddings, c.Pad[:]...)
	g.finalize(conv)
	op := g.create(cudnn.BackendOperationConvolutionForwardDescriptor)
	g.descriptors(op, cudnn.AttrOperationConvolutionForwardX, x)
	g.descriptors(op, cudnn.AttrOperationConvolutionForwardW, w)
	g.descriptors(op, cudnn.AttrOperationConvolutionForwardY, y)
	g.descriptors(op, cudnn.AttrOperationConvolutionForwardConvDesc, conv)
	alpha, beta := float32(1), float32(0)
	g.set(op, cudnn.AttrOperationConvolutionForwardAlpha, cudnn.TypeFloat, 1, unsafe.Pointer(&alpha))
	g.set(op, cudnn.AttrOperationConvolutionForwardBeta, cudnn.TypeFloat, 1, unsafe.Pointer(&beta))
	g.finalize(op)
	return []cudnn.BackendDescriptor{op}
}

// MatmulBiasReLU builds the plan of relu(A·B + Bias), one fused graph.
func (h *Handle) MatmulBiasReLU(m MatmulBiasReLU) (*Plan, error) {
	if h == nil {
		return nil, ErrClosed
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	return h.build("MatmulBiasReLU", []Tensor{m.A, m.B, m.Bias, m.Y}, func(g *builder) []cudnn.BackendDescriptor {
		return matmulGraph(g, &m)
	})
}

func matmulGraph(g *builder, m *MatmulBiasReLU) []cudnn.BackendDescriptor {
	next := max(m.A.UID, m.B.UID, m.Bias.UID, m.Y.UID) // the virtual tensors' ids follow
	virt := func(uid int64) Tensor {
		t := Matrix(uid, m.Compute, m.Y.Dims[0], m.Y.Dims[1], m.Y.Dims[2])
		t.Virtual = true
		return t
	}
	a, b, bias, y := g.tensor(m.A), g.tensor(m.B), g.tensor(m.Bias), g.tensor(m.Y)
	prod, sum := g.tensor(virt(next+1)), g.tensor(virt(next+2))
	mm := g.create(cudnn.BackendMatmulDescriptor)
	g.dataType(mm, cudnn.AttrMatmulCompType, m.Compute)
	g.finalize(mm)
	op := g.create(cudnn.BackendOperationMatmulDescriptor)
	g.descriptors(op, cudnn.AttrOperationMatmulAdesc, a)
	g.descriptors(op, cudnn.AttrOperationMatmulBdesc, b)
	g.descriptors(op, cudnn.AttrOperationMatmulCdesc, prod)
	g.descriptors(op, cudnn.AttrOperationMatmulDesc, mm)
	g.finalize(op)
	add := g.pointwise(cudnn.PointwiseAdd, m.Compute, prod, bias, sum)
	relu := g.pointwise(cudnn.PointwiseReluFwd, m.Compute, sum, 0, y)
	return []cudnn.BackendDescriptor{op, add, relu}
}

// build makes the operation graph of ops, asks cuDNN's heuristics (mode
// A) for engine configurations, finalizes the plan of the first that
// cuDNN can finalize, and allocates its workspace.
func (h *Handle) build(op string, tensors []Tensor, ops func(*builder) []cudnn.BackendDescriptor) (*Plan, error) {
	var p *Plan
	err := h.call(func(cu.Stream) error {
		var err error
		p, err = buildPlan(h.b, h.raw, op, tensors, ops)
		return err
	})
	if err != nil {
		return nil, err
	}
	p.h = h
	if p.wsSize > 0 {
		if p.ws, err = cuda.Alloc[byte](h.ctx, int(p.wsSize)); err != nil {
			p.Close()
			return nil, err
		}
	}
	return p, nil
}

// buildPlan is build's cuDNN part, on b: the CPU tests run it on a fake.
func buildPlan(b backend, handle cudnn.Handle, op string, tensors []Tensor, ops func(*builder) []cudnn.BackendDescriptor) (*Plan, error) {
	g := &builder{b: b, op: op}
	destroyAll := func() {
		for i := len(g.descs) - 1; i >= 0; i-- {
			b.destroy(g.descs[i])
		}
	}
	list := ops(g)
	graph := g.create(cudnn.BackendOperationgraphDescriptor)
	g.descriptors(graph, cudnn.AttrOperationgraphOps, list...)
	g.set(graph, cudnn.AttrOperationgraphHandle, cudnn.TypeHandle, 1, unsafe.Pointer(&handle))
	g.finalize(graph)
	heur := g.create(cudnn.BackendEngineheurDescriptor)
	g.descriptors(heur, cudnn.AttrEngineheurOperationGraph, graph)
	mode := cudnn.HeurModeA
	g.set(heur, cudnn.AttrEngineheurMode, cudnn.TypeHeurMode, 1, unsafe.Pointer(&mode))
	g.finalize(heur)
	var n int64
	if g.err == nil {
		g.fail("cudnnBackendGetAttribute(ENGINEHEUR_RESULTS count)", b.get(heur, cudnn.AttrEngineheurResults, cudnn.TypeBackendDescriptor, 0, &n, nil))
	}
	if g.err == nil && n <= 0 {
		g.err = withLast(errs.Errorf(op, ErrNoEngine, "cuDNN's heuristics (mode A) returned no engine configuration"), lastErrorOf(b))
	}
	if g.err != nil {
		destroyAll()
		return nil, g.err
	}
	cfgs := make([]cudnn.BackendDescriptor, n)
	for i := range cfgs {
		cfgs[i] = g.create(cudnn.BackendEnginecfgDescriptor)
	}
	var got int64
	if g.err == nil {
		g.fail("cudnnBackendGetAttribute(ENGINEHEUR_RESULTS)", b.get(heur, cudnn.AttrEngineheurResults, cudnn.TypeBackendDescriptor, n, &got, unsafe.Pointer(&cfgs[0])))
	}
	if g.err != nil {
		destroyAll()
		return nil, g.err
	}
	// The first configuration cuDNN can finalize a plan of, in the
	// heuristics' order (what cudnn_frontend's default policy does).
	var last error
	p := &Plan{b: b, op: op, tensors: tensors}
	for i, cfg := range cfgs[:got] {
		plan, err := b.create(cudnn.BackendExecutionPlanDescriptor)
		if err != nil {
			last = failed(op, "cudnnBackendCreateDescriptor(EXECUTION_PLAN)", err)
			break
		}
		err = b.set(plan, cudnn.AttrExecutionPlanHandle, cudnn.TypeHandle, 1, unsafe.Pointer(&handle))
		if err == nil {
			err = b.set(plan, cudnn.AttrExecutionPlanEngineConfig, cudnn.TypeBackendDescriptor, 1, unsafe.Pointer(&cfg))
		}
		if err == nil {
			err = b.finalize(plan)
		}
		if err != nil {
			last = failed(op, fmt.Sprintf("engine configuration %d of %d: cudnnBackendFinalize(EXECUTION_PLAN)", i+1, got), err)
			b.destroy(plan)
			continue
		}
		p.plan, p.tried = plan, i+1
		break
	}
	if p.plan == 0 {
		destroyAll()
		e := &Error{Pkg: string(errs), Op: op, Err: ErrNoEngine, Msg: fmt.Sprintf("none of the %d engine configurations of cuDNN's heuristics finalized", got)}
		if last != nil {
			e.Msg += "; the last: " + last.Error()
		}
		return nil, e
	}
	var cnt int64
	if err := b.get(p.plan, cudnn.AttrExecutionPlanWorkspaceSize, cudnn.TypeInt64, 1, &cnt, unsafe.Pointer(&p.wsSize)); err != nil {
		b.destroy(p.plan)
		destroyAll()
		return nil, failed(op, "cudnnBackendGetAttribute(EXECUTION_PLAN_WORKSPACE_SIZE)", err)
	}
	p.engine = engineIndex(b, cfgs[p.tried-1])
	p.descs = g.descs
	for _, t := range tensors {
		p.uids = append(p.uids, t.UID)
	}
	p.ptrs = make([]uintptr, len(tensors))
	return p, nil
}

// engineIndex is the global index of the engine of configuration cfg, or
// -1 when cuDNN does not say.
func engineIndex(b backend, cfg cudnn.BackendDescriptor) int64 {
	eng, err := b.create(cudnn.BackendEngineDescriptor)
	if err != nil {
		return -1
	}
	defer b.destroy(eng)
	var n, idx int64
	if b.get(cfg, cudnn.AttrEnginecfgEngine, cudnn.TypeBackendDescriptor, 1, &n, unsafe.Pointer(&eng)) != nil {
		return -1
	}
	if b.get(eng, cudnn.AttrEngineGlobalIndex, cudnn.TypeInt64, 1, &n, unsafe.Pointer(&idx)) != nil {
		return -1
	}
	return idx
}

func lastErrorOf(b backend) string {
	if _, ok := b.(lib); ok {
		return lastError()
	}
	return ""
}

// Engine is the global index of the engine the plan runs (cuDNN's
// CUDNN_ATTR_ENGINE_GLOBAL_INDEX), -1 if unknown, and the rank of its
// configuration among the heuristics' results (1: the first).
func (p *Plan) Engine() (index int64, rank int) { return p.engine, p.tried }

// WorkspaceSize is the size of the plan's workspace in bytes.
func (p *Plan) WorkspaceSize() int64 { return p.wsSize }

// Raw returns the execution plan's descriptor, for the cudnn package.
func (p *Plan) Raw() cudnn.BackendDescriptor { return p.plan }

// Arg binds a device buffer to the unique id of one of a plan's tensors.
type Arg struct {
	UID   int64
	ptr   uintptr
	bytes uint64
	op    cuda.Operand
}

// Bind binds b to the tensor whose unique id is uid.
func Bind[T any](uid int64, b *cuda.Buffer[T]) Arg {
	if b == nil {
		return Arg{UID: uid}
	}
	return Arg{UID: uid, ptr: uintptr(b.Ptr()), bytes: b.Bytes(), op: b}
}

// checkArgs checks that args bind every tensor of the plan once, each to
// a buffer large enough and aligned, and puts their pointers in the
// order of p.uids.
func (p *Plan) checkArgs(args []Arg) error {
	if len(args) != len(p.tensors) {
		return errs.Errorf(p.op, ErrBadArg, "%d buffers for the %d tensors of the graph (unique ids %v)", len(args), len(p.tensors), p.uids)
	}
	for i := range p.ptrs {
		p.ptrs[i] = 0
	}
	for _, a := range args {
		i := -1
		for j, u := range p.uids {
			if u == a.UID {
				i = j
			}
		}
		switch {
		case i < 0:
			return errs.Errorf(p.op, ErrBadArg, "unique id %d is no tensor of the graph (%v)", a.UID, p.uids)
		case p.ptrs[i] != 0:
			return errs.Errorf(p.op, ErrBadArg, "unique id %d bound twice", a.UID)
		case a.op == nil || a.ptr == 0:
			return errs.Errorf(p.op, ErrBadArg, "unique id %d: nil buffer", a.UID)
		case a.ptr%alignment != 0:
			return errs.Errorf(p.op, ErrBadArg, "unique id %d: buffer at %#x is not %d-byte aligned", a.UID, a.ptr, alignment)
		}
		t := p.tensors[i]
		if need := uint64(t.Footprint() * t.Type.Size()); a.bytes < need {
			return errs.Errorf(p.op, ErrBadArg, "unique id %d: buffer of %d bytes, the tensor %v of %v needs %d", a.UID, a.bytes, t.Dims, t.Type, need)
		}
		p.ptrs[i] = a.ptr
	}
	return nil
}

// Execute runs the plan on its handle's stream (cudnnBackendExecute, with
// a variant pack of args and the plan's workspace): it returns once the
// work is queued.
func (p *Plan) Execute(args ...Arg) error {
	if p == nil {
		return ErrClosed
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return ErrClosed
	}
	if err := p.checkArgs(args); err != nil {
		return err
	}
	var opsArr [8]cuda.Operand
	ops := opsArr[:0]
	for _, a := range args {
		ops = append(ops, a.op)
	}
	var ws uintptr
	if p.ws != nil {
		ops = append(ops, p.ws)
		ws = uintptr(p.ws.Ptr())
	}
	return p.h.call(func(cu.Stream) error { return p.execute(p.h.raw, ws) }, ops...)
}

// execute runs the plan with p.ptrs and workspace ws; p.mu held. The
// variant pack of the last call is used again while the pointers are the
// same (a training or inference loop's), else replaced.
func (p *Plan) execute(h cudnn.Handle, ws uintptr) error {
	if p.pack.d == 0 || p.pack.ws != ws || !slices.Equal(p.pack.ptrs, p.ptrs) {
		if p.pack.d != 0 {
			p.b.destroy(p.pack.d)
			p.pack.d = 0
		}
		d, err := makePack(p.b, p.op, p.uids, p.ptrs, ws)
		if err != nil {
			return err
		}
		p.pack.d, p.pack.ws = d, ws
		p.pack.ptrs = append(p.pack.ptrs[:0], p.ptrs...)
	}
	return failed(p.op, "cudnnBackendExecute", p.b.execute(h, p.plan, p.pack.d))
}

// makePack makes a finalized variant pack of the pointers ptrs to the
// tensors uids, and workspace ws.
func makePack(b backend, op string, uids []int64, ptrs []uintptr, ws uintptr) (cudnn.BackendDescriptor, error) {
	pack, err := b.create(cudnn.BackendVariantPackDescriptor)
	if err != nil {
		return 0, failed(op, "cudnnBackendCreateDescriptor(VARIANT_PACK)", err)
	}
	fail := func(call string, err error) (cudnn.BackendDescriptor, error) {
		b.destroy(pack)
		return 0, failed(op, call, err)
	}
	if err := b.set(pack, cudnn.AttrVariantPackUniqueIds, cudnn.TypeInt64, int64(len(uids)), unsafe.Pointer(&uids[0])); err != nil {
		return fail("cudnnBackendSetAttribute(VARIANT_PACK_UNIQUE_IDS)", err)
	}
	if err := b.set(pack, cudnn.AttrVariantPackDataPointers, cudnn.TypeVoidPtr, int64(len(ptrs)), unsafe.Pointer(&ptrs[0])); err != nil {
		return fail("cudnnBackendSetAttribute(VARIANT_PACK_DATA_POINTERS)", err)
	}
	if err := b.set(pack, cudnn.AttrVariantPackWorkspace, cudnn.TypeVoidPtr, 1, unsafe.Pointer(&ws)); err != nil {
		return fail("cudnnBackendSetAttribute(VARIANT_PACK_WORKSPACE)", err)
	}
	if err := b.finalize(pack); err != nil {
		return fail("cudnnBackendFinalize(VARIANT_PACK)", err)
	}
	return pack, nil
}

// Close destroys the plan and the graph's descriptors and frees the
// workspace; a second Close returns ErrClosed.
func (p *Plan) Close() error {
	if p == nil {
		return ErrClosed
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return ErrClosed
	}
	p.closed = true
	var first error
	if p.pack.d != 0 {
		first = p.b.destroy(p.pack.d)
	}
	if p.plan != 0 && first == nil {
		first = p.b.destroy(p.plan)
	}
	for i := len(p.descs) - 1; i >= 0; i-- {
		if err := p.b.destroy(p.descs[i]); err != nil && first == nil {
			first = err
		}
	}
	if p.ws != nil {
		if err := p.ws.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
