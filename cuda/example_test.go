// The Examples print what the GPU computes: TestMain leaves them out where
// no GPU is (cugentest.RunExamplesOnGPU), so go test compiles them
// everywhere and runs them, checking their Output, on a GPU machine.

package cuda_test

import (
	_ "embed"
	"fmt"
	"os"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cugentest"
)

func TestMain(m *testing.M) {
	os.Exit(cugentest.RunExamplesOnGPU(m, cuda.DeviceCount))
}

// scalePTX holds scale(float a, float *x, int n): x[i] = a*x[i].
//
//go:embed testdata/scale.ptx
var scalePTX []byte

var (
	//go:embed testdata/link/caller.ptx
	callerPTX []byte // callTwice(int *p): *p = twice(*p), twice external
	//go:embed testdata/link/callee.ptx
	calleePTX []byte // twice(int x) = 2x
)

// scaleKernel loads scalePTX into ctx.
func scaleKernel(ctx *cuda.Context) (*cuda.Module, *cuda.Kernel, error) {
	m, err := ctx.LoadModule(scalePTX)
	if err != nil {
		return nil, nil, err
	}
	k, err := m.Kernel("scale")
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	return m, k, nil
}

func ExampleNewContext() {
	ctx, err := cuda.NewContext(0) // device 0's primary context
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	fmt.Println("device", ctx.Device().Ordinal())
	// Output: device 0
}

