package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// fakeDriver stands in for the driver in the lifetime tests: it hands out
// addresses and records every free, failing the test on a double free, a
// free of something it never handed out, or a free after the context's
// release.
type fakeDriver struct {
	// driver is nil: a call the fake does not define panics, its
	// method named in the stack, and never reaches the real driver.
	driver
	t        testing.TB
	mu       sync.Mutex
	next     uint64
	live     map[uint64]bool
	host     map[unsafe.Pointer][]byte
	frees    int
	released int
	params   [][2]uint64 // what paramInfo answers: offset, size
	launches atomic.Int64
	inLaunch atomic.Int64 // launches in flight: no destroy may overlap one

	mem  fakeMem     // mempool_test.go
	vm   fakeVM      // IPC and virtual memory (ipc_test.go)
	arr  fakeArr     // array_test.go
	strm fakeStreams // streamopts_test.go
	link fakeLinker  // link_test.go
	cp   fakeCopies  // fakecopy_test.go

	quiet     bool              // launch counts nothing (the benchmarks)
	onLaunch  func()            // called during each launch
	onDestroy func(r *resource) // called before each destroy, unlocked
	ex        fakeEx            // what cuLaunchKernelEx was given (launchex_test.go)
	fakeKernelState
	gets, sets atomic.Int64 // cuCtxGetCurrent, cuCtxSetCurrent (bindcache_test.go)
	launchErr  error        // what launch returns
	needCtx    bool         // launch fails with no context current (bindcache_test.go)
}

func newFake(t testing.TB) (*fakeDriver, *Context) {
	f := &fakeDriver{t: t, next: 0x10000, live: map[uint64]bool{}, host: map[unsafe.Pointer][]byte{}}
	return f, wrapCtx(&ctxState{drv: f}, Device{})
}

// checkLive fails the test when the driver's call comes after the
// context's release.
func (f *fakeDriver) checkLive(call string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.released > 0 {
		f.t.Errorf("%s after the context's release", call)
	}
}

func (f *fakeDriver) destroy(r *resource) error {
	if f.onDestroy != nil {
		f.onDestroy(r)
	}
	if n := f.inLaunch.Load(); n > 0 {
		f.t.Errorf("%v %#x destroyed during %d launches", r.kind, r.h, n)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.frees++
	switch r.kind {
	case kindMem:
		if !f.live[r.h] {
			f.t.Errorf("free of %#x, not allocated or freed before", r.h)
		}
		delete(f.live, r.h)
		delete(f.cp.size, r.h)
		delete(f.cp.bytes, r.h)
	case kindEvent:
		delete(f.vm.events, cu.Event(r.h)) // NewEvent's: eventCreate's
	case kindHost:
		if f.host[r.p] == nil {
			f.t.Errorf("free of host memory %p, not allocated or freed before", r.p)
		}
		delete(f.host, r.p)
	case kindMemAsync, kindPool, kindHostReg:
		f.destroyMem(r)
	case kindLib:
		return destroyLib(r)
	case kindIPCMem, kindAddr, kindPhys:
		f.destroyVM(r)
	case kindArray, kindTexture, kindSurface:
		f.destroyArray(r)
	}
	return nil
}

func (f *fakeDriver) releaseContext(s *ctxState) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.released++
	if f.released > 1 {
		f.t.Errorf("context released %d times", f.released)
	}
	if n := len(f.live) + len(f.host) + f.mem.live() + f.vm.live() + f.arr.live(); n > 0 {
		f.t.Errorf("context released with %d allocations live", n)
	}
	return nil
}

func (f *fakeDriver) synchronize() error { return nil }

func (f *fakeDriver) memAlloc(bytes uint64) (cu.Deviceptr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.next
	f.next += (bytes + 255) &^ 255
	f.live[p] = true
	if f.cp.size == nil {
		f.cp.size = map[uint64]uint64{}
	}
	f.cp.size[p] = bytes
	return cu.Deviceptr(p), nil
}

func (f *fakeDriver) hostAlloc(bytes uint64) (unsafe.Pointer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := make([]byte, bytes)
	p := unsafe.Pointer(&b[0])
	f.host[p] = b
	return p, nil
}

func (f *fakeDriver) state() (live, frees, released int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.live) + len(f.host) + f.mem.live() + f.vm.live() + f.arr.live(), f.frees, f.released
}

