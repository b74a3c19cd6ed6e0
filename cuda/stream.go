package cuda

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// Stream is a CUDA stream (CUstream) of a context, safe to use from any
// goroutine. It remembers the Go memory its asynchronous copies use and
// keeps it alive and pinned until the stream has passed them.
//
// Ownership: a stream from NewStream, NewNonBlockingStream or
// NewStreamWith is owned, and its Close destroys it; the default stream
// and a stream from [Context.WrapStream] are borrowed, and Close leaves
// the handle to its owner ([Stream.Owned]).
//
// Capture: between [Stream.BeginCapture] and [Stream.EndCapture] the work
// queued on the stream (launches, asynchronous copies and sets, event
// records, stream-ordered allocations, host functions, library calls
// through a handle on the stream) becomes nodes of a graph instead of
// running. What would wait for the stream is illegal during a capture: the
// driver refuses it and invalidates the capture. Synchronize, Query, Wait
// and Close therefore return [ErrCapturing] before reaching the driver,
// and the capture goes on (Close included: end the capture, then close).
// Synchronous calls that wait for all work (Context.Synchronize,
// synchronous copies to or from the legacy default stream, which a
// blocking stream waits for) are the caller's to avoid; they fail and end
// the capture as in C. Held by TestStreamCaptureRefuses.
type Stream struct{ st *streamState }

type streamState struct {
	ctx   *ctxState
	h     cu.Stream
	owned bool // false for the default stream, which is never destroyed
	uses  uses

	mu          sync.Mutex
	capturing   bool              // between BeginCapture and EndCapture
	capturePins []*runtime.Pinner // Go memory the captured copies use
	captureKeep []any             // and the HostBuffers
	pending     []pendingCopy     // oldest first
	events      []cu.Event        // recorded by nothing: reused for the next copies
	pinners     []*runtime.Pinner
	// afterCapture is stream-ordered memory closed during a capture, freed
	// at its end (mempool.go).
	afterCapture []*resource
}

// pendingCopy is memory an asynchronous copy uses until ev completes: Go
// memory pinned by pin, or a HostBuffer kept reachable by keep.
type pendingCopy struct {
	ev   cu.Event
	pin  *runtime.Pinner
	keep any
}

// NewStream creates a stream (cuStreamCreate with CU_STREAM_DEFAULT: it
// waits for the legacy default stream and the legacy default stream for it).
func (c *Context) NewStream() (*Stream, error) {
	return c.NewStreamWith(StreamOptions{})
}

// NewNonBlockingStream creates a stream that does not synchronise with the
// legacy default stream (CU_STREAM_NON_BLOCKING).
func (c *Context) NewNonBlockingStream() (*Stream, error) {
	return c.NewStreamWith(StreamOptions{NonBlocking: true})
}

// DefaultStream returns the context's legacy default stream (the NULL
// stream, handle 0). Its Close only drops the Stream value.
func (c *Context) DefaultStream() (*Stream, error) {
	s, err := c.use()
	if err != nil {
		return nil, err
	}
	defer c.ref.end()
	return wrapStream(s, 0, false), nil
}

func wrapStream(s *ctxState, h cu.Stream, owned bool) *Stream {
	s.retain()
	st := &streamState{ctx: s, h: h, owned: owned}
	out := &Stream{st: st}
	runtime.AddCleanup(out, cleanupStream, st)
	return out
}

func cleanupStream(st *streamState) {
	if !st.uses.closed() {
		st.ctx.releases.push(st)
	}
}

func (st *streamState) releaseUnreachable() { st.close() }

// Raw returns the driver's handle, for the cu package.
func (s *Stream) Raw() cu.Stream { return s.st.h }

// do runs fn as a use of the stream, its context current on a locked
// thread.
func (st *streamState) do(fn func() error) error {
	b := scopeHere()               // scope.go: the scope may hold the stream
	own, ok := b.acquire(&st.uses) // nil b: a use of its own
	if !ok {
		return ErrFreed
	}
	if own {
		defer st.uses.release()
	}
	if b != nil {
		return b.call(st.ctx, fn, false)
	}
	return onThreadSlow(st.ctx, fn)
}

// Synchronize waits for the stream's work (cuStreamSynchronize), blocking
// the thread, and releases the Go memory its copies held.
func (s *Stream) Synchronize() error {
	st := s.st
	if st.isCapturing() {
		return ErrCapturing
	}
	return st.do(func() error {
		err := st.ctx.drv.streamSynchronize(st.h)
		st.reap()
		return err
	})
}

