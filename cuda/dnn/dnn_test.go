package dnn

import (
	"errors"
	"strings"
	"testing"
	"unsafe"

	cuda "github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cudnn"
)

// fake is a backend that records what the package asks of cuDNN: each
// descriptor's type and attributes, as int64s (descriptors, enums and
// int64 values) or float64s. Its heuristics return cfgs configurations,
// of which the first failing ones cannot finalize a plan.
type fake struct {
	next    cudnn.BackendDescriptor
	types   map[cudnn.BackendDescriptorType][]cudnn.BackendDescriptor
	kind    map[cudnn.BackendDescriptor]cudnn.BackendDescriptorType
	attrs   map[cudnn.BackendDescriptor]map[cudnn.BackendAttributeName][]int64
	live    map[cudnn.BackendDescriptor]bool
	final   map[cudnn.BackendDescriptor]bool
	cfgs    int64
	failing int
	ws      int64
	plans   int
	execs   int
}

func newFake(cfgs int64, failing int) *fake {
	return &fake{next: 100, cfgs: cfgs, failing: failing, ws: 4096,
		types: map[cudnn.BackendDescriptorType][]cudnn.BackendDescriptor{},
		kind:  map[cudnn.BackendDescriptor]cudnn.BackendDescriptorType{},
		attrs: map[cudnn.BackendDescriptor]map[cudnn.BackendAttributeName][]int64{},
		live:  map[cudnn.BackendDescriptor]bool{}, final: map[cudnn.BackendDescriptor]bool{}}
}

func (f *fake) create(t cudnn.BackendDescriptorType) (cudnn.BackendDescriptor, error) {
	f.next++
	d := f.next
	f.types[t] = append(f.types[t], d)
	f.kind[d] = t
	f.attrs[d] = map[cudnn.BackendAttributeName][]int64{}
	f.live[d] = true
	return d, nil
}

func (f *fake) destroy(d cudnn.BackendDescriptor) error {
	if !f.live[d] {
		return cudnn.StatusBadParam
	}
	delete(f.live, d)
	return nil
}

func (f *fake) set(d cudnn.BackendDescriptor, name cudnn.BackendAttributeName, typ cudnn.BackendAttributeType, n int64, p unsafe.Pointer) error {
	if !f.live[d] || f.final[d] {
		return cudnn.StatusBadParamNotFinalized
	}
	var v []int64
	for i := range n {
		switch typ {
		case cudnn.TypeInt64:
			v = append(v, *(*int64)(unsafe.Add(p, 8*i)))
		case cudnn.TypeBackendDescriptor, cudnn.TypeVoidPtr, cudnn.TypeHandle:
			v = append(v, int64(*(*uintptr)(unsafe.Add(p, 8*i))))
		case cudnn.TypeBoolean:
			if *(*bool)(p) {
				v = append(v, 1)
			} else {
				v = append(v, 0)
			}
		case cudnn.TypeFloat:
			v = append(v, int64(*(*float32)(p)))
		default: // the enums: int32
			v = append(v, int64(*(*int32)(unsafe.Add(p, 4*i))))
		}
	}
	f.attrs[d][name] = v
	return nil
}

func (f *fake) get(d cudnn.BackendDescriptor, name cudnn.BackendAttributeName, typ cudnn.BackendAttributeType, req int64, n *int64, p unsafe.Pointer) error {
	switch name {
	case cudnn.AttrEngineheurResults:
		*n = f.cfgs
		if req > 0 {
			*n = min(req, f.cfgs)
		}
		return nil
	case cudnn.AttrExecutionPlanWorkspaceSize:
		*(*int64)(p) = f.ws
	case cudnn.AttrEnginecfgEngine:
	case cudnn.AttrEngineGlobalIndex:
		*(*int64)(p) = 42
	default:
		return cudnn.StatusNotSupported
	}
	*n = 1
	return nil
}

func (f *fake) finalize(d cudnn.BackendDescriptor) error {
	if f.kind[d] == cudnn.BackendExecutionPlanDescriptor {
		f.plans++
		if f.plans <= f.failing {
			return cudnn.StatusNotSupported
		}
	}
	f.final[d] = true
	return nil
}

