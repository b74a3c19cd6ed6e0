package cuda

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cugentest"
)

// testPTX holds saxpy(float a, const float *x, float *y, int n):
// y[i] = a*x[i] + y[i] (a 4-byte parameter, then two 8-aligned pointers:
// offsets 0, 8, 16, 24), and empty() for the launch benchmark.
const testPTX = `
.version 7.0
.target sm_52
.address_size 64

.visible .entry saxpy(.param .f32 a, .param .u64 px, .param .u64 py, .param .s32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .f32 %f<5>;
	.reg .b64 %rd<8>;

	ld.param.f32 %f1, [a];
	ld.param.u64 %rd1, [px];
	ld.param.u64 %rd2, [py];
	ld.param.s32 %r2, [n];
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ntid.x;
	mov.u32 %r5, %tid.x;
	mad.lo.s32 %r1, %r4, %r3, %r5;
	setp.ge.s32 %p1, %r1, %r2;
	@%p1 bra DONE;
	cvta.to.global.u64 %rd3, %rd1;
	cvta.to.global.u64 %rd4, %rd2;
	mul.wide.s32 %rd5, %r1, 4;
	add.s64 %rd6, %rd3, %rd5;
	add.s64 %rd7, %rd4, %rd5;
	ld.global.f32 %f2, [%rd6];
	ld.global.f32 %f3, [%rd7];
	fma.rn.f32 %f4, %f1, %f2, %f3;
	st.global.f32 [%rd7], %f4;
DONE:
	ret;
}

.visible .entry empty()
{
	ret;
}
`

// gpuContext returns device 0's context. Without a driver or a device it
// skips the test, or fails it (cugentest.NeedDevice); any other error of
// NewContext fails it.
func gpuContext(tb testing.TB) *Context {
	tb.Helper()
	c, err := NewContext(0)
	cugentest.NeedDevice(tb, err)
	tb.Cleanup(func() { c.Close() })
	return c
}

func gpuKernels(tb testing.TB, c *Context) (saxpy, empty *Kernel) {
	tb.Helper()
	m, err := c.LoadModule([]byte(testPTX))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { m.Close() })
	if saxpy, err = m.Kernel("saxpy"); err != nil {
		tb.Fatal(err)
	}
	if empty, err = m.Kernel("empty"); err != nil {
		tb.Fatal(err)
	}
	return saxpy, empty
}

func checkSaxpy(t *testing.T, a float32, x, y0, y []float32) {
	t.Helper()
	for i := range y {
		if want := a*x[i] + y0[i]; math.Abs(float64(y[i]-want)) > 1e-5 {
			t.Fatalf("y[%d] = %v, want %v", i, y[i], want)
		}
	}
}

func TestGPUSaxpy(t *testing.T) {
	c := gpuContext(t)
	saxpy, _ := gpuKernels(t, c)
	params, known := saxpy.Params()
	t.Logf("saxpy's parameters from the driver: %v (known %v)", params, known)
	if known && fmt.Sprint(params) != "[{0 4} {8 8} {16 8} {24 4}]" {
		t.Errorf("saxpy's parameters: %v", params)
	}
	const n = 100003
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(2*i)
	}
	dx, err := AllocFrom(c, x)
	if err != nil {
		t.Fatal(err)
	}
	defer dx.Close()
	dy, err := AllocFrom(c, y)
	if err != nil {
		t.Fatal(err)
	}
	defer dy.Close()
	if err := saxpy.Launch(ForN(n, 256), float32(3), dx, dy, int32(n)); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, n)
	if err := dy.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	checkSaxpy(t, 3, x, y, got)

	// The driver's parameter info catches what Go's types alone cannot.
	if known {
		err := saxpy.Launch(ForN(n, 256), float32(3), dx, dy, n)
		var ae *ArgError
		if !errors.As(err, &ae) || ae.Index != 3 {
			t.Errorf("int for a C int: %v", err)
		}
		if err := saxpy.Launch(ForN(n, 256), float32(3), dx, dy); err == nil || !strings.Contains(err.Error(), "takes 4 arguments, got 3") {
			t.Errorf("3 arguments for 4: %v", err)
		}
	}
}

