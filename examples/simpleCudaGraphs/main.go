// Command simpleCudaGraphs is NVIDIA's cuda-samples simpleCudaGraphs
// (Samples/3_CUDA_Features/simpleCudaGraphs) in Go with
// cuda/sys/cudart. It sums 2^24 floats on the GPU with two kernels
// inside a CUDA graph, built twice: once node by node (memcpy, memset,
// kernel and host nodes, cudaGraphAddHostNode) and once by stream capture
// across three streams joined by events, ending in cudaLaunchHostFunc. Each
// graph and a clone of it are instantiated and launched 3 times; every
// launch ends in a host function, a Go func here, that prints the sum.
//
// So the program shows whether a Go func in a graph runs on every launch:
// each of the two graphs must print 6 sums (3 launches of the graph, 3 of
// its clone). It counts the calls and exits with status 1 when a Go func ran
// fewer times than the graphs were launched, or when a sum differs from the
// one computed on the host.
//
// What differs from the C++ sample:
//   - The kernels reduce and reduceFinal are PTX we wrote by hand
//     (reduce.ptx, embedded with go:embed; shared memory and bar.sync where
//     the sample uses cooperative groups and shuffles), loaded with
//     cudaLibraryLoadData. The inputs are the sample's (glibc's rand()), so
//     the sums printed are the sample's.
//   - The host functions are Go funcs; their data are Go values the func
//     closes over, not a struct passed as userData.
//   - The sum is copied into pinned host memory (cudaMallocHost), not into a
//     variable on the stack: memory that CUDA writes while a graph runs must
//     not be Go memory.
//   - It uses device 0 (see examples/internal/sample.FindCudaDevice).
//
// It needs an NVIDIA GPU and the CUDA 13 runtime (libcudart.so.13; or set
// CUGEN_LIBCUDART=/path/to/libcudart.so.13):
//
//	go run ./examples/simpleCudaGraphs
package main

import (
	_ "embed"
	"fmt"
	"math"
	"os"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/examples/internal/sample"
)

const (
	threadsPerBlock       = 512
	graphLaunchIterations = 3
)

// kernelPTX holds reduce and reduceFinal in PTX text; cudaLibraryLoadData
// reads PTX as a C string, so it is copied with a NUL appended.
//
//go:embed reduce.ptx
var kernelPTX string

// kernels are the two reductions, loaded once.
var kernels struct {
	reduce, reduceFinal cudart.Kernel
}

// hostCheck is what a graph's host function reads and what main checks
// afterwards: the sample's callBackData plus the expected sum and counts.
type hostCheck struct {
	fnName string
	result *float64 // pinned host memory the graph copies the sum into
	want   float64  // the sum computed on the host
	calls  atomic.Int32
	wrong  atomic.Int32
}

// callback is the sample's myHostNodeCallback: print the sum, reset it.
func (h *hostCheck) callback() {
	got := *h.result
	fmt.Printf("[%s] Host callback final reduced sum = %f\n", h.fnName, got)
	if math.Abs(got-h.want) > 1e-9*math.Abs(h.want) {
		h.wrong.Add(1)
	}
	*h.result = 0 // reset the result
	h.calls.Add(1)
}

// verify reports on stderr and returns false when the host function did not
// run once per launch or saw a wrong sum.
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

// newHostCheck allocates the pinned double the graph copies its sum into.
func newHostCheck(fnName string, want float64) *hostCheck {
	p, err := cudart.MallocHost(8)
	sample.Check(err)
	h := &hostCheck{fnName: fnName, result: (*float64)(p), want: want}
	*h.result = 0
	return h
}

func (h *hostCheck) free() { sample.Check(cudart.FreeHost(unsafe.Pointer(h.result))) }