// TestLifetimeOrders frees a buffer, a host buffer and the context in every
// order: each is freed once, the context released once, after the others.
func TestLifetimeOrders(t *testing.T) {
	orders := [][3]string{
		{"ctx", "buf", "host"}, {"buf", "ctx", "host"}, {"buf", "host", "ctx"},
		{"ctx", "host", "buf"}, {"host", "ctx", "buf"}, {"host", "buf", "ctx"},
	}
	for _, order := range orders {
		t.Run(fmt.Sprint(order), func(t *testing.T) {
			f, c := newFake(t)
			b, err := Alloc[float32](c, 100)
			if err != nil {
				t.Fatal(err)
			}
			h, err := AllocHost[int64](c, 10)
			if err != nil {
				t.Fatal(err)
			}
			for i, what := range order {
				switch what {
				case "ctx":
					err = c.Close()
				case "buf":
					err = b.Close()
				case "host":
					err = h.Close()
				}
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				_, _, released := f.state()
				if want := 0; i < 2 && released != want {
					t.Fatalf("after %v the context is released", order[:i+1])
				}
			}
			live, frees, released := f.state()
			if live != 0 || frees != 2 || released != 1 {
				t.Fatalf("live %d, frees %d, released %d; want 0, 2, 1", live, frees, released)
			}
			// Every second free is an error, and frees nothing.
			for _, err := range []error{c.Close(), b.Close(), h.Close()} {
				if err == nil {
					t.Error("a second free returned nil")
				}
			}
			if !errors.Is(b.Close(), ErrFreed) || !errors.Is(c.Close(), ErrClosed) {
				t.Error("second Free/Close: not ErrFreed/ErrClosed")
			}
			if _, frees, released := f.state(); frees != 2 || released != 1 {
				t.Fatalf("second frees reached the driver: frees %d, released %d", frees, released)
			}
		})
	}
}

// TestLifetimeCleanup drops buffers and the context without freeing them:
// the cleanups free each once and release the context last.
func TestLifetimeCleanup(t *testing.T) {
	f, c := newFake(t)
	var freed *Buffer[float32]
	func() {
		for range 10 {
			if _, err := Alloc[float32](c, 64); err != nil {
				t.Fatal(err)
			}
		}
		b, err := Alloc[float32](c, 64)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil { // freed by hand, then collected: once
			t.Fatal(err)
		}
		freed = b
		if _, err := AllocHost[byte](c, 7); err != nil {
			t.Fatal(err)
		}
	}()
	c = nil
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		live, frees, released := f.state()
		if live == 0 && released == 1 {
			if frees != 12 {
				t.Fatalf("%d frees, want 12", frees)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("cleanups did not run: live %d, released %d", live, released)
		}
		time.Sleep(time.Millisecond)
	}
	runtime.KeepAlive(freed)
}

// TestViews: a view keeps the allocation alive, cannot be freed, and fails
// with ErrFreed once its buffer is freed.
func TestViews(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	b, err := Alloc[uint16](c, 100)
	if err != nil {
		t.Fatal(err)
	}
	v := b.Slice(10, 30)
	if v.Len() != 20 || v.Ptr() != b.Ptr()+20 || v.Bytes() != 40 {
		t.Fatalf("view: len %d, ptr %#x (buffer %#x), bytes %d", v.Len(), v.Ptr(), b.Ptr(), v.Bytes())
	}
	if vv := v.Slice(5, 5); vv.Len() != 0 || vv.Ptr() != b.Ptr()+30 {
		t.Fatalf("view of a view: len %d, ptr %#x", vv.Len(), vv.Ptr())
	}
	if err := v.Close(); !errors.Is(err, ErrView) {
		t.Fatalf("Free of a view: %v, want ErrView", err)
	}
	if live, _, _ := f.state(); live != 1 {
		t.Fatal("Free of a view freed the memory")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := v.CopyFrom(make([]uint16, 20)); !errors.Is(err, ErrFreed) {
		t.Fatalf("CopyFrom a view of a freed buffer: %v, want ErrFreed", err)
	}
	if err := b.CopyTo(make([]uint16, 100)); !errors.Is(err, ErrFreed) {
		t.Fatalf("CopyTo a freed buffer: %v, want ErrFreed", err)
	}
	for _, r := range [][2]int{{-1, 2}, {3, 2}, {0, 101}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Slice(%d, %d) of 100 did not panic", r[0], r[1])
				}
			}()
			b.Slice(r[0], r[1])
		}()
	}
}

