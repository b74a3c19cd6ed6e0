package cuda

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// memDriver is the part of the driver that stream-ordered memory, memory
// pools and registered host memory call (a fake in the tests).
type memDriver interface {
	// memAllocAsync allocates on st from pool, or from the device's
	// current pool when pool is 0 (cuMemAllocAsync).
	memAllocAsync(bytes uint64, pool cu.MemoryPool, st cu.Stream) (cu.Deviceptr, error)
	memPoolCreate(props *cu.MemPoolProps) (cu.MemoryPool, error)
	defaultMemPool(dev cu.Device) (cu.MemoryPool, error)
	memPoolGet(pool cu.MemoryPool, attr cu.MemPoolAttribute) (uint64, error)
	memPoolSet(pool cu.MemoryPool, attr cu.MemPoolAttribute, v uint64) error
	memPoolTrim(pool cu.MemoryPool, keep uint64) error
	memPoolSetAccess(pool cu.MemoryPool, desc *cu.MemAccessDesc) error
	hostRegister(p unsafe.Pointer, bytes uint64) error
	memAllocManaged(bytes uint64, flags uint32) (cu.Deviceptr, error)
	// memPrefetch and memAdvise take the device, or cu.DeviceCpu for
	// the host.
	memPrefetch(p cu.Deviceptr, bytes uint64, dev cu.Device, st cu.Stream) error
	memAdvise(p cu.Deviceptr, bytes uint64, advice cu.CUmemAdvise, dev cu.Device) error
	attachMem(st cu.Stream, p cu.Deviceptr, flags uint32) error
	memAllocPitch(width, height uint64, elem uint32) (cu.Deviceptr, uint64, error)
}

// AllocAsync allocates n elements of device memory in stream order on s
// (cuMemAllocAsync), from the device's current memory pool (its default
// pool unless cuDeviceSetMemPool chose another): the memory may be used by
// the work queued on s after this call, or on another stream once it waits
// for s. The buffer's Close frees it in stream order too, with
// cuMemFreeAsync on s, without waiting for the device (or with cuMemFree,
// which waits, when s was closed first; a Close while s is captured
// frees at the capture's end, not in the graph). Freed memory returns to the pool
// and is reused by the next allocations of the stream without a trip to
// the driver's allocator, so allocating and freeing in a loop is cheap.
func AllocAsync[T any](s *Stream, n int) (*Buffer[T], error) {
	return allocAsync[T](s, nil, n)
}

// AllocFromPool allocates n elements on s from pool p
// (cuMemAllocFromPoolAsync), in stream order as [AllocAsync] does. The
// buffer's Close frees it with cuMemFreeAsync on s. p and s must be of one
// context.
func AllocFromPool[T any](p *MemPool, s *Stream, n int) (*Buffer[T], error) {
	if p == nil {
		return nil, errNilPool
	}
	return allocAsync[T](s, p, n)
}

var errNilPool = fmt.Errorf("cuda: nil *MemPool (Context.DefaultMemPool returns the device's)")