func (f *fake) execute(h cudnn.Handle, plan, pack cudnn.BackendDescriptor) error {
	if !f.final[plan] || !f.final[pack] {
		return cudnn.StatusBadParamNotFinalized
	}
	f.execs++
	return nil
}

func (f *fake) attr(t *testing.T, d cudnn.BackendDescriptor, name cudnn.BackendAttributeName) []int64 {
	t.Helper()
	v, ok := f.attrs[d][name]
	if !ok {
		t.Fatalf("descriptor %d (%v): attribute %v not set", d, f.kind[d], name)
	}
	return v
}

func eq(a, b []int64) bool { return sameDims(a, b) }

func conv3x3(l Layout, t DataType) Conv {
	return Conv{X: Image(1, t, l, 32, 64, 56, 56), W: Image(2, t, l, 64, 64, 3, 3), Y: Image(3, t, l, 32, 64, 56, 56), Pad: [2]int64{1, 1}}
}

// TestImageStrides: Image's dimensions are (n, c, h, w) in both layouts
// and its strides each layout's packed order.
func TestImageStrides(t *testing.T) {
	x := Image(1, Float16, NCHW, 2, 3, 4, 5)
	if !eq(x.Dims, []int64{2, 3, 4, 5}) || !eq(x.Strides, []int64{60, 20, 5, 1}) || x.Footprint() != 120 {
		t.Errorf("NCHW = %+v, footprint %d", x, x.Footprint())
	}
	y := Image(1, Float16, NHWC, 2, 3, 4, 5)
	if !eq(y.Dims, []int64{2, 3, 4, 5}) || !eq(y.Strides, []int64{60, 1, 15, 3}) || y.Footprint() != 120 {
		t.Errorf("NHWC = %+v, footprint %d", y, y.Footprint())
	}
	if p, q := ConvOutput(56, 56, 3, 3, [2]int64{1, 1}, [2]int64{}, [2]int64{}); p != 56 || q != 56 {
		t.Errorf("ConvOutput 3x3 pad 1 = %d, %d", p, q)
	}
	if p, q := ConvOutput(56, 56, 1, 1, [2]int64{}, [2]int64{2, 2}, [2]int64{}); p != 28 || q != 28 {
		t.Errorf("ConvOutput 1x1 stride 2 = %d, %d", p, q)
	}
}

