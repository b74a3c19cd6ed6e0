// Command graphConditionalNodes is NVIDIA's cuda-samples
// graphConditionalNodes (Samples/3_CUDA_Features/graphConditionalNodes) in
// Go with the layer, package cuda (github.com/cugen/cugen/cuda): CUDA graphs
// whose conditional nodes choose on the device what runs next. Five
// graphs, each built node by node with the layer's builder:
//
//   - simpleIfGraph: a kernel sets the condition to its input's low bit;
//     an if node runs its body when it is set.
//   - simpleDoWhileGraph: a while node whose condition starts at 1 on each
//     launch runs a body of three kernels; the last one counts down from 10
//     and clears the condition at 0.
//   - capturedWhileGraph: kernel, while node, kernel; the first kernel and
//     the body count down and set the condition to the counter.
//   - simpleIfElseGraph: an if node with two bodies (CUDA 12.8).
//   - simpleSwitchGraph: a switch node of four bodies, launched with the
//     values 0 to 4 (CUDA 12.8).
//
// It prints what the sample prints, and exits with status 1 when a graph
// ran other kernels than the sample's logic says (or a counter ends other
// than at 0).
//
// What differs from the C++ sample:
//   - The kernels are CUDA C++ compiled at run time by NVRTC as relocatable
//     code and linked with the toolkit's device runtime library
//     (libcudadevrt.a, which defines cudaGraphSetConditional) through the
//     driver's linker (cuda.Context.ModuleWithDeviceRuntime); the sample is
//     built by nvcc with separable compilation. NVRTC needs the toolkit's
//     include directory for cuda_device_runtime_api.h: set CUDA_HOME when
//     the toolkit is not in /usr/local/cuda.
//   - The kernels do not printf: each appends its line (an index into the
//     table lines below) and its value to a trace in device memory, and
//     the program prints the trace after each launch. Device printf writes
//     through the C library's buffered stdout, which a Go program does not
//     flush at exit. The trace also lets the program check each launch.
//   - The sample fills two graphs' while bodies by stream capture into the
//     body graph (cudaStreamBeginCaptureToGraph), and builds
//     capturedWhileGraph by capturing a stream and adding the conditional
//     node by hand; here every graph is built with the builder's Add
//     methods, to the same nodes and edges.
//   - The graphs launch on the context's default stream; the sample's
//     cudaDeviceSynchronize is Context.Synchronize.
//
// It needs an NVIDIA GPU with a CUDA 12.3 driver or newer, NVRTC 13
// (libnvrtc.so.13; or set CUGEN_LIBNVRTC) and the CUDA 13 toolkit's
// headers and libcudadevrt.a:
//
//	go run ./examples/graphConditionalNodes
//
// The C++ original builds with (from the sample's directory, which has the
// samples' Common/ two levels up):
//
//	nvcc -O2 -std=c++17 -rdc=true -I../../../Common -o graphConditionalNodes graphConditionalNodes.cu -lcudadevrt
//
// c/conditional.cu is our C++ reference of the same graphs, without the
// samples' headers (make gpu runs it beside this program):
//
//	nvcc -O2 -rdc=true -o conditional c/conditional.cu -lcudadevrt
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"unsafe"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/examples/internal/sample"
)

// The kernels: the sample's, with say(line, value) where it prints.
const source = `
#include <cuda_device_runtime_api.h>

#define TRACE 1024
__device__ int traceLen;
__device__ int2 trace[TRACE];

// say appends a line of the host's table and its value to the trace.
__device__ void say(int line, int value)
{
    int i = atomicAdd(&traceLen, 1);
    if (i < TRACE) trace[i] = make_int2(line, value);
}

extern "C" __global__ void ifGraphKernelA(char *dPtr, cudaGraphConditionalHandle handle)
{
    unsigned int value = *dPtr & 0x01; // the condition: *dPtr is odd
    cudaGraphSetConditional(handle, value);
    say(0, value);
}

extern "C" __global__ void ifGraphKernelC(void) { say(1, 0); }

extern "C" __global__ void doWhileEmptyKernel(void) { say(2, 0); }

extern "C" __global__ void doWhileLoopKernel(char *dPtr, cudaGraphConditionalHandle handle)
{
    if (--(*dPtr) == 0) cudaGraphSetConditional(handle, 0);
    say(3, *dPtr);
}

extern "C" __global__ void capturedWhileKernel(char *dPtr, cudaGraphConditionalHandle handle)
{
    say(3, *dPtr);
    if (*dPtr) (*dPtr)--;
    cudaGraphSetConditional(handle, *dPtr);
}

extern "C" __global__ void capturedWhileEmptyKernel(void) { say(4, 0); }

extern "C" __global__ void ifGraphKernelD(void) { say(5, 0); }

extern "C" __global__ void switchGraphKernelA(char *dPtr, cudaGraphConditionalHandle handle)
{
    unsigned int value = *dPtr;
    cudaGraphSetConditional(handle, value);
    say(0, value);
}

extern "C" __global__ void switchGraphKernelC(void) { say(6, 0); }
extern "C" __global__ void switchGraphKernelD(void) { say(7, 0); }
extern "C" __global__ void switchGraphKernelE(void) { say(8, 0); }
extern "C" __global__ void switchGraphKernelF(void) { say(9, 0); }
`

