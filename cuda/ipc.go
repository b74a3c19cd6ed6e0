package cuda

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// Sharing device memory between processes (Linux). Three ways:
//
//   - A buffer from [Alloc] (cuMemAlloc): [Buffer.ExportIPC] gives an
//     [IPCHandle], bytes to send to another process by any means (a pipe,
//     a socket, a file); there [OpenIPC] maps the memory
//     (cuIpcOpenMemHandle) as a Buffer whose Close unmaps it
//     (cuIpcCloseMemHandle).
//   - A memory pool made to be shared ([Context.NewIPCMemPool]): its file
//     descriptor ([IPCMemPool.ExportFD]) goes to the other process over a
//     Unix socket ([SendFiles], [ReceiveFiles]) or as an inherited file
//     (exec.Cmd.ExtraFiles); there [Context.ImportMemPool] opens the pool.
//     Then each stream-ordered buffer allocated from it is shared by
//     [ExportPoolPointer], bytes again, and mapped there by
//     [ImportPoolPointer].
//   - Events made with [Context.NewIPCEvent]: [IPCEvent.Export] gives
//     bytes, [Context.OpenIPCEvent] the event in the other process, to
//     record and wait on across processes.
//
// The handles carry, besides the driver's 64 bytes, the offset and length
// of the buffer (a view shares its allocation and is found again at its
// offset), the element size, checked on import, and a token of the
// exporting process: opening a handle in the process that made it is an
// error before any driver call (the driver maps another process's
// handles, not a process's own: use the buffer itself there). The exporting process must keep the memory alive until
// the importers have closed their mappings: agree on that through the
// channel the handles travel on, or with an IPC event.

// ipcDriver is the part of the driver that IPC calls (a fake in the
// tests).
type ipcDriver interface {
	ipcGetMemHandle(p cu.Deviceptr) (cu.IpcMemHandle, error)
	ipcOpenMemHandle(h cu.IpcMemHandle) (cu.Deviceptr, error)
	// addressRange returns the size of the allocation that starts at p
	// (cuMemGetAddressRange).
	addressRange(p cu.Deviceptr) (uint64, error)
	eventCreate(flags uint32) (cu.Event, error)
	ipcGetEventHandle(e cu.Event) (cu.IpcEventHandle, error)
	ipcOpenEventHandle(h cu.IpcEventHandle) (cu.Event, error)
	// memPoolExportFD returns a new descriptor of the pool
	// (cuMemPoolExportToShareableHandle, POSIX file descriptor).
	memPoolExportFD(pool cu.MemoryPool) (int, error)
	// memPoolImportFD opens the pool of the descriptor fd, which stays
	// the caller's (cuMemPoolImportFromShareableHandle).
	memPoolImportFD(fd int) (cu.MemoryPool, error)
	memPoolExportPointer(p cu.Deviceptr) (cu.MemPoolPtrExportData, error)
	// memPoolImportPointer maps an exported pool allocation; st is the
	// stream its free will be on (the fake checks the free's).
	memPoolImportPointer(pool cu.MemoryPool, d *cu.MemPoolPtrExportData, st cu.Stream) (cu.Deviceptr, error)
	memPoolGetAccess(pool cu.MemoryPool, loc *cu.MemLocation) (cu.MemAccessFlags, error)
}

var (
	// ErrIPCHandle is wrapped by the errors of IPC handles that cannot be
	// opened: bytes of the wrong length or kind, another element type,
	// or a handle exported by this very process.
	ErrIPCHandle = errors.New("cuda: bad IPC handle")
	// ErrNotExportable is wrapped by the errors of an export of memory
	// that cannot be shared that way.
	ErrNotExportable = errors.New("cuda: memory not exportable")
)

// processToken tells this process's handles from another's.
var processToken = rand.Uint64() | 1

// IPCHandleSize is the length of an encoded [IPCHandle], [PoolPointer]
// and [IPCEventHandle].
const IPCHandleSize = 4 + 4 + 8 + 8 + 8 + 8 + 64

// The first bytes of each kind of encoded handle.
const (
	magicMem   = "CGim"
	magicPool  = "CGip"
	magicEvent = "CGie"
)

