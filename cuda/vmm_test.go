package cuda

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// The fake's granularities: a minimum of 2 MiB, 4 MiB recommended.
const (
	fakeGran    = 2 << 20
	fakeGranRec = 4 << 20
)

type fakePhys struct {
	size     uint64
	maps     int
	released bool
}

type fakeMap struct {
	size uint64
	h    cu.MemGenericAllocationHandle
}

func (f *fakeDriver) memGranularity(prop *cu.MemAllocationProp, option cu.MemAllocationGranularityFlags) (uint64, error) {
	if prop.Type != cu.MemAllocationTypePinned || prop.Location.Type != cu.MemLocationTypeDevice {
		f.t.Errorf("granularity of %+v", *prop)
	}
	if option == cu.MemAllocGranularityRecommended {
		return fakeGranRec, nil
	}
	return fakeGran, nil
}

func (f *fakeDriver) memAddressReserve(size uint64) (cu.Deviceptr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuMemAddressReserve")
	if size%fakeGran != 0 {
		f.t.Errorf("cuMemAddressReserve(%d): not a multiple of the granularity", size)
		return 0, cu.ErrorInvalidValue
	}
	p := (f.next + fakeGran - 1) / fakeGran * fakeGran
	f.next = p + size
	f.vm.ranges[p] = size
	return cu.Deviceptr(p), nil
}

func (f *fakeDriver) memCreate(size uint64, prop *cu.MemAllocationProp) (cu.MemGenericAllocationHandle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuMemCreate")
	if size%fakeGran != 0 || size == 0 {
		f.t.Errorf("cuMemCreate(%d): not a multiple of the granularity", size)
		return 0, cu.ErrorInvalidValue
	}
	f.vm.nextMem++
	f.vm.phys[f.vm.nextMem] = &fakePhys{size: size}
	return f.vm.nextMem, nil
}

// inRange reports whether [p, p+size) lies in one reserved range.
func (f *fakeDriver) inRange(p, size uint64) bool {
	for b, n := range f.vm.ranges {
		if p >= b && p+size <= b+n {
			return true
		}
	}
	return false
}

func (f *fakeDriver) memMap(p cu.Deviceptr, size uint64, h cu.MemGenericAllocationHandle) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuMemMap")
	m := f.vm.phys[h]
	switch {
	case m == nil || m.released:
		f.t.Errorf("cuMemMap of handle %#x, not created or released", h)
		return cu.ErrorInvalidValue
	case m.size != size:
		f.t.Errorf("cuMemMap of %d bytes of a %d-byte allocation", size, m.size)
		return cu.ErrorInvalidValue
	case !f.inRange(uint64(p), size):
		f.t.Errorf("cuMemMap at %#x+%d: outside every reserved range", p, size)
		return cu.ErrorInvalidValue
	}
	for q, o := range f.vm.maps {
		if uint64(p) < q+o.size && q < uint64(p)+size {
			f.t.Errorf("cuMemMap at %#x+%d over the mapping at %#x+%d", p, size, q, o.size)
			return cu.ErrorInvalidValue
		}
	}
	f.vm.maps[uint64(p)] = fakeMap{size, h}
	m.maps++
	return nil
}

func (f *fakeDriver) memUnmap(p cu.Deviceptr, size uint64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.unmapLocked(uint64(p), size)
}

func (f *fakeDriver) unmapLocked(p, size uint64) error {
	f.call("cuMemUnmap")
	o, ok := f.vm.maps[p]
	if !ok || o.size != size {
		f.t.Errorf("cuMemUnmap(%#x, %d): no such mapping", p, size)
		return cu.ErrorInvalidValue
	}
	delete(f.vm.maps, p)
	m := f.vm.phys[o.h]
	if m.maps--; m.maps == 0 && m.released {
		delete(f.vm.phys, o.h)
	}
	return nil
}

func (f *fakeDriver) memSetAccess(p cu.Deviceptr, size uint64, desc *cu.MemAccessDesc) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuMemSetAccess")
	for off := uint64(0); off < size; {
		o, ok := f.vm.maps[uint64(p)+off]
		if !ok {
			f.t.Errorf("cuMemSetAccess(%#x, %d): %#x not mapped", p, size, uint64(p)+off)
			return cu.ErrorInvalidValue
		}
		off += o.size
	}
	f.vm.access = append(f.vm.access, *desc)
	return nil
}

