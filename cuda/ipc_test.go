package cuda

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// fakeVM is the fake driver's IPC and virtual memory; fakeDriver.mu
// guards it.
type fakeVM struct {
	calls   []string                        // every IPC and VMM call, by name
	opened  map[uint64]uint64               // cuIpcOpenMemHandle's mappings: address -> the exported one
	events  map[cu.Event]uint32             // eventCreate's flags
	nextEv  cu.Event                        //
	poolFDs map[uint64]cu.MemoryPool        // the inode of an exported descriptor -> its pool
	imports map[cu.MemoryPool]cu.MemoryPool // imported pool -> the exported one
	// virtual memory (vmm_test.go)
	ranges  map[uint64]uint64 // reserved base -> size
	phys    map[cu.MemGenericAllocationHandle]*fakePhys
	maps    map[uint64]fakeMap // mapped address -> mapping
	access  []cu.MemAccessDesc
	nextMem cu.MemGenericAllocationHandle
	ipcSize uint64 // the size cuMemGetAddressRange gives an IPC mapping (0: 1 GiB)
}

func (v *fakeVM) init() {
	if v.opened == nil {
		v.opened = map[uint64]uint64{}
		v.events = map[cu.Event]uint32{}
		v.nextEv = 0x700
		v.poolFDs = map[uint64]cu.MemoryPool{}
		v.imports = map[cu.MemoryPool]cu.MemoryPool{}
		v.ranges = map[uint64]uint64{}
		v.phys = map[cu.MemGenericAllocationHandle]*fakePhys{}
		v.maps = map[uint64]fakeMap{}
		v.nextMem = 0x900
	}
}

func (v *fakeVM) live() int { return len(v.opened) + len(v.ranges) + len(v.phys) + len(v.maps) }

// call records a call; f.mu is held.
func (f *fakeDriver) call(name string) {
	f.vm.init()
	f.vm.calls = append(f.vm.calls, name)
}

func (f *fakeDriver) vmCalls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.vm.calls...)
}

// fakeRaw puts x in a driver handle's bytes.
func fakeRaw(x uint64) (r [64]byte) {
	copy(r[:], "fake")
	binary.LittleEndian.PutUint64(r[8:], x)
	return r
}

func fakeUnraw(t testing.TB, r [64]byte) uint64 {
	if string(r[:4]) != "fake" {
		t.Errorf("a handle the fake did not make: %q", r[:8])
	}
	return binary.LittleEndian.Uint64(r[8:])
}

func (f *fakeDriver) ipcGetMemHandle(p cu.Deviceptr) (cu.IpcMemHandle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuIpcGetMemHandle")
	if !f.live[uint64(p)] {
		f.t.Errorf("cuIpcGetMemHandle(%#x): not the start of a cuMemAlloc allocation", p)
		return cu.IpcMemHandle{}, cu.ErrorInvalidValue
	}
	return cu.IpcMemHandle{Reserved: fakeRaw(uint64(p))}, nil
}

func (f *fakeDriver) ipcOpenMemHandle(h cu.IpcMemHandle) (cu.Deviceptr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuIpcOpenMemHandle")
	p := fakeUnraw(f.t, h.Reserved)
	if !f.live[p] {
		f.t.Errorf("cuIpcOpenMemHandle of %#x, freed", p)
		return 0, cu.ErrorInvalidValue
	}
	q := f.next
	f.next += 1 << 16
	f.vm.opened[q] = p
	return cu.Deviceptr(q), nil
}

func (f *fakeDriver) addressRange(p cu.Deviceptr) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuMemGetAddressRange")
	if a, ok := f.mem.async[uint64(p)]; ok {
		return a.bytes, nil
	}
	if _, ok := f.vm.opened[uint64(p)]; !ok {
		f.t.Errorf("cuMemGetAddressRange(%#x): no allocation starts there", p)
		return 0, cu.ErrorInvalidValue
	}
	if f.vm.ipcSize != 0 {
		return f.vm.ipcSize, nil
	}
	return 1 << 30, nil
}

func (f *fakeDriver) eventCreate(flags uint32) (cu.Event, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuEventCreate")
	f.vm.nextEv++
	f.vm.events[f.vm.nextEv] = flags
	return f.vm.nextEv, nil
}

func (f *fakeDriver) ipcGetEventHandle(e cu.Event) (cu.IpcEventHandle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuIpcGetEventHandle")
	if want := uint32(cu.EventInterprocess | cu.EventDisableTiming); f.vm.events[e] != want {
		f.t.Errorf("cuIpcGetEventHandle of an event with flags %#x, want %#x", f.vm.events[e], want)
		return cu.IpcEventHandle{}, cu.ErrorInvalidValue
	}
	return cu.IpcEventHandle{Reserved: fakeRaw(uint64(e))}, nil
}