// ipcData is what every handle encodes: the driver's bytes and where the
// buffer lies in the shared allocation.
type ipcData struct {
	raw   [64]byte
	off   uint64 // the buffer's byte offset in the allocation
	n     uint64 // elements
	elem  uint64 // element size
	token uint64 // the exporting process's processToken
}

// marshal encodes d: magic, 4 zero bytes, elem, off, n, token, raw.
func (d *ipcData) marshal(magic string) []byte {
	b := make([]byte, IPCHandleSize)
	copy(b, magic)
	binary.LittleEndian.PutUint64(b[8:], d.elem)
	binary.LittleEndian.PutUint64(b[16:], d.off)
	binary.LittleEndian.PutUint64(b[24:], d.n)
	binary.LittleEndian.PutUint64(b[32:], d.token)
	copy(b[40:], d.raw[:])
	return b
}

func (d *ipcData) unmarshal(what, magic string, b []byte) error {
	if len(b) != IPCHandleSize {
		return fmt.Errorf("%w: %s of %d bytes, want %d", ErrIPCHandle, what, len(b), IPCHandleSize)
	}
	if string(b[:4]) != magic {
		return fmt.Errorf("%w: %s: the bytes are no %s (they start %q)", ErrIPCHandle, what, what, b[:4])
	}
	d.elem = binary.LittleEndian.Uint64(b[8:])
	d.off = binary.LittleEndian.Uint64(b[16:])
	d.n = binary.LittleEndian.Uint64(b[24:])
	d.token = binary.LittleEndian.Uint64(b[32:])
	copy(d.raw[:], b[40:])
	return nil
}

// check returns the error of opening d as what of T in this process.
func checkIPC[T any](what string, d *ipcData) (int, error) {
	if d.token == 0 {
		return 0, fmt.Errorf("%w: %s: the zero value, not one exported", ErrIPCHandle, what)
	}
	if d.token == processToken {
		return 0, fmt.Errorf("%w: %s exported by this process: use the buffer itself (the driver maps another process's handles)", ErrIPCHandle, what)
	}
	size, err := elemSize[T](what, 0)
	if err != nil {
		return 0, err
	}
	if d.elem != size {
		return 0, fmt.Errorf("%w: %s[%s]: exported with %d-byte elements, %s has %d", ErrIPCHandle, what, typeName[T](), d.elem, typeName[T](), size)
	}
	if d.n > 1<<62/size || d.off > 1<<62 {
		return 0, fmt.Errorf("%w: %s: %d elements at offset %d overflow", ErrIPCHandle, what, d.n, d.off)
	}
	// A misaligned pointer faults on the device, and the fault is sticky:
	// the whole context is lost, not just this buffer.
	if align := uint64(unsafe.Alignof(*new(T))); d.off%align != 0 {
		return 0, fmt.Errorf("%w: %s[%s]: offset %d is not a multiple of %s's alignment, %d bytes", ErrIPCHandle, what, typeName[T](), d.off, typeName[T](), align)
	}
	return int(d.n), nil
}

// checkBounds returns the error of a handle whose buffer lies past the
// size bytes of the allocation it was opened as.
func checkBounds(what string, d *ipcData, size uint64) error {
	if end := d.off + d.n*d.elem; end > size {
		return fmt.Errorf("%w: %s: %d elements of %d bytes at offset %d end past the %d bytes mapped", ErrIPCHandle, what, d.n, d.elem, d.off, size)
	}
	return nil
}

// IPCHandle is a [Buffer]'s device memory exported for another process
// (cuIpcGetMemHandle): bytes to send ([IPCHandle.MarshalBinary]), opened
// there with [OpenIPC].
type IPCHandle[T any] struct{ d ipcData }

// Raw returns the driver's handle of the whole allocation, for the cu
// package.
func (h IPCHandle[T]) Raw() cu.IpcMemHandle { return cu.IpcMemHandle{Reserved: h.d.raw} }

// Len returns the number of elements of the exported buffer.
func (h IPCHandle[T]) Len() int { return int(h.d.n) }

