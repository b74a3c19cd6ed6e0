package cuda

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// fakeMem is the fake driver's stream-ordered memory, pools and registered
// host memory; fakeDriver.mu guards it.
type fakeMem struct {
	async      map[uint64]fakeAsync
	pools      map[cu.MemoryPool]map[cu.MemPoolAttribute]uint64
	reg        map[unsafe.Pointer]uint64 // registered host memory: its size
	nextPool   cu.MemoryPool
	asyncFrees []cu.Stream // the stream of each cuMemFreeAsync
	syncFrees  int         // cuMemFree of stream-ordered memory
	trims      []uint64
	access     []cu.MemAccessDesc
	managed    map[uint64][]byte      // AllocManaged's memory, kept reachable
	calls      []fakeCall             // managed-memory calls (managed_test.go)
	shared     map[cu.MemoryPool]bool // pools exported (ipc_test.go)
}

type fakeAsync struct {
	st    cu.Stream
	pool  cu.MemoryPool
	bytes uint64
}

// fakeDefaultPool is the default pool's handle in the fake.
const fakeDefaultPool cu.MemoryPool = 1

func (m *fakeMem) init() {
	if m.pools == nil {
		m.async = map[uint64]fakeAsync{}
		m.pools = map[cu.MemoryPool]map[cu.MemPoolAttribute]uint64{fakeDefaultPool: {}}
		m.reg = map[unsafe.Pointer]uint64{}
		m.managed = map[uint64][]byte{}
		m.nextPool = 2
	}
}

// live counts what the context's release would leak (the default pool
// belongs to the device).
func (m *fakeMem) live() int {
	if m.pools == nil {
		return 0
	}
	return len(m.async) + len(m.pools) - 1 + len(m.reg)
}

func (f *fakeDriver) memAllocAsync(bytes uint64, pool cu.MemoryPool, st cu.Stream) (cu.Deviceptr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mem.init()
	if pool == 0 {
		pool = fakeDefaultPool
	}
	attrs := f.mem.pools[pool]
	if attrs == nil {
		f.t.Errorf("allocation from pool %#x, not created or destroyed", pool)
		return 0, cu.ErrorInvalidValue
	}
	p := f.next
	f.next += (bytes + 255) &^ 255
	f.mem.async[p] = fakeAsync{st: st, pool: pool, bytes: bytes}
	attrs[cu.MempoolAttrUsedMemCurrent] += bytes
	attrs[cu.MempoolAttrUsedMemHigh] = max(attrs[cu.MempoolAttrUsedMemHigh], attrs[cu.MempoolAttrUsedMemCurrent])
	attrs[cu.MempoolAttrReservedMemCurrent] = max(attrs[cu.MempoolAttrReservedMemCurrent], attrs[cu.MempoolAttrUsedMemCurrent])
	attrs[cu.MempoolAttrReservedMemHigh] = max(attrs[cu.MempoolAttrReservedMemHigh], attrs[cu.MempoolAttrReservedMemCurrent])
	return cu.Deviceptr(p), nil
}

// destroyMem is the fake's destroy of the new kinds; f.mu is held.
func (f *fakeDriver) destroyMem(r *resource) {
	f.mem.init()
	switch r.kind {
	case kindMemAsync:
		a, ok := f.mem.async[r.h]
		if !ok {
			f.t.Errorf("free of stream-ordered %#x, not allocated or freed before", r.h)
			return
		}
		r.freeOn(func(st cu.Stream, async bool) error { // not run while captured
			delete(f.mem.async, r.h)
			if attrs := f.mem.pools[a.pool]; attrs != nil {
				attrs[cu.MempoolAttrUsedMemCurrent] -= a.bytes
			}
			if async {
				if st != a.st {
					f.t.Errorf("%#x freed on stream %#x, allocated on %#x", r.h, st, a.st)
				}
				f.mem.asyncFrees = append(f.mem.asyncFrees, st)
			} else {
				f.mem.syncFrees++
			}
			return nil
		})
	case kindPool:
		if cu.MemoryPool(r.h) == fakeDefaultPool || f.mem.pools[cu.MemoryPool(r.h)] == nil {
			f.t.Errorf("destroy of pool %#x, the default or not created", r.h)
		}
		delete(f.mem.pools, cu.MemoryPool(r.h))
		closePoolFD(r)
	case kindHostReg:
		if _, ok := f.mem.reg[r.p]; !ok {
			f.t.Errorf("unregister of %p, not registered", r.p)
		}
		delete(f.mem.reg, r.p)
		r.unpin()
	}
}