// lines are what the sample's kernels print, by say's line.
var lines = []string{
	"GPU: Handle set to %d",
	"GPU: Hello from the GPU! The condition was true.",
	"GPU: doWhileEmptyKernel()",
	"GPU: counter = %d",
	"GPU: capturedWhileEmptyKernel()",
	"GPU: Hello from the GPU! The condition was false.",
	"GPU: Hello from switchGraphKernelC(), running on the GPU!",
	"GPU: Hello from switchGraphKernelD(), running on the GPU!",
	"GPU: Hello from switchGraphKernelE(), running on the GPU!",
	"GPU: Hello from switchGraphKernelF(), running on the GPU!",
}

// entry is one line of the trace: say's line and value.
type entry struct{ line, value int32 }

// state is what every graph uses.
type state struct {
	ctx     *cuda.Context
	mod     *cuda.Module
	s       *cuda.Stream
	failed  bool
	one     cuda.Config // one thread
	kernels map[string]*cuda.Kernel
}

func (st *state) kernel(name string) *cuda.Kernel {
	k, ok := st.kernels[name]
	if !ok {
		var err error
		k, err = st.mod.Kernel(name)
		sample.Check(err)
		st.kernels[name] = k
	}
	return k
}

// launch sets the byte the graph reads to v, launches the graph, waits,
// prints the kernels' trace and checks it against want.
func (st *state) launch(what string, e *cuda.GraphExec, d *cuda.Buffer[int8], v int8, want []entry) {
	sample.Check(d.Fill(v))
	st.resetTrace()
	fmt.Printf(what+"\n", v)
	sample.Check(e.Launch(st.s))
	sample.Check(st.ctx.Synchronize())
	got := st.readTrace()
	for _, t := range got {
		if int(t.line) < len(lines) {
			fmt.Printf(lines[t.line]+"\n", t.value)
		}
	}
	if !slices.Equal(got, want) {
		fmt.Fprintf(os.Stderr, "graphConditionalNodes: the kernels ran %v, want %v\n", got, want)
		st.failed = true
	}
}

func (st *state) global(name string) (cu.Deviceptr, uint64) {
	p, n, err := st.mod.Global(name)
	sample.Check(err)
	return p, n
}

func (st *state) resetTrace() {
	p, _ := st.global("traceLen")
	sample.Check(st.ctx.Do(func() error { return cu.MemsetD32(p, 0, 1) }))
}

func (st *state) readTrace() []entry {
	lp, _ := st.global("traceLen")
	tp, size := st.global("trace")
	var n int32
	buf := make([]entry, size/8)
	sample.Check(st.ctx.Do(func() error {
		if err := cu.MemcpyDtoH(unsafe.Pointer(&n), lp, 4); err != nil {
			return err
		}
		return cu.MemcpyDtoH(unsafe.Pointer(&buf[0]), tp, size)
	}))
	return buf[:min(int(n), len(buf))]
}

// newGraph returns a graph, its condition (default value def, set at each
// launch when reset) and a byte of device memory for its kernels.
func (st *state) newGraph(name string, def uint32, reset bool) (*cuda.Graph, *cuda.Condition, *cuda.Buffer[int8]) {
	d, err := cuda.Alloc[int8](st.ctx, 1)
	sample.Check(err)
	fmt.Printf("%s: Building graph...\n", name)
	g, err := cuda.NewGraph(st.ctx)
	sample.Check(err)
	c, err := g.NewCondition(def, reset)
	sample.Check(err)
	return g, c, d
}