func allocAsync[T any](s *Stream, p *MemPool, n int) (*Buffer[T], error) {
	size, err := elemSize[T]("Buffer", n)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errNilStream
	}
	st := s.st
	var pool cu.MemoryPool
	if p != nil {
		if err := p.r.use(); err != nil {
			return nil, err
		}
		defer p.r.uses.release()
		if p.r.ctx.ctx != st.ctx.ctx {
			return nil, errPoolContext
		}
		pool = cu.MemoryPool(p.r.h)
	}
	var b *Buffer[T]
	err = st.do(func() error {
		k := kindNone
		var p cu.Deviceptr
		if n > 0 {
			var err error
			if p, err = st.ctx.drv.memAllocAsync(uint64(n)*size, pool, st.h); err != nil {
				return err
			}
			k = kindMemAsync
		}
		var r *resource
		b, r = newBuffer[T](st.ctx, k, p, n, false) // bufalloc.go
		r.st = st
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

var errPoolContext = fmt.Errorf("cuda: the memory pool belongs to another context than the stream")

// freeOn runs free, the release of r's stream-ordered memory, with r's
// stream and true while the stream is open (it stays open for the call),
// else with false: the stream was closed, so the memory is freed
// synchronously. While the stream is captured, free is not run: r waits
// in the stream's afterCapture for the capture's end (a cuMemFreeAsync
// then would put a free node into the graph, freeing the memory at each
// launch of it), and freeOn returns nil.
//
// The stream's lock, not a use of it, keeps it from being destroyed under
// the cuMemFreeAsync: streamState.destroy calls cuStreamDestroy holding
// it, after the stream is marked closed, so a free that finds the stream
// open under the lock queues before the destroy.
func (r *resource) freeOn(free func(st cu.Stream, async bool) error) error {
	if st := r.st; st != nil {
		st.mu.Lock()
		if !st.uses.closed() {
			var err error
			if st.capturing {
				st.afterCapture = append(st.afterCapture, r)
			} else {
				err = free(st.h, true)
			}
			st.mu.Unlock()
			return err
		}
		st.mu.Unlock()
	}
	return free(0, false)
}

// freeAfterCapture frees the stream-ordered memory whose Close came during
// a capture of the stream: on the stream, or synchronously once the stream
// is closed. The context is current.
func (st *streamState) freeAfterCapture() error {
	st.mu.Lock()
	rs := st.afterCapture
	st.afterCapture = nil
	st.mu.Unlock()
	var err error
	for _, r := range rs {
		if e := st.ctx.drv.destroy(r); err == nil {
			err = e
		}
	}
	return err
}

// destroyMem frees what mempool.go, hostregister.go make, the context
// current.
func (realDriver) destroyMem(r *resource) error {
	switch r.kind {
	case kindMemAsync:
		return r.freeOn(func(st cu.Stream, async bool) error {
			if async {
				return cu.MemFreeAsync(cu.Deviceptr(r.h), st)
			}
			return cu.MemFree(cu.Deviceptr(r.h))
		})
	case kindPool:
		err := cu.MemPoolDestroy(cu.MemoryPool(r.h))
		closePoolFD(r) // ipc.go
		return err
	case kindHostReg:
		err := cu.MemHostUnregister(r.p)
		r.unpin()
		return err
	}
	return nil
}

// MemPool is a CUDA memory pool (CUmemoryPool) of a context's device:
// stream-ordered allocations ([AllocFromPool]) come from it, and freed
// memory returns to it, to be reused or, above its release threshold,
// given back to the device at the next synchronisation.
type MemPool struct {
	r   *resource
	dev Device
}

// MemPoolOptions are the properties of a new pool.
type MemPoolOptions struct {
	// MaxSize caps the pool's reserved memory in bytes (0: the device's
	// memory; CUDA 12.2 and newer honour it).
	MaxSize uint64
	// ReleaseThreshold is the memory the pool keeps reserved across
	// synchronisations, in bytes (0: it releases all it can).
	ReleaseThreshold uint64
}

// NewMemPool creates a memory pool of pinned device memory on the
// context's device (cuMemPoolCreate). Close destroys it; memory still
// allocated from it stays valid until freed.
func (c *Context) NewMemPool(o MemPoolOptions) (*MemPool, error) {
	var p *MemPool
	err := c.do(func(s *ctxState) error {
		props := cu.MemPoolProps{
			AllocType: cu.MemAllocationTypePinned,
			Location:  cu.MemLocation{Type: cu.MemLocationTypeDevice, Id: int32(c.dev.ordinal)},
			MaxSize:   o.MaxSize,
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
		p = &MemPool{dev: c.dev}
		p.r = newResource(p, s, kindPool, uint64(h), nil)
		return nil
	})
	return p, err
}

// DefaultMemPool returns the device's default memory pool
// (cuDeviceGetDefaultMemPool), the one [AllocAsync] uses unless another
// was made current. Its Close only drops the MemPool value.
func (c *Context) DefaultMemPool() (*MemPool, error) {
	var p *MemPool
	err := c.do(func(s *ctxState) error {
		h, err := s.drv.defaultMemPool(s.dev)
		if err != nil {
			return err
		}
		p = &MemPool{dev: c.dev}
		p.r = newResource(p, s, kindNone, uint64(h), nil)
		return nil
	})
	return p, err
}

// Raw returns the driver's handle, for the cu package.
func (p *MemPool) Raw() cu.MemoryPool { return cu.MemoryPool(p.r.h) }

// Close destroys a pool made by NewMemPool (cuMemPoolDestroy), once the
// calls using it on other goroutines have returned; for the default pool
// it only drops the value. A second Close returns ErrFreed.
func (p *MemPool) Close() error { return p.r.free() }

func (p *MemPool) get(attr cu.MemPoolAttribute) (v uint64, err error) {
	err = p.r.do(func() (err error) {
		v, err = p.r.ctx.drv.memPoolGet(cu.MemoryPool(p.r.h), attr)
		return err
	})
	return v, err
}

// ReleaseThreshold returns the bytes the pool keeps reserved across
// synchronisations (CU_MEMPOOL_ATTR_RELEASE_THRESHOLD).
func (p *MemPool) ReleaseThreshold() (uint64, error) {
	return p.get(cu.MempoolAttrReleaseThreshold)
}

// SetReleaseThreshold sets the bytes the pool keeps reserved across
// synchronisations; math.MaxUint64 keeps all it has reserved.
func (p *MemPool) SetReleaseThreshold(bytes uint64) error {
	return p.r.do(func() error {
		return p.r.ctx.drv.memPoolSet(cu.MemoryPool(p.r.h), cu.MempoolAttrReleaseThreshold, bytes)
	})
}

// Trim releases the pool's unused memory to the device until it reserves
// at most keep bytes (cuMemPoolTrimTo).
func (p *MemPool) Trim(keep uint64) error {
	return p.r.do(func() error { return p.r.ctx.drv.memPoolTrim(cu.MemoryPool(p.r.h), keep) })
}

// MemPoolStats is a pool's memory in bytes: Used is allocated and not
// freed, Reserved is held from the device (used or not); the highs are
// the most since the pool's creation.
type MemPoolStats struct {
	Used, UsedHigh, Reserved, ReservedHigh uint64
}

// Stats returns the pool's memory (cuMemPoolGetAttribute of
// CU_MEMPOOL_ATTR_USED_MEM_CURRENT, _USED_MEM_HIGH,
// _RESERVED_MEM_CURRENT and _RESERVED_MEM_HIGH).
func (p *MemPool) Stats() (MemPoolStats, error) {
	var s MemPoolStats
	err := p.r.do(func() error {
		d, h := p.r.ctx.drv, cu.MemoryPool(p.r.h)
		for _, a := range [...]struct {
			attr cu.MemPoolAttribute
			v    *uint64
		}{
			{cu.MempoolAttrUsedMemCurrent, &s.Used},
			{cu.MempoolAttrUsedMemHigh, &s.UsedHigh},
			{cu.MempoolAttrReservedMemCurrent, &s.Reserved},
			{cu.MempoolAttrReservedMemHigh, &s.ReservedHigh},
		} {
			var err error
			if *a.v, err = d.memPoolGet(h, a.attr); err != nil {
				return err
			}
		}
		return nil
	})
	return s, err
}

// SetPeerAccess gives the device of peer read and write access to the
// pool's memory (on true) or takes it away (cuMemPoolSetAccess). Access
// covers the pool's allocations made before the call and after.
func (p *MemPool) SetPeerAccess(peer *Context, on bool) error {
	if _, err := peer.use(); err != nil {
		return err
	}
	defer peer.ref.end()
	if peer.dev.ordinal == p.dev.ordinal {
		return fmt.Errorf("cuda: MemPool.SetPeerAccess: the pool's own device always has access")
	}
	desc := cu.MemAccessDesc{
		Location: cu.MemLocation{Type: cu.MemLocationTypeDevice, Id: int32(peer.dev.ordinal)},
		Flags:    cu.MemAccessFlagsProtNone,
	}
	if on {
		desc.Flags = cu.MemAccessFlagsProtReadwrite
	}
	return p.r.do(func() error { return p.r.ctx.drv.memPoolSetAccess(cu.MemoryPool(p.r.h), &desc) })
}

func (realDriver) memAllocAsync(bytes uint64, pool cu.MemoryPool, st cu.Stream) (cu.Deviceptr, error) {
	if pool == 0 {
		return cu.MemAllocAsync(bytes, st)
	}
	return cu.MemAllocFromPoolAsync(bytes, pool, st)
}

func (realDriver) memPoolCreate(props *cu.MemPoolProps) (cu.MemoryPool, error) {
	return cu.MemPoolCreate(props)
}

func (realDriver) defaultMemPool(dev cu.Device) (cu.MemoryPool, error) {
	return cu.DeviceGetDefaultMemPool(dev)
}

func (realDriver) memPoolGet(pool cu.MemoryPool, attr cu.MemPoolAttribute) (uint64, error) {
	var v uint64 // every attribute read here is a cuuint64_t
	err := cu.MemPoolGetAttribute(pool, attr, unsafe.Pointer(&v))
	return v, err
}

func (realDriver) memPoolSet(pool cu.MemoryPool, attr cu.MemPoolAttribute, v uint64) error {
	return cu.MemPoolSetAttribute(pool, attr, unsafe.Pointer(&v))
}

func (realDriver) memPoolTrim(pool cu.MemoryPool, keep uint64) error {
	return cu.MemPoolTrimTo(pool, keep)
}

func (realDriver) memPoolSetAccess(pool cu.MemoryPool, desc *cu.MemAccessDesc) error {
	return cu.MemPoolSetAccess(pool, desc, 1)
}

func (realDriver) hostRegister(p unsafe.Pointer, bytes uint64) error {
	return cu.MemHostRegister(p, bytes, uint32(cu.MemhostregisterPortable))
}

// unpin ends the pin of registered Go memory (kindHostReg).
func (r *resource) unpin() {
	if pin, ok := r.keep.(*runtime.Pinner); ok {
		pin.Unpin()
	}
	r.keep = nil
}