func (f *fakeDriver) memPoolCreate(props *cu.MemPoolProps) (cu.MemoryPool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mem.init()
	if props.AllocType != cu.MemAllocationTypePinned || props.Location.Type != cu.MemLocationTypeDevice {
		f.t.Errorf("pool props %+v", *props)
	}
	h := f.mem.nextPool
	f.mem.nextPool++
	f.mem.pools[h] = map[cu.MemPoolAttribute]uint64{}
	return h, nil
}

func (f *fakeDriver) defaultMemPool(cu.Device) (cu.MemoryPool, error) { return fakeDefaultPool, nil }

func (f *fakeDriver) memPoolGet(pool cu.MemoryPool, attr cu.MemPoolAttribute) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mem.init()
	attrs := f.mem.pools[pool]
	if attrs == nil {
		return 0, cu.ErrorInvalidValue
	}
	return attrs[attr], nil
}

func (f *fakeDriver) memPoolSet(pool cu.MemoryPool, attr cu.MemPoolAttribute, v uint64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mem.init()
	attrs := f.mem.pools[pool]
	if attrs == nil {
		return cu.ErrorInvalidValue
	}
	attrs[attr] = v
	return nil
}

func (f *fakeDriver) memPoolTrim(pool cu.MemoryPool, keep uint64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mem.trims = append(f.mem.trims, keep)
	return nil
}

func (f *fakeDriver) memPoolSetAccess(pool cu.MemoryPool, desc *cu.MemAccessDesc) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mem.access = append(f.mem.access, *desc)
	return nil
}

func (f *fakeDriver) hostRegister(p unsafe.Pointer, bytes uint64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mem.init()
	for q, n := range f.mem.reg { // the driver locks pages: overlap is refused
		if uintptr(p) < uintptr(q)+uintptr(n) && uintptr(q) < uintptr(p)+uintptr(bytes) {
			return cu.ErrorHostMemoryAlreadyRegistered
		}
	}
	f.mem.reg[p] = bytes
	return nil
}

// fakeStream returns a stream of c with handle h that calls no driver; the
// returned function closes it as Stream.Close would, without the driver.
func fakeStream(c *Context, h cu.Stream) (*Stream, func()) {
	s := c.ref.s
	s.retain()
	st := &streamState{ctx: s, h: h}
	return &Stream{st: st}, func() {
		if st.uses.closeWait() {
			s.release()
		}
	}
}