// TestMisuse: the errors a wrong call gets before any CUDA call.
func TestMisuse(t *testing.T) {
	f, c := newFake(t)
	if _, err := Alloc[*int](c, 4); err == nil {
		t.Error("Alloc[*int]: no error")
	}
	type withSlice struct {
		A int32
		B []byte
	}
	if _, err := Alloc[withSlice](c, 4); err == nil || !strings.Contains(err.Error(), "withSlice.B is a slice") {
		t.Errorf("Alloc[withSlice]: %v", err)
	}
	if _, err := AllocHost[string](c, 4); err == nil {
		t.Error("AllocHost[string]: no error")
	}
	if _, err := Alloc[float32](c, -1); err == nil {
		t.Error("Alloc of -1 elements: no error")
	}
	if _, err := Alloc[struct{}](c, 1); err == nil {
		t.Error("Alloc of a zero-size type: no error")
	}
	b, err := Alloc[float32](c, 8)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.CopyFrom(make([]float32, 7)); err == nil || !strings.Contains(err.Error(), "7 elements for a buffer of 8") {
		t.Errorf("CopyFrom 7 into 8: %v", err)
	}
	if err := b.CopyTo(make([]float32, 9)); err == nil {
		t.Error("CopyTo 9 from 8: no error")
	}
	type f3 struct{ X, Y, Z float32 }
	b3, err := Alloc[f3](c, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := b3.Fill(f3{1, 2, 3}); err == nil || !strings.Contains(err.Error(), "no repetition") {
		t.Errorf("Fill with a 12-byte non-repeating value: %v", err)
	}
	if err := b.CopyFromAsync(nil, make([]float32, 8)); err == nil || !strings.Contains(err.Error(), "nil *Stream") {
		t.Errorf("CopyFromAsync on a nil stream: %v", err)
	}
	if err := b.FillAsync(nil, 1); err == nil || !strings.Contains(err.Error(), "nil *Stream") {
		t.Errorf("FillAsync on a nil stream: %v", err)
	}
	empty, err := Alloc[float64](c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := empty.CopyFrom(nil); err != nil {
		t.Errorf("CopyFrom nil into an empty buffer: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Alloc[float32](c, 1); !errors.Is(err, ErrClosed) {
		t.Errorf("Alloc after Close: %v, want ErrClosed", err)
	}
	if _, err := c.NewStream(); !errors.Is(err, ErrClosed) {
		t.Errorf("NewStream after Close: %v, want ErrClosed", err)
	}
	for _, free := range []func() error{b.Close, b3.Close, empty.Close} {
		if err := free(); err != nil {
			t.Fatal(err)
		}
	}
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// TestPattern: which memset width writes a value's bytes.
func TestPattern(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		want int
	}{
		{[]byte{1}, 1},
		{[]byte{1, 2}, 2},
		{[]byte{7, 7}, 2},
		{[]byte{1, 2, 3, 4}, 4},
		{[]byte{0, 0, 0, 0, 0, 0, 0, 0}, 4},
		{[]byte{1, 2, 3, 4, 1, 2, 3, 4}, 4},
		{[]byte{1, 2, 1, 2, 1, 2, 1, 2}, 4},
		{[]byte{1, 2, 3, 4, 5, 6, 7, 8}, 0},
		{[]byte{1, 2, 3}, 0},
		{[]byte{5, 5, 5}, 1},
	} {
		if got := pattern(c.b); got != c.want {
			t.Errorf("pattern(%v) = %d, want %d", c.b, got, c.want)
		}
	}
}

func (f *fakeDriver) function(m cu.Module, name string) (cu.Function, error) {
	return cu.Function(0x1000), nil
}

func (f *fakeDriver) paramInfo(fn cu.Function, i uint64) (uint64, uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if i >= uint64(len(f.params)) {
		return 0, 0, cu.ErrorInvalidValue
	}
	return f.params[i][0], f.params[i][1], nil
}

func (f *fakeDriver) launch(fn cu.Function, g, b Dim3, shared uint32, s cu.Stream, pp []unsafe.Pointer) error {
	if f.quiet {
		return nil
	}
	f.checkLive("cuLaunchKernel")
	f.inLaunch.Add(1)
	defer f.inLaunch.Add(-1)
	f.launches.Add(1)
	if f.needCtx && fakeCurrent() == 0 {
		return cu.ErrorInvalidContext
	}
	if f.onLaunch != nil {
		f.onLaunch()
	}
	return f.launchErr
}

// TestDeprecatedAliases: Free and Unload are Close.
func TestDeprecatedAliases(t *testing.T) {
	f, c := newFake(t)
	b, err := Alloc[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	h, err := AllocHost[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	m := fakeModule(c)
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	if err := h.Free(); err != nil {
		t.Fatal(err)
	}
	if err := m.Unload(); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{b.Close(), h.Close(), m.Close(), b.Free(), m.Unload()} {
		if !errors.Is(err, ErrFreed) {
			t.Errorf("second release: %v, want ErrFreed", err)
		}
	}
	if err := b.Slice(0, 1).Free(); !errors.Is(err, ErrView) {
		t.Errorf("Free of a view: %v, want ErrView", err)
	}
	c.Close()
	if live, frees, released := f.state(); live != 0 || frees != 3 || released != 1 {
		t.Fatalf("live %d, frees %d, released %d", live, frees, released)
	}
}