func (f *fakeDriver) ipcOpenEventHandle(h cu.IpcEventHandle) (cu.Event, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuIpcOpenEventHandle")
	if e := cu.Event(fakeUnraw(f.t, h.Reserved)); f.vm.events[e] == 0 {
		f.t.Errorf("cuIpcOpenEventHandle of event %#x, not created", e)
	}
	f.vm.nextEv++
	return f.vm.nextEv, nil
}

func (f *fakeDriver) memPoolExportPointer(p cu.Deviceptr) (cu.MemPoolPtrExportData, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuMemPoolExportPointer")
	f.mem.init()
	a, ok := f.mem.async[uint64(p)]
	if !ok {
		f.t.Errorf("cuMemPoolExportPointer(%#x): not the start of a pool allocation", p)
		return cu.MemPoolPtrExportData{}, cu.ErrorInvalidValue
	}
	// As the driver (the H200 run): only an allocation of a pool already
	// exported by cuMemPoolExportToShareableHandle.
	if !f.mem.shared[a.pool] {
		return cu.MemPoolPtrExportData{}, cu.ErrorInvalidValue
	}
	return cu.MemPoolPtrExportData{Reserved: fakeRaw(uint64(p))}, nil
}

func (f *fakeDriver) memPoolImportPointer(pool cu.MemoryPool, d *cu.MemPoolPtrExportData, st cu.Stream) (cu.Deviceptr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuMemPoolImportPointer")
	f.mem.init()
	p := fakeUnraw(f.t, d.Reserved)
	a, ok := f.mem.async[p]
	if !ok {
		return 0, cu.ErrorInvalidValue
	}
	if from := f.vm.imports[pool]; from != a.pool {
		f.t.Errorf("pointer of pool %#x imported from pool %#x, the import of %#x", a.pool, pool, from)
	}
	q := f.next
	f.next += 1 << 16
	f.mem.async[q] = fakeAsync{st: st, pool: pool, bytes: a.bytes}
	return cu.Deviceptr(q), nil
}

func (f *fakeDriver) memPoolGetAccess(pool cu.MemoryPool, loc *cu.MemLocation) (cu.MemAccessFlags, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuMemPoolGetAccess")
	return cu.MemAccessFlagsProtReadwrite, nil
}

// destroyVM is the fake's destroy of kindIPCMem, kindAddr and kindPhys;
// f.mu is held.
func (f *fakeDriver) destroyVM(r *resource) {
	f.vm.init()
	switch r.kind {
	case kindIPCMem:
		f.vm.calls = append(f.vm.calls, "cuIpcCloseMemHandle")
		if _, ok := f.vm.opened[r.h]; !ok {
			f.t.Errorf("cuIpcCloseMemHandle(%#x): not opened or closed before", r.h)
		}
		delete(f.vm.opened, r.h)
	case kindAddr, kindPhys:
		f.destroyVMM(r) // vmm_test.go
	}
}

// otherProcess makes the handles exported so far look like another
// process's, as they would arrive there, until the test ends.
func otherProcess(t *testing.T) {
	old := processToken
	processToken += 2
	t.Cleanup(func() { processToken = old })
}

// TestIPCHandle: a view's handle travels as bytes and opens, in the other
// process, as a buffer of the view's length at the view's offset in the
// mapping; Close unmaps it once.
func TestIPCHandle(t *testing.T) {
	f, c := newFake(t)
	b, err := Alloc[float32](c, 100)
	if err != nil {
		t.Fatal(err)
	}
	h, err := b.Slice(10, 30).ExportIPC()
	if err != nil {
		t.Fatal(err)
	}
	if h.Len() != 20 || fakeUnraw(t, h.Raw().Reserved) != uint64(b.Ptr()) {
		t.Errorf("handle Len %d Raw %#x, want 20, the allocation %#x", h.Len(), fakeUnraw(t, h.Raw().Reserved), b.Ptr())
	}
	data, err := h.MarshalBinary()
	if err != nil || len(data) != IPCHandleSize {
		t.Fatalf("MarshalBinary: %d bytes, %v", len(data), err)
	}
	otherProcess(t)
	var got IPCHandle[float32]
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	o, err := OpenIPC(c, got)
	if err != nil {
		t.Fatal(err)
	}
	if o.Len() != 20 {
		t.Errorf("opened Len %d, want 20", o.Len())
	}
	f.mu.Lock()
	base, ok := f.vm.opened[uint64(o.Ptr())-40]
	f.mu.Unlock()
	if !ok || base != uint64(b.Ptr()) {
		t.Errorf("opened buffer at %#x: not 40 bytes into a mapping of %#x", o.Ptr(), b.Ptr())
	}
	if _, err := o.ExportIPC(); !errors.Is(err, ErrNotExportable) {
		t.Errorf("ExportIPC of an opened buffer = %v, want ErrNotExportable", err)
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	if err := o.Close(); !errors.Is(err, ErrFreed) {
		t.Errorf("second Close = %v, want ErrFreed", err)
	}
	b.Close()
	c.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Errorf("live %d released %d, want 0 1", live, released)
	}
	want := []string{"cuIpcGetMemHandle", "cuIpcOpenMemHandle", "cuMemGetAddressRange", "cuIpcCloseMemHandle"}
	if got := f.vmCalls(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("calls %v, want %v", got, want)
	}
}

