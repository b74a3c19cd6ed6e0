package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/cugen/cugen/generated/cuda12/cu"
)

var (
	// ErrFreed is returned by a Free or Close after the first, and by any use
	// of a resource after it.
	ErrFreed = errors.New("cuda: already freed")
	// ErrClosed is returned by a Context's methods after its Close.
	ErrClosed = errors.New("cuda: context closed")
	// ErrView is returned by Free on a view (Buffer.Slice): free the buffer
	// it was sliced from.
	ErrView = errors.New("cuda: Free of a view; free the buffer it was sliced from")
)

// Device is a CUDA device (CUdevice): a value, safe to copy and to use from
// any goroutine.
type Device struct {
	dev     cu.Device
	ordinal int
}

// DeviceCount returns the number of CUDA devices (cuDeviceGetCount), after
// cuInit.
func DeviceCount() (int, error) {
	if err := cu.Init(0); err != nil {
		return 0, err
	}
	n, err := cu.DeviceGetCount()
	return int(n), err
}

// GetDevice returns the device of the given ordinal (cuDeviceGet), after cuInit.
func GetDevice(ordinal int) (Device, error) {
	if ordinal < 0 || ordinal > 1<<30 {
		return Device{}, fmt.Errorf("cuda: device ordinal %d out of range", ordinal)
	}
	if err := cu.Init(0); err != nil {
		return Device{}, err
	}
	d, err := cu.DeviceGet(int32(ordinal))
	if err != nil {
		return Device{}, err
	}
	return Device{dev: d, ordinal: ordinal}, nil
}

// Raw returns the driver's handle, for the cu package.
func (d Device) Raw() cu.Device { return d.dev }

// Ordinal returns the device's ordinal.
func (d Device) Ordinal() int { return d.ordinal }

// Name returns the device's name (cuDeviceGetName).
func (d Device) Name() (string, error) { return cu.DeviceGetName(d.dev) }

// Attribute returns one attribute (cuDeviceGetAttribute).
func (d Device) Attribute(a cu.DeviceAttribute) (int, error) {
	v, err := cu.DeviceGetAttribute(a, d.dev)
	return int(v), err
}

// ComputeCapability returns the device's compute capability, e.g. 9, 0.
func (d Device) ComputeCapability() (major, minor int, err error) {
	if major, err = d.Attribute(cu.DeviceAttributeComputeCapabilityMajor); err != nil {
		return 0, 0, err
	}
	minor, err = d.Attribute(cu.DeviceAttributeComputeCapabilityMinor)
	return major, minor, err
}

// TotalMem returns the device's memory in bytes (cuDeviceTotalMem).
func (d Device) TotalMem() (uint64, error) { return cu.DeviceTotalMem(d.dev) }

// Context returns a new reference to the device's primary context; see
// [NewContext].
func (d Device) Context() (*Context, error) { return newContext(d) }

// Context is a reference to a device's primary context (the one the runtime
// API uses too), safe to use from any goroutine. Close it when done; the
// context itself is released when it is closed and every resource made from
// it is freed.
type Context struct {
	ref *ctxRef
	dev Device
}

// ctxRef is the user's reference to a context, dropped once.
type ctxRef struct {
	s      *ctxState
	closed atomic.Bool
}

func dropCtxRef(r *ctxRef) {
	if r.closed.CompareAndSwap(false, true) {
		r.s.release()
	}
}

// NewContext retains the primary context of the device of this ordinal
// (cuDevicePrimaryCtxRetain) and returns a reference to it.
func NewContext(ordinal int) (*Context, error) {
	d, err := GetDevice(ordinal)
	if err != nil {
		return nil, err
	}
	return newContext(d)
}

func newContext(d Device) (*Context, error) {
	if err := cu.Init(0); err != nil {
		return nil, err
	}
	c, err := cu.DevicePrimaryCtxRetain(d.dev)
	if err != nil {
		return nil, err
	}
	s := &ctxState{ctx: c, dev: d.dev}
	return wrapCtx(s, d), nil
}