func ExampleAllocFrom() {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	b, err := cuda.AllocFrom(ctx, []float32{1, 2, 3, 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	if err := b.Slice(1, 3).Fill(9); err != nil { // elements 1 and 2
		fmt.Println(err)
		return
	}
	out := make([]float32, b.Len())
	if err := b.CopyTo(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output: [1 9 9 4]
}

func ExampleKernel_Launch() {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	m, scale, err := scaleKernel(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	x, err := cuda.AllocFrom(ctx, []float32{1, 2, 3, 4, 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer x.Close()
	// scale(2, x, 5) on enough blocks of 256 threads for 5 elements; the
	// arguments are checked against the kernel's parameters.
	if err := scale.Launch(cuda.ForN(x.Len(), 256), float32(2), x, int32(x.Len())); err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float32, x.Len())
	if err := x.CopyTo(out); err != nil { // waits for the launch
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output: [2 4 6 8 10]
}

func ExampleContext_NewStream() {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	m, scale, err := scaleKernel(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	s, err := ctx.NewStream()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	x, err := cuda.Alloc[float32](ctx, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer x.Close()
	// Copy in, scale and copy out, queued in order on s; the Go slices
	// stay pinned until the stream has passed the copies.
	in, out := []float32{1, 2, 3}, make([]float32, 3)
	cfg := cuda.ForN(3, 32)
	cfg.Stream = s
	if err := x.CopyFromAsync(s, in); err != nil {
		fmt.Println(err)
		return
	}
	if err := scale.Launch(cfg, float32(10), x, int32(3)); err != nil {
		fmt.Println(err)
		return
	}
	if err := x.CopyToAsync(s, out); err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output: [10 20 30]
}

func ExampleElapsed() {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	s, err := ctx.NewStream()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	start, err := ctx.NewEvent()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer start.Close()
	end, err := ctx.NewEvent()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer end.Close()
	x, err := cuda.Alloc[float32](ctx, 1<<20)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer x.Close()
	// Time a fill of 4 MiB on the GPU: events recorded around it.
	if err := start.Record(s); err != nil {
		fmt.Println(err)
		return
	}
	if err := x.FillAsync(s, 1); err != nil {
		fmt.Println(err)
		return
	}
	if err := end.Record(s); err != nil {
		fmt.Println(err)
		return
	}
	if err := end.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	d, err := cuda.Elapsed(start, end)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("measured:", d >= 0)
	// Output: measured: true
}

func ExampleStream_BeginCapture() {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	m, scale, err := scaleKernel(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	s, err := ctx.NewStream()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	x, err := cuda.AllocFrom(ctx, []float32{1, 2, 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer x.Close()
	// Capture two launches into a graph instead of running them; then run
	// the graph three times: x is scaled by 2·3, three times.
	if err := s.BeginCapture(); err != nil {
		fmt.Println(err)
		return
	}
	cfg := cuda.ForN(3, 32)
	cfg.Stream = s
	for _, a := range []float32{2, 3} {
		if err := scale.Launch(cfg, a, x, int32(3)); err != nil {
			fmt.Println(err)
			return
		}
	}
	g, err := s.EndCapture()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()
	exec, err := g.Instantiate()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer exec.Close()
	for range 3 {
		if err := exec.Launch(s); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := s.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float32, 3)
	if err := x.CopyTo(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output: [216 432 648]
}

func ExampleAllocFromPool() {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	s, err := ctx.NewStream()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	pool, err := ctx.NewMemPool(cuda.MemPoolOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()
	// Stream-ordered memory: allocated, used and freed in s's order.
	b, err := cuda.AllocFromPool[int32](pool, s, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	out := make([]int32, 4)
	if err := b.FillAsync(s, 7); err != nil {
		fmt.Println(err)
		return
	}
	if err := b.CopyToAsync(s, out); err != nil {
		fmt.Println(err)
		return
	}
	if err := b.Close(); err != nil { // cuMemFreeAsync on s
		fmt.Println(err)
		return
	}
	if err := s.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output: [7 7 7 7]
}

func ExampleContext_NewStreamWith() {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	least, greatest, err := ctx.StreamPriorityRange()
	if err != nil {
		fmt.Println(err)
		return
	}
	// The highest priority the device has: lower numbers run first.
	s, err := ctx.NewStreamWith(cuda.StreamOptions{Priority: greatest, NonBlocking: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	p, err := s.Priority()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p == greatest, greatest <= least)
	// Output: true true
}

func ExampleContext_WrapStream() {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	// A stream made outside the layer (by a library, or through cu)...
	var raw cu.Stream
	if err := ctx.Do(func() (err error) {
		raw, err = cu.StreamCreate(uint32(cu.StreamNonBlocking))
		return err
	}); err != nil {
		fmt.Println(err)
		return
	}
	// ... is borrowed: Close waits for it, and its owner destroys it.
	s, err := ctx.WrapStream(raw)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := cuda.Alloc[byte](ctx, 16)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	if err := b.FillAsync(s, 1); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("owned:", s.Owned(), "close:", s.Close())
	fmt.Println("destroy:", ctx.Do(func() error { return cu.StreamDestroy(raw) }))
	// Output:
	// owned: false close: <nil>
	// destroy: <nil>
}

func ExampleContext_Link() {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	// callTwice calls twice(), an external function of another PTX
	// module: the JIT linker joins them into one cubin.
	linked, err := ctx.Link([]cuda.LinkInput{
		{Kind: cuda.LinkPTX, Data: callerPTX},
		{Kind: cuda.LinkPTX, Data: calleePTX, Name: "callee.ptx"},
	}, cuda.LinkOptions{})
	if err != nil {
		fmt.Println(err) // a *LinkError, with the linker's error log
		return
	}
	m, err := ctx.LoadModule(linked.Image)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	k, err := m.Kernel("callTwice")
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := cuda.AllocFrom(ctx, []int32{21})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	if err := k.Launch(cuda.ForN(1, 1), p); err != nil {
		fmt.Println(err)
		return
	}
	out := make([]int32, 1)
	if err := p.CopyTo(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out[0])
	// Output: 42
}

func ExampleKernel_SuggestBlockSize() {
	ctx, err := cuda.NewContext(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ctx.Close()
	m, scale, err := scaleKernel(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	// A limit above the device's maximum is an upper bound, as in CUDA.
	block, minGrid, err := scale.SuggestBlockSize(0, 1000000)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(block > 0 && block <= 1024 && block%32 == 0, minGrid > 0)
	// Output: true true
}