// Wait waits for the work queued on the stream so far without holding an OS
// thread: a host function queued behind it (cuLaunchHostFunc) signals a
// channel the goroutine waits on. It returns ctx.Err() if ctx ends first
// (the work goes on), and the stream's error if the stream fails (it is
// polled with cuStreamQuery every few milliseconds, as a failed context
// runs no host function).
func (s *Stream) Wait(ctx context.Context) error {
	st := s.st
	if st.isCapturing() {
		return ErrCapturing
	}
	ch := make(chan struct{})
	if err := st.do(func() error { return st.ctx.drv.launchHostFunc(st.h, func() { close(ch) }) }); err != nil {
		return err
	}
	poll := time.NewTicker(5 * time.Millisecond)
	defer poll.Stop()
	for {
		select {
		case <-ch:
			// Work queued after the host function may still run: the
			// stream is not asked, only its finished copies released.
			return s.release()
		case <-ctx.Done():
			return ctx.Err()
		case <-poll.C:
			switch err := s.query(); {
			case err == nil:
				return nil // idle: the host function has run or is about to
			case !errors.Is(err, cu.ErrorNotReady):
				return err
			}
		}
	}
}

// release releases the Go memory of the copies the stream has passed.
func (s *Stream) release() error {
	st := s.st
	return st.do(func() error {
		st.reap()
		return nil
	})
}

// query returns cuStreamQuery's error (nil when the stream is idle) and
// releases the memory of the copies done.
func (s *Stream) query() error {
	st := s.st
	if st.isCapturing() {
		return ErrCapturing
	}
	return st.do(func() error {
		err := st.ctx.drv.streamQuery(st.h)
		st.reap()
		return err
	})
}

// Query returns true when the stream's work is done (cuStreamQuery).
func (s *Stream) Query() (bool, error) {
	err := s.query()
	if errors.Is(err, cu.ErrorNotReady) {
		return false, nil
	}
	return err == nil, err
}

// WaitEvent makes the stream's later work wait for e (cuStreamWaitEvent).
func (s *Stream) WaitEvent(e *Event) error {
	if s == nil {
		return errNilStream
	}
	if err := e.r.use(); err != nil {
		return err
	}
	defer e.r.uses.release()
	st := s.st
	return st.do(func() error { return st.ctx.drv.streamWaitEvent(st.h, cu.Event(e.r.h)) })
}

// Close waits for the stream's work, releases the Go memory its copies
// held and destroys it (cuStreamDestroy) if it owns it ([Stream.Owned]),
// once the calls using it on other goroutines have returned. A second
// Close returns ErrFreed; a Close during a capture returns ErrCapturing
// and leaves the stream open.
func (s *Stream) Close() error {
	if s.st.isCapturing() && !s.st.uses.closed() {
		return ErrCapturing
	}
	return s.st.close()
}

func (st *streamState) close() error {
	if !st.uses.closeWait() {
		return ErrFreed
	}
	defer st.ctx.release()
	return onThread(st.ctx, st.destroy)
}