// destroyVMM is the fake's cuMemRelease and, for a range, cuMemUnmap of
// what is mapped and cuMemAddressFree; f.mu is held.
func (f *fakeDriver) destroyVMM(r *resource) {
	switch r.kind {
	case kindPhys:
		f.call("cuMemRelease")
		m := f.vm.phys[cu.MemGenericAllocationHandle(r.h)]
		if m == nil || m.released {
			f.t.Errorf("cuMemRelease(%#x): not created or released before", r.h)
			return
		}
		m.released = true
		if m.maps == 0 {
			delete(f.vm.phys, cu.MemGenericAllocationHandle(r.h))
		}
	case kindAddr:
		st := r.keep.(*vaState)
		st.mu.Lock()
		defer st.mu.Unlock()
		for _, m := range st.maps {
			f.unmapLocked(r.h+m.off, m.size)
		}
		st.maps = nil
		f.call("cuMemAddressFree")
		if f.vm.ranges[r.h] != st.size {
			f.t.Errorf("cuMemAddressFree(%#x, %d): reserved %d", r.h, st.size, f.vm.ranges[r.h])
		}
		delete(f.vm.ranges, r.h)
	}
}

// TestVMMMap: physical memory maps into a range, stays after its Close
// while mapped, a buffer spans two mappings, and the range's Close
// unmaps and frees everything once.
func TestVMMMap(t *testing.T) {
	f, c := newFake(t)
	g, rec, err := c.Granularity()
	if err != nil || g != fakeGran || rec != fakeGranRec {
		t.Fatalf("Granularity = %d, %d, %v", g, rec, err)
	}
	r, err := c.ReserveAddress(4 * g)
	if err != nil {
		t.Fatal(err)
	}
	m1, err := c.NewPhysMem(2 * g)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Map(0, m1); err != nil {
		t.Fatal(err)
	}
	m1.Close() // the mapping keeps the memory
	m2, _ := c.NewPhysMem(g)
	if err := r.Map(2*g, m2); err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	b, err := RangeBuffer[float32](r, 4, int(3*g/4)-1) // over both mappings
	if err != nil {
		t.Fatal(err)
	}
	if b.Ptr() != r.Raw()+4 || b.Close() != ErrView {
		t.Errorf("RangeBuffer at %#x (range %#x), Close %v", b.Ptr(), r.Raw(), b.Close())
	}
	f.mu.Lock()
	nphys, access := len(f.vm.phys), len(f.vm.access)
	f.mu.Unlock()
	if nphys != 2 || access != 2 {
		t.Errorf("%d physical allocations and %d access calls after two maps, want 2 and 2", nphys, access)
	}
	if err := r.Unmap(2 * g); err != nil {
		t.Fatal(err)
	}
	if _, err := RangeBuffer[float32](r, 0, int(3*g/4)); err == nil {
		t.Error("RangeBuffer over an unmapped part succeeded")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Zero(); !errors.Is(err, ErrFreed) {
		t.Errorf("a range buffer's Zero after the range's Close = %v, want ErrFreed", err)
	}
	m2.Close()
	c.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Errorf("live %d released %d, want 0 1", live, released)
	}
	want := "cuMemAddressReserve cuMemCreate cuMemMap cuMemSetAccess cuMemRelease cuMemCreate cuMemMap cuMemSetAccess cuMemUnmap cuMemUnmap cuMemAddressFree cuMemRelease"
	if got := strings.Join(f.vmCalls(), " "); got != want {
		t.Errorf("calls\n%s\nwant\n%s", got, want)
	}
}