func check[T any](v T, err error) T {
	sample.Check(err)
	return v
}

// simpleIfGraph: kernel A sets the condition to *d's low bit; the if
// node's body is kernel C.
func (st *state) simpleIfGraph() {
	g, c, d := st.newGraph("simpleIfGraph", 0, false)
	a := check(g.AddKernel(st.kernel("ifGraphKernelA"), st.one, nil, d, c.Raw()))
	_, body, err := g.AddIf(c, a)
	sample.Check(err)
	check(body.AddKernel(st.kernel("ifGraphKernelC"), st.one, nil))
	e := check(g.Instantiate())
	st.launch("Host: Launching graph with device memory set to %d", e, d, 0, []entry{{0, 0}})
	st.launch("Host: Launching graph with device memory set to %d", e, d, 1, []entry{{0, 1}, {1, 0}})
	sample.Check(e.Close())
	sample.Check(g.Close())
	sample.Check(d.Close())
	fmt.Print("simpleIfGraph: Complete\n\n")
}

// simpleDoWhileGraph: a while node, its condition 1 at each launch, whose
// body is two empty kernels and the loop kernel counting *d down.
func (st *state) simpleDoWhileGraph() {
	g, c, d := st.newGraph("simpleDoWhileGraph", 1, true)
	_, body, err := g.AddWhile(c)
	sample.Check(err)
	e1 := check(body.AddKernel(st.kernel("doWhileEmptyKernel"), st.one, nil))
	e2 := check(body.AddKernel(st.kernel("doWhileEmptyKernel"), st.one, []*cuda.GraphNode{e1}))
	check(body.AddKernel(st.kernel("doWhileLoopKernel"), st.one, []*cuda.GraphNode{e2}, d, c.Raw()))
	e := check(g.Instantiate())
	var want []entry
	for i := int32(9); i >= 0; i-- {
		want = append(want, entry{2, 0}, entry{2, 0}, entry{3, i})
	}
	st.launch("Host: Launching graph with loop counter set to %d", e, d, 10, want)
	st.counterZero(d)
	sample.Check(e.Close())
	sample.Check(g.Close())
	sample.Check(d.Close())
	fmt.Print("simpleDoWhileGraph: Complete\n\n")
}

// counterZero checks that the counter ended at 0.
func (st *state) counterZero(d *cuda.Buffer[int8]) {
	got := make([]int8, 1)
	sample.Check(d.CopyTo(got))
	if got[0] != 0 {
		fmt.Fprintf(os.Stderr, "graphConditionalNodes: the counter ended at %d, want 0\n", got[0])
		st.failed = true
	}
}

// capturedWhileGraph: kernel A, then a while node whose body is the same
// kernel (C), then an empty kernel D.
func (st *state) capturedWhileGraph() {
	g, c, d := st.newGraph("capturedWhileGraph", 0, false)
	k := st.kernel("capturedWhileKernel")
	a := check(g.AddKernel(k, st.one, nil, d, c.Raw()))
	b, body, err := g.AddWhile(c, a)
	sample.Check(err)
	check(g.AddKernel(st.kernel("capturedWhileEmptyKernel"), st.one, []*cuda.GraphNode{b}))
	check(body.AddKernel(k, st.one, nil, d, c.Raw()))
	e := check(g.Instantiate())
	st.launch("Host: Launching graph with loop counter set to %d", e, d, 0, []entry{{3, 0}, {4, 0}})
	var want []entry
	for i := int32(10); i >= 1; i-- {
		want = append(want, entry{3, i})
	}
	st.launch("Host: Launching graph with loop counter set to %d", e, d, 10, append(want, entry{4, 0}))
	st.counterZero(d)
	sample.Check(e.Close())
	sample.Check(g.Close())
	sample.Check(d.Close())
	fmt.Print("capturedWhileGraph: Complete\n\n")
}

