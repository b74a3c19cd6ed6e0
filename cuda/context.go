package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

var (
	// ErrFreed is returned by a resource's Close after the first, and by
	// any use of the resource after it.
	ErrFreed = errors.New("cuda: already closed")
	// ErrClosed is returned by a Context's methods after its Close.
	ErrClosed = errors.New("cuda: context closed")
	// ErrView is returned by Close on a view (Buffer.Slice): close the
	// buffer it was sliced from.
	ErrView = errors.New("cuda: Close of a view; close the buffer it was sliced from")
)

// The device calls here (cuDeviceGet, cuDeviceGetCount, the queries of a
// Device) need no context and come before any: they call package cu
// directly, outside the driver seam (driver.go; TestDriverSeam lists them).

// Device is a CUDA device (CUdevice): a value, safe to copy and to use from
// any goroutine.
type Device struct {
	dev     cu.Device
	ordinal int
}

// DeviceCount returns the number of CUDA devices (cuDeviceGetCount), after
// cuInit.
func DeviceCount() (int, error) {
	if err := initDriver(); err != nil {
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
	if err := initDriver(); err != nil {
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

// ctxRef is the user's reference to a context, dropped once: by Close or
// its cleanup, after the calls in flight through it (Do and the methods
// that make resources).
type ctxRef struct {
	s    *ctxState
	uses uses
}

// drop closes the reference; the last call in flight drops it (end) if
// any is.
func (r *ctxRef) drop() error {
	ok, now := r.uses.closeLater()
	if !ok {
		return ErrClosed
	}
	if now {
		return r.s.release()
	}
	return nil
}

// end ends a call through the reference.
func (r *ctxRef) end() {
	if r.uses.release() {
		r.s.release() // the reference was closed during the call: dropped now
	}
}

func (r *ctxRef) releaseUnreachable() { r.drop() }

func dropCtxRef(r *ctxRef) {
	if !r.uses.closed() { // else closed by hand: nothing to queue
		r.s.releases.push(r)
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
	if err := initDriver(); err != nil {
		return nil, err
	}
	// Direct: the context's driver is set from here (driver.go).
	c, err := cu.DevicePrimaryCtxRetain(d.dev)
	if err != nil {
		return nil, err
	}
	s := &ctxState{ctx: c, dev: d.dev, drv: realDriver{}}
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

// Close drops this reference to the context, once the calls through it on
// other goroutines have returned. The primary context is released when
// every resource made from it is closed too; resources stay usable until
// then. A second Close returns ErrClosed.
func (c *Context) Close() error { return c.ref.drop() }

// use begins a call through c: the context's state, until c.ref.end().
func (c *Context) use() (*ctxState, error) {
	if c == nil {
		return nil, errors.New("cuda: nil *Context")
	}
	if !c.ref.acquire() {
		return nil, ErrClosed
	}
	return c.ref.s, nil
}

// acquire begins a call through the reference; false once it is closed.
// A call refused after the Close may still end the last use in flight
// (its increment came before that use's end): it then drops the
// reference, as the last call's end does (uses.acquire would lose it).
func (r *ctxRef) acquire() bool {
	if r.uses.state.Add(1)&usesClosed != 0 {
		if ctxAcquireHook != nil {
			ctxAcquireHook()
		}
		r.end()
		return false
	}
	return true
}

// ctxAcquireHook runs in a refused ctxRef.acquire (tests).
var ctxAcquireHook func()

// Device returns the context's device.
func (c *Context) Device() Device { return c.dev }

// Raw returns the driver's handle (CUcontext), for the cu package. Make it
// current on a locked thread before a call that needs it, or use [Context.Do].
func (c *Context) Raw() cu.Context { return c.ref.s.ctx }

// Do runs fn with the context current on the calling goroutine's OS thread,
// locked for the call: the way to call the cu package directly. fn may
// make another context current; the layer checks the thread's current
// context on its calls inside fn and after it (see [ForgetCurrent]).
func (c *Context) Do(fn func() error) error {
	s, err := c.use()
	if err != nil {
		return err
	}
	defer c.ref.end()
	foreign := func() error { return foreignCall(fn) } // bindcache.go
	if b := scopeHere(); b != nil {
		// fn may change the thread's context: the scope's is made
		// current again after it (scope.go)
		err := onThreadOnceSlow(s, foreign)
		b.rebind()
		return err
	}
	return onThreadOnceSlow(s, foreign)
}

// do runs fn with the context's state current on a locked thread.
func (c *Context) do(fn func(s *ctxState) error) error {
	s, err := c.use()
	if err != nil {
		return err
	}
	defer c.ref.end()
	return onThread(s, func() error { return fn(s) })
}

// Synchronize waits for all the context's work (cuCtxSynchronize), blocking
// the thread; see [Stream.Wait] for a wait that yields.
func (c *Context) Synchronize() error {
	return c.do(func(s *ctxState) error { return s.drv.synchronize() })
}

// MemInfo returns the device's free and total memory (cuMemGetInfo).
func (c *Context) MemInfo() (free, total uint64, err error) {
	err = c.do(func(s *ctxState) error {
		free, total, err = s.drv.memGetInfo()
		return err
	})
	return free, total, err
}

// ctxState is one retained primary context and its reference count: the
// user's references (one per Context value) and one per live resource.
type ctxState struct {
	ctx      cu.Context
	dev      cu.Device
	refs     atomic.Int64
	releases releaseQueue  // of the resources that became unreachable
	drv      driver        // every driver call's seam (driver.go): realDriver, or the tests' fake
	id       atomic.Uint64 // its handle's number in bindcache.go, 0 until bound
}

// onThread runs fn on the calling goroutine's OS thread, locked for the
// call, with s's context current there (nil s: none is made current). It
// is the one place the layer locks a thread, but for Kernel.launch's fast
// path, which writes it out, and onThreadOnce. A call that fails because
// the thread lost its context behind the layer's back runs again
// (ctxState.failed): fn must be the layer's own, safe to repeat after the
// driver refused it.
func onThread(s *ctxState, fn func() error) error {
	if b := scopeHere(); b != nil { // scope.go
		return b.call(s, fn, false)
	}
	return onThreadSlow(s, fn)
}

// onThreadSlow is onThread outside a scope.
func onThreadSlow(s *ctxState, fn func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if s == nil {
		return foreignCall(fn) // bindcache.go
	}
	remembered, err := s.bind()
	if err != nil {
		return err
	}
	if err = fn(); err != nil && s.failed(err, remembered) { // bindcache.go
		if err = fn(); err != nil {
			forgetThread()
		}
	}
	return err
}

// onThreadOnce is onThread for a fn that is not the layer's own (the
// caller's code in Context.Do, a library's calls through Stream.Call and
// NewHandle), which must never run twice: a failure is returned as it is,
// and what the thread was bound to is forgotten.
func onThreadOnce(s *ctxState, fn func() error) error {
	if b := scopeHere(); b != nil { // scope.go
		return b.call(s, fn, true)
	}
	return onThreadOnceSlow(s, fn)
}

// onThreadOnceSlow is onThreadOnce outside a scope.
func onThreadOnceSlow(s *ctxState, fn func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, err := s.bind(); err != nil {
		return err
	}
	err := fn()
	if err != nil {
		forgetThread()
	}
	return err
}

func (s *ctxState) retain() { s.refs.Add(1) }

// release drops one reference; the last releases the primary context.
func (s *ctxState) release() error {
	switch n := s.refs.Add(-1); {
	case n == 0:
		return s.drv.releaseContext(s)
	case n < 0:
		panic("cuda: context reference count below zero")
	}
	return nil
}

// uses counts the uses of a resource in flight and marks its close, as
// os.File's descriptor does (internal/poll's fdMutex): a use begins only
// while the resource is open (one atomic add, one more to end it), and
// the close happens once, after the uses in flight have ended. A method
// holds a use for the length of its driver calls, so a Close racing it
// on another goroutine waits for it, and a use after the Close is an
// error.
type uses struct {
	state atomic.Uint64
	wake  atomic.Pointer[chan struct{}] // a waiting closer's (closeWait), set before usesClosed
}

const (
	usesClosed   = 1 << 63 // no use begins
	usesDone     = 1 << 62 // the close is handed to one goroutine
	usesLaunched = 1 << 61 // a launch's guard kept it open once (launchguard.go)
	usesHold     = 1 << 32 // one hold (hold.go): bits 32-60 count the textures over it
	usesCount    = usesHold - 1
	usesHolds    = usesLaunched - usesHold // bits 0-31: the uses in flight
)

// acquire begins a use; false once closed.
func (u *uses) acquire() bool {
	if u.state.Add(1)&usesClosed != 0 {
		u.release()
		return false
	}
	return true
}

// release ends a use. After a closeLater, it returns true to the goroutine
// that ended the last use: that goroutine finishes the close.
func (u *uses) release() bool {
	if n := u.state.Add(^uint64(0)); n&(usesClosed|usesDone|usesCount) != usesClosed || !u.state.CompareAndSwap(n, n|usesDone) {
		return false
	}
	if ch := u.wake.Load(); ch != nil {
		close(*ch) // the closer waits in closeWait
		return false
	}
	return true
}

// closeWait closes u once the uses in flight have ended, waiting for them
// and, if a launch's guard ever kept u open, for the launches in flight
// (launchguard.go); false if u was closed before.
func (u *uses) closeWait() bool {
	ok, _ := u.closeUnheld(false)
	return ok
}

// closeUnheld is closeWait, which with refuse closes nothing while u is
// held (hold.go) and returns the holds: the check and the close are one
// compare-and-swap.
func (u *uses) closeUnheld(refuse bool) (ok bool, holds uint64) {
	if b := scopeHere(); b != nil {
		b.unhold(u) // scope.go: the scope's own hold would wait for itself
	}
	var wake *chan struct{} // made only when there are uses to wait for
	for {
		old := u.state.Load()
		switch {
		case old&usesClosed != 0:
			return false, 0
		case refuse && old&usesHolds != 0:
			return false, (old & usesHolds) / usesHold
		case old&usesCount == 0:
			if u.state.CompareAndSwap(old, old|usesClosed|usesDone) {
				if old&usesLaunched != 0 {
					waitLaunches()
				}
				return true, 0
			}
		default:
			if wake == nil {
				// One channel for every closer: a racing closer's own
				// would replace the one the winner waits on.
				ch := make(chan struct{})
				if !u.wake.CompareAndSwap(nil, &ch) {
					wake = u.wake.Load()
				} else {
					wake = &ch
				}
			}
			if u.state.CompareAndSwap(old, old|usesClosed) {
				<-*wake
				if old&usesLaunched != 0 {
					waitLaunches()
				}
				return true, 0
			}
		}
	}
}

// closeLater closes u without waiting: ok is false if u was closed
// before; now is true when no use is in flight, and the caller finishes
// the close; else the last use's release returns true.
func (u *uses) closeLater() (ok, now bool) {
	for {
		old := u.state.Load()
		if old&usesClosed != 0 {
			return false, false
		}
		next := old | usesClosed
		idle := old&usesCount == 0
		if idle {
			next |= usesDone
		}
		if u.state.CompareAndSwap(old, next) {
			return true, idle
		}
	}
}

func (u *uses) closed() bool { return u.state.Load()&usesClosed != 0 }

// releaser is what a cleanup hands a release queue: a resource that became
// unreachable.
type releaser interface{ releaseUnreachable() }

// releaseQueue runs the releases that cleanups (runtime.AddCleanup) hand
// it on a goroutine of its own, started when there is work and ended when
// there is none: a cleanup runs on the runtime's cleanup goroutine, which
// must not block, and a release may block (cuMemFree and cuStreamDestroy
// wait for the device). Each context has one, so a release that blocks
// holds up only its own context's.
type releaseQueue struct {
	mu      sync.Mutex
	work    []releaser
	running bool
}

func (q *releaseQueue) push(x releaser) {
	q.mu.Lock()
	q.work = append(q.work, x)
	if !q.running {
		q.running = true
		go q.run()
	}
	q.mu.Unlock()
}

func (q *releaseQueue) run() {
	for {
		q.mu.Lock()
		work := q.work
		q.work = nil
		if len(work) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		q.mu.Unlock()
		for _, x := range work {
			x.releaseUnreachable()
		}
	}
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
	kindMemAsync              // cuMemAllocAsync, cuMemAllocFromPoolAsync: freed on its stream (st)
	kindPool                  // cuMemPoolCreate
	kindHostReg               // cuMemHostRegister
	kindLib                   // a library's handle (libcall.go): its destroy in keep
	kindIPCMem                // cuIpcOpenMemHandle (ipc.go)
	kindAddr                  // cuMemAddressReserve, its mappings in keep (vmm.go)
	kindPhys                  // cuMemCreate (vmm.go)
	kindArray                 // cuArray3DCreate (array.go)
	kindTexture               // cuTexObjectCreate: holds its array or memory (texture.go)
	kindSurface               // cuSurfObjectCreate: holds its array
	kindCached                // a CachingAllocator's block (cachealloc.go): back to its cache
)

func (k kind) String() string {
	return [...]string{"empty buffer", "device memory", "host memory", "module", "event", "graph", "graph instance", "NCCL communicator", "stream-ordered memory", "memory pool", "registered host memory",
		"library handle", "memory opened from another process", "address range", "physical memory", "CUDA array", "texture object", "surface object", "cached block"}[k]
}

// resource is one CUDA object owned by the layer, freed exactly once: by
// free, whichever of Close and the cleanup comes first, after the uses in
// flight.
type resource struct {
	ctx  *ctxState
	kind kind
	h    uint64         // device address or handle
	p    unsafe.Pointer // host memory (kindHost, kindHostReg)
	st   *streamState   // the stream kindMemAsync memory is freed on
	keep any            // what the resource keeps reachable (a registered slice)
	uses uses           // and the holds of the textures over it (hold.go)
}

// newResource makes r, which holds a reference to ctx, and frees it when
// owner becomes unreachable.
func newResource[O any](owner *O, ctx *ctxState, k kind, h uint64, p unsafe.Pointer) *resource {
	ctx.retain()
	r := &resource{ctx: ctx, kind: k, h: h, p: p}
	runtime.AddCleanup(owner, cleanupResource, r)
	return r
}

func cleanupResource(r *resource) {
	if !r.uses.closed() { // else closed by hand: nothing to queue
		r.ctx.releases.push(r)
	}
}

func (r *resource) releaseUnreachable() { r.free() }

// free frees the resource, the first time, once its uses in flight have
// ended; ErrFreed after.
func (r *resource) free() error {
	if !r.uses.closeWait() {
		return ErrFreed
	}
	return r.destroyClosed()
}

// destroyClosed is free once r is closed.
func (r *resource) destroyClosed() error {
	var err error
	if r.kind == kindCached {
		err = recycle(r) // cachealloc.go: no driver call unless the cache is full
	} else if r.kind != kindNone {
		err = onThread(r.ctx, func() error { return r.ctx.drv.destroy(r) })
	}
	if rerr := r.ctx.release(); err == nil {
		err = rerr
	}
	return err
}

// use begins a use of r; the caller ends it (r.uses.release()).
func (r *resource) use() error {
	if !r.uses.acquire() {
		return ErrFreed
	}
	return nil
}

// do runs fn as a use of r, its context current on a locked thread.
func (r *resource) do(fn func() error) error {
	if !r.uses.acquire() {
		return ErrFreed
	}
	defer r.uses.release()
	return onThread(r.ctx, fn)
}

// alive returns ErrFreed after the resource's Close.
func (r *resource) alive() error {
	if r.uses.closed() {
		return ErrFreed
	}
	return nil
}
