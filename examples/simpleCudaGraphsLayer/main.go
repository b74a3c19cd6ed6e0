// Command simpleCudaGraphsLayer is NVIDIA's cuda-samples simpleCudaGraphs
// (Samples/3_CUDA_Features/simpleCudaGraphs) in Go with the layer, package
// cuda (github.com/cugen/cugen/cuda); examples/simpleCudaGraphs is the same
// sample through the runtime API (package cudart). It sums 2^24 floats on
// the GPU with two kernels inside a CUDA graph, built twice: once node by
// node with the layer's builder (cuda.NewGraph, AddCopy, AddFill,
// Graph.AddKernel with checked arguments, Graph.AddHost) and once by
// capturing three streams joined by events, ending in Stream.HostFunc.
// Each graph and a clone of it are instantiated and launched 3 times;
// every launch ends in a Go func that prints the sum.
//
// It exits with status 1 when a Go func ran fewer times than the graphs
// were launched, or when a sum differs from the one computed on the host.
//
// What differs from the C++ sample:
//   - The kernels reduce and reduceFinal are examples/simpleCudaGraphs'
//     hand-written PTX (reduce.ptx, a copy; shared memory and bar.sync
//     where the sample uses cooperative groups), loaded with
//     Context.LoadModule. The inputs are the sample's (glibc's rand()), so
//     the sums printed are the sample's.
//   - The host functions are Go funcs closing over their data; the sum is
//     copied into a HostBuffer (pinned memory), as CUDA must not write Go
//     memory while a graph runs.
//   - The capture is in relaxed mode (the layer's: goroutines do not keep
//     an OS thread), the sample's in global mode.
//   - The node count is read with cu.GraphGetNodes through Context.Do: the
//     layer has no call of its own for it.
//   - It uses device 0.
//
// It needs an NVIDIA GPU and its driver:
//
//	go run ./examples/simpleCudaGraphsLayer
//
// The C++ original builds with (from the sample's directory, which has the
// samples' Common/ two levels up):
//
//	nvcc -O2 -I../../../Common -o simpleCudaGraphs simpleCudaGraphs.cu
package main

import (
	_ "embed"
	"fmt"
	"math"
	"os"
	"sync/atomic"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/examples/internal/sample"
)

const (
	size                  = 1 << 24 // elements to reduce
	maxBlocks             = 512
	threadsPerBlock       = 512
	graphLaunchIterations = 3
)

//go:embed reduce.ptx
var kernelPTX string

// job is what both graphs use.
type job struct {
	ctx                 *cuda.Context
	reduce, reduceFinal *cuda.Kernel
	inH                 *cuda.HostBuffer[float32]
	inD                 *cuda.Buffer[float32]
	outD                *cuda.Buffer[float64] // one partial sum per block
	resultD             *cuda.Buffer[float64]
	want                float64
}

// hostCheck is a graph's host function and what it saw.
type hostCheck struct {
	fnName string
	result *cuda.HostBuffer[float64] // the graph copies the sum here
	want   float64
	calls  atomic.Int32
	wrong  atomic.Int32
}

// callback prints the sum and resets it, as the sample's
// myHostNodeCallback does.
func (h *hostCheck) callback() {
	r := h.result.Slice()
	fmt.Printf("[%s] Host callback final reduced sum = %f\n", h.fnName, r[0])
	if math.Abs(r[0]-h.want) > 1e-9*math.Abs(h.want) {
		h.wrong.Add(1)
	}
	r[0] = 0
	h.calls.Add(1)
}

func (h *hostCheck) verify(launches int) bool {
	ok := true
	if n := int(h.calls.Load()); n != launches {
		fmt.Fprintf(os.Stderr, "%s: the Go host function ran %d times for %d graph launches\n", h.fnName, n, launches)
		ok = false
	}
	if n := h.wrong.Load(); n > 0 {
		fmt.Fprintf(os.Stderr, "%s: %d sums differ from the host's %f\n", h.fnName, n, h.want)
		ok = false
	}
	return ok
}

func (j *job) newHostCheck(name string) *hostCheck {
	r, err := cuda.AllocHost[float64](j.ctx, 1)
	sample.Check(err)
	return &hostCheck{fnName: name, result: r, want: j.want}
}

func check[T any](v T, err error) T {
	sample.Check(err)
	return v
}

// graphsManual builds the graph node by node.
func (j *job) graphsManual() bool {
	host := j.newHostCheck("cudaGraphsManual")
	defer host.result.Close()
	g := check(cuda.NewGraph(j.ctx))

	cp := check(cuda.AddCopy(g, j.inD, j.inH))
	fill := check(cuda.AddFill(g, j.outD, 0))
	red := check(g.AddKernel(j.reduce, cuda.Config{Grid: cuda.Dim3{X: maxBlocks}, Block: cuda.Dim3{X: threadsPerBlock}},
		[]*cuda.GraphNode{fill, cp}, j.inD, j.outD, uint64(size), uint64(maxBlocks)))
	fill2 := check(cuda.AddFill(g, j.resultD, 0))
	fin := check(g.AddKernel(j.reduceFinal, cuda.Config{Grid: cuda.Dim3{X: 1}, Block: cuda.Dim3{X: threadsPerBlock}},
		[]*cuda.GraphNode{red, fill2}, j.outD, j.resultD, uint64(maxBlocks)))
	back := check(cuda.AddCopy(g, host.result, j.resultD, fin))
	check(g.AddHost(host.callback, back))

	fmt.Printf("\nNum of nodes in the graph created manually = %d\n", j.nodes(g))
	j.launchTwice(g)
	return host.verify(2 * graphLaunchIterations)
}

