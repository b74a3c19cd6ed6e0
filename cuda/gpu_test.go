package cuda

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

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

// gpuStream returns a new stream of c, closed when the test ends.
func gpuStream(tb testing.TB, c *Context) *Stream {
	tb.Helper()
	s, err := c.NewStream()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
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
