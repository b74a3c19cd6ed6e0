package cuda

import (
	"runtime"
	"unsafe"

	"github.com/cugen/cugen/generated/cuda12/cu"
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
// k, which holds a reference to ctx; a finalizer frees the memory when the
// buffer and its views become unreachable unclosed.
func newBuffer[T any](ctx *ctxState, k kind, p cu.Deviceptr, n int, managed bool) (*Buffer[T], *resource) {
	ctx.retain()
	x := new(bufObject[T])
	x.r.ctx, x.r.kind, x.r.h = ctx, k, uint64(p)
	x.a.r, x.a.managed = &x.r, managed
	x.b.a, x.b.ptr, x.b.n = &x.a, p, n
	runtime.SetFinalizer(x, finalizeBuffer) // not generic: an instance's func value allocates
	return &x.b, &x.r
}

// finalizeBuffer queues the release of an unclosed buffer, as a cleanup
// does (the finalizer goroutine must not block either). x is a
// *bufObject[T], whose Buffer[T], first, has bufHeader's layout for every T.
func finalizeBuffer(x any) {
	cleanupResource((*bufHeader)((*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1]).a.r)
}
