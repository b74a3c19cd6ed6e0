package cuda

import (
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// Virtual memory management: an address range reserved apart from the
// memory behind it ([Context.ReserveAddress]), physical memory made apart
// from any address ([Context.NewPhysMem]), mapped into the range and made
// accessible ([AddressRange.Map]), a [Buffer] over a mapped part
// ([RangeBuffer]), and on top of it a buffer that grows in place, its
// address unchanged ([Growable]). Sizes and offsets are multiples of the
// device's allocation granularity ([Context.Granularity]); the layer
// checks them, and the overlap of mappings, before the driver is called,
// returning a *[VMMError].

// vmmDriver is the part of the driver that virtual memory management
// calls (a fake in the tests). The releases, cuMemUnmap, cuMemAddressFree
// and cuMemRelease, are the destroy of kindAddr and kindPhys.
type vmmDriver interface {
	memGranularity(prop *cu.MemAllocationProp, option cu.MemAllocationGranularityFlags) (uint64, error)
	memAddressReserve(size uint64) (cu.Deviceptr, error)
	memCreate(size uint64, prop *cu.MemAllocationProp) (cu.MemGenericAllocationHandle, error)
	memMap(p cu.Deviceptr, size uint64, h cu.MemGenericAllocationHandle) error
	memUnmap(p cu.Deviceptr, size uint64) error
	memSetAccess(p cu.Deviceptr, size uint64, desc *cu.MemAccessDesc) error
}

// VMMError is a misuse of virtual memory management the layer refuses
// before the driver sees it: a size or offset that is no multiple of the
// granularity, a mapping out of the range or over another, a buffer over
// memory not mapped.
type VMMError struct {
	Op     string // the method: "NewPhysMem", "AddressRange.Map", ...
	Reason string
}

func (e *VMMError) Error() string { return "cuda: " + e.Op + ": " + e.Reason }

func vmmErr(op, format string, args ...any) error {
	return &VMMError{Op: op, Reason: fmt.Sprintf(format, args...)}
}

// devProp is the properties of pinned memory on device d.
func devProp(d Device) cu.MemAllocationProp {
	return cu.MemAllocationProp{
		Type:     cu.MemAllocationTypePinned,
		Location: cu.MemLocation{Type: cu.MemLocationTypeDevice, Id: int32(d.ordinal)},
	}
}

// Granularity returns the allocation granularity of pinned memory on the
// context's device (cuMemGetAllocationGranularity): the minimum, which
// every size and offset of physical memory and mappings must be a
// multiple of, and the recommended one, for speed.
func (c *Context) Granularity() (minimum, recommended uint64, err error) {
	err = c.do(func(s *ctxState) error {
		var err error
		minimum, recommended, err = granularity(s, c.dev)
		return err
	})
	return minimum, recommended, err
}

func granularity(s *ctxState, d Device) (minimum, recommended uint64, err error) {
	prop := devProp(d)
	if minimum, err = s.drv.memGranularity(&prop, cu.MemAllocGranularityMinimum); err != nil {
		return 0, 0, err
	}
	recommended, err = s.drv.memGranularity(&prop, cu.MemAllocGranularityRecommended)
	return minimum, recommended, err
}

// checkGran checks size is a positive multiple of the granularity g.
func checkGran(op, what string, size, g uint64) error {
	if size == 0 {
		return vmmErr(op, "%s 0", what)
	}
	if g == 0 || size%g != 0 {
		return vmmErr(op, "%s %d is not a multiple of the granularity %d (Context.Granularity)", what, size, g)
	}
	return nil
}

// PhysMem is physical device memory with no address (cuMemCreate): map it
// into an [AddressRange] to use it. Its Close releases the handle
// (cuMemRelease); the memory lives on while it is mapped.
type PhysMem struct {
	r    *resource
	size uint64
	dev  Device
}

// NewPhysMem creates size bytes of pinned memory on the context's device
// (cuMemCreate). size must be a multiple of the minimum granularity.
func (c *Context) NewPhysMem(size uint64) (*PhysMem, error) {
	var m *PhysMem
	err := c.do(func(s *ctxState) error {
		g, _, err := granularity(s, c.dev)
		if err != nil {
			return err
		}
		if err := checkGran("NewPhysMem", "size", size, g); err != nil {
			return err
		}
		prop := devProp(c.dev)
		h, err := s.drv.memCreate(size, &prop)
		if err != nil {
			return err
		}
		m = &PhysMem{size: size, dev: c.dev}
		m.r = newResource(m, s, kindPhys, uint64(h), nil)
		return nil
	})
	return m, err
}

// Raw returns the driver's handle, for the cu package.
func (m *PhysMem) Raw() cu.MemGenericAllocationHandle { return cu.MemGenericAllocationHandle(m.r.h) }

// Size returns the size in bytes.
func (m *PhysMem) Size() uint64 { return m.size }

// Close releases the handle (cuMemRelease). Mappings of the memory stay
// valid; the memory is freed when the last is unmapped. A second Close
// returns ErrFreed.
func (m *PhysMem) Close() error { return m.r.free() }

// AddressRange is a reserved range of device addresses
// (cuMemAddressReserve), into which physical memory is mapped. Close
// unmaps what is mapped and frees the range.
type AddressRange struct {
	a    *devAlloc // kindAddr; its keep is the *vaState
	base cu.Deviceptr
	size uint64
	gran uint64
	dev  Device
	st   *vaState
}

// vaState is a range's mappings, sorted by offset.
type vaState struct {
	mu   sync.Mutex
	size uint64
	maps []vaMap
}

type vaMap struct{ off, size uint64 }

// find returns the index of the first mapping ending after off.
func (v *vaState) find(off uint64) int {
	i, _ := slices.BinarySearchFunc(v.maps, off, func(m vaMap, off uint64) int {
		if m.off+m.size <= off {
			return -1
		}
		return 1
	})
	return i
}

// covered reports whether [off, off+size) is all mapped.
func (v *vaState) covered(off, size uint64) bool {
	end := off + size
	for i := v.find(off); off < end; i++ {
		if i == len(v.maps) || v.maps[i].off > off {
			return false
		}
		off = v.maps[i].off + v.maps[i].size
	}
	return true
}

// ReserveAddress reserves size bytes of device addresses (cuMemAddressReserve),
// aligned to the granularity; size must be a multiple of it.
func (c *Context) ReserveAddress(size uint64) (*AddressRange, error) {
	var ar *AddressRange
	err := c.do(func(s *ctxState) error {
		g, _, err := granularity(s, c.dev)
		if err != nil {
			return err
		}
		if err := checkGran("ReserveAddress", "size", size, g); err != nil {
			return err
		}
		p, err := s.drv.memAddressReserve(size)
		if err != nil {
			return err
		}
		st := &vaState{size: size}
		a := &devAlloc{}
		a.r = newResource(a, s, kindAddr, uint64(p), nil)
		a.r.keep = st
		ar = &AddressRange{a: a, base: p, size: size, gran: g, dev: c.dev, st: st}
		return nil
	})
	return ar, err
}

// Raw returns the range's first address, for the cu package.
func (a *AddressRange) Raw() cu.Deviceptr { return a.base }

// Size returns the range's size in bytes.
func (a *AddressRange) Size() uint64 { return a.size }

// Granularity returns the granularity offsets and sizes in the range are
// multiples of.
func (a *AddressRange) Granularity() uint64 { return a.gran }

// Map maps all of m at offset off of the range (cuMemMap) and gives m's
// device read and write access to it (cuMemSetAccess). off must be a
// multiple of the granularity, and the mapping must lie in the range and
// over no other. m may be closed after: the mapping keeps the memory.
func (a *AddressRange) Map(off uint64, m *PhysMem) error {
	const op = "AddressRange.Map"
	if m == nil {
		return vmmErr(op, "nil *PhysMem")
	}
	if off%a.gran != 0 {
		return vmmErr(op, "offset %d is not a multiple of the granularity %d", off, a.gran)
	}
	if off > a.size || m.size > a.size-off {
		return vmmErr(op, "%d bytes at offset %d overrun the range of %d", m.size, off, a.size)
	}
	if err := m.r.use(); err != nil {
		return err
	}
	defer m.r.uses.release()
	r := a.a.r
	return r.do(func() error {
		a.st.mu.Lock()
		defer a.st.mu.Unlock()
		i := a.st.find(off)
		if i < len(a.st.maps) && a.st.maps[i].off < off+m.size {
			o := a.st.maps[i]
			return vmmErr(op, "[%d, %d) overlaps the mapping at [%d, %d)", off, off+m.size, o.off, o.off+o.size)
		}
		d := r.ctx.drv
		p := a.base + cu.Deviceptr(off)
		if err := d.memMap(p, m.size, cu.MemGenericAllocationHandle(m.r.h)); err != nil {
			return err
		}
		desc := cu.MemAccessDesc{Location: devProp(m.dev).Location, Flags: cu.MemAccessFlagsProtReadwrite}
		if err := d.memSetAccess(p, m.size, &desc); err != nil {
			d.memUnmap(p, m.size)
			return err
		}
		a.st.maps = slices.Insert(a.st.maps, i, vaMap{off, m.size})
		return nil
	})
}

// Unmap unmaps the mapping that starts at offset off (cuMemUnmap); its
// memory is freed if its PhysMem was closed. Buffers over it
// ([RangeBuffer]) must no longer be used: the device faults on them.
func (a *AddressRange) Unmap(off uint64) error {
	r := a.a.r
	return r.do(func() error {
		a.st.mu.Lock()
		defer a.st.mu.Unlock()
		i := a.st.find(off)
		if i == len(a.st.maps) || a.st.maps[i].off != off {
			return vmmErr("AddressRange.Unmap", "no mapping starts at offset %d", off)
		}
		if err := r.ctx.drv.memUnmap(a.base+cu.Deviceptr(off), a.st.maps[i].size); err != nil {
			return err
		}
		a.st.maps = slices.Delete(a.st.maps, i, i+1)
		return nil
	})
}

// SetAccess sets the access of device d to [off, off+size) of the range
// (cuMemSetAccess), which must be mapped: cu.MemAccessFlagsProtReadwrite
// for a peer to use the memory, cu.MemAccessFlagsProtNone to take it
// away.
func (a *AddressRange) SetAccess(off, size uint64, d Device, flags cu.MemAccessFlags) error {
	const op = "AddressRange.SetAccess"
	if off%a.gran != 0 || size%a.gran != 0 || size == 0 {
		return vmmErr(op, "offset %d and size %d must be multiples of the granularity %d, the size not 0", off, size, a.gran)
	}
	r := a.a.r
	return r.do(func() error {
		a.st.mu.Lock()
		defer a.st.mu.Unlock()
		if off > a.size || size > a.size-off || !a.st.covered(off, size) {
			return vmmErr(op, "[%d, %d) is not all mapped", off, off+size)
		}
		desc := cu.MemAccessDesc{Location: devProp(d).Location, Flags: flags}
		return r.ctx.drv.memSetAccess(a.base+cu.Deviceptr(off), size, &desc)
	})
}

// Close unmaps every mapping (cuMemUnmap) and frees the range
// (cuMemAddressFree), once no buffer over it is in use by a call; the
// buffers over it ([RangeBuffer]) then return ErrFreed. A second Close
// returns ErrFreed.
func (a *AddressRange) Close() error { return a.a.r.free() }

// RangeBuffer returns a buffer of n elements at byte offset off of the
// range, a view (its Close returns ErrView; close the range). The bytes
// must be mapped, and off a multiple of T's alignment. It shares the
// range's lifetime: the range stays reserved while the buffer is
// reachable.
func RangeBuffer[T any](a *AddressRange, off uint64, n int) (*Buffer[T], error) {
	const op = "RangeBuffer"
	size, err := elemSize[T]("RangeBuffer", n)
	if err != nil {
		return nil, err
	}
	if al := uint64(unsafe.Alignof(*new(T))); off%al != 0 {
		return nil, vmmErr(op, "offset %d is not a multiple of %s's alignment %d", off, typeName[T](), al)
	}
	bytes := uint64(n) * size
	if off > a.size || bytes > a.size-off {
		return nil, vmmErr(op, "%d bytes at offset %d overrun the range of %d", bytes, off, a.size)
	}
	if err := a.a.r.alive(); err != nil {
		return nil, err
	}
	a.st.mu.Lock()
	ok := n == 0 || a.st.covered(off, bytes)
	a.st.mu.Unlock()
	if !ok {
		return nil, vmmErr(op, "[%d, %d) is not all mapped", off, off+bytes)
	}
	return &Buffer[T]{a: a.a, ptr: a.base + cu.Deviceptr(off), n: n, view: true}, nil
}

// Growable is a device buffer that grows in place: its address range is
// reserved once for the most it may hold, and growing maps more physical
// memory after what is there, so the address and the contents stay and
// nothing is copied (the idea of NVIDIA's vectorAddMMAP sample).
type Growable[T any] struct {
	mu     sync.Mutex
	ctx    *Context
	r      *AddressRange
	n      int
	mapped uint64
	step   uint64 // bytes mapped at a time, at least: the recommended granularity
}

// NewGrowable reserves room for maxLen elements of T, rounded up to the
// granularity, and maps none yet (Len 0).
func NewGrowable[T any](c *Context, maxLen int) (*Growable[T], error) {
	size, err := elemSize[T]("Growable", maxLen)
	if err != nil {
		return nil, err
	}
	if maxLen == 0 {
		return nil, vmmErr("NewGrowable", "maxLen 0")
	}
	g, rec, err := c.Granularity()
	if err != nil {
		return nil, err
	}
	r, err := c.ReserveAddress(roundUp(uint64(maxLen)*size, g))
	if err != nil {
		return nil, err
	}
	return &Growable[T]{ctx: c, r: r, step: max(rec, g)}, nil
}

func roundUp(x, g uint64) uint64 { return (x + g - 1) / g * g }

// Len returns the number of elements.
func (b *Growable[T]) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

// Cap returns the most elements the buffer can grow to.
func (b *Growable[T]) Cap() int { return int(b.r.size / uint64(unsafe.Sizeof(*new(T)))) }

// Raw returns the buffer's device address, for the cu package; it stays
// the same as the buffer grows.
func (b *Growable[T]) Raw() cu.Deviceptr { return b.r.base }

// Range returns the address range, for its Raw address and SetAccess.
func (b *Growable[T]) Range() *AddressRange { return b.r }

// Grow makes the buffer n elements long, mapping physical memory (in
// pieces of the recommended granularity, at least) after the memory
// already mapped; the first Len elements keep their values. n may not
// shrink the buffer or pass Cap.
func (b *Growable[T]) Grow(n int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n < b.n || n > b.Cap() {
		return vmmErr("Growable.Grow", "length %d: want from Len %d to Cap %d", n, b.n, b.Cap())
	}
	need := uint64(n) * uint64(unsafe.Sizeof(*new(T)))
	if need > b.mapped {
		more := min(roundUp(need-b.mapped, b.step), b.r.size-b.mapped)
		m, err := b.ctx.NewPhysMem(more)
		if err != nil {
			return err
		}
		err = b.r.Map(b.mapped, m)
		if cerr := m.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		b.mapped += more
	}
	b.n = n
	return nil
}

// Buffer returns the buffer's Len elements as a view (see [RangeBuffer]),
// valid at the same address after later Grows.
func (b *Growable[T]) Buffer() (*Buffer[T], error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return RangeBuffer[T](b.r, 0, b.n)
}

// Close frees the memory and the range.
func (b *Growable[T]) Close() error { return b.r.Close() }

// destroyVMM releases what vmm.go makes, the context current.
func (realDriver) destroyVMM(r *resource) error {
	switch r.kind {
	case kindPhys:
		return cu.MemRelease(cu.MemGenericAllocationHandle(r.h))
	case kindAddr:
		st := r.keep.(*vaState)
		st.mu.Lock()
		defer st.mu.Unlock()
		var err error
		for _, m := range st.maps {
			if e := cu.MemUnmap(cu.Deviceptr(r.h+m.off), m.size); err == nil {
				err = e
			}
		}
		st.maps = nil
		if e := cu.MemAddressFree(cu.Deviceptr(r.h), st.size); err == nil {
			err = e
		}
		return err
	}
	return nil
}

func (realDriver) memGranularity(prop *cu.MemAllocationProp, option cu.MemAllocationGranularityFlags) (uint64, error) {
	return cu.MemGetAllocationGranularity(prop, option)
}

func (realDriver) memAddressReserve(size uint64) (cu.Deviceptr, error) {
	return cu.MemAddressReserve(size, 0, 0, 0)
}

func (realDriver) memCreate(size uint64, prop *cu.MemAllocationProp) (cu.MemGenericAllocationHandle, error) {
	return cu.MemCreate(size, prop, 0)
}

func (realDriver) memMap(p cu.Deviceptr, size uint64, h cu.MemGenericAllocationHandle) error {
	return cu.MemMap(p, size, 0, h, 0)
}

func (realDriver) memUnmap(p cu.Deviceptr, size uint64) error { return cu.MemUnmap(p, size) }

func (realDriver) memSetAccess(p cu.Deviceptr, size uint64, desc *cu.MemAccessDesc) error {
	return cu.MemSetAccess(p, size, desc, 1)
}