// graphsUsingStreamCapture captures the same work from three streams.
func (j *job) graphsUsingStreamCapture() bool {
	host := j.newHostCheck("cudaGraphsUsingStreamCapture")
	defer host.result.Close()
	var streams [3]*cuda.Stream
	for i := range streams {
		streams[i] = check(j.ctx.NewStream())
	}
	s1, s2, s3 := streams[0], streams[1], streams[2]
	var events [3]*cuda.Event
	for i := range events {
		events[i] = check(j.ctx.NewEvent())
	}
	fork, memset1, memset2 := events[0], events[1], events[2]

	sample.Check(s1.BeginCapture())
	sample.Check(fork.Record(s1))
	sample.Check(s2.WaitEvent(fork))
	sample.Check(s3.WaitEvent(fork))

	sample.Check(j.inD.CopyFromHostAsync(s1, j.inH))
	sample.Check(j.outD.FillAsync(s2, 0))
	sample.Check(memset1.Record(s2))
	sample.Check(j.resultD.FillAsync(s3, 0))
	sample.Check(memset2.Record(s3))

	sample.Check(s1.WaitEvent(memset1))
	sample.Check(j.reduce.Launch(cuda.Config{Grid: cuda.Dim3{X: maxBlocks}, Block: cuda.Dim3{X: threadsPerBlock}, Stream: s1},
		j.inD, j.outD, uint64(size), uint64(maxBlocks)))
	sample.Check(s1.WaitEvent(memset2))
	sample.Check(j.reduceFinal.Launch(cuda.Config{Grid: cuda.Dim3{X: 1}, Block: cuda.Dim3{X: threadsPerBlock}, Stream: s1},
		j.outD, j.resultD, uint64(maxBlocks)))
	sample.Check(j.resultD.CopyToHostAsync(s1, host.result))
	// Captured, the Go func becomes a host node that runs on every launch
	// of the graph, its clone and their instances.
	sample.Check(s1.HostFunc(host.callback))
	g := check(s1.EndCapture())

	fmt.Printf("\nNum of nodes in the graph created using stream capture API = %d\n", j.nodes(g))
	j.launchTwice(g)
	for _, e := range events {
		sample.Check(e.Close())
	}
	for _, s := range streams {
		sample.Check(s.Close())
	}
	return host.verify(2 * graphLaunchIterations)
}

// nodes returns the number of nodes of g (cuGraphGetNodes).
func (j *job) nodes(g *cuda.Graph) uint64 {
	var n uint64
	sample.Check(j.ctx.Do(func() error { return cu.GraphGetNodes(g.Raw(), nil, &n) }))
	return n
}

// launchTwice instantiates g and a clone of it, launches each
// graphLaunchIterations times on a stream of its own, and closes them.
func (j *job) launchTwice(g *cuda.Graph) {
	s := check(j.ctx.NewStream())
	e := check(g.Instantiate())
	clone := check(g.Clone())
	ce := check(clone.Instantiate())

	for range graphLaunchIterations {
		sample.Check(e.Launch(s))
	}
	sample.Check(s.Synchronize())

	fmt.Println("Cloned Graph Output.. ")
	for range graphLaunchIterations {
		sample.Check(ce.Launch(s))
	}
	sample.Check(s.Synchronize())

	sample.Check(e.Close())
	sample.Check(ce.Close())
	sample.Check(g.Close())
	sample.Check(clone.Close())
	sample.Check(s.Close())
}

func main() {
	ctx, err := cuda.NewContext(0)
	sample.Check(err)
	major, minor, err := ctx.Device().ComputeCapability()
	sample.Check(err)
	fmt.Printf("GPU Device %d: %q with compute capability %d.%d\n\n", 0, sample.ArchName(int32(major), int32(minor)), major, minor)
	fmt.Printf("%d elements\n", size)
	fmt.Printf("threads per block  = %d\n", threadsPerBlock)
	fmt.Printf("Graph Launch iterations = %d\n", graphLaunchIterations)

	mod := check(ctx.LoadModule([]byte(kernelPTX)))
	j := &job{
		ctx:         ctx,
		reduce:      check(mod.Kernel("reduce")),
		reduceFinal: check(mod.Kernel("reduceFinal")),
		inH:         check(cuda.AllocHost[float32](ctx, size)),
		inD:         check(cuda.Alloc[float32](ctx, size)),
		outD:        check(cuda.Alloc[float64](ctx, maxBlocks)),
		resultD:     check(cuda.Alloc[float64](ctx, 1)),
	}
	// The sample's init_input: (rand() & 0xFF) / (float)RAND_MAX; the sum
	// of the floats, in double, is what the graphs must print.
	in := j.inH.Slice()
	rng := sample.NewCRand(1)
	for i := range in {
		in[i] = float32(rng.Int()&0xFF) / float32(sample.RandMax)
		j.want += float64(in[i])
	}

	ok := j.graphsManual()
	ok = j.graphsUsingStreamCapture() && ok

	for _, c := range []interface{ Close() error }{j.inH, j.inD, j.outD, j.resultD, mod, ctx} {
		sample.Check(c.Close())
	}
	if !ok {
		os.Exit(1)
	}
}