// MarshalBinary returns the handle's [IPCHandleSize] bytes.
func (h IPCHandle[T]) MarshalBinary() ([]byte, error) {
	return h.d.marshal(magicMem), nil
}

// UnmarshalBinary sets h from bytes made by MarshalBinary (in another
// process); it checks their length and kind, [OpenIPC] the rest.
func (h *IPCHandle[T]) UnmarshalBinary(b []byte) error {
	return h.d.unmarshal("IPCHandle", magicMem, b)
}

// ExportIPC exports b's memory for other processes (cuIpcGetMemHandle on
// the allocation b is part of). b must come from [Alloc] or [AllocFrom]:
// stream-ordered memory is shared through an IPC pool
// ([ExportPoolPointer]), managed memory and memory opened from another
// process cannot be (ErrNotExportable, before any driver call). Keep b's
// allocation open until the other processes have closed theirs.
func (b *Buffer[T]) ExportIPC() (IPCHandle[T], error) {
	var h IPCHandle[T]
	r := b.a.r
	switch {
	case r.kind == kindMem && !b.a.managed:
	case r.kind == kindNone:
		return h, fmt.Errorf("%w: an empty buffer has no memory to share", ErrNotExportable)
	case r.kind == kindMemAsync:
		return h, fmt.Errorf("%w: stream-ordered memory: allocate from an IPC pool (Context.NewIPCMemPool) and use ExportPoolPointer", ErrNotExportable)
	default:
		what := r.kind.String()
		if b.a.managed {
			what = "managed memory"
		}
		return h, fmt.Errorf("%w: %s: cuIpcGetMemHandle shares only cuMemAlloc's memory (Alloc)", ErrNotExportable, what)
	}
	err := r.do(func() error {
		raw, err := r.ctx.drv.ipcGetMemHandle(cu.Deviceptr(r.h))
		h.d.raw = raw.Reserved
		return err
	})
	if err != nil {
		return IPCHandle[T]{}, err
	}
	h.d.off = uint64(b.ptr) - r.h
	h.d.n = uint64(b.n)
	h.d.elem = uint64(unsafe.Sizeof(*new(T)))
	h.d.token = processToken
	return h, nil
}

// OpenIPC maps memory another process exported ([Buffer.ExportIPC]) into
// c (cuIpcOpenMemHandle, with CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS: memory
// on another device needs no peer access enabled first) and returns the
// exported buffer over it; its length and offset are checked against the
// mapping the driver made (ErrIPCHandle). Its Close unmaps it (cuIpcCloseMemHandle); it cannot be exported
// again. A handle of another element size, or exported by this process,
// is an error wrapping ErrIPCHandle, before any driver call.
func OpenIPC[T any](c *Context, h IPCHandle[T]) (*Buffer[T], error) {
	n, err := checkIPC[T]("IPCHandle", &h.d)
	if err != nil {
		return nil, err
	}
	var b *Buffer[T]
	err = c.do(func(s *ctxState) error {
		base, err := s.drv.ipcOpenMemHandle(cu.IpcMemHandle{Reserved: h.d.raw})
		if err != nil {
			return err
		}
		a := &devAlloc{}
		a.r = newResource(a, s, kindIPCMem, uint64(base), nil)
		// The driver's size of the mapping bounds the buffer; a driver
		// that does not say leaves it unchecked.
		if size, err := s.drv.addressRange(base); err == nil {
			if err := checkBounds("IPCHandle", &h.d, size); err != nil {
				a.r.free()
				return err
			}
		}
		b = &Buffer[T]{a: a, ptr: base + cu.Deviceptr(h.d.off), n: n}
		return nil
	})
	return b, err
}

// IPCEvent is an event other processes can wait on (CU_EVENT_INTERPROCESS,
// without timing): [IPCEvent.Export] shares it, [Context.OpenIPCEvent]
// opens it there. It is an [Event] otherwise, less [Elapsed].
type IPCEvent struct{ *Event }