// wrapCtx returns the user's first reference to s.
func wrapCtx(s *ctxState, d Device) *Context {
	s.refs.Store(1)
	ref := &ctxRef{s: s}
	c := &Context{ref: ref, dev: d}
	runtime.AddCleanup(c, dropCtxRef, ref)
	return c
}

// Close drops this reference to the context. The primary context is
// released when every resource made from it is freed too; resources stay
// usable until then. A second Close returns ErrClosed.
func (c *Context) Close() error {
	if !c.ref.closed.CompareAndSwap(false, true) {
		return ErrClosed
	}
	return c.ref.s.release()
}

// state returns the context's state, or ErrClosed.
func (c *Context) state() (*ctxState, error) {
	if c == nil {
		return nil, errors.New("cuda: nil *Context")
	}
	if c.ref.closed.Load() {
		return nil, ErrClosed
	}
	return c.ref.s, nil
}

// Device returns the context's device.
func (c *Context) Device() Device { return c.dev }

// Raw returns the driver's handle (CUcontext), for the cu package. Make it
// current on a locked thread before a call that needs it, or use [Context.Do].
func (c *Context) Raw() cu.Context { return c.ref.s.ctx }

// Do runs fn with the context current on the calling goroutine's OS thread,
// locked for the call: the way to call the cu package directly.
func (c *Context) Do(fn func() error) error {
	return c.do(func(*ctxState) error { return fn() })
}

// do runs fn with the context's state bound on a locked thread.
func (c *Context) do(fn func(s *ctxState) error) error {
	s, err := c.state()
	if err != nil {
		return err
	}
	if err := s.bind(); err != nil {
		return err
	}
	defer runtime.UnlockOSThread()
	return fn(s)
}

// Synchronize waits for all the context's work (cuCtxSynchronize), blocking
// the thread; see [Stream.Wait] for a wait that yields.
func (c *Context) Synchronize() error {
	return c.do(func(s *ctxState) error { return s.drv().synchronize() })
}

// MemInfo returns the device's free and total memory (cuMemGetInfo).
func (c *Context) MemInfo() (free, total uint64, err error) {
	err = c.Do(func() error {
		free, total, err = cu.MemGetInfo()
		return err
	})
	return free, total, err
}

// ctxState is one retained primary context and its reference count: the
// user's references (one per Context value) and one per live resource.
type ctxState struct {
	ctx  cu.Context
	dev  cu.Device
	refs atomic.Int64
	fake driver // nil: the real driver (tests set it)
}

// bind locks the goroutine to its thread and makes the context current
// there; on success the caller unlocks (runtime.UnlockOSThread) when done.
func (s *ctxState) bind() error {
	runtime.LockOSThread()
	if s.fake != nil {
		if err := s.fake.bind(s); err != nil {
			runtime.UnlockOSThread()
			return err
		}
		return nil
	}
	if cur, err := cu.CtxGetCurrent(); err == nil && cur == s.ctx {
		return nil
	}
	if err := cu.CtxSetCurrent(s.ctx); err != nil {
		runtime.UnlockOSThread()
		return err
	}
	return nil
}

func (s *ctxState) retain() { s.refs.Add(1) }

// release drops one reference; the last releases the primary context.
func (s *ctxState) release() error {
	switch n := s.refs.Add(-1); {
	case n == 0:
		return s.drv().releaseContext(s)
	case n < 0:
		panic("cuda: context reference count below zero")
	}
	return nil
}

func (s *ctxState) drv() driver {
	if s.fake != nil {
		return s.fake
	}
	return realDriver{}
}

// kind is what a resource is.
type kind uint8