// TestAllocAsync: a stream-ordered buffer is freed with cuMemFreeAsync on
// its own stream, or with cuMemFree once that stream is closed, and the
// context is released after it.
func TestAllocAsync(t *testing.T) {
	f, c := newFake(t)
	s1, close1 := fakeStream(c, 0x51)
	s2, close2 := fakeStream(c, 0x52)
	a, err := AllocAsync[float32](s1, 100)
	if err != nil {
		t.Fatal(err)
	}
	b, err := AllocAsync[int64](s2, 7)
	if err != nil {
		t.Fatal(err)
	}
	empty, err := AllocAsync[byte](s1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a.Len() != 100 || a.Bytes() != 400 || a.Ptr() == 0 || empty.Ptr() != 0 {
		t.Errorf("a: %d elements, %d bytes at %#x; empty at %#x", a.Len(), a.Bytes(), a.Ptr(), empty.Ptr())
	}
	if err := c.Close(); err != nil { // the buffers keep the context
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	close2()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := empty.Close(); err != nil {
		t.Fatal(err)
	}
	close1()
	f.mu.Lock()
	frees, syncFrees := f.mem.asyncFrees, f.mem.syncFrees
	f.mu.Unlock()
	if len(frees) != 1 || frees[0] != 0x51 || syncFrees != 1 {
		t.Errorf("async frees on %v, %d sync frees; want one on 0x51 and one sync (its stream closed)", frees, syncFrees)
	}
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// TestAllocAsyncCapture: a stream-ordered buffer closed while its stream
// is captured is freed after the capture ends, on the stream, or
// synchronously if the stream closes first: a cuMemFreeAsync during the
// capture would be a node of the graph, a free at each of its launches.
func TestAllocAsyncCapture(t *testing.T) {
	f, c := newFake(t)
	s, closeS := fakeStream(c, 0x51)
	frees := func() (async []cu.Stream, sync, live int) {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.mem.asyncFrees, f.mem.syncFrees, len(f.mem.async)
	}
	a, err := AllocAsync[float32](s, 10)
	if err != nil {
		t.Fatal(err)
	}
	b, err := AllocAsync[float32](s, 10)
	if err != nil {
		t.Fatal(err)
	}
	s.st.capturing = true // as BeginCapture sets it
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if async, sync, live := frees(); len(async)+sync != 0 || live != 2 {
		t.Fatalf("during the capture: async frees %v, %d sync, %d live", async, sync, live)
	}
	s.st.mu.Lock()
	s.st.capturing = false // as endCapture does, then it frees
	s.st.mu.Unlock()
	if err := s.st.do(s.st.freeAfterCapture); err != nil {
		t.Fatal(err)
	}
	if async, sync, live := frees(); len(async) != 1 || async[0] != 0x51 || sync != 0 || live != 1 {
		t.Fatalf("after the capture: async frees %v, %d sync, %d live", async, sync, live)
	}
	s.st.capturing = true
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	closeS() // the stream closes during the capture: its destroy frees
	if err := onThread(s.st.ctx, s.st.freeAfterCapture); err != nil {
		t.Fatal(err)
	}
	if async, sync, live := frees(); len(async) != 1 || sync != 1 || live != 0 {
		t.Fatalf("after the stream's close: async frees %v, %d sync, %d live", async, sync, live)
	}
	c.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// TestAllocAsyncMisuse: typed errors for a nil or closed stream, a pool
// closed or of another context, use after Close and length mismatches.
func TestAllocAsyncMisuse(t *testing.T) {
	f, c := newFake(t)
	c.ref.s.ctx = 1
	_, c2 := newFake(t)
	c2.ref.s.ctx = 2
	s, closeS := fakeStream(c, 0x51)
	if _, err := AllocAsync[float32](nil, 1); !errors.Is(err, errNilStream) {
		t.Errorf("nil stream: %v", err)
	}
	if _, err := AllocAsync[*int](s, 1); err == nil {
		t.Error("AllocAsync[*int]: no error")
	}
	if _, err := AllocAsync[float32](s, -1); err == nil {
		t.Error("AllocAsync of -1: no error")
	}
	if _, err := AllocFromPool[float32](nil, s, 1); !errors.Is(err, errNilPool) {
		t.Errorf("nil pool: %v", err)
	}
	other, err := c2.NewMemPool(MemPoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AllocFromPool[float32](other, s, 1); !errors.Is(err, errPoolContext) {
		t.Errorf("pool of another context: %v", err)
	}
	p, err := c.NewMemPool(MemPoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := AllocFromPool[float32](p, s, 8)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.CopyFrom(make([]float32, 7)); err == nil || !strings.Contains(err.Error(), "7 elements for a buffer of 8") {
		t.Errorf("CopyFrom 7 into 8: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); !errors.Is(err, ErrFreed) {
		t.Errorf("second pool Close: %v", err)
	}
	if _, err := AllocFromPool[float32](p, s, 1); !errors.Is(err, ErrFreed) {
		t.Errorf("AllocFromPool after the pool's Close: %v", err)
	}
	if _, err := p.Stats(); !errors.Is(err, ErrFreed) {
		t.Errorf("Stats after Close: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); !errors.Is(err, ErrFreed) {
		t.Errorf("second Close: %v", err)
	}
	if err := b.CopyFrom(make([]float32, 8)); !errors.Is(err, ErrFreed) {
		t.Errorf("CopyFrom after Close: %v", err)
	}
	closeS()
	if _, err := AllocAsync[float32](s, 1); !errors.Is(err, ErrFreed) {
		t.Errorf("AllocAsync on a closed stream: %v", err)
	}
	other.Close()
	c2.Close()
	c.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// TestAllocAsyncAllocs: a stream-ordered allocation and its free cost no
// more Go allocations than Alloc's: those of the Buffer value itself (the
// Buffer, its allocation record, the resource and its cleanup), none in
// the calls to the driver.
func TestAllocAsyncAllocs(t *testing.T) {
	_, c, s := fakeContextStream(t, 0x51)
	async := testing.AllocsPerRun(1000, func() {
		b, err := AllocAsync[float32](s, 64)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	})
	sync := testing.AllocsPerRun(1000, func() {
		b, err := Alloc[float32](c, 64)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("allocations per AllocAsync+Close: %v (Alloc+Close: %v)", async, sync)
	// One: the Buffer the caller gets, with its record and resource in it
	// (bufalloc.go); it cannot be recycled, since a Buffer used after its
	// Close must answer ErrFreed. Was 5.
	if async != 1 || sync != 1 {
		t.Errorf("%v allocations per AllocAsync+Close and %v per Alloc+Close, want 1", async, sync)
	}
}

// TestBufferFinalizer: a buffer dropped unclosed is freed once it and its
// views are unreachable, not before: a view alone keeps the memory.
func TestBufferFinalizer(t *testing.T) {
	f, c, s := fakeContextStream(t, 0x51)
	live := func() int {
		f.mu.Lock()
		defer f.mu.Unlock()
		return len(f.mem.async) + len(f.live)
	}
	gc := func(want int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); live() != want; {
			if time.Now().After(deadline) {
				t.Fatalf("%d allocations live, want %d", live(), want)
			}
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
	}
	view := func() *Buffer[float32] {
		b, err := AllocAsync[float32](s, 64)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Alloc[int32](c, 8); err != nil { // dropped
			t.Fatal(err)
		}
		return b.Slice(8, 16)
	}()
	gc(1)
	for range 3 {
		runtime.GC()
	}
	if n := live(); n != 1 {
		t.Fatalf("the view's allocation was freed under it (%d live)", n)
	}
	if view.Len() != 8 {
		t.Fatal("view")
	}
	view = nil
	gc(0)
}

// TestMemPool: creation with options, the default pool, the release
// threshold, trim, statistics, peer access and the lifetimes.
func TestMemPool(t *testing.T) {
	f, c := newFake(t)
	s, closeS := fakeStream(c, 0x51)
	p, err := c.NewMemPool(MemPoolOptions{ReleaseThreshold: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := p.ReleaseThreshold(); err != nil || v != 1<<20 {
		t.Errorf("ReleaseThreshold: %v, %v", v, err)
	}
	if err := p.SetReleaseThreshold(5); err != nil {
		t.Fatal(err)
	}
	if v, _ := p.ReleaseThreshold(); v != 5 {
		t.Errorf("ReleaseThreshold after Set: %v", v)
	}
	x, err := AllocFromPool[float64](p, s, 100)
	if err != nil {
		t.Fatal(err)
	}
	y, err := AllocFromPool[float64](p, s, 50)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := p.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if want := (MemPoolStats{Used: 400, UsedHigh: 1200, Reserved: 1200, ReservedHigh: 1200}); st != want {
		t.Errorf("Stats %+v, want %+v", st, want)
	}
	if err := p.Trim(64); err != nil {
		t.Fatal(err)
	}
	d, err := c.DefaultMemPool()
	if err != nil {
		t.Fatal(err)
	}
	if d.Raw() != fakeDefaultPool {
		t.Errorf("default pool %#x", d.Raw())
	}
	z, err := AllocAsync[byte](s, 10) // from the default pool
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := d.Stats(); st.Used != 10 {
		t.Errorf("default pool's use %d, want 10", st.Used)
	}
	peer := &Context{ref: c.ref, dev: Device{ordinal: 3}}
	if err := p.SetPeerAccess(peer, true); err != nil {
		t.Fatal(err)
	}
	if err := p.SetPeerAccess(c, true); err == nil {
		t.Error("SetPeerAccess of the pool's own device: no error")
	}
	f.mu.Lock()
	trims, access := f.mem.trims, f.mem.access
	f.mu.Unlock()
	if len(trims) != 1 || trims[0] != 64 {
		t.Errorf("trims %v", trims)
	}
	if len(access) != 1 || access[0].Location.Id != 3 || access[0].Flags != cu.MemAccessFlagsProtReadwrite {
		t.Errorf("access %+v", access)
	}
	// The pool closes before its buffer; the default pool's Close drops it.
	for _, fn := range []func() error{p.Close, d.Close, c.Close, y.Close, z.Close} {
		if err := fn(); err != nil {
			t.Fatal(err)
		}
	}
	closeS()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Fatalf("live %d, released %d", live, released)
	}
}

// BenchmarkFakeAllocAsyncFree is AllocAsync and Close of one buffer on the
// fake driver: the layer's own cost per stream-ordered pair.
func BenchmarkFakeAllocAsyncFree(b *testing.B) {
	_, c := newFake(b)
	defer c.Close()
	s, closeS := fakeStream(c, 0x51)
	defer closeS()
	b.ReportAllocs()
	for b.Loop() {
		x, err := AllocAsync[float32](s, 16)
		if err != nil {
			b.Fatal(err)
		}
		if err := x.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