// TestConvGraph: the descriptors of a convolution graph, as cuDNN gets
// them: each tensor's type, dimensions, strides, id, alignment; the
// convolution's mode, padding, stride and dilation; one operation in the
// graph; heuristics mode A; and every descriptor destroyed by Close.
func TestConvGraph(t *testing.T) {
	f := newFake(3, 0)
	c := conv3x3(NHWC, Float16)
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	p, err := buildPlan(f, 7, "ConvForward", []Tensor{c.X, c.W, c.Y}, func(g *builder) []cudnn.BackendDescriptor { return convGraph(g, &c) })
	if err != nil {
		t.Fatal(err)
	}
	ts := f.types[cudnn.BackendTensorDescriptor]
	if len(ts) != 3 {
		t.Fatalf("%d tensor descriptors, want 3", len(ts))
	}
	for i, want := range []Tensor{c.X, c.W, c.Y} {
		d := ts[i]
		if got := f.attr(t, d, cudnn.AttrTensorDataType); got[0] != int64(cudnn.DataHalf) {
			t.Errorf("tensor %d: data type %v", i, got)
		}
		if !eq(f.attr(t, d, cudnn.AttrTensorDimensions), want.Dims) || !eq(f.attr(t, d, cudnn.AttrTensorStrides), want.Strides) {
			t.Errorf("tensor %d: dims %v strides %v, want %v %v", i, f.attrs[d][cudnn.AttrTensorDimensions], f.attrs[d][cudnn.AttrTensorStrides], want.Dims, want.Strides)
		}
		if f.attr(t, d, cudnn.AttrTensorUniqueId)[0] != want.UID || f.attr(t, d, cudnn.AttrTensorByteAlignment)[0] != 16 || f.attr(t, d, cudnn.AttrTensorIsVirtual)[0] != 0 {
			t.Errorf("tensor %d: uid, alignment or virtual wrong: %v", i, f.attrs[d])
		}
		if !f.final[d] {
			t.Errorf("tensor %d not finalized", i)
		}
	}
	conv := f.types[cudnn.BackendConvolutionDescriptor][0]
	if f.attr(t, conv, cudnn.AttrConvolutionConvMode)[0] != int64(cudnn.CrossCorrelation) || f.attr(t, conv, cudnn.AttrConvolutionSpatialDims)[0] != 2 ||
		!eq(f.attr(t, conv, cudnn.AttrConvolutionPrePaddings), []int64{1, 1}) || !eq(f.attr(t, conv, cudnn.AttrConvolutionPostPaddings), []int64{1, 1}) ||
		!eq(f.attr(t, conv, cudnn.AttrConvolutionFilterStrides), []int64{1, 1}) || !eq(f.attr(t, conv, cudnn.AttrConvolutionDilations), []int64{1, 1}) ||
		f.attr(t, conv, cudnn.AttrConvolutionCompType)[0] != int64(cudnn.DataFloat) {
		t.Errorf("convolution descriptor: %v", f.attrs[conv])
	}
	graph := f.types[cudnn.BackendOperationgraphDescriptor][0]
	if ops := f.attr(t, graph, cudnn.AttrOperationgraphOps); len(ops) != 1 || f.attr(t, graph, cudnn.AttrOperationgraphHandle)[0] != 7 {
		t.Errorf("graph: %v", f.attrs[graph])
	}
	heur := f.types[cudnn.BackendEngineheurDescriptor][0]
	if f.attr(t, heur, cudnn.AttrEngineheurMode)[0] != int64(cudnn.HeurModeA) {
		t.Errorf("heuristics mode %v, want A", f.attrs[heur][cudnn.AttrEngineheurMode])
	}
	if idx, rank := p.Engine(); idx != 42 || rank != 1 || p.WorkspaceSize() != 4096 {
		t.Errorf("Engine = %d, %d; workspace %d", idx, rank, p.WorkspaceSize())
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if len(f.live) != 0 {
		t.Errorf("%d descriptors left after Close", len(f.live))
	}
	if err := p.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close = %v", err)
	}
}

// TestMatmulGraph: matmul, add and ReLU in one graph of three operations,
// the product and the sum virtual float32 tensors with ids of their own.
func TestMatmulGraph(t *testing.T) {
	f := newFake(1, 0)
	m := MatmulBiasReLU{A: Matrix(1, Float16, 1, 256, 2048), B: Matrix(2, Float16, 1, 2048, 1000), Bias: Matrix(3, Float16, 1, 1, 1000), Y: Matrix(4, Float16, 1, 256, 1000)}
	if err := m.check(); err != nil {
		t.Fatal(err)
	}
	p, err := buildPlan(f, 7, "MatmulBiasReLU", []Tensor{m.A, m.B, m.Bias, m.Y}, func(g *builder) []cudnn.BackendDescriptor { return matmulGraph(g, &m) })
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ts := f.types[cudnn.BackendTensorDescriptor]
	if len(ts) != 6 {
		t.Fatalf("%d tensors, want 6", len(ts))
	}
	for _, d := range ts[4:] {
		if f.attr(t, d, cudnn.AttrTensorIsVirtual)[0] != 1 || f.attr(t, d, cudnn.AttrTensorDataType)[0] != int64(cudnn.DataFloat) || f.attr(t, d, cudnn.AttrTensorUniqueId)[0] <= 4 {
			t.Errorf("virtual tensor: %v", f.attrs[d])
		}
	}
	graph := f.types[cudnn.BackendOperationgraphDescriptor][0]
	if ops := f.attr(t, graph, cudnn.AttrOperationgraphOps); len(ops) != 3 {
		t.Errorf("graph has %d operations, want 3", len(ops))
	}
	pws := f.types[cudnn.BackendPointwiseDescriptor]
	if len(pws) != 2 || f.attr(t, pws[0], cudnn.AttrPointwiseMode)[0] != int64(cudnn.PointwiseAdd) || f.attr(t, pws[1], cudnn.AttrPointwiseMode)[0] != int64(cudnn.PointwiseReluFwd) {
		t.Errorf("pointwise descriptors %v", pws)
	}
}