// TestVMMErrors: sizes and offsets off the granularity, mappings out of
// the range or over another, buffers over unmapped or misaligned memory
// are *VMMError before any driver call.
func TestVMMErrors(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	r, _ := c.ReserveAddress(4 * fakeGran)
	defer r.Close()
	m, _ := c.NewPhysMem(2 * fakeGran)
	defer m.Close()
	if err := r.Map(fakeGran, m); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.vm.calls = nil
	f.mu.Unlock()
	var ve *VMMError
	for name, fn := range map[string]func() error{
		"reserve 3 MiB":       func() error { _, err := c.ReserveAddress(3 << 20); return err },
		"reserve 0":           func() error { _, err := c.ReserveAddress(0); return err },
		"physical 1 MiB":      func() error { _, err := c.NewPhysMem(1 << 20); return err },
		"map at 1 MiB":        func() error { return r.Map(1<<20, m) },
		"map over another":    func() error { return r.Map(2*fakeGran, m) },
		"map past the end":    func() error { return r.Map(3*fakeGran, m) },
		"map nil":             func() error { return r.Map(0, nil) },
		"unmap at 0":          func() error { return r.Unmap(0) },
		"access unmapped":     func() error { return r.SetAccess(0, 2*fakeGran, c.Device(), cu.MemAccessFlagsProtReadwrite) },
		"access odd size":     func() error { return r.SetAccess(fakeGran, 100, c.Device(), cu.MemAccessFlagsProtReadwrite) },
		"buffer unmapped":     func() error { _, err := RangeBuffer[byte](r, 0, 10); return err },
		"buffer misaligned":   func() error { _, err := RangeBuffer[float32](r, fakeGran+2, 10); return err },
		"buffer past the end": func() error { _, err := RangeBuffer[byte](r, fakeGran, 4*fakeGran); return err },
	} {
		err := fn()
		if !errors.As(err, &ve) {
			t.Errorf("%s: %v, want a *VMMError", name, err)
			continue
		}
		t.Logf("%s: %v", name, err)
	}
	if got := f.vmCalls(); len(got) != 0 {
		t.Errorf("driver calls %v, want none", got)
	}
	if err := r.SetAccess(fakeGran, 2*fakeGran, c.Device(), cu.MemAccessFlagsProtRead); err != nil {
		t.Errorf("SetAccess over the mapping: %v", err)
	}
}

// TestGrowable: growing maps memory after what is mapped, in steps of the
// recommended granularity, at the same address; shrinking or passing the
// capacity is refused.
func TestGrowable(t *testing.T) {
	f, c := newFake(t)
	g, err := NewGrowable[float32](c, 3<<20) // 12 MiB
	if err != nil {
		t.Fatal(err)
	}
	if g.Cap() != 3<<20 || g.Len() != 0 {
		t.Errorf("Cap %d Len %d", g.Cap(), g.Len())
	}
	if err := g.Grow(1000); err != nil {
		t.Fatal(err)
	}
	b1, _ := g.Buffer()
	if err := g.Grow(2 << 20); err != nil { // 8 MiB: a second 4 MiB
		t.Fatal(err)
	}
	b2, _ := g.Buffer()
	if b1.Len() != 1000 || b2.Len() != 2<<20 || b1.Ptr() != b2.Ptr() {
		t.Errorf("buffers %d at %#x, %d at %#x: want 1000 and %d at one address", b1.Len(), b1.Ptr(), b2.Len(), b2.Ptr(), 2<<20)
	}
	if err := g.Grow(3 << 20); err != nil { // 12 MiB: the last 4 MiB
		t.Fatal(err)
	}
	var ve *VMMError
	if err := g.Grow(10); !errors.As(err, &ve) {
		t.Errorf("shrinking Grow = %v, want a *VMMError", err)
	}
	if err := g.Grow(3<<20 + 1); !errors.As(err, &ve) {
		t.Errorf("Grow past Cap = %v, want a *VMMError", err)
	}
	f.mu.Lock()
	maps := len(f.vm.maps)
	f.mu.Unlock()
	if maps != 3 {
		t.Errorf("%d mappings, want 3 of 4 MiB", maps)
	}
	g.Close()
	c.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Errorf("live %d released %d, want 0 1", live, released)
	}
}

// TestVMMConcurrent: maps, buffers and accesses from several goroutines,
// then a Close racing them: every mapping is unmapped once and the range
// freed once (run with -race).
func TestVMMConcurrent(t *testing.T) {
	f, c := newFake(t)
	const k = 8
	r, err := c.ReserveAddress(k * fakeGran)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := c.NewPhysMem(fakeGran)
			if err != nil {
				t.Error(err)
				return
			}
			defer m.Close()
			off := uint64(i) * fakeGran
			if err := r.Map(off, m); err != nil {
				t.Error(err)
				return
			}
			if _, err := RangeBuffer[float32](r, off, fakeGran/4); err != nil {
				t.Error(err)
			}
			if err := r.SetAccess(off, fakeGran, c.Device(), cu.MemAccessFlagsProtRead); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if err := r.SetAccess(0, k*fakeGran, c.Device(), cu.MemAccessFlagsProtReadwrite); err != nil {
					if !errors.Is(err, ErrFreed) {
						t.Error(err)
					}
					return
				}
			}
		}()
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	c.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Errorf("live %d released %d, want 0 1", live, released)
	}
}