// TestIPCHandleErrors: what cannot be exported or opened is refused with
// a typed error before any driver call.
func TestIPCHandleErrors(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	b, _ := Alloc[float32](c, 16)
	defer b.Close()
	s, closeStream := fakeStream(c, 0x51)
	defer closeStream()
	async, _ := AllocAsync[float32](s, 16)
	defer async.Close()
	managed, _ := AllocManaged[float32](c, 16)
	defer managed.Close()
	empty, _ := Alloc[float32](c, 0)
	for name, buf := range map[string]*Buffer[float32]{"stream-ordered": async, "managed": managed, "empty": empty} {
		if _, err := buf.ExportIPC(); !errors.Is(err, ErrNotExportable) {
			t.Errorf("ExportIPC of %s memory = %v, want ErrNotExportable", name, err)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	if _, err := ExportPoolPointer(b); !errors.Is(err, ErrNotExportable) {
		t.Errorf("ExportPoolPointer of Alloc's memory = %v, want ErrNotExportable", err)
	}
	f.mu.Lock()
	f.vm.calls = nil
	f.mu.Unlock()

	h, err := b.ExportIPC()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := h.MarshalBinary()
	if _, err := OpenIPC(c, h); !errors.Is(err, ErrIPCHandle) || !strings.Contains(err.Error(), "this process") {
		t.Errorf("OpenIPC in the exporting process = %v, want ErrIPCHandle", err)
	}
	otherProcess(t)
	var wide IPCHandle[float64]
	if err := wide.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenIPC(c, wide); !errors.Is(err, ErrIPCHandle) || !strings.Contains(err.Error(), "4-byte") {
		t.Errorf("OpenIPC as float64 of float32s = %v, want ErrIPCHandle naming the sizes", err)
	} else {
		t.Log(err)
	}
	if _, err := OpenIPC(c, IPCHandle[float32]{}); !errors.Is(err, ErrIPCHandle) {
		t.Errorf("OpenIPC of the zero handle = %v, want ErrIPCHandle", err)
	}
	var pp PoolPointer[float32]
	if err := pp.UnmarshalBinary(data); !errors.Is(err, ErrIPCHandle) {
		t.Errorf("an IPCHandle's bytes as a PoolPointer = %v, want ErrIPCHandle", err)
	}
	var eh IPCEventHandle
	if err := eh.UnmarshalBinary(data[:50]); !errors.Is(err, ErrIPCHandle) {
		t.Errorf("50 bytes as an IPCEventHandle = %v, want ErrIPCHandle", err)
	}
	if got := f.vmCalls(); len(got) != 1 {
		t.Errorf("driver calls %v, want only the one export", got)
	}
}

// TestIPCEvent: an IPC event is made with the flags the driver requires,
// exports, opens in the other process, and not in its own.
func TestIPCEvent(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	e, err := c.NewIPCEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	h, err := e.Export()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.OpenIPCEvent(h); !errors.Is(err, ErrIPCHandle) {
		t.Errorf("OpenIPCEvent in the exporting process = %v, want ErrIPCHandle", err)
	}
	data, _ := h.MarshalBinary()
	otherProcess(t)
	var got IPCEventHandle
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	o, err := c.OpenIPCEvent(got)
	if err != nil {
		t.Fatal(err)
	}
	if o.Raw() == e.Raw() || o.Raw() == 0 {
		t.Errorf("opened event %#x, exported %#x", o.Raw(), e.Raw())
	}
	o.Close()
	want := "cuEventCreate cuIpcGetEventHandle cuIpcOpenEventHandle"
	if got := strings.Join(f.vmCalls(), " "); got != want {
		t.Errorf("calls %s, want %s", got, want)
	}
}

// TestIPCHandleBounds: a handle whose buffer ends past the allocation it
// opens as (bytes changed on the way, or sent from a smaller buffer) is
// ErrIPCHandle, the mapping closed again; so is a pool pointer's.
func TestIPCHandleBounds(t *testing.T) {
	f, c := newFake(t)
	b, _ := Alloc[float32](c, 100)
	h, err := b.Slice(10, 30).ExportIPC()
	if err != nil {
		t.Fatal(err)
	}
	otherProcess(t)
	f.mu.Lock()
	f.vm.ipcSize = 100 // bytes: the view ends at 120
	f.mu.Unlock()
	if _, err := OpenIPC(c, h); !errors.Is(err, ErrIPCHandle) || !strings.Contains(err.Error(), "past the 100 bytes") {
		t.Errorf("OpenIPC past the mapping = %v, want ErrIPCHandle", err)
	} else {
		t.Log(err)
	}
	f.mu.Lock()
	opened := len(f.vm.opened)
	f.mu.Unlock()
	if opened != 0 {
		t.Errorf("%d IPC mappings left open after the refused OpenIPC", opened)
	}

	s, closeStream := fakeStream(c, 0x51)
	p, _ := c.NewIPCMemPool(MemPoolOptions{})
	pb, _ := AllocFromPool[int32](p.MemPool, s, 64)
	pp, err := ExportPoolPointer(pb)
	if err != nil {
		t.Fatal(err)
	}
	otherProcess(t)
	data, _ := pp.MarshalBinary()
	binary.LittleEndian.PutUint64(data[24:], 65) // one element more than sent
	var bad PoolPointer[int32]
	if err := bad.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	fd, _ := p.ExportFD()
	ip, err := c.ImportMemPool(fd)
	fd.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ImportPoolPointer(ip, s, bad); !errors.Is(err, ErrIPCHandle) || !strings.Contains(err.Error(), "past the 256 bytes") {
		t.Errorf("ImportPoolPointer of 65 elements of a 64-element buffer = %v, want ErrIPCHandle", err)
	} else {
		t.Log(err)
	}
	ip.Close()
	pb.Close()
	p.Close()
	closeStream()
	b.Close()
	c.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Errorf("live %d released %d, want 0 1: the refused mappings leaked", live, released)
	}
}

// TestIPCHandleMisaligned: a handle whose offset no element of T can have
// is refused before any driver call, for both kinds of handle. Was
// (issue 37): OpenIPC[float32] of offset 2079 mapped the memory and
// returned a buffer whose first use is a misaligned-address fault, sticky
// for the whole context.
func TestIPCHandleMisaligned(t *testing.T) {
	f, c := newFake(t)
	b, _ := Alloc[float32](c, 1024)
	h, err := b.Slice(10, 30).ExportIPC()
	if err != nil {
		t.Fatal(err)
	}
	s, closeStream := fakeStream(c, 0x51)
	defer closeStream()
	p, err := c.NewIPCMemPool(MemPoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pb, err := AllocFromPool[float32](p.MemPool, s, 64)
	if err != nil {
		t.Fatal(err)
	}
	pp, err := ExportPoolPointer(pb)
	if err != nil {
		t.Fatal(err)
	}
	fd, _ := p.ExportFD()
	ip, err := c.ImportMemPool(fd)
	fd.Close()
	if err != nil {
		t.Fatal(err)
	}
	otherProcess(t)
	misaligned := func(data []byte) []byte {
		binary.LittleEndian.PutUint64(data[16:], 2079)
		return data
	}
	f.mu.Lock()
	f.vm.calls = nil
	f.mu.Unlock()
	data, _ := h.MarshalBinary()
	var bad IPCHandle[float32]
	if err := bad.UnmarshalBinary(misaligned(data)); err != nil {
		t.Fatal(err)
	}
	if buf, err := OpenIPC(c, bad); !errors.Is(err, ErrIPCHandle) || !strings.Contains(err.Error(), "offset 2079 is not a multiple of float32's alignment, 4 bytes") {
		t.Errorf("OpenIPC[float32] at offset 2079 = %v, %v; want ErrIPCHandle naming the alignment", buf, err)
	} else {
		t.Log(err)
	}
	data, _ = pp.MarshalBinary()
	var badp PoolPointer[float32]
	if err := badp.UnmarshalBinary(misaligned(data)); err != nil {
		t.Fatal(err)
	}
	if buf, err := ImportPoolPointer(ip, s, badp); !errors.Is(err, ErrIPCHandle) || !strings.Contains(err.Error(), "alignment") {
		t.Errorf("ImportPoolPointer[float32] at offset 2079 = %v, %v; want ErrIPCHandle naming the alignment", buf, err)
	}
	if got := f.vmCalls(); len(got) != 0 {
		t.Errorf("driver calls %v, want none: the handle is refused first", got)
	}
}