func TestGPUAsyncWait(t *testing.T) {
	c := gpuContext(t)
	saxpy, _ := gpuKernels(t, c)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 1 << 20
	hx, err := AllocHost[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer hx.Close()
	x, y := hx.Slice(), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i%1000), 1
	}
	dx, err := Alloc[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer dx.Close()
	dy, err := Alloc[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer dy.Close()
	got := make([]float32, n)
	for round := range 3 {
		if err := dx.CopyFromHostAsync(s, hx); err != nil {
			t.Fatal(err)
		}
		if err := dy.CopyFromAsync(s, y); err != nil {
			t.Fatal(err)
		}
		if err := saxpy.Launch(ForN(n, 256).On(s), float32(round), dx, dy, int32(n)); err != nil {
			t.Fatal(err)
		}
		if err := dy.CopyToAsync(s, got); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := s.Wait(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		checkSaxpy(t, float32(round), x, y, got)
		s.st.mu.Lock()
		pending := len(s.st.pending)
		s.st.mu.Unlock()
		if pending != 0 {
			t.Fatalf("after Wait, %d copies still hold Go memory", pending)
		}
	}
	// A Wait whose context has ended returns at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Wait(ctx); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
}

// TestGPUWaitWithLaterWork: Wait returns nil once the work queued before it
// is done, though work queued after it still runs (a host function blocked
// on a channel); it once returned cuStreamQuery's CUDA_ERROR_NOT_READY.
func TestGPUWaitWithLaterWork(t *testing.T) {
	c := gpuContext(t)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	gate1, gate2 := make(chan struct{}), make(chan struct{})
	if err := s.HostFunc(func() { <-gate1 }); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Wait(context.Background()) }()
	time.Sleep(100 * time.Millisecond) // Wait has queued its host function
	if err := s.HostFunc(func() { <-gate2 }); err != nil {
		t.Fatal(err)
	}
	close(gate1)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Wait with later work still queued: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("Wait did not return")
	}
	if idle, err := s.Query(); err != nil || idle {
		t.Errorf("Query with the second host function blocked: idle %v, %v; want false, nil", idle, err)
	}
	close(gate2)
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
}