// TestPlanFallback: a configuration cuDNN cannot finalize is skipped for
// the next; when none finalizes, ErrNoEngine says how many were tried,
// and nothing is left undestroyed.
func TestPlanFallback(t *testing.T) {
	c := conv3x3(NCHW, Float32)
	c.check()
	build := func(f *fake) (*Plan, error) {
		return buildPlan(f, 7, "ConvForward", []Tensor{c.X, c.W, c.Y}, func(g *builder) []cudnn.BackendDescriptor { return convGraph(g, &c) })
	}
	f := newFake(3, 2)
	p, err := build(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, rank := p.Engine(); rank != 3 {
		t.Errorf("rank %d, want 3 (two refused)", rank)
	}
	p.Close()
	if len(f.live) != 0 {
		t.Errorf("%d descriptors left", len(f.live))
	}
	f = newFake(3, 3)
	if _, err := build(f); !errors.Is(err, ErrNoEngine) || !strings.Contains(err.Error(), "none of the 3") {
		t.Errorf("all refused: %v", err)
	}
	if len(f.live) != 0 {
		t.Errorf("%d descriptors left after a failed build", len(f.live))
	}
	f = newFake(0, 0)
	if _, err := build(f); !errors.Is(err, ErrNoEngine) {
		t.Errorf("no configurations: %v", err)
	}
}

// TestConvChecks: shapes that do not agree are refused before cuDNN is
// called, naming what is wrong.
func TestConvChecks(t *testing.T) {
	for _, tc := range []struct {
		edit func(c *Conv)
		kind error
		want string
	}{
		{func(c *Conv) { c.Y = Image(3, Float16, NHWC, 32, 64, 54, 54) }, ErrBadShape, "gives [32 64 56 56]"},
		{func(c *Conv) { c.W = Image(2, Float16, NHWC, 64, 32, 3, 3) }, ErrBadShape, "X has 64 channels, W takes 32"},
		{func(c *Conv) { c.W.Type = Float32 }, ErrBadTensor, "want one type"},
		{func(c *Conv) { c.W.UID = 1 }, ErrBadTensor, "three different"},
		{func(c *Conv) { c.X.Strides = c.X.Strides[:3] }, ErrBadTensor, "4 dimensions but 3 strides"},
		{func(c *Conv) { c.X.UID = 0 }, ErrBadTensor, "unique id 0"},
		{func(c *Conv) { c.X.Dims[2] = 0 }, ErrBadTensor, "dimension 2 is 0"},
		{func(c *Conv) { c.Pad[0] = -1 }, ErrBadArg, "negative"},
		{func(c *Conv) { c.X.Type = 9 }, ErrBadTensor, "unknown data type"},
	} {
		c := conv3x3(NHWC, Float16)
		tc.edit(&c)
		err := c.check()
		if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %v containing %q", err, tc.kind, tc.want)
		}
	}
	var h *Handle
	if _, err := h.ConvForward(conv3x3(NCHW, Float32)); !errors.Is(err, ErrNilHandle) {
		t.Errorf("nil handle: %v", err)
	}
}

