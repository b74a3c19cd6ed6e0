package cuda

import "fmt"

// Holds: a texture or surface over an array, a buffer or pitched memory
// holds it for as long as the object lives, and the memory's Close
// refuses while any is held. The holds are counted in the resource's uses
// word (bits 32-60, usesHolds), so a Close and the making of a texture
// racing it end one of two ways: the Close refuses (ErrInUse) and the
// texture is made, or the Close frees and the texture is refused
// (ErrFreed).

// hold begins a hold of r; ErrFreed once r is closed.
func (r *resource) hold() error {
	for {
		v := r.uses.state.Load()
		if v&usesClosed != 0 {
			return ErrFreed
		}
		if r.uses.state.CompareAndSwap(v, v+usesHold) {
			return nil
		}
	}
}

// unhold ends a hold of r.
func (r *resource) unhold() { r.uses.state.Add(^uint64(usesHold - 1)) }

// closeHeld is the Close of memory that textures may hold: while any
// does, an *ArrayError of op() wrapping ErrInUse (what: "textures",
// "textures or surfaces"); else r.free(). (op is a func: the name is
// made only for the error.)
func (r *resource) closeHeld(op func() string, what string) error {
	ok, n := r.uses.closeUnheld(true)
	if n > 0 {
		return &ArrayError{Op: op(), Reason: fmt.Sprintf("%d %s are open over it: close them first", n, what), Err: ErrInUse}
	}
	if !ok {
		return ErrFreed
	}
	return r.destroyClosed()
}