func cudaGraphsManual(inputVecH, inputVecD, outputVecD, resultD unsafe.Pointer, inputSize, numOfBlocks uint64, want float64) bool {
	streamForGraph, err := cudart.StreamCreate()
	sample.Check(err)
	host := newHostCheck("cudaGraphsManual", want)
	defer host.free()

	graph, err := cudart.GraphCreate(0)
	sample.Check(err)

	memcpyParams := cudart.Memcpy3DParms{
		SrcPtr: cudart.PitchedPtr{Ptr: inputVecH, Pitch: 4 * inputSize, Xsize: inputSize, Ysize: 1},
		DstPtr: cudart.PitchedPtr{Ptr: inputVecD, Pitch: 4 * inputSize, Xsize: inputSize, Ysize: 1},
		Extent: cudart.Extent{Width: 4 * inputSize, Height: 1, Depth: 1},
		Kind:   cudart.MemcpyHostToDevice,
	}
	memcpyNode, err := cudart.GraphAddMemcpyNode(graph, nil, 0, &memcpyParams)
	sample.Check(err)

	memsetParams := cudart.MemsetParams{
		Dst:         outputVecD,
		ElementSize: 4, // at most 4 bytes: numOfBlocks doubles are 2*numOfBlocks words
		Width:       numOfBlocks * 2,
		Height:      1,
	}
	memsetNode, err := cudart.GraphAddMemsetNode(graph, nil, 0, &memsetParams)
	sample.Check(err)

	deps := []cudart.GraphNode{memsetNode, memcpyNode}
	kernelArgs := []unsafe.Pointer{unsafe.Pointer(&inputVecD), unsafe.Pointer(&outputVecD), unsafe.Pointer(&inputSize), unsafe.Pointer(&numOfBlocks)}
	kernelNodeParams := cudart.KernelNodeParams{
		Func:         kernels.reduce,
		GridDim:      cudart.Dim1(uint32(numOfBlocks)),
		BlockDim:     cudart.Dim1(threadsPerBlock),
		KernelParams: &kernelArgs[0],
	}
	kernelNode, err := cudart.GraphAddKernelNode(graph, &deps[0], uint64(len(deps)), &kernelNodeParams)
	sample.Check(err)

	memsetParams = cudart.MemsetParams{Dst: resultD, ElementSize: 4, Width: 2, Height: 1}
	memsetNode, err = cudart.GraphAddMemsetNode(graph, nil, 0, &memsetParams)
	sample.Check(err)

	deps = []cudart.GraphNode{kernelNode, memsetNode}
	kernelArgs2 := []unsafe.Pointer{unsafe.Pointer(&outputVecD), unsafe.Pointer(&resultD), unsafe.Pointer(&numOfBlocks)}
	kernelNodeParams = cudart.KernelNodeParams{
		Func:         kernels.reduceFinal,
		GridDim:      cudart.Dim1(1),
		BlockDim:     cudart.Dim1(threadsPerBlock),
		KernelParams: &kernelArgs2[0],
	}
	kernelNode, err = cudart.GraphAddKernelNode(graph, &deps[0], uint64(len(deps)), &kernelNodeParams)
	sample.Check(err)

	deps = []cudart.GraphNode{kernelNode}
	memcpyParams = cudart.Memcpy3DParms{
		SrcPtr: cudart.PitchedPtr{Ptr: resultD, Pitch: 8, Xsize: 1, Ysize: 1},
		DstPtr: cudart.PitchedPtr{Ptr: unsafe.Pointer(host.result), Pitch: 8, Xsize: 1, Ysize: 1},
		Extent: cudart.Extent{Width: 8, Height: 1, Depth: 1},
		Kind:   cudart.MemcpyDeviceToHost,
	}
	memcpyNode, err = cudart.GraphAddMemcpyNode(graph, &deps[0], uint64(len(deps)), &memcpyParams)
	sample.Check(err)

	deps = []cudart.GraphNode{memcpyNode}
	// The graph keeps the Go func alive (a CUDA user object) for as long as
	// it, its clones and their execs exist: it runs on every launch.
	_, err = cudart.GraphAddHostNode(graph, &deps[0], uint64(len(deps)), host.callback)
	sample.Check(err)

	var numNodes uint64
	sample.Check(cudart.GraphGetNodes(graph, nil, &numNodes))
	fmt.Printf("\nNum of nodes in the graph created manually = %d\n", numNodes)

	launchTwice(graph, streamForGraph)
	sample.Check(cudart.StreamDestroy(streamForGraph))
	return host.verify(2 * graphLaunchIterations)
}

// launchTwice instantiates graph and a clone of it, launches each
// graphLaunchIterations times on stream, and destroys all four.
func launchTwice(graph cudart.Graph, stream cudart.Stream) {
	graphExec, err := cudart.GraphInstantiate(graph, 0)
	sample.Check(err)
	clonedGraph, err := cudart.GraphClone(graph)
	sample.Check(err)
	clonedGraphExec, err := cudart.GraphInstantiate(clonedGraph, 0)
	sample.Check(err)

	for range graphLaunchIterations {
		sample.Check(cudart.GraphLaunch(graphExec, stream))
	}
	sample.Check(cudart.StreamSynchronize(stream))

	fmt.Println("Cloned Graph Output.. ")
	for range graphLaunchIterations {
		sample.Check(cudart.GraphLaunch(clonedGraphExec, stream))
	}
	sample.Check(cudart.StreamSynchronize(stream))

	sample.Check(cudart.GraphExecDestroy(graphExec))
	sample.Check(cudart.GraphExecDestroy(clonedGraphExec))
	sample.Check(cudart.GraphDestroy(graph))
	sample.Check(cudart.GraphDestroy(clonedGraph))
}

