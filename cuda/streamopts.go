package cuda

import (
	"errors"
	"fmt"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// ErrCapturing is returned by the Stream methods that would wait for a
// stream while it is captured (Synchronize, Query, Wait, Close): the
// driver refuses them and invalidates the capture, so the layer refuses
// them first and the capture goes on. End the capture (EndCapture), then
// call them.
var ErrCapturing = errors.New("cuda: the stream is being captured (BeginCapture): end the capture first")

// StreamOptions are the options of [Context.NewStreamWith].
type StreamOptions struct {
	// NonBlocking: the stream does not synchronise with the legacy
	// default stream (CU_STREAM_NON_BLOCKING).
	NonBlocking bool
	// Priority is the stream's priority, as CUDA numbers them: a lower
	// number is a higher priority, 0 the default, and
	// [Context.StreamPriorityRange] gives the device's range (for
	// example 0 to -5). The driver clamps a priority outside the range
	// to its nearest end, as cuStreamCreateWithPriority does.
	Priority int
}

// streamDriver is the driver's stream calls: the real driver, or the fake
// of the tests (streamopts_test.go).
type streamDriver interface {
	streamCreate(flags uint32, priority int32) (cu.Stream, error)
	streamPriority(h cu.Stream) (int32, error)
	streamPriorityRange() (least, greatest int32, err error)
	streamContext(h cu.Stream) (cu.Context, error)
	streamSynchronize(h cu.Stream) error
	streamDestroy(h cu.Stream) error
	streamQuery(h cu.Stream) error
	streamWaitEvent(h cu.Stream, e cu.Event) error
	launchHostFunc(h cu.Stream, fn func()) error
	eventRecord(e cu.Event, h cu.Stream) error
	eventQuery(e cu.Event) error
	eventSynchronize(e cu.Event) error
	eventElapsed(start, end cu.Event) (ms float32, err error)
	eventDestroy(e cu.Event) error
}

func (realDriver) streamQuery(h cu.Stream) error                 { return cu.StreamQuery(h) }
func (realDriver) streamWaitEvent(h cu.Stream, e cu.Event) error { return cu.StreamWaitEvent(h, e, 0) }
func (realDriver) launchHostFunc(h cu.Stream, fn func()) error   { return cu.LaunchHostFunc(h, fn) }
func (realDriver) eventRecord(e cu.Event, h cu.Stream) error     { return cu.EventRecord(e, h) }
func (realDriver) eventQuery(e cu.Event) error                   { return cu.EventQuery(e) }
func (realDriver) eventSynchronize(e cu.Event) error             { return cu.EventSynchronize(e) }
func (realDriver) eventDestroy(e cu.Event) error                 { return cu.EventDestroy(e) }
func (realDriver) eventElapsed(start, end cu.Event) (float32, error) {
	return cu.EventElapsedTime(start, end)
}

func (realDriver) streamCreate(flags uint32, priority int32) (cu.Stream, error) {
	if priority == 0 {
		return cu.StreamCreate(flags)
	}
	return cu.StreamCreateWithPriority(flags, priority)
}

func (realDriver) streamPriority(h cu.Stream) (int32, error) { return cu.StreamGetPriority(h) }

func (realDriver) streamPriorityRange() (int32, int32, error) { return cu.CtxGetStreamPriorityRange() }

func (realDriver) streamContext(h cu.Stream) (cu.Context, error) { return cu.StreamGetCtx(h) }

func (realDriver) streamSynchronize(h cu.Stream) error { return cu.StreamSynchronize(h) }

func (realDriver) streamDestroy(h cu.Stream) error { return cu.StreamDestroy(h) }

// NewStreamWith creates a stream with the options given
// (cuStreamCreateWithPriority; cuStreamCreate for priority 0). The
// options' zero value is [Context.NewStream]'s stream. Held by
// TestStreamPriority.
func (c *Context) NewStreamWith(o StreamOptions) (*Stream, error) {
	flags := uint32(0)
	if o.NonBlocking {
		flags = uint32(cu.StreamNonBlocking)
	}
	if o.Priority < -1<<31 || o.Priority > 1<<31-1 {
		return nil, fmt.Errorf("cuda: stream priority %d: out of int32's range", o.Priority)
	}
	var out *Stream
	err := c.do(func(s *ctxState) error {
		h, err := s.drv.streamCreate(flags, int32(o.Priority))
		if err == nil {
			out = wrapStream(s, h, true)
		}
		return err
	})
	return out, err
}

// StreamPriorityRange returns the stream priorities of the context's
// device (cuCtxGetStreamPriorityRange): least is the lowest priority (the
// default, 0) and greatest the highest, a number at most least (for
// example 0 and -5). A device without priorities gives 0 and 0.
func (c *Context) StreamPriorityRange() (least, greatest int, err error) {
	var l, g int32
	err = c.do(func(s *ctxState) (err error) {
		l, g, err = s.drv.streamPriorityRange()
		return err
	})
	return int(l), int(g), err
}

// Priority returns the stream's priority (cuStreamGetPriority): the one
// it was created with, clamped to the device's range.
func (s *Stream) Priority() (int, error) {
	if s == nil {
		return 0, errNilStream
	}
	st := s.st
	var p int32
	err := st.do(func() (err error) {
		p, err = st.ctx.drv.streamPriority(st.h)
		return err
	})
	return int(p), err
}

// WrapStream returns a Stream over h, a stream of the context that the
// caller created (a library's, or one made through the cu package). The
// Stream borrows h: its Close waits for the stream's work and releases the
// Go memory its copies held, but does not destroy h, which the caller
// still owns and destroys (cuStreamDestroy) after that Close, never
// before. The handle 0 (the legacy default stream), cu.StreamLegacy and
// cu.StreamPerThread are taken as they are. A stream of another context
// is an error (cuStreamGetCtx). Held by TestWrapStream.
func (c *Context) WrapStream(h cu.Stream) (*Stream, error) {
	var out *Stream
	err := c.do(func(s *ctxState) error {
		if h != 0 && h != cu.StreamLegacy && h != cu.StreamPerThread {
			ctx, err := s.drv.streamContext(h)
			if err != nil {
				return fmt.Errorf("cuda: WrapStream(%#x): %w", uint64(h), err)
			}
			if ctx != s.ctx {
				return fmt.Errorf("cuda: WrapStream(%#x): the stream is of another context", uint64(h))
			}
		}
		out = wrapStream(s, h, false)
		return nil
	})
	return out, err
}

// Owned reports whether Close destroys the stream's handle: true for the
// streams NewStream, NewNonBlockingStream and NewStreamWith create, false
// for the default stream and the streams WrapStream borrows.
func (s *Stream) Owned() bool { return s.st.owned }

// isCapturing reports whether BeginCapture started a capture that
// EndCapture has not ended.
func (st *streamState) isCapturing() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.capturing
}