// destroy waits for the stream and destroys it and its events; the
// context is current.
func (st *streamState) destroy() error {
	err := st.ctx.drv.streamSynchronize(st.h)
	if e := st.freeAfterCapture(); err == nil {
		err = e
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, p := range st.pending {
		p.pin.Unpin()
		if e := st.ctx.drv.eventDestroy(p.ev); err == nil {
			err = e
		}
	}
	st.pending = nil
	for _, ev := range st.events {
		if e := st.ctx.drv.eventDestroy(ev); err == nil {
			err = e
		}
	}
	st.events = nil
	if st.owned {
		if e := st.ctx.drv.streamDestroy(st.h); err == nil {
			err = e
		}
	}
	return err
}

// reap releases the memory of the copies the stream has passed: it queries
// their events oldest first. The context is bound.
func (st *streamState) reap() {
	st.mu.Lock()
	defer st.mu.Unlock()
	i := 0
	for ; i < len(st.pending); i++ {
		p := st.pending[i]
		if st.ctx.drv.eventQuery(p.ev) != nil {
			break // not ready, or failed: kept until Close
		}
		p.pin.Unpin()
		st.pinners = append(st.pinners, p.pin)
		st.events = append(st.events, p.ev)
	}
	n := copy(st.pending, st.pending[i:])
	clear(st.pending[n:]) // drop the references kept
	st.pending = st.pending[:n]
}

// hostCopy runs op, an asynchronous copy from or to the Go or pinned memory
// at p, on the stream, keeping p's object pinned (and keep reachable) until
// an event recorded after it completes. r is the device buffer, which must
// be in the stream's context.
func (s *Stream) hostCopy(r *resource, p unsafe.Pointer, keep any, op func(cu.Stream) error) error {
	return s.with(r, func(st *streamState) error { return st.hostCopy(p, keep, op) })
}

// hostCopy is Stream.hostCopy on a locked thread, the context current.
func (st *streamState) hostCopy(p unsafe.Pointer, keep any, op func(cu.Stream) error) error {
	st.reap()
	st.mu.Lock()
	defer st.mu.Unlock()
	var pin *runtime.Pinner
	if n := len(st.pinners); n > 0 {
		pin, st.pinners = st.pinners[n-1], st.pinners[:n-1]
	} else {
		pin = new(runtime.Pinner)
	}
	pin.Pin(p)
	if err := op(st.h); err != nil {
		pin.Unpin()
		st.pinners = append(st.pinners, pin)
		return err
	}
	if st.capturing {
		// A node of the graph: the memory stays pinned, and a HostBuffer
		// reachable, while the graph lives (EndCapture).
		st.capturePins = append(st.capturePins, pin)
		if keep != nil {
			st.captureKeep = append(st.captureKeep, keep)
		}
		return nil
	}
	var ev cu.Event
	if n := len(st.events); n > 0 {
		ev, st.events = st.events[n-1], st.events[:n-1]
	} else {
		var err error
		if ev, err = st.ctx.drv.eventCreate(uint32(cu.EventDisableTiming)); err != nil {
			// No event to watch the copy with: wait for it here.
			serr := st.ctx.drv.streamSynchronize(st.h)
			pin.Unpin()
			st.pinners = append(st.pinners, pin)
			return serr
		}
	}
	if err := st.ctx.drv.eventRecord(ev, st.h); err != nil {
		serr := st.ctx.drv.streamSynchronize(st.h)
		pin.Unpin()
		st.pinners = append(st.pinners, pin)
		st.events = append(st.events, ev)
		return serr
	}
	st.pending = append(st.pending, pendingCopy{ev: ev, pin: pin, keep: keep})
	return nil
}

var (
	errOtherContext = errors.New("cuda: the stream belongs to another context than the memory")
	errNilStream    = errors.New("cuda: nil *Stream (Context.DefaultStream returns the default stream)")
)

// deviceOp runs op, an asynchronous operation of resource r (device
// memory, an event, a graph exec), on the stream.
func (s *Stream) deviceOp(r *resource, op func(cu.Stream) error) error {
	return s.with(r, func(st *streamState) error { return op(st.h) })
}

// with runs fn, an operation of resource r (device memory, an event, a
// graph exec) on the stream, as a use of both: they must be of one
// context, which is current on the locked thread fn runs on.
func (s *Stream) with(r *resource, fn func(st *streamState) error) error {
	if s == nil {
		return errNilStream
	}
	st := s.st
	if err := r.use(); err != nil {
		return err
	}
	defer r.uses.release()
	if r.ctx.ctx != st.ctx.ctx {
		return errOtherContext
	}
	return st.do(func() error { return fn(st) })
}

// Event is a CUDA event (CUevent) with timing.
type Event struct{ r *resource }

// NewEvent creates an event that records time (cuEventCreate, CU_EVENT_DEFAULT).
func (c *Context) NewEvent() (*Event, error) {
	var e *Event
	err := c.do(func(s *ctxState) error {
		h, err := s.drv.eventCreate(uint32(cu.EventDefault))
		if err == nil {
			e = &Event{}
			e.r = newResource(e, s, kindEvent, uint64(h), nil)
		}
		return err
	})
	return e, err
}

// Raw returns the driver's handle, for the cu package.
func (e *Event) Raw() cu.Event { return cu.Event(e.r.h) }

// Record records the event on s (cuEventRecord).
func (e *Event) Record(s *Stream) error {
	return s.deviceOp(e.r, func(h cu.Stream) error { return e.r.ctx.drv.eventRecord(cu.Event(e.r.h), h) })
}

// Synchronize waits for the event (cuEventSynchronize), blocking the thread.
func (e *Event) Synchronize() error {
	return e.r.do(func() error { return e.r.ctx.drv.eventSynchronize(cu.Event(e.r.h)) })
}

// Done reports whether the work before the event's record is done
// (cuEventQuery).
func (e *Event) Done() (bool, error) {
	err := e.r.do(func() error { return e.r.ctx.drv.eventQuery(cu.Event(e.r.h)) })
	if errors.Is(err, cu.ErrorNotReady) {
		return false, nil
	}
	return err == nil, err
}

// Close destroys the event (cuEventDestroy). A second Close returns ErrFreed.
func (e *Event) Close() error { return e.r.free() }

// Elapsed returns the GPU time between two recorded, completed events
// (cuEventElapsedTime, about half a microsecond of resolution).
func Elapsed(start, end *Event) (time.Duration, error) {
	if err := end.r.use(); err != nil {
		return 0, err
	}
	defer end.r.uses.release()
	var ms float32
	err := start.r.do(func() (err error) {
		ms, err = start.r.ctx.drv.eventElapsed(cu.Event(start.r.h), cu.Event(end.r.h))
		return err
	})
	if err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}