func cudaGraphsUsingStreamCapture(inputVecH, inputVecD, outputVecD, resultD unsafe.Pointer, inputSize, numOfBlocks uint64, want float64) bool {
	var streams [4]cudart.Stream // stream1, stream2, stream3, streamForGraph
	for i := range streams {
		s, err := cudart.StreamCreate()
		sample.Check(err)
		streams[i] = s
	}
	stream1, stream2, stream3, streamForGraph := streams[0], streams[1], streams[2], streams[3]
	var events [3]cudart.Event // forkStreamEvent, memsetEvent1, memsetEvent2
	for i := range events {
		e, err := cudart.EventCreate()
		sample.Check(err)
		events[i] = e
	}
	forkStreamEvent, memsetEvent1, memsetEvent2 := events[0], events[1], events[2]
	host := newHostCheck("cudaGraphsUsingStreamCapture", want)
	defer host.free()

	sample.Check(cudart.StreamBeginCapture(stream1, cudart.StreamCaptureModeGlobal))

	sample.Check(cudart.EventRecord(forkStreamEvent, stream1))
	sample.Check(cudart.StreamWaitEvent(stream2, forkStreamEvent, 0))
	sample.Check(cudart.StreamWaitEvent(stream3, forkStreamEvent, 0))

	sample.Check(cudart.MemcpyAsync(inputVecD, inputVecH, 4*inputSize, cudart.MemcpyDefault, stream1))
	sample.Check(cudart.MemsetAsync(outputVecD, 0, 8*numOfBlocks, stream2))
	sample.Check(cudart.EventRecord(memsetEvent1, stream2))
	sample.Check(cudart.MemsetAsync(resultD, 0, 8, stream3))
	sample.Check(cudart.EventRecord(memsetEvent2, stream3))

	sample.Check(cudart.StreamWaitEvent(stream1, memsetEvent1, 0))
	args := []unsafe.Pointer{unsafe.Pointer(&inputVecD), unsafe.Pointer(&outputVecD), unsafe.Pointer(&inputSize), unsafe.Pointer(&numOfBlocks)}
	sample.Check(cudart.LaunchKernel(kernels.reduce, cudart.Dim1(uint32(numOfBlocks)), cudart.Dim1(threadsPerBlock), args, 0, stream1))

	sample.Check(cudart.StreamWaitEvent(stream1, memsetEvent2, 0))
	args2 := []unsafe.Pointer{unsafe.Pointer(&outputVecD), unsafe.Pointer(&resultD), unsafe.Pointer(&numOfBlocks)}
	sample.Check(cudart.LaunchKernel(kernels.reduceFinal, cudart.Dim1(1), cudart.Dim1(threadsPerBlock), args2, 0, stream1))
	sample.Check(cudart.MemcpyAsync(unsafe.Pointer(host.result), resultD, 8, cudart.MemcpyDefault, stream1))

	// Captured, cudaLaunchHostFunc becomes a host node that the graph runs on
	// every launch: the package keeps the Go func alive with a user object of
	// the capture graph, so it runs on all 6 launches of the graph and its
	// clone.
	sample.Check(cudart.LaunchHostFunc(stream1, host.callback))
	graph, err := cudart.StreamEndCapture(stream1)
	sample.Check(err)

	var numNodes uint64
	sample.Check(cudart.GraphGetNodes(graph, nil, &numNodes))
	fmt.Printf("\nNum of nodes in the graph created using stream capture API = %d\n", numNodes)

	launchTwice(graph, streamForGraph)
	for _, e := range events {
		sample.Check(cudart.EventDestroy(e))
	}
	for _, s := range streams {
		sample.Check(cudart.StreamDestroy(s))
	}
	return host.verify(2 * graphLaunchIterations)
}

func main() {
	// The runtime's current device belongs to the OS thread.
	runtime.LockOSThread()
	os.Exit(run())
}

func run() int {
	const size = 1 << 24 // number of elements to reduce
	const maxBlocks = 512

	sample.FindCudaDevice()
	fmt.Printf("%d elements\n", size)
	fmt.Printf("threads per block  = %d\n", threadsPerBlock)
	fmt.Printf("Graph Launch iterations = %d\n", graphLaunchIterations)

	image := append([]byte(kernelPTX), 0) // NUL-terminated for the runtime
	lib, err := sample.LoadLibrary(image)
	sample.Check(err)
	kernels.reduce, err = lib.Kernel("reduce")
	sample.Check(err)
	kernels.reduceFinal, err = lib.Kernel("reduceFinal")
	sample.Check(err)

	inputVecH, err := cudart.MallocHost(4 * size)
	sample.Check(err)
	inputVecD, err := cudart.Malloc(4 * size)
	sample.Check(err)
	outputVecD, err := cudart.Malloc(8 * maxBlocks)
	sample.Check(err)
	resultD, err := cudart.Malloc(8)
	sample.Check(err)

	// The sample's init_input: (rand() & 0xFF) / (float)RAND_MAX; the sum of
	// the floats, in double, is what the graphs must print.
	in := unsafe.Slice((*float32)(inputVecH), size)
	rng := sample.NewCRand(1)
	want := 0.0
	for i := range in {
		in[i] = float32(rng.Int()&0xFF) / float32(sample.RandMax)
		want += float64(in[i])
	}

	ok := cudaGraphsManual(inputVecH, inputVecD, outputVecD, resultD, size, maxBlocks, want)
	ok = cudaGraphsUsingStreamCapture(inputVecH, inputVecD, outputVecD, resultD, size, maxBlocks, want) && ok

	sample.Check(cudart.Free(inputVecD))
	sample.Check(cudart.Free(outputVecD))
	sample.Check(cudart.Free(resultD))
	sample.Check(cudart.FreeHost(inputVecH))
	sample.Check(lib.Unload())
	if !ok {
		return 1
	}
	return 0
}