func TestMatmulChecks(t *testing.T) {
	ok := func() MatmulBiasReLU {
		return MatmulBiasReLU{A: Matrix(1, Float16, 2, 8, 16), B: Matrix(2, Float16, 2, 16, 4), Bias: Matrix(3, Float16, 1, 1, 4), Y: Matrix(4, Float16, 2, 8, 4)}
	}
	m := ok()
	if err := m.check(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		edit func(m *MatmulBiasReLU)
		want string
	}{
		{func(m *MatmulBiasReLU) { m.B = Matrix(2, Float16, 2, 8, 4) }, "want B batch × 16 × n"},
		{func(m *MatmulBiasReLU) { m.Y = Matrix(4, Float16, 2, 8, 5) }, "A·B is [2 8 4]"},
		{func(m *MatmulBiasReLU) { m.Bias = Matrix(3, Float16, 1, 8, 4) }, "Bias is [1 8 4]"},
		{func(m *MatmulBiasReLU) { m.Y.UID = 1 }, "one unique id, 1"},
		{func(m *MatmulBiasReLU) { m.Bias.Virtual = true }, "virtual"},
	} {
		m := ok()
		tc.edit(&m)
		if err := m.check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

// TestExecuteArgs: Execute's buffers must bind every tensor once, each
// large enough and 16-byte aligned; a good set is put in the plan's
// order and reaches the variant pack.
func TestExecuteArgs(t *testing.T) {
	c := conv3x3(NCHW, Float32)
	c.check()
	f := newFake(1, 0)
	p, err := buildPlan(f, 7, "ConvForward", []Tensor{c.X, c.W, c.Y}, func(g *builder) []cudnn.BackendDescriptor { return convGraph(g, &c) })
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var op cuda.Operand = (*cuda.Handle)(nil) // a non-nil operand; checkArgs does not use it
	arg := func(uid int64, ptr uintptr, t Tensor) Arg {
		return Arg{UID: uid, ptr: ptr, bytes: uint64(t.Footprint() * 4), op: op}
	}
	good := []Arg{arg(3, 0x3000, c.Y), arg(1, 0x1000, c.X), arg(2, 0x2000, c.W)}
	if err := p.checkArgs(good); err != nil {
		t.Fatal(err)
	}
	if p.ptrs[0] != 0x1000 || p.ptrs[1] != 0x2000 || p.ptrs[2] != 0x3000 {
		t.Errorf("pointers in plan order: %#x", p.ptrs)
	}
	short := arg(3, 0x3000, c.Y)
	short.bytes -= 4
	for _, tc := range []struct {
		args []Arg
		want string
	}{
		{good[:2], "2 buffers for the 3 tensors"},
		{[]Arg{good[0], good[1], arg(9, 0x9000, c.W)}, "unique id 9 is no tensor"},
		{[]Arg{good[0], good[1], good[1]}, "unique id 1 bound twice"},
		{[]Arg{short, good[1], good[2]}, "the tensor [32 64 56 56] of float32 needs"},
		{[]Arg{arg(3, 0x3004, c.Y), good[1], good[2]}, "not 16-byte aligned"},
		{[]Arg{{UID: 3}, good[1], good[2]}, "nil buffer"},
	} {
		if err := p.checkArgs(tc.args); !errors.Is(err, ErrBadArg) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
	// The variant pack: made by the first execution, used again by the
	// second (the same pointers), replaced when a pointer changes.
	if err := p.checkArgs(good); err != nil {
		t.Fatal(err)
	}
	for i, ws := range []uintptr{0x4000, 0x4000, 0x5000} {
		if err := p.execute(7, ws); err != nil || f.execs != i+1 {
			t.Fatalf("execute %d = %v, %d executions", i, err, f.execs)
		}
	}
	packs := f.types[cudnn.BackendVariantPackDescriptor]
	if len(packs) != 2 {
		t.Fatalf("%d variant packs for three executions, two of them alike: want 2", len(packs))
	}
	pack := packs[0]
	if !eq(f.attr(t, pack, cudnn.AttrVariantPackUniqueIds), []int64{1, 2, 3}) || !eq(f.attr(t, pack, cudnn.AttrVariantPackDataPointers), []int64{0x1000, 0x2000, 0x3000}) ||
		f.attr(t, pack, cudnn.AttrVariantPackWorkspace)[0] != 0x4000 || f.live[pack] || !f.live[packs[1]] {
		t.Errorf("variant pack %v (live %v, the second %v)", f.attrs[pack], f.live[pack], f.live[packs[1]])
	}
	// Checking the arguments and executing with the last pack again
	// allocate nothing.
	if n := testing.AllocsPerRun(100, func() {
		p.checkArgs(good)
		p.execute(7, 0x5000)
	}); n != 0 {
		t.Errorf("checkArgs and execute: %.1f allocations per call, want 0", n)
	}
}
