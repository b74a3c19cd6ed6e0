package cuda

import "fmt"

// Holds: a texture or surface over an array, a buffer or pitched memory
// holds it (resource.holds) for as long as the object lives, and the
// memory's Close refuses while any is held. One word decides both, so a
// Close and the making of a texture racing it end one of two ways: the
// Close refuses (ErrInUse) and the texture is made, or the Close frees
// and the texture is refused (ErrFreed).

// holdClosing marks, in resource.holds, a Close that found no hold: no
// hold begins after it.
const holdClosing = 1 << 30

// hold begins a hold of r; ErrFreed once r's Close has begun.
func (r *resource) hold() error {
	for {
		v := r.holds.Load()
		if v&holdClosing != 0 || r.uses.closed() {
			return ErrFreed
		}
		if r.holds.CompareAndSwap(v, v+1) {
			return nil
		}
	}
}

// unhold ends a hold of r.
func (r *resource) unhold() { r.holds.Add(-1) }

// closeHeld is the Close of memory that textures may hold: while any
// does, an *ArrayError of op() wrapping ErrInUse (what: "textures",
// "textures or surfaces"); else r.free(). (op is a func: the name is
// made only for the error.)
func (r *resource) closeHeld(op func() string, what string) error {
	for {
		v := r.holds.Load()
		if v&holdClosing != 0 {
			break // a Close before this one: free says ErrFreed, or frees once
		}
		if v > 0 {
			return &ArrayError{Op: op(), Reason: fmt.Sprintf("%d %s are open over it: close them first", v, what), Err: ErrInUse}
		}
		if r.holds.CompareAndSwap(0, holdClosing) {
			break
		}
	}
	return r.free()
}
