package cuda

import (
	"context"
	"errors"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// fakeStreams is the fake driver's streams: a device whose priorities run
// from 0 (least) to -5 (greatest), as an H100's do.
type fakeStreams struct {
	live    map[cu.Stream]fakeStreamInfo
	syncs   int
	destroy int
}

type fakeStreamInfo struct {
	flags    uint32
	priority int32
	ctx      cu.Context
}

const fakeLeast, fakeGreatest = 0, -5

func (f *fakeDriver) streamCreate(flags uint32, priority int32) (cu.Stream, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	// cuStreamCreateWithPriority clamps to the range.
	priority = min(max(priority, fakeGreatest), fakeLeast)
	h := cu.Stream(f.next)
	f.next += 256
	if f.strm.live == nil {
		f.strm.live = map[cu.Stream]fakeStreamInfo{}
	}
	f.strm.live[h] = fakeStreamInfo{flags: flags, priority: priority}
	return h, nil
}

func (f *fakeDriver) stream(h cu.Stream) (fakeStreamInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	i, ok := f.strm.live[h]
	if !ok {
		f.t.Errorf("stream %#x: not created or destroyed before", uint64(h))
		return i, cu.ErrorInvalidHandle
	}
	return i, nil
}

func (f *fakeDriver) streamPriority(h cu.Stream) (int32, error) {
	i, err := f.stream(h)
	return i.priority, err
}

func (f *fakeDriver) streamPriorityRange() (int32, int32, error) { return fakeLeast, fakeGreatest, nil }

func (f *fakeDriver) streamContext(h cu.Stream) (cu.Context, error) {
	i, err := f.stream(h)
	return i.ctx, err
}

func (f *fakeDriver) streamSynchronize(h cu.Stream) error {
	f.mu.Lock()
	f.strm.syncs++
	f.mu.Unlock()
	if h == 0 || h == cu.StreamLegacy || h == cu.StreamPerThread {
		return nil
	}
	_, err := f.stream(h)
	return err
}

func (f *fakeDriver) streamDestroy(h cu.Stream) error {
	if _, err := f.stream(h); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.strm.live, h)
	f.strm.destroy++
	return nil
}

// TestStreamPriority: NewStreamWith creates a stream of the priority and
// flags given, clamped to the device's range as the driver does; Priority
// and StreamPriorityRange answer the driver's; Close destroys it.
func TestStreamPriority(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	least, greatest, err := c.StreamPriorityRange()
	if err != nil || least != fakeLeast || greatest != fakeGreatest {
		t.Fatalf("StreamPriorityRange = %d, %d, %v; want %d, %d", least, greatest, err, fakeLeast, fakeGreatest)
	}
	for _, tc := range []struct {
		o    StreamOptions
		want int
	}{
		{StreamOptions{}, 0}, {StreamOptions{Priority: -3}, -3}, {StreamOptions{Priority: -100, NonBlocking: true}, -5}, {StreamOptions{Priority: 7}, 0},
	} {
		s, err := c.NewStreamWith(tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := s.Priority(); err != nil || p != tc.want {
			t.Fatalf("%+v: Priority = %d, %v; want %d", tc.o, p, err, tc.want)
		}
		info, _ := f.stream(s.Raw())
		if nb := info.flags&uint32(cu.StreamNonBlocking) != 0; nb != tc.o.NonBlocking {
			t.Fatalf("%+v: the driver got flags %#x", tc.o, info.flags)
		}
		if !s.Owned() {
			t.Fatal("a created stream is not owned")
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if _, ok := f.strm.live[s.Raw()]; ok {
			t.Fatalf("%+v: Close left the stream", tc.o)
		}
	}
	if f.strm.destroy != 4 {
		t.Fatalf("%d streams destroyed, want 4", f.strm.destroy)
	}
	s, err := c.NewNonBlockingStream()
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := f.stream(s.Raw()); info.flags != uint32(cu.StreamNonBlocking) {
		t.Fatalf("NewNonBlockingStream: flags %#x", info.flags)
	}
	s.Close()
	if _, err := c.NewStreamWith(StreamOptions{Priority: 1 << 40}); err == nil {
		t.Fatal("a priority beyond int32 was taken")
	}
}

// TestWrapStream: a wrapped stream is borrowed: its Close waits for it but
// leaves the handle to its owner; a stream of another context is refused.
func TestWrapStream(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	h, _ := f.streamCreate(0, -2)
	defer f.streamDestroy(h)
	s, err := c.WrapStream(h)
	if err != nil {
		t.Fatal(err)
	}
	if s.Owned() || s.Raw() != h {
		t.Fatalf("WrapStream: Owned %v, Raw %#x; want false, %#x", s.Owned(), uint64(s.Raw()), uint64(h))
	}
	if p, err := s.Priority(); err != nil || p != -2 {
		t.Fatalf("Priority = %d, %v; want -2", p, err)
	}
	syncs := f.strm.syncs
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if f.strm.syncs != syncs+1 {
		t.Fatal("Close of a borrowed stream did not wait for it")
	}
	if _, ok := f.strm.live[h]; !ok || f.strm.destroy != 0 {
		t.Fatal("Close destroyed a borrowed stream")
	}
	if err := s.Close(); !errors.Is(err, ErrFreed) {
		t.Fatalf("second Close: %v", err)
	}

	other, _ := f.streamCreate(0, 0)
	defer f.streamDestroy(other)
	f.mu.Lock()
	i := f.strm.live[other]
	i.ctx = cu.Context(0x1234)
	f.strm.live[other] = i
	f.mu.Unlock()
	if s, err := c.WrapStream(other); err == nil {
		s.Close()
		t.Fatal("a stream of another context was wrapped")
	}
	for _, special := range []cu.Stream{0, cu.StreamLegacy, cu.StreamPerThread} {
		s, err := c.WrapStream(special)
		if err != nil || s.Owned() {
			t.Fatalf("WrapStream(%#x): %v", uint64(special), err)
		}
		s.Close()
	}
}

// TestStreamCaptureRefuses: while a stream is captured, the calls that
// would wait for it return ErrCapturing before the driver (which would
// invalidate the capture), Close leaves the stream open, and after the
// capture Close destroys it.
func TestStreamCaptureRefuses(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	s.st.capturing = true // as BeginCapture leaves it
	syncs := f.strm.syncs
	for name, call := range map[string]func() error{
		"Synchronize": s.Synchronize,
		"Query":       func() error { _, err := s.Query(); return err },
		"Wait":        func() error { return s.Wait(context.Background()) },
		"Close":       s.Close,
	} {
		if err := call(); !errors.Is(err, ErrCapturing) {
			t.Fatalf("%s during a capture: %v, want ErrCapturing", name, err)
		}
	}
	if f.strm.syncs != syncs || f.strm.destroy != 0 {
		t.Fatal("a call during the capture reached the driver")
	}
	if p, err := s.Priority(); err != nil || p != 0 {
		t.Fatalf("Priority during a capture: %d, %v", p, err)
	}
	s.st.capturing = false // as EndCapture leaves it
	if err := s.Close(); err != nil || f.strm.destroy != 1 {
		t.Fatalf("Close after the capture: %v, %d destroyed", err, f.strm.destroy)
	}
}