const (
	kindNone      kind = iota // nothing to free (an empty buffer)
	kindMem                   // cuMemAlloc
	kindHost                  // cuMemHostAlloc
	kindModule                // cuModuleLoadData
	kindEvent                 // cuEventCreate
	kindGraph                 // cuStreamEndCapture
	kindGraphExec             // cuGraphInstantiate
	kindComm                  // an NCCL communicator's rank (ncclCommInitAll, ncclCommInitRankConfig)
)

func (k kind) String() string {
	return [...]string{"empty buffer", "device memory", "host memory", "module", "event", "graph", "graph instance", "NCCL communicator"}[k]
}

// resource is one CUDA object owned by the layer, freed exactly once: by
// free, whichever of Free and the cleanup comes first.
type resource struct {
	ctx  *ctxState
	kind kind
	h    uint64         // device address or handle
	p    unsafe.Pointer // host memory (kindHost)
	done atomic.Bool
}

// newResource makes r, which holds a reference to ctx, and frees it when
// owner becomes unreachable.
func newResource[O any](owner *O, ctx *ctxState, k kind, h uint64, p unsafe.Pointer) *resource {
	ctx.retain()
	r := &resource{ctx: ctx, kind: k, h: h, p: p}
	runtime.AddCleanup(owner, cleanupResource, r)
	return r
}

func cleanupResource(r *resource) { _ = r.free() }

// free frees the resource, the first time; ErrFreed after.
func (r *resource) free() error {
	if !r.done.CompareAndSwap(false, true) {
		return ErrFreed
	}
	err := r.destroy()
	if rerr := r.ctx.release(); err == nil {
		err = rerr
	}
	return err
}

func (r *resource) destroy() error {
	if r.kind == kindNone {
		return nil
	}
	if err := r.ctx.bind(); err != nil {
		return err
	}
	defer runtime.UnlockOSThread()
	return r.ctx.drv().destroy(r)
}

// alive returns ErrFreed after free.
func (r *resource) alive() error {
	if r.done.Load() {
		return ErrFreed
	}
	return nil
}

// driver is what the lifetime code calls: the real driver, or a fake in
// the tests that checks no resource is freed twice or after its context.
type driver interface {
	bind(s *ctxState) error
	destroy(r *resource) error
	releaseContext(s *ctxState) error
	synchronize() error
	memAlloc(bytes uint64) (cu.Deviceptr, error)
	hostAlloc(bytes uint64) (unsafe.Pointer, error)
}

type realDriver struct{}

func (realDriver) bind(*ctxState) error { return nil }

func (realDriver) destroy(r *resource) error {
	switch r.kind {
	case kindMem:
		return cu.MemFree(cu.Deviceptr(r.h))
	case kindHost:
		return cu.MemFreeHost(r.p)
	case kindModule:
		return cu.ModuleUnload(cu.Module(r.h))
	case kindEvent:
		return cu.EventDestroy(cu.Event(r.h))
	case kindGraph:
		return cu.GraphDestroy(cu.Graph(r.h))
	case kindGraphExec:
		return cu.GraphExecDestroy(cu.GraphExec(r.h))
	case kindComm:
		return destroyComm(r.h)
	}
	return nil
}

// destroyComm frees an NCCL communicator's rank (ncclCommDestroy). nccl.go
// sets it: a module's copy of the layer leaves that file out when the
// module has no package nccl (cugen gen -lib), and with it every way to
// make a communicator, so this package needs NCCL only through nccl.go.
var destroyComm func(h uint64) error

func (realDriver) releaseContext(s *ctxState) error { return cu.DevicePrimaryCtxRelease(s.dev) }

func (realDriver) synchronize() error { return cu.CtxSynchronize() }

func (realDriver) memAlloc(bytes uint64) (cu.Deviceptr, error) { return cu.MemAlloc(bytes) }

func (realDriver) hostAlloc(bytes uint64) (unsafe.Pointer, error) {
	return cu.MemHostAlloc(bytes, cu.MemhostallocPortable)
}
