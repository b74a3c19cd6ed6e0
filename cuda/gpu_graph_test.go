package cuda

// GPU tests of the graph builder (graphbuild.go); they skip without a
// device, and the conditional ones without NVRTC or the toolkit's device
// runtime library.

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// TestGPUGraphBuild builds x -> saxpy -> y on the device node by node:
// copies from and to pinned memory, a fill, a kernel node, a child graph,
// event record and wait, and a Go host func. Each of 3 launches gives saxpy's result and runs the
// host func once; then the instance's kernel arguments, copy and fill are
// set anew, an Update from a graph of the same shape changes a fill, and
// one from another shape is an *UpdateError.
func TestGPUGraphBuild(t *testing.T) {
	c := gpuContext(t)
	saxpy, empty := gpuKernels(t, c)
	const n = 1000
	x, _ := Alloc[float32](c, n)
	y, _ := Alloc[float32](c, n)
	hx, _ := AllocHost[float32](c, n)
	hy, _ := AllocHost[float32](c, n)
	ev, err := c.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []interface{ Close() error }{x, y, hx, hy, ev, s} {
		defer r.Close()
	}
	for i := range n {
		hx.Slice()[i] = float32(i)
	}

	build := func(fillY float32) (*Graph, *GraphNode, *GraphNode, *GraphNode, *atomic.Int32) {
		g, err := NewGraph(c)
		if err != nil {
			t.Fatal(err)
		}
		must := func(n *GraphNode, err error) *GraphNode {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		up := must(AddCopy(g, x, hx))
		fill := must(AddFill(g, y, fillY))
		k := must(g.AddKernel(saxpy, ForN(n, 128), []*GraphNode{up, fill}, float32(2), x, y, int32(n)))
		// A child graph of one empty kernel, recorded and waited on.
		child, err := NewGraph(c)
		if err != nil {
			t.Fatal(err)
		}
		must(child.AddKernel(empty, Config{}, nil))
		ch := must(g.AddChild(child, k))
		child.Close() // the node holds a copy
		rec := must(g.AddEventRecord(ev, ch))
		wait := must(g.AddEventWait(ev, rec))
		down := must(AddCopy(g, hy, y, wait))
		calls := new(atomic.Int32)
		must(g.AddHost(func() { calls.Add(1) }, down))
		return g, k, down, fill, calls
	}

	g, kn, down, fill, calls := build(1)
	defer g.Close()
	e, err := g.Instantiate()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.Upload(s); err != nil {
		t.Fatal(err)
	}
	check := func(what string, hy *HostBuffer[float32], a, y0 float32) {
		t.Helper()
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
		for i, v := range hy.Slice() {
			if want := a*float32(i) + y0; v != want {
				t.Fatalf("%s: y[%d] = %v, want %v", what, i, v, want)
			}
		}
		t.Logf("%s: y = %v*x + %v for all %d elements", what, a, y0, n)
	}
	for range 3 {
		if err := e.Launch(s); err != nil {
			t.Fatal(err)
		}
	}
	check("3 launches", hy, 2, 1)
	if got := calls.Load(); got != 3 {
		t.Errorf("the host func ran %d times for 3 launches", got)
	}
	t.Logf("the host func ran %d times for 3 launches", calls.Load())

	// The instance's node parameters: a = 3; the fill 5; the result to
	// another host buffer.
	hz, _ := AllocHost[float32](c, n)
	defer hz.Close()
	if err := e.SetKernelArgs(kn, ForN(n, 128), float32(3), x, y, int32(n)); err != nil {
		t.Fatal(err)
	}
	if err := SetFill(e, fill, y, float32(5)); err != nil {
		t.Fatal(err)
	}
	if err := SetCopy(e, down, hz, y); err != nil {
		t.Fatal(err)
	}
	clear(hy.Slice())
	if err := e.Launch(s); err != nil {
		t.Fatal(err)
	}
	check("after SetKernelArgs, SetFill and SetCopy", hz, 3, 5)
	if hy.Slice()[n-1] != 0 {
		t.Errorf("the old copy's destination was written after SetCopy")
	}

	// Update from a graph of the same shape, whose fill is 7 and a = 2:
	// the instance's copy goes back to hy.
	g2, _, _, _, _ := build(7)
	defer g2.Close()
	if err := e.Update(g2); err != nil {
		t.Fatal(err)
	}
	if err := e.Launch(s); err != nil {
		t.Fatal(err)
	}
	check("after Update", hy, 2, 7)

	// Another shape: the driver refuses, with its reason.
	g3, _ := NewGraph(c)
	defer g3.Close()
	if _, err := g3.AddEmpty(); err != nil {
		t.Fatal(err)
	}
	var ue *UpdateError
	err = e.Update(g3)
	if !errors.As(err, &ue) {
		t.Fatalf("Update from a graph of another shape: %v, want an *UpdateError", err)
	}
	t.Logf("Update from a graph of another shape: %v", err)
	if ue.Result == cu.GraphExecUpdateSuccess {
		t.Errorf("an *UpdateError with a result of success")
	}
}

// TestGPUGraphAlloc: a graph allocation, filled, copied out and freed in
// the graph, on each of 3 launches.
func TestGPUGraphAlloc(t *testing.T) {
	c := gpuContext(t)
	const n = 1 << 20
	out, _ := Alloc[int32](c, n)
	defer out.Close()
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g, err := NewGraph(c)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	an, tmp, err := AddAlloc[int32](g, n)
	if err != nil {
		t.Fatal(err)
	}
	fl, err := AddFill(g, tmp, int32(0x01020304), an)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := AddCopy(g, out, tmp, fl)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AddFree(g, tmp, cp); err != nil {
		t.Fatal(err)
	}
	e, err := g.Instantiate()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	got := make([]int32, n)
	for i := range 3 {
		if err := out.Zero(); err != nil {
			t.Fatal(err)
		}
		if err := e.Launch(s); err != nil {
			t.Fatal(err)
		}
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
		if err := out.CopyTo(got); err != nil {
			t.Fatal(err)
		}
		for j, v := range got {
			if v != 0x01020304 {
				t.Fatalf("launch %d: out[%d] = %#x, want 0x01020304", i, j, v)
			}
		}
	}
	t.Logf("a graph allocation of %d int32 at %#x, filled, copied and freed on each of 3 launches", n, tmp.Ptr())
}

// condSource sets the conditions of the conditional tests: setIf sets c
// to *v being odd; countDown decrements *v and counts the runs, and ends
// the while loop at zero.
const condSource = `
#include <cuda_device_runtime_api.h>
extern "C" __global__ void setIf(const int *v, cudaGraphConditionalHandle c)
{
    cudaGraphSetConditional(c, *v & 1);
}
extern "C" __global__ void countDown(int *v, int *runs, cudaGraphConditionalHandle c)
{
    *runs += 1;
    if (--*v <= 0) cudaGraphSetConditional(c, 0);
}
extern "C" __global__ void add(int *p, int d) { *p += d; }
extern "C" __global__ void setValue(const int *v, cudaGraphConditionalHandle c)
{
    cudaGraphSetConditional(c, *v);
}
`

// condModule loads condSource linked with the device runtime, skipping
// the test without NVRTC, the toolkit's headers or libcudadevrt.a, or on
// a driver before CUDA 12.3.
func condModule(t *testing.T, c *Context) *Module {
	t.Helper()
	needNVRTC(t)
	inc := cudaInclude(t)
	v, err := cu.DriverGetVersion()
	if err != nil {
		t.Fatal(err)
	}
	if v < 12030 {
		t.Skipf("the driver is CUDA %d.%d: conditional nodes need 12.3", v/1000, v%1000/10)
	}
	devrt, err := FindDeviceRuntime()
	if err != nil {
		t.Skip(err)
	}
	m, err := c.ModuleWithDeviceRuntime(Source{Code: condSource, Options: inc}, devrt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	t.Logf("driver %d, linked with %s", v, devrt)
	return m
}

func kernelOf(t *testing.T, m *Module, name string) *Kernel {
	t.Helper()
	k, err := m.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestGPUGraphConditional: an if node runs its body when the kernel before
// it set the condition (an odd value) and not otherwise; a while node
// runs its body until the body's kernel clears the condition; on a CUDA
// 12.8 driver, a switch node runs the case its condition selects (none
// past the last) and an if/else node one of its two bodies.
func TestGPUGraphConditional(t *testing.T) {
	c := gpuContext(t)
	m := condModule(t, c)
	setIf, countDown, add := kernelOf(t, m, "setIf"), kernelOf(t, m, "countDown"), kernelOf(t, m, "add")
	v, _ := Alloc[int32](c, 1)
	runs, _ := Alloc[int32](c, 1)
	hit, _ := Alloc[int32](c, 1)
	defer v.Close()
	defer runs.Close()
	defer hit.Close()
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	one := Config{}

	// if (*v odd) *hit += 1
	g, err := NewGraph(c)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	cond, err := g.NewCondition(0, true)
	if err != nil {
		t.Fatal(err)
	}
	set, err := g.AddKernel(setIf, one, nil, v, cond.Raw())
	if err != nil {
		t.Fatal(err)
	}
	_, body, err := g.AddIf(cond, set)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := body.AddKernel(add, one, nil, hit, int32(1)); err != nil {
		t.Fatal(err)
	}
	e, err := g.Instantiate()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := hit.Zero(); err != nil {
		t.Fatal(err)
	}
	for _, val := range []int32{0, 1, 2, 3} {
		if err := v.CopyFrom([]int32{val}); err != nil {
			t.Fatal(err)
		}
		if err := e.Launch(s); err != nil {
			t.Fatal(err)
		}
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
	}
	got := make([]int32, 1)
	hit.CopyTo(got)
	if got[0] != 2 {
		t.Errorf("the if body ran %d times for the values 0, 1, 2, 3, want 2 (the odd ones)", got[0])
	}
	t.Logf("if: the body ran %d times for the values 0, 1, 2, 3", got[0])

	// while (c) { runs++; if (--*v <= 0) c = 0 }, c set to 1 at each launch.
	w, err := NewGraph(c)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	wc, err := w.NewCondition(1, true)
	if err != nil {
		t.Fatal(err)
	}
	_, loop, err := w.AddWhile(wc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := loop.AddKernel(countDown, one, nil, v, runs, wc.Raw()); err != nil {
		t.Fatal(err)
	}
	we, err := w.Instantiate()
	if err != nil {
		t.Fatal(err)
	}
	defer we.Close()
	runs.Zero()
	v.CopyFrom([]int32{10})
	if err := we.Launch(s); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	runs.CopyTo(got)
	if got[0] != 10 {
		t.Errorf("the while body ran %d times from 10, want 10", got[0])
	}
	t.Logf("while: the body ran %d times counting down from 10", got[0])

	v12, _ := cu.DriverGetVersion()
	if v12 < 12080 {
		t.Logf("the driver is %d: no if/else or switch nodes (CUDA 12.8)", v12)
		return
	}
	// switch (*v) { case 0: *hit += 1; case 1: *hit += 10; case 2: *hit += 100 },
	// then if/else on *v odd: *hit += 1000 or 10000.
	sg, err := NewGraph(c)
	if err != nil {
		t.Fatal(err)
	}
	defer sg.Close()
	sc, err := sg.NewCondition(0, true)
	if err != nil {
		t.Fatal(err)
	}
	setv, err := sg.AddKernel(kernelOf(t, m, "setValue"), one, nil, v, sc.Raw())
	if err != nil {
		t.Fatal(err)
	}
	sw, cases, err := sg.AddSwitch(sc, 3, setv)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range []int32{1, 10, 100} {
		if _, err := cases[i].AddKernel(add, one, nil, hit, d); err != nil {
			t.Fatal(err)
		}
	}
	ic, err := sg.NewCondition(0, true)
	if err != nil {
		t.Fatal(err)
	}
	seti, err := sg.AddKernel(setIf, one, []*GraphNode{sw}, v, ic.Raw())
	if err != nil {
		t.Fatal(err)
	}
	_, then, els, err := sg.AddIfElse(ic, seti)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := then.AddKernel(add, one, nil, hit, int32(1000)); err != nil {
		t.Fatal(err)
	}
	if _, err := els.AddKernel(add, one, nil, hit, int32(10000)); err != nil {
		t.Fatal(err)
	}
	se, err := sg.Instantiate()
	if err != nil {
		t.Fatal(err)
	}
	defer se.Close()
	for _, c := range []struct{ v, want int32 }{{0, 10001}, {1, 1010}, {2, 10100}, {3, 1000}, {4, 10000}} {
		hit.Zero()
		v.CopyFrom([]int32{c.v})
		if err := se.Launch(s); err != nil {
			t.Fatal(err)
		}
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
		hit.CopyTo(got)
		if got[0] != c.want {
			t.Errorf("switch and if/else on %d: %d, want %d", c.v, got[0], c.want)
		}
	}
	t.Logf("switch of 3 cases and if/else: the bodies chosen for the values 0 to 4")
}