// NewIPCEvent creates an event to share with other processes
// (cuEventCreate with CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING, as
// the driver requires).
func (c *Context) NewIPCEvent() (*IPCEvent, error) {
	var e *IPCEvent
	err := c.do(func(s *ctxState) error {
		h, err := s.drv.eventCreate(uint32(cu.EventInterprocess | cu.EventDisableTiming))
		if err == nil {
			e = &IPCEvent{&Event{}}
			e.r = newResource(e.Event, s, kindEvent, uint64(h), nil)
		}
		return err
	})
	return e, err
}

// IPCEventHandle is an [IPCEvent] exported for another process
// (cuIpcGetEventHandle).
type IPCEventHandle struct{ d ipcData }

// Raw returns the driver's handle, for the cu package.
func (h IPCEventHandle) Raw() cu.IpcEventHandle { return cu.IpcEventHandle{Reserved: h.d.raw} }

// MarshalBinary returns the handle's [IPCHandleSize] bytes.
func (h IPCEventHandle) MarshalBinary() ([]byte, error) { return h.d.marshal(magicEvent), nil }

// UnmarshalBinary sets h from bytes made by MarshalBinary.
func (h *IPCEventHandle) UnmarshalBinary(b []byte) error {
	return h.d.unmarshal("IPCEventHandle", magicEvent, b)
}

// Export exports the event for other processes (cuIpcGetEventHandle).
func (e *IPCEvent) Export() (IPCEventHandle, error) {
	var h IPCEventHandle
	if e == nil || e.Event == nil {
		return h, errors.New("cuda: nil *IPCEvent")
	}
	err := e.r.do(func() error {
		raw, err := e.r.ctx.drv.ipcGetEventHandle(cu.Event(e.r.h))
		h.d.raw = raw.Reserved
		return err
	})
	if err != nil {
		return IPCEventHandle{}, err
	}
	h.d.token = processToken
	return h, nil
}

// OpenIPCEvent opens an event another process exported
// ([IPCEvent.Export]) in c (cuIpcOpenEventHandle). Recording it here and
// waiting on it there (or the other way) orders work across processes;
// Close destroys this process's copy (cuEventDestroy).
func (c *Context) OpenIPCEvent(h IPCEventHandle) (*Event, error) {
	if h.d.token == 0 {
		return nil, fmt.Errorf("%w: IPCEventHandle: the zero value, not one exported", ErrIPCHandle)
	}
	if h.d.token == processToken {
		return nil, fmt.Errorf("%w: IPCEventHandle exported by this process: use the event itself", ErrIPCHandle)
	}
	var e *Event
	err := c.do(func(s *ctxState) error {
		ev, err := s.drv.ipcOpenEventHandle(cu.IpcEventHandle{Reserved: h.d.raw})
		if err == nil {
			e = &Event{}
			e.r = newResource(e, s, kindEvent, uint64(ev), nil)
		}
		return err
	})
	return e, err
}

// IPCMemPool is a memory pool whose allocations other processes can map:
// made with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR. It is a [MemPool]
// ([AllocFromPool](p.MemPool, ...)) that can also be exported
// ([IPCMemPool.ExportFD]).
type IPCMemPool struct{ *MemPool }

