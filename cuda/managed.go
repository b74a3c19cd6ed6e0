package cuda

import (
	"errors"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// AllocManaged allocates n elements of managed (unified) memory in c
// (cuMemAllocManaged, CU_MEM_ATTACH_GLOBAL): one address valid on the host
// and on every device, migrated on demand by the driver. It is a Buffer:
// every Buffer method and kernel argument takes it; [Buffer.Host] gives the
// host's view, [Buffer.Prefetch] and [Buffer.Advise] steer the migration,
// [Buffer.AttachToStream] ties it to one stream. Close frees it (cuMemFree).
func AllocManaged[T any](c *Context, n int) (*Buffer[T], error) {
	return allocBuffer[T](c, n, true, func(s *ctxState, bytes uint64) (cu.Deviceptr, error) {
		return s.drv.memAllocManaged(bytes, uint32(cu.MemAttachGlobal))
	})
}

// ErrNotManaged is returned by the managed-memory methods of a Buffer that
// AllocManaged did not make.
var ErrNotManaged = errors.New("cuda: not managed memory (AllocManaged makes it)")

// managed checks b is open managed memory.
func (b *Buffer[T]) managed() error {
	if !b.a.managed {
		return ErrNotManaged
	}
	return b.a.r.alive()
}

// Host returns managed memory as a Go slice for the host to read and
// write. It is valid until Close: keep b reachable while the slice is
// used (runtime.KeepAlive), and touch it only while no kernel may use the
// memory (after a Synchronize), unless the device reports
// CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS: on other devices a host
// access during a kernel faults.
func (b *Buffer[T]) Host() ([]T, error) {
	if err := b.managed(); err != nil {
		return nil, err
	}
	if b.n == 0 {
		return nil, nil
	}
	// The address is the host's too: read it as a pointer in place
	// (vet rejects a uintptr conversion, though the memory is not Go's).
	return unsafe.Slice((*T)(*(*unsafe.Pointer)(unsafe.Pointer(&b.ptr))), b.n), nil
}

// Prefetch queues a migration of managed memory to device d on s
// (cuMemPrefetchAsync), so that work there finds it resident.
func (b *Buffer[T]) Prefetch(s *Stream, d Device) error {
	return b.prefetch(s, d.dev)
}

// PrefetchToHost queues a migration of managed memory to the host on s
// (cuMemPrefetchAsync to CU_DEVICE_CPU, or the host location).
func (b *Buffer[T]) PrefetchToHost(s *Stream) error {
	return b.prefetch(s, cu.DeviceCpu)
}

func (b *Buffer[T]) prefetch(s *Stream, dev cu.Device) error {
	if err := b.managed(); err != nil || b.n == 0 {
		return err
	}
	return s.deviceOp(b.a.r, func(st cu.Stream) error {
		return b.a.r.ctx.drv.memPrefetch(b.ptr, b.Bytes(), dev, st)
	})
}

// Advise gives the driver advice on managed memory for device d
// (cuMemAdvise): cu.MemAdviseSetReadMostly, SetPreferredLocation,
// SetAccessedBy and their Unset.
func (b *Buffer[T]) Advise(advice cu.CUmemAdvise, d Device) error {
	return b.advise(advice, d.dev)
}

// AdviseHost is Advise for the host (CU_DEVICE_CPU, or the host location).
func (b *Buffer[T]) AdviseHost(advice cu.CUmemAdvise) error {
	return b.advise(advice, cu.DeviceCpu)
}

func (b *Buffer[T]) advise(advice cu.CUmemAdvise, dev cu.Device) error {
	if err := b.managed(); err != nil || b.n == 0 {
		return err
	}
	return b.a.r.do(func() error { return b.a.r.ctx.drv.memAdvise(b.ptr, b.Bytes(), advice, dev) })
}

// AttachToStream queues the attachment of the whole managed allocation
// (the buffer it was sliced from, for a view) to s
// (cuStreamAttachMemAsync): with cu.MemAttachSingle only s's work uses it,
// and the host may use it while other streams run; cu.MemAttachHost and
// cu.MemAttachGlobal undo that.
func (b *Buffer[T]) AttachToStream(s *Stream, flags cu.MemAttachFlags) error {
	if err := b.managed(); err != nil || b.n == 0 {
		return err
	}
	return s.deviceOp(b.a.r, func(st cu.Stream) error {
		return b.a.r.ctx.drv.attachMem(st, cu.Deviceptr(b.a.r.h), uint32(flags))
	})
}

func (realDriver) memAllocManaged(bytes uint64, flags uint32) (cu.Deviceptr, error) {
	return cu.MemAllocManaged(bytes, flags)
}

// memLocation is dev as the CUmemLocation of the _v2 calls.
func memLocation(dev cu.Device) cu.MemLocation {
	if dev == cu.DeviceCpu {
		return cu.MemLocation{Type: cu.MemLocationTypeHost}
	}
	return cu.MemLocation{Type: cu.MemLocationTypeDevice, Id: int32(dev)}
}

// memPrefetch calls cuMemPrefetchAsync, whose Go signature differs between
// the majors: CUDA 12's takes a CUdevice (the v1 symbol, in every 12.x
// driver), CUDA 13's a CUmemLocation and flags (the _v2 symbol). A type
// switch on the function value compiles in both copies of the layer and
// keeps the one case that matches (docs/layer.md).
func (realDriver) memPrefetch(p cu.Deviceptr, bytes uint64, dev cu.Device, st cu.Stream) error {
	switch f := any(cu.MemPrefetchAsync).(type) {
	case func(cu.Deviceptr, uint64, cu.Device, cu.Stream) error:
		return f(p, bytes, dev, st)
	case func(cu.Deviceptr, uint64, cu.MemLocation, uint32, cu.Stream) error:
		return f(p, bytes, memLocation(dev), 0, st)
	}
	return errSignature
}

// memAdvise calls cuMemAdvise, which differs between the majors as
// cuMemPrefetchAsync does.
func (realDriver) memAdvise(p cu.Deviceptr, bytes uint64, advice cu.CUmemAdvise, dev cu.Device) error {
	switch f := any(cu.MemAdvise).(type) {
	case func(cu.Deviceptr, uint64, cu.CUmemAdvise, cu.Device) error:
		return f(p, bytes, advice, dev)
	case func(cu.Deviceptr, uint64, cu.CUmemAdvise, cu.MemLocation) error:
		return f(p, bytes, advice, memLocation(dev))
	}
	return errSignature
}

// errSignature would be a copy of the layer whose cu has neither signature
// (TestManagedSignatures keeps it from happening).
var errSignature = errors.New("cuda: this major's cu package has an unknown signature for the call")

func (realDriver) attachMem(st cu.Stream, p cu.Deviceptr, flags uint32) error {
	return cu.StreamAttachMemAsync(st, p, 0, flags)
}