// simpleIfElseGraph: kernel A, then an if node: C when *d is odd, D when
// it is even.
func (st *state) simpleIfElseGraph() {
	g, c, d := st.newGraph("simpleIfElseGraph", 0, false)
	a := check(g.AddKernel(st.kernel("ifGraphKernelA"), st.one, nil, d, c.Raw()))
	_, then, els, err := g.AddIfElse(c, a)
	sample.Check(err)
	check(then.AddKernel(st.kernel("ifGraphKernelC"), st.one, nil))
	check(els.AddKernel(st.kernel("ifGraphKernelD"), st.one, nil))
	e := check(g.Instantiate())
	st.launch("Host: Launching graph with device memory set to %d", e, d, 0, []entry{{0, 0}, {5, 0}})
	st.launch("Host: Launching graph with device memory set to %d", e, d, 1, []entry{{0, 1}, {1, 0}})
	sample.Check(e.Close())
	sample.Check(g.Close())
	sample.Check(d.Close())
	fmt.Print("simpleIfElseGraph: Complete\n\n")
}

// simpleSwitchGraph: kernel A sets the condition to *d; a switch node of
// four bodies, C, D, E and F, runs the one it selects.
func (st *state) simpleSwitchGraph() {
	g, c, d := st.newGraph("simpleSwitchGraph", 0, false)
	a := check(g.AddKernel(st.kernel("switchGraphKernelA"), st.one, nil, d, c.Raw()))
	_, bodies, err := g.AddSwitch(c, 4, a)
	sample.Check(err)
	for i, name := range []string{"switchGraphKernelC", "switchGraphKernelD", "switchGraphKernelE", "switchGraphKernelF"} {
		check(bodies[i].AddKernel(st.kernel(name), st.one, nil))
	}
	e := check(g.Instantiate())
	for i := range int8(5) {
		want := []entry{{0, int32(i)}}
		if i < 4 {
			want = append(want, entry{6 + int32(i), 0})
		}
		st.launch("Host: Launching graph with device memory set to %d", e, d, i, want)
	}
	sample.Check(e.Close())
	sample.Check(g.Close())
	sample.Check(d.Close())
	fmt.Print("simpleSwitchGraph: Complete\n\n")
}

// cudaInclude returns NVRTC's -I options for the toolkit's headers: its
// include directory and, for CUDA 13, include/cccl.
func cudaInclude() []string {
	for _, d := range []string{os.Getenv("CUDA_HOME"), os.Getenv("CUDA_PATH"), "/usr/local/cuda"} {
		inc := filepath.Join(d, "include")
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(inc, "cuda_device_runtime_api.h")); err == nil {
			opts := []string{"-I" + inc}
			if st, err := os.Stat(filepath.Join(inc, "cccl")); err == nil && st.IsDir() {
				opts = append(opts, "-I"+filepath.Join(inc, "cccl"))
			}
			return opts
		}
	}
	fmt.Fprintln(os.Stderr, "graphConditionalNodes: no CUDA toolkit include directory with cuda_device_runtime_api.h (set CUDA_HOME)")
	os.Exit(1)
	return nil
}

func main() {
	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	defer ctx.Close()
	major, minor, err := ctx.Device().ComputeCapability()
	sample.Check(err)
	fmt.Printf("GPU Device %d: %q with compute capability %d.%d\n\n", 0, sample.ArchName(int32(major), int32(minor)), major, minor)

	v, err := cu.DriverGetVersion()
	sample.Check(err)
	fmt.Printf("Driver version is: %d.%d\n", v/1000, (v%100)/10)
	if v < 12030 {
		fmt.Println("Skipping execution as driver does not support Graph Conditional Nodes")
		return
	}

	devrt, err := cuda.FindDeviceRuntime()
	sample.Check(err)
	mod, err := ctx.ModuleWithDeviceRuntime(cuda.Source{Code: source, Name: "graphConditionalNodes.cu", Options: cudaInclude()}, devrt)
	sample.Check(err)
	s, err := ctx.DefaultStream()
	sample.Check(err)
	st := &state{ctx: ctx, mod: mod, s: s, kernels: map[string]*cuda.Kernel{}}

	st.simpleIfGraph()
	st.simpleDoWhileGraph()
	st.capturedWhileGraph()
	if v >= 12080 {
		st.simpleIfElseGraph()
		st.simpleSwitchGraph()
	} else {
		fmt.Println("Skipping execution as driver does not support if/else and switch type Graph Conditional Nodes")
	}
	sample.Check(mod.Close())
	if st.failed {
		os.Exit(1)
	}
}