// NewIPCMemPool creates a pool on the context's device, as
// [Context.NewMemPool] does, that can be shared with other processes
// through a file descriptor. The pool is exported once here
// (cuMemPoolExportToShareableHandle), as the driver wants before it
// exports an allocation ([ExportPoolPointer]); the pool holds that
// descriptor until it is destroyed.
func (c *Context) NewIPCMemPool(o MemPoolOptions) (*IPCMemPool, error) {
	var p *IPCMemPool
	err := c.do(func(s *ctxState) error {
		props := cu.MemPoolProps{
			AllocType:   cu.MemAllocationTypePinned,
			HandleTypes: cu.MemHandleTypePosixFileDescriptor,
			Location:    cu.MemLocation{Type: cu.MemLocationTypeDevice, Id: int32(c.dev.ordinal)},
			MaxSize:     o.MaxSize,
		}
		h, err := s.drv.memPoolCreate(&props)
		if err != nil {
			return err
		}
		if o.ReleaseThreshold != 0 {
			if err := s.drv.memPoolSet(h, cu.MempoolAttrReleaseThreshold, o.ReleaseThreshold); err != nil {
				s.drv.destroy(&resource{ctx: s, kind: kindPool, h: uint64(h)})
				return err
			}
		}
		// cuMemPoolExportPointer exports an allocation of an "already
		// shared" pool only: before the pool's first
		// cuMemPoolExportToShareableHandle it is CUDA_ERROR_INVALID_VALUE
		// (NVIDIA's streamOrderedAllocationIPC sample exports the pool
		// first). Sharing the pool here, and holding that descriptor until
		// the pool is destroyed, lets ExportPoolPointer come before
		// ExportFD, or without it.
		fd, err := s.drv.memPoolExportFD(h)
		if err != nil {
			s.drv.destroy(&resource{ctx: s, kind: kindPool, h: uint64(h)})
			return err
		}
		p = &IPCMemPool{&MemPool{dev: c.dev}}
		p.r = newResource(p.MemPool, s, kindPool, uint64(h), nil)
		closeOnExec(fd) // not for every child process
		p.r.keep = os.NewFile(uintptr(fd), "cuda-mempool")
		return nil
	})
	return p, err
}

// closePoolFD closes the descriptor an IPC pool keeps (NewIPCMemPool), once
// the pool is destroyed.
func closePoolFD(r *resource) {
	if f, ok := r.keep.(*os.File); ok {
		f.Close()
		r.keep = nil
	}
}

// ExportFD returns a new file descriptor of the pool
// (cuMemPoolExportToShareableHandle), for another process to open with
// [Context.ImportMemPool]: send it over a Unix socket ([SendFiles]) or
// hand it to a child (exec.Cmd.ExtraFiles). Close the file once sent.
func (p *IPCMemPool) ExportFD() (*os.File, error) {
	if p == nil || p.MemPool == nil {
		return nil, errNilPool
	}
	var fd int
	err := p.r.do(func() (err error) {
		fd, err = p.r.ctx.drv.memPoolExportFD(cu.MemoryPool(p.r.h))
		return err
	})
	if err != nil {
		return nil, err
	}
	closeOnExec(fd) // a child gets it only when handed it (ExtraFiles)
	return os.NewFile(uintptr(fd), "cuda-mempool"), nil
}

// ImportedMemPool is another process's [IPCMemPool], opened in this one
// ([Context.ImportMemPool]): buffers the other process allocated from it
// and exported ([ExportPoolPointer]) are mapped with [ImportPoolPointer].
// An imported pool cannot allocate.
type ImportedMemPool struct {
	r   *resource
	dev Device
}

// ImportMemPool opens the pool whose descriptor another process exported
// ([IPCMemPool.ExportFD]) in c (cuMemPoolImportFromShareableHandle). f
// stays the caller's to close. Close the pool (cuMemPoolDestroy) after
// the buffers mapped from it.
func (c *Context) ImportMemPool(f *os.File) (*ImportedMemPool, error) {
	if f == nil {
		return nil, errors.New("cuda: ImportMemPool: nil *os.File")
	}
	sc, err := f.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("cuda: ImportMemPool: %w", err)
	}
	var p *ImportedMemPool
	err = c.do(func(s *ctxState) error {
		var err error
		cerr := sc.Control(func(fd uintptr) {
			var h cu.MemoryPool
			if h, err = s.drv.memPoolImportFD(int(fd)); err == nil {
				p = &ImportedMemPool{dev: c.dev}
				p.r = newResource(p, s, kindPool, uint64(h), nil)
			}
		})
		if cerr != nil {
			return fmt.Errorf("cuda: ImportMemPool: %w", cerr)
		}
		return err
	})
	return p, err
}

// Raw returns the driver's handle, for the cu package.
func (p *ImportedMemPool) Raw() cu.MemoryPool { return cu.MemoryPool(p.r.h) }

// Close destroys this process's copy of the pool (cuMemPoolDestroy). A
// second Close returns ErrFreed.
func (p *ImportedMemPool) Close() error { return p.r.free() }