func TestGPUMemory(t *testing.T) {
	c := gpuContext(t)
	b, err := Alloc[uint32](c, 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Fill(0xabcd1234); err != nil {
		t.Fatal(err)
	}
	if err := b.Slice(100, 200).Zero(); err != nil {
		t.Fatal(err)
	}
	got := make([]uint32, 1000)
	if err := b.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		want := uint32(0xabcd1234)
		if i >= 100 && i < 200 {
			want = 0
		}
		if v != want {
			t.Fatalf("[%d] = %#x, want %#x", i, v, want)
		}
	}
	d, err := Alloc[uint32](c, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.CopyFromBuffer(b.Slice(150, 250)); err != nil {
		t.Fatal(err)
	}
	part := make([]uint32, 100)
	if err := d.CopyTo(part); err != nil {
		t.Fatal(err)
	}
	if part[49] != 0 || part[50] != 0xabcd1234 {
		t.Fatalf("device-to-device copy of a view: %#x %#x", part[49], part[50])
	}
	type f64 = float64
	e, err := Alloc[f64](c, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.Fill(0); err != nil {
		t.Fatal(err)
	}
	if err := e.Fill(1.5); err == nil {
		t.Error("Fill(1.5) of float64: no error (its 8 bytes do not repeat)")
	}
}

func TestGPUEvents(t *testing.T) {
	c := gpuContext(t)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start, err := c.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer start.Close()
	end, err := c.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer end.Close()
	b, err := Alloc[byte](c, 256<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := start.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := b.FillAsync(s, 7); err != nil {
		t.Fatal(err)
	}
	if err := end.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := end.Synchronize(); err != nil {
		t.Fatal(err)
	}
	d, err := Elapsed(start, end)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("memset of 256 MB: %v", d)
	if d <= 0 || d > 10*time.Second {
		t.Errorf("elapsed %v", d)
	}
}

// TestGPUGoroutines uses one context from many goroutines, none of them
// locked to a thread.
func TestGPUGoroutines(t *testing.T) {
	c := gpuContext(t)
	saxpy, _ := gpuKernels(t, c)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			const n = 4096
			x, y := make([]float32, n), make([]float32, n)
			for i := range x {
				x[i], y[i] = float32(g), float32(i)
			}
			for range 20 {
				dx, err := AllocFrom(c, x)
				if err != nil {
					errs <- err
					return
				}
				dy, err := AllocFrom(c, y)
				if err != nil {
					errs <- err
					return
				}
				runtime.Gosched()
				if err := saxpy.Launch(ForN(n, 128), float32(2), dx, dy, int32(n)); err != nil {
					errs <- err
					return
				}
				got := make([]float32, n)
				if err := dy.CopyTo(got); err != nil {
					errs <- err
					return
				}
				for i := range got {
					if got[i] != 2*float32(g)+float32(i) {
						errs <- fmt.Errorf("goroutine %d: y[%d] = %v", g, i, got[i])
						return
					}
				}
				dx.Close()
				dy.Close()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestGPUCloseFirst closes the context before its buffer: the buffer stays
// usable, and its Free releases the context.
func TestGPUCloseFirst(t *testing.T) {
	gpuContext(t) // skips without a GPU
	c, err := NewContext(0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := AllocFrom(c, []int32{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	got := make([]int32, 3)
	if err := b.CopyTo(got); err != nil || got[2] != 3 {
		t.Fatalf("after Close: %v %v", got, err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.CopyTo(got); !errors.Is(err, ErrFreed) {
		t.Fatalf("after Free: %v", err)
	}
}

func TestGPUModuleErrors(t *testing.T) {
	c := gpuContext(t)
	_, err := c.LoadModule([]byte(".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry bad() { bogus.instruction; }\n"))
	if err == nil {
		t.Fatal("bad PTX loaded")
	}
	t.Logf("bad PTX: %v", err)
	if !strings.Contains(err.Error(), "loading a PTX module") || !strings.Contains(err.Error(), "\n") {
		t.Errorf("no JIT log in the error: %v", err)
	}
	m, err := c.LoadModule([]byte(testPTX))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Kernel("nosuch"); !errors.Is(err, cu.ErrorNotFound) {
		t.Errorf("missing kernel: %v", err)
	}
	k, err := m.Kernel("empty")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := k.Launch(Config{}); !errors.Is(err, ErrFreed) {
		t.Errorf("launch after Unload: %v", err)
	}
}

// TestGPULibrary launches a context-independent kernel (cuLibrary*): the
// stream it is launched on picks the context.
func TestGPULibrary(t *testing.T) {
	c := gpuContext(t)
	lib, err := LoadLibrary([]byte(testPTX))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	saxpy, err := lib.Kernel("saxpy")
	if err != nil {
		t.Fatal(err)
	}
	params, known := saxpy.Params()
	t.Logf("library saxpy's parameters: %v (known %v)", params, known)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	x, y := []float32{1, 2, 3}, []float32{10, 20, 30}
	dx, err := AllocFrom(c, x)
	if err != nil {
		t.Fatal(err)
	}
	defer dx.Close()
	dy, err := AllocFrom(c, y)
	if err != nil {
		t.Fatal(err)
	}
	defer dy.Close()
	if err := saxpy.Launch(ForN(3, 32), float32(2), dx, dy, int32(3)); err == nil || !strings.Contains(err.Error(), "set Config.Stream") {
		t.Errorf("library kernel without a stream: %v", err)
	}
	if err := saxpy.Launch(ForN(3, 32).On(s), float32(2), dx, dy, int32(3)); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, 3)
	if err := dy.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	checkSaxpy(t, 2, x, y, got)
	if err := lib.Close(); err != nil {
		t.Fatal(err)
	}
	if err := saxpy.Launch(ForN(3, 32).On(s), float32(2), dx, dy, int32(3)); !errors.Is(err, ErrFreed) {
		t.Errorf("launch after Unload: %v", err)
	}
}

// TestGPUGraphCapture captures copies from and to pinned HostBuffers, a
// launch and a Go host function into a graph, drops everything but the
// instance, and launches it three times: the host function runs on every
// launch and the buffers stay alive.
func TestGPUGraphCapture(t *testing.T) { testGraphCapture(t, false) }

// TestGPUGraphCaptureGoMemory is TestGPUGraphCapture with Go slices, which
// the graph keeps pinned.
func TestGPUGraphCaptureGoMemory(t *testing.T) { testGraphCapture(t, true) }

func testGraphCapture(t *testing.T, goMemory bool) {
	c := gpuContext(t)
	saxpy, _ := gpuKernels(t, c)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 1000
	hx, err := AllocHost[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	hgot, err := AllocHost[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	x, y, got := hx.Slice(), make([]float32, n), hgot.Slice()
	if goMemory {
		x, got = make([]float32, n), make([]float32, n)
	}
	for i := range x {
		x[i], y[i] = float32(i), 1
	}
	dx, err := Alloc[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer dx.Close()
	dy, err := Alloc[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer dy.Close()
	var calls atomic.Int32
	if err := s.BeginCapture(); err != nil {
		t.Fatal(err)
	}
	copyIn := func() error { return dx.CopyFromHostAsync(s, hx) }
	copyOut := func() error { return dy.CopyToHostAsync(s, hgot) }
	if goMemory {
		copyIn = func() error { return dx.CopyFromAsync(s, x) }
		copyOut = func() error { return dy.CopyToAsync(s, got) }
	}
	steps := []func() error{
		copyIn,
		func() error { return dy.CopyFromAsync(s, y) }, // Go memory in both
		func() error { return saxpy.Launch(ForN(n, 128).On(s), float32(3), dx, dy, int32(n)) },
		copyOut,
		func() error { return s.HostFunc(func() { calls.Add(1) }) },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			s.EndCapture()
			t.Fatalf("step %d of the capture: %v", i, err)
		}
	}
	g, err := s.EndCapture()
	if err != nil {
		t.Fatal(err)
	}
	exec, err := g.Instantiate()
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Close()
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	hx, hgot = nil, nil // the graph keeps them
	for round := range 3 {
		runtime.GC()
		clear(got)
		if err := exec.Launch(s); err != nil {
			t.Fatal(err)
		}
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
		checkSaxpy(t, 3, x, y, got)
		if n := calls.Load(); n != int32(round+1) {
			t.Fatalf("after %d launches the host function ran %d times", round+1, n)
		}
	}
}

// TestGPUModuleFromSource compiles CUDA C++ with NVRTC for the device
// (a cubin for sm_90 with this NVRTC) and runs an extern "C" kernel and a
// template found by its name expression.
func TestGPUModuleFromSource(t *testing.T) {
	c := gpuContext(t)
	needNVRTC(t)
	m, err := c.ModuleFromSource(Source{
		Code:            vecAddSource,
		Headers:         map[string]string{"scale.h": "#define SCALE 2.0f\n"},
		NameExpressions: []string{"fill<double>"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	vecAdd, err := m.Kernel("vecAdd")
	if err != nil {
		t.Fatal(err)
	}
	fill, err := m.Kernel("fill<double>")
	if err != nil {
		t.Fatal(err)
	}
	const n = 5000
	a, b := make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), 0.5
	}
	da, err := AllocFrom(c, a)
	if err != nil {
		t.Fatal(err)
	}
	defer da.Close()
	db, err := AllocFrom(c, b)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dc, err := Alloc[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	if err := vecAdd.Launch(ForN(n, 0), da, db, dc, int32(n)); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, n)
	if err := dc.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != 2*(a[i]+b[i]) {
			t.Fatalf("c[%d] = %v, want %v", i, got[i], 2*(a[i]+b[i]))
		}
	}
	dd, err := Alloc[float64](c, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer dd.Close()
	if err := fill.Launch(ForN(10, 32), dd, 2.5, int32(10)); err != nil {
		t.Fatal(err)
	}
	f := make([]float64, 10)
	if err := dd.CopyTo(f); err != nil {
		t.Fatal(err)
	}
	if f[9] != 2.5 {
		t.Fatalf("fill<double>: %v", f)
	}
}

// TestGPUPeerCopy copies between buffers of two devices (cuMemcpyPeer and
// cuMemcpyPeerAsync); it needs two GPUs.
func TestGPUPeerCopy(t *testing.T) {
	c0 := gpuContext(t)
	n, err := DeviceCount()
	cugentest.NeedDevice(t, err)
	cugentest.SkipFewGPUs(t, 2, n)
	c1, err := NewContext(1)
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	src := make([]int64, 1<<20)
	for i := range src {
		src[i] = int64(i) * 3
	}
	a, err := AllocFrom(c0, src)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Alloc[int64](c1, len(src))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.CopyFromBuffer(a); err != nil {
		t.Fatal(err)
	}
	got := make([]int64, len(src))
	if err := b.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	if got[len(got)-1] != src[len(src)-1] || got[1] != 3 {
		t.Fatalf("peer copy: %d %d", got[1], got[len(got)-1])
	}
	s1, err := c1.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	if err := b.Zero(); err != nil {
		t.Fatal(err)
	}
	if err := b.CopyFromBufferAsync(s1, a); err != nil {
		t.Fatal(err)
	}
	if err := b.CopyToAsync(s1, got); err != nil {
		t.Fatal(err)
	}
	if err := s1.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if got[len(got)-1] != src[len(src)-1] {
		t.Fatalf("async peer copy: %d", got[len(got)-1])
	}
}

// BenchmarkLaunchInterleaved launches the 4-argument saxpy (n = 0: no
// work) through Kernel.Launch and through cu.LaunchKernel with a prebuilt
// argument array, in alternating blocks of 1000 that each wait for their
// kernels; it reports both and the layer's rate as a share of the raw.
func BenchmarkLaunchInterleaved(b *testing.B) {
	layer, direct := saxpyLaunchWays(b)
	b.ReportAllocs()
	times, rawTimes := cugentest.Interleave(b, layer, direct)
	tl, tr := times.Total(), rawTimes.Total()
	b.ReportMetric(float64(tl.Nanoseconds())/float64(b.N*overheadBlock), "layer-ns/launch")
	b.ReportMetric(float64(tr.Nanoseconds())/float64(b.N*overheadBlock), "raw-ns/launch")
	b.ReportMetric(100*float64(tr)/float64(tl), "layer-rate-%-of-raw")
}

// BenchmarkLaunchLayer is Kernel.Launch alone, for allocs/op.
func BenchmarkLaunchLayer(b *testing.B) {
	_, s, saxpy, _, x := saxpySetup(b)
	cfg := Config{Stream: s}
	alpha, n := float32(1), int32(0)
	b.ReportAllocs()
	for i := range b.N {
		if err := saxpy.Launch(cfg, alpha, x, x, n); err != nil {
			b.Fatal(err)
		}
		if i%1000 == 999 {
			s.Synchronize()
		}
	}
	s.Synchronize()
}

// BenchmarkCopyInterleaved copies 256 MB from pinned host memory to the
// device through Buffer.CopyFrom and through cu.MemcpyHtoD, alternating.
func BenchmarkCopyInterleaved(b *testing.B) {
	c := gpuContext(b)
	const n = 64 << 20 // float32s: 256 MB
	h, err := AllocHost[float32](c, n)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	d, err := Alloc[float32](c, n)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	src := h.Slice()
	layer := func() {
		if err := d.CopyFrom(src); err != nil {
			b.Fatal(err)
		}
	}
	direct := func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cu.CtxSetCurrent(c.Raw())
		if err := cu.MemcpyHtoD(d.Ptr(), h.Ptr(), n*4); err != nil {
			b.Fatal(err)
		}
	}
	times, rawTimes := cugentest.Interleave(b, layer, direct)
	tl, tr := times.Total(), rawTimes.Total()
	gb := float64(n*4) * float64(b.N) / 1e9
	b.ReportMetric(gb/tl.Seconds(), "layer-GB/s")
	b.ReportMetric(gb/tr.Seconds(), "raw-GB/s")
	b.ReportMetric(100*float64(tr)/float64(tl), "layer-%-of-raw")
	runtime.KeepAlive(h)
}

// BenchmarkBind is the cost of a call through the layer that only binds
// the context, as the layer's own calls do (remembered per thread: no
// cuCtxGetCurrent after the first); BenchmarkDo is Context.Do, which runs
// foreign code and so checks every time.
func BenchmarkBind(b *testing.B) {
	c := gpuContext(b)
	b.ReportAllocs()
	for range b.N {
		c.do(func(*ctxState) error { return nil })
	}
}

func BenchmarkDo(b *testing.B) {
	c := gpuContext(b)
	b.ReportAllocs()
	for range b.N {
		c.Do(func() error { return nil })
	}
}

// TestGPUAllocAsync allocates stream-ordered buffers, moves data through
// them on the stream and frees them on it, many times: the data arrives and
// the default pool's memory in use returns to where it was.
func TestGPUAllocAsync(t *testing.T) {
	c := gpuContext(t)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pool, err := c.DefaultMemPool()
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	before, err := pool.Stats()
	if err != nil {
		t.Fatal(err)
	}
	const n = 1 << 16
	src := make([]int32, n)
	for round := range 50 {
		for i := range src {
			src[i] = int32(i*7 + round)
		}
		a, err := AllocAsync[int32](s, n)
		if err != nil {
			t.Fatal(err)
		}
		b, err := AllocAsync[int32](s, n+round) // sizes vary
		if err != nil {
			t.Fatal(err)
		}
		if err := a.CopyFromAsync(s, src); err != nil {
			t.Fatal(err)
		}
		if err := b.Slice(0, n).CopyFromBufferAsync(s, a); err != nil {
			t.Fatal(err)
		}
		if err := a.Close(); err != nil { // freed in order, after the copy
			t.Fatal(err)
		}
		dst := make([]int32, n)
		if err := b.Slice(0, n).CopyToAsync(s, dst); err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
		for i, v := range dst {
			if v != src[i] {
				t.Fatalf("round %d: dst[%d] = %d, want %d", round, i, v, src[i])
			}
		}
	}
	after, err := pool.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if after.Used != before.Used || after.UsedHigh < before.Used+2*n*4 {
		t.Errorf("default pool before %+v, after %+v: the memory in use should return", before, after)
	}
	// A buffer whose stream was closed first is freed synchronously.
	s2, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	x, err := AllocAsync[float32](s2, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.FillAsync(s2, 1.5); err != nil {
		t.Fatal(err)
	}
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, 1000)
	if err := x.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	if got[999] != 1.5 {
		t.Errorf("got[999] = %v", got[999])
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestGPUMemPool makes a pool, allocates from it, checks the data, its
// statistics, release threshold and trim, and peer access with two GPUs.
func TestGPUMemPool(t *testing.T) {
	c := gpuContext(t)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, err := c.NewMemPool(MemPoolOptions{ReleaseThreshold: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if v, err := p.ReleaseThreshold(); err != nil || v != 1<<20 {
		t.Fatalf("ReleaseThreshold %d, %v", v, err)
	}
	const n = 1 << 20 // int32s: 4 MiB
	x, err := AllocFromPool[int32](p, s, n)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.FillAsync(s, 7); err != nil {
		t.Fatal(err)
	}
	got := make([]int32, n)
	if err := x.CopyToAsync(s, got); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if got[0] != 7 || got[n-1] != 7 {
		t.Fatalf("got %d, %d, want 7", got[0], got[n-1])
	}
	st, err := p.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Used < n*4 || st.Reserved < st.Used || st.UsedHigh < st.Used || st.ReservedHigh < st.Reserved {
		t.Errorf("stats with 4 MiB allocated: %+v", st)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if st, _ = p.Stats(); st.Used != 0 {
		t.Errorf("used after the free: %+v", st)
	}
	if err := p.Trim(0); err != nil {
		t.Fatal(err)
	}
	if st, _ = p.Stats(); st.Reserved != 0 {
		t.Errorf("reserved after Trim(0): %+v", st)
	}
	if err := p.SetReleaseThreshold(math.MaxUint64); err != nil {
		t.Fatal(err)
	}
	if v, _ := p.ReleaseThreshold(); v != math.MaxUint64 {
		t.Errorf("ReleaseThreshold %d after setting the maximum", v)
	}
	if n, _ := DeviceCount(); n >= 2 {
		c1, err := NewContext(1)
		if err != nil {
			t.Fatal(err)
		}
		defer c1.Close()
		if ok, _ := cu.DeviceCanAccessPeer(c1.Device().Raw(), c.Device().Raw()); ok != 0 {
			if err := p.SetPeerAccess(c1, true); err != nil {
				t.Fatal(err)
			}
			if err := p.SetPeerAccess(c1, false); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := AllocFromPool[int32](p, s, 1); !errors.Is(err, ErrFreed) {
		t.Errorf("AllocFromPool after Close: %v", err)
	}
}

// BenchmarkAllocAsyncMixed allocates and frees 100k buffers of mixed sizes
// (256 B to 64 MiB, log-uniform, the same seeded list for both) on one
// stream, 16 live at a time, through AllocAsync and Close (layer) and
// through cu.MemAllocAsync and cu.MemFreeAsync (raw); one op is the 100k
// pairs and a stream synchronisation. Run it with -count to interleave the
// two in one process.
func BenchmarkAllocAsyncMixed(b *testing.B) {
	c := gpuContext(b)
	s, err := c.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	const pairs, live = 100_000, 16
	sizes := make([]int, pairs)
	rng := uint64(1)
	for i := range sizes {
		rng = rng*6364136223846793005 + 1442695040888963407
		sizes[i] = 256 << (rng >> 33 % 19) // 256 B .. 64 MiB
	}
	b.Run("layer", func(b *testing.B) {
		var ring [live]*Buffer[byte]
		b.ReportAllocs()
		for b.Loop() {
			for i, n := range sizes {
				if x := ring[i%live]; x != nil {
					if err := x.Close(); err != nil {
						b.Fatal(err)
					}
				}
				x, err := AllocAsync[byte](s, n)
				if err != nil {
					b.Fatal(err)
				}
				ring[i%live] = x
			}
			for i, x := range ring {
				x.Close()
				ring[i] = nil
			}
			s.Synchronize()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*pairs), "ns/pair")
	})
	b.Run("raw", func(b *testing.B) {
		var ring [live]cu.Deviceptr
		b.ReportAllocs()
		for b.Loop() {
			c.Do(func() error {
				for i, n := range sizes {
					if x := ring[i%live]; x != 0 {
						if err := cu.MemFreeAsync(x, s.Raw()); err != nil {
							b.Fatal(err)
						}
					}
					x, err := cu.MemAllocAsync(uint64(n), s.Raw())
					if err != nil {
						b.Fatal(err)
					}
					ring[i%live] = x
				}
				for i, x := range ring {
					cu.MemFreeAsync(x, s.Raw())
					ring[i] = 0
				}
				return cu.StreamSynchronize(s.Raw())
			})
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*pairs), "ns/pair")
	})
}

// TestGPUHostRegister page-locks two Go slices, copies one to the device and
// back into the other asynchronously, and checks the data.
func TestGPUHostRegister(t *testing.T) {
	c := gpuContext(t)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 1 << 20
	src, dst := make([]float64, n), make([]float64, n)
	for i := range src {
		src[i] = float64(i) * 0.5
	}
	gs, err := Register(c, src)
	if err != nil {
		t.Fatal(err)
	}
	gd, err := Register(c, dst)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Alloc[float64](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.CopyFromRegisteredAsync(s, gs); err != nil {
		t.Fatal(err)
	}
	if err := d.CopyToRegisteredAsync(s, gd); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for i := range dst {
		if dst[i] != src[i] {
			t.Fatalf("dst[%d] = %v, want %v", i, dst[i], src[i])
		}
	}
	// Registered memory is what the driver calls pinned host memory.
	for _, g := range []*Registered[float64]{gs, gd} {
		if err := g.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.CopyFromRegisteredAsync(s, gs); !errors.Is(err, ErrFreed) {
		t.Errorf("copy from a closed registration: %v", err)
	}
	// Registering again after Close works: the pages were unlocked.
	g, err := Register(c, src)
	if err != nil {
		t.Fatalf("Register after Close: %v", err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestGPUPitched copies a 2D array to pitched memory and back, synchronously
// and on a stream, and checks a row read at its pitch on the device.
func TestGPUPitched(t *testing.T) {
	c := gpuContext(t)
	const w, h = 1000, 37
	p, err := AllocPitched[float32](c, w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Pitch() < w*4 || p.Pitch()%256 != 0 {
		t.Errorf("pitch %d for rows of %d bytes", p.Pitch(), w*4)
	}
	src := make([]float32, w*h)
	for i := range src {
		src[i] = float32(i)
	}
	if err := p.CopyFrom(src); err != nil {
		t.Fatal(err)
	}
	row := make([]float32, w)
	err = c.Do(func() error {
		return cu.MemcpyDtoH(unsafe.Pointer(&row[0]), p.Ptr()+cu.Deviceptr(5*p.Pitch()), w*4)
	})
	if err != nil {
		t.Fatal(err)
	}
	if row[0] != 5*w || row[w-1] != 6*w-1 {
		t.Errorf("row 5 at 5 pitches: %v ... %v", row[0], row[w-1])
	}
	dst := make([]float32, w*h)
	if err := p.CopyTo(dst); err != nil {
		t.Fatal(err)
	}
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q, err := AllocPitched[float32](c, w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	back := make([]float32, w*h)
	if err := q.CopyFromAsync(s, dst); err != nil {
		t.Fatal(err)
	}
	if err := q.CopyToAsync(s, back); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for i := range src {
		if back[i] != src[i] {
			t.Fatalf("back[%d] = %v, want %v", i, back[i], src[i])
		}
	}
}

// TestGPUAllocAsyncCapture closes a stream-ordered buffer while its stream
// is captured: the free waits for the capture's end instead of becoming a
// node of the graph, so the graph launches twice without freeing anything,
// and the pool's memory in use returns after the capture.
func TestGPUAllocAsyncCapture(t *testing.T) {
	c := gpuContext(t)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pool, err := c.DefaultMemPool()
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	before, _ := pool.Stats()
	x, err := AllocAsync[int32](s, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	y, err := Alloc[int32](c, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if err := s.BeginCapture(); err != nil {
		t.Fatal(err)
	}
	if err := y.FillAsync(s, 3); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	g, err := s.EndCapture()
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	e, err := g.Instantiate()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for range 2 {
		if err := e.Launch(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if after, _ := pool.Stats(); after.Used != before.Used {
		t.Errorf("default pool's use %d after the capture, %d before", after.Used, before.Used)
	}
	got := make([]int32, 1<<20)
	if err := y.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	if got[12345] != 3 {
		t.Errorf("got %d, want 3", got[12345])
	}
}
