package cuda

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// bufObject is a buffer of Alloc, AllocManaged or AllocAsync together with
// its allocation record and its resource: one Go allocation a buffer
// instead of three, and a finalizer instead of a cleanup (which allocates
// two more). The pointers between its parts point into the object itself,
// which a finalizer allows; a view points to its a, so the object, and the
// memory, live as long as the buffer or one of its views.
type bufObject[T any] struct {
	b Buffer[T] // first: the finalizer is set on the object's start
	a devAlloc
	r resource
}

// newBuffer returns a buffer of n elements at p and its resource, of kind
// k, which holds a reference to ctx. The memory is freed when the buffer
// and its views become unreachable unclosed: by a finalizer, set late (see
// pending).
func newBuffer[T any](ctx *ctxState, k kind, p cu.Deviceptr, n int, managed bool) (*Buffer[T], *resource) {
	ctx.retain()
	x := new(bufObject[T])
	x.r.ctx, x.r.kind, x.r.h = ctx, k, uint64(p)
	x.a.r, x.a.managed = &x.r, managed
	x.b.a, x.b.ptr, x.b.n = &x.a, p, n
	pend(x, &x.a)
	return &x.b, &x.r
}

// finalizeBuffer queues the release of an unclosed buffer, as a cleanup
// does (the finalizer goroutine must not block either). x is a
// *bufObject[T], whose Buffer[T], first, has bufHeader's layout for every
// T. (Not generic: an instance's func value would allocate.)
func finalizeBuffer(x any) {
	cleanupResource((*bufHeader)((*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1]).a.r)
}

// pending holds the newest buffers, whose finalizer is not set yet. Most
// buffers of a loop that allocates and closes are closed while here, and
// cost no finalizer at all (setting one and clearing it at Close costs
// more than the rest of an AllocAsync and its Close). A buffer leaves
// when pendingSize newer ones have come to its shard, or at the next
// garbage collection (a finalizer of a tick object runs then): if it is
// still open, its finalizer is set then. So a buffer dropped unclosed is
// freed by the collection after the next, or after the one that follows
// pendingSize newer buffers. The shards, by the allocating goroutine's
// thread, keep goroutines that allocate at once off one another's lock.
var pending [pendingShards]pendingRing

const (
	pendingSize   = 64
	pendingShards = 8
)

type pendingRing struct {
	mu   sync.Mutex
	ring [pendingSize]pendingBuf
	next int
	tick bool // a tick object waits for the next collection
	_    [64]byte
}

type pendingBuf struct {
	obj any // the *bufObject[T], for SetFinalizer
	a   *devAlloc
}

// pend puts a new buffer among the pending ones.
func pend(obj any, a *devAlloc) {
	sh := int((uint64(getm()) * 0x9e3779b97f4a7c15) >> (64 - 3)) // of pendingShards
	p := &pending[sh]
	p.mu.Lock()
	i := p.next
	p.next = (i + 1) % pendingSize
	if old := p.ring[i]; old.a != nil {
		old.a.arm(old.obj)
	}
	p.ring[i] = pendingBuf{obj, a}
	a.shard = uint8(sh)
	a.pend.Store(int32(i + 1))
	if !p.tick {
		p.tick = true
		runtime.SetFinalizer(&tickObj{p: p}, onTick)
	}
	p.mu.Unlock()
}

// arm takes a out of the pending ring and sets its finalizer if it is open;
// its ring's mu is held.
func (a *devAlloc) arm(obj any) {
	a.pend.Store(0) // before the check: see unpend
	if !a.r.uses.closed() {
		runtime.SetFinalizer(obj, finalizeBuffer)
		a.armed = true
	}
}

// unpend is Close's end of pending, after the buffer's resource is marked
// closed: its finalizer is cleared if set. A buffer still pending stays in
// its ring, without a lock: the arm that takes it out sees it closed and
// sets none (arm clears a.pend before it looks, unpend looks at a.pend
// after the mark: one of them sees the other's write), and the ring only
// keeps the closed object reachable until pendingSize newer buffers or
// the next collection. a.pend and a.armed change only under the lock of
// a's ring (a.shard, set before a is shared).
func unpend(a *devAlloc, b any) {
	if a.pend.Load() != 0 {
		return
	}
	p := &pending[a.shard]
	p.mu.Lock()
	if a.armed {
		runtime.SetFinalizer(b, nil)
		a.armed = false
	}
	p.mu.Unlock()
}

// tickObj is unreachable from its making: its finalizer runs after the
// next garbage collection.
type tickObj struct{ p *pendingRing }

// onTick sets the finalizers of the buffers still pending in its ring at
// a collection.
func onTick(t *tickObj) {
	p := t.p
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, e := range p.ring {
		if e.a != nil {
			e.a.arm(e.obj)
			p.ring[i] = pendingBuf{}
		}
	}
	p.tick = false
}