// Access returns the access device d has to the pool's memory
// (cuMemPoolGetAccess).
func (p *ImportedMemPool) Access(d Device) (cu.MemAccessFlags, error) {
	var f cu.MemAccessFlags
	loc := cu.MemLocation{Type: cu.MemLocationTypeDevice, Id: int32(d.ordinal)}
	err := p.r.do(func() (err error) {
		f, err = p.r.ctx.drv.memPoolGetAccess(cu.MemoryPool(p.r.h), &loc)
		return err
	})
	return f, err
}

// SetAccess sets the access device d has to the pool's memory in this
// process (cuMemPoolSetAccess): cu.MemAccessFlagsProtReadwrite to use it
// from d.
func (p *ImportedMemPool) SetAccess(d Device, flags cu.MemAccessFlags) error {
	desc := cu.MemAccessDesc{Location: cu.MemLocation{Type: cu.MemLocationTypeDevice, Id: int32(d.ordinal)}, Flags: flags}
	return p.r.do(func() error { return p.r.ctx.drv.memPoolSetAccess(cu.MemoryPool(p.r.h), &desc) })
}

// PoolPointer is a buffer of an [IPCMemPool] exported for another process
// (cuMemPoolExportPointer): bytes to send, mapped there by
// [ImportPoolPointer] from the imported pool.
type PoolPointer[T any] struct{ d ipcData }

// Raw returns the driver's export data of the whole allocation, for the
// cu package.
func (h PoolPointer[T]) Raw() cu.MemPoolPtrExportData {
	return cu.MemPoolPtrExportData{Reserved: h.d.raw}
}

// Len returns the number of elements of the exported buffer.
func (h PoolPointer[T]) Len() int { return int(h.d.n) }

// MarshalBinary returns the pointer's [IPCHandleSize] bytes.
func (h PoolPointer[T]) MarshalBinary() ([]byte, error) { return h.d.marshal(magicPool), nil }

// UnmarshalBinary sets h from bytes made by MarshalBinary.
func (h *PoolPointer[T]) UnmarshalBinary(b []byte) error {
	return h.d.unmarshal("PoolPointer", magicPool, b)
}

// ExportPoolPointer exports b, allocated from an [IPCMemPool]
// ([AllocFromPool]), for the processes that imported the pool
// (cuMemPoolExportPointer). Memory that is not stream-ordered is an
// error wrapping ErrNotExportable before any driver call ([Buffer.ExportIPC]
// shares Alloc's); a buffer of a pool made without IPC is the driver's
// error. Free b only after the importers have freed theirs (or in stream
// order after them).
func ExportPoolPointer[T any](b *Buffer[T]) (PoolPointer[T], error) {
	var h PoolPointer[T]
	r := b.a.r
	switch r.kind {
	case kindMemAsync:
	case kindMem:
		return h, fmt.Errorf("%w: memory from cuMemAlloc: allocate from an IPC pool (AllocFromPool), or share it with Buffer.ExportIPC", ErrNotExportable)
	default:
		return h, fmt.Errorf("%w: %s: only memory allocated from an IPC pool (AllocFromPool) is exported by pointer", ErrNotExportable, r.kind)
	}
	err := r.do(func() error {
		d, err := r.ctx.drv.memPoolExportPointer(cu.Deviceptr(r.h))
		h.d.raw = d.Reserved
		return err
	})
	if err != nil {
		return PoolPointer[T]{}, err
	}
	h.d.off = uint64(b.ptr) - r.h
	h.d.n = uint64(b.n)
	h.d.elem = uint64(unsafe.Sizeof(*new(T)))
	h.d.token = processToken
	return h, nil
}

// ImportPoolPointer maps a buffer another process exported
// ([ExportPoolPointer]) from pool p, which this process imported
// (cuMemPoolImportPointer). Its Close frees the mapping in stream order on
// s (cuMemFreeAsync), as a buffer of [AllocFromPool] is freed; the
// exporting process frees the memory itself after that. p and s must be
// of one context.
func ImportPoolPointer[T any](p *ImportedMemPool, s *Stream, h PoolPointer[T]) (*Buffer[T], error) {
	if p == nil {
		return nil, errors.New("cuda: nil *ImportedMemPool")
	}
	if s == nil {
		return nil, errNilStream
	}
	n, err := checkIPC[T]("PoolPointer", &h.d)
	if err != nil {
		return nil, err
	}
	if err := p.r.use(); err != nil {
		return nil, err
	}
	defer p.r.uses.release()
	st := s.st
	if p.r.ctx.ctx != st.ctx.ctx {
		return nil, errPoolContext
	}
	var b *Buffer[T]
	err = st.do(func() error {
		raw := cu.MemPoolPtrExportData{Reserved: h.d.raw}
		base, err := st.ctx.drv.memPoolImportPointer(cu.MemoryPool(p.r.h), &raw, st.h)
		if err != nil {
			return err
		}
		a := &devAlloc{}
		a.r = newResource(a, st.ctx, kindMemAsync, uint64(base), nil)
		a.r.st = st
		// The driver's size of the mapping bounds the buffer; a driver
		// that does not say leaves it unchecked.
		if size, err := st.ctx.drv.addressRange(base); err == nil {
			if err := checkBounds("PoolPointer", &h.d, size); err != nil {
				a.r.free()
				return err
			}
		}
		b = &Buffer[T]{a: a, ptr: base + cu.Deviceptr(h.d.off), n: n}
		return nil
	})
	return b, err
}

func (realDriver) ipcGetMemHandle(p cu.Deviceptr) (cu.IpcMemHandle, error) {
	return cu.IpcGetMemHandle(p)
}

func (realDriver) ipcOpenMemHandle(h cu.IpcMemHandle) (cu.Deviceptr, error) {
	return cu.IpcOpenMemHandle(h, uint32(cu.IpcMemLazyEnablePeerAccess))
}

func (realDriver) addressRange(p cu.Deviceptr) (uint64, error) {
	_, size, err := cu.MemGetAddressRange(p)
	return size, err
}

func (realDriver) eventCreate(flags uint32) (cu.Event, error) { return cu.EventCreate(flags) }

func (realDriver) ipcGetEventHandle(e cu.Event) (cu.IpcEventHandle, error) {
	return cu.IpcGetEventHandle(e)
}

func (realDriver) ipcOpenEventHandle(h cu.IpcEventHandle) (cu.Event, error) {
	return cu.IpcOpenEventHandle(h)
}

func (realDriver) memPoolExportFD(pool cu.MemoryPool) (int, error) {
	var fd int32 // the C int the driver writes
	err := cu.MemPoolExportToShareableHandle(unsafe.Pointer(&fd), pool, cu.MemHandleTypePosixFileDescriptor, 0)
	return int(fd), err
}

func (realDriver) memPoolImportFD(fd int) (cu.MemoryPool, error) {
	// The driver takes the descriptor's number in the pointer's place.
	// A Go pointer slot holding a number below 4096 crashes the runtime
	// if the stack moves while it is live ("invalid pointer found on
	// stack"), so the number passed is a duplicate of at least 4096 when
	// the limit on descriptors allows one.
	if hi, err := dupHigh(fd); err == nil {
		defer closeFD(hi)
		fd = hi
	}
	u := uintptr(fd)
	return cu.MemPoolImportFromShareableHandle(*(*unsafe.Pointer)(unsafe.Pointer(&u)), cu.MemHandleTypePosixFileDescriptor, 0)
}

func (realDriver) memPoolExportPointer(p cu.Deviceptr) (cu.MemPoolPtrExportData, error) {
	return cu.MemPoolExportPointer(p)
}

func (realDriver) memPoolImportPointer(pool cu.MemoryPool, d *cu.MemPoolPtrExportData, _ cu.Stream) (cu.Deviceptr, error) {
	return cu.MemPoolImportPointer(pool, d)
}

func (realDriver) memPoolGetAccess(pool cu.MemoryPool, loc *cu.MemLocation) (cu.MemAccessFlags, error) {
	return cu.MemPoolGetAccess(pool, loc)
}
