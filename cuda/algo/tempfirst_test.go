package algo

import (
	"errors"
	"slices"
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cugentest/standin"
)

// TestTemporaryStorageFirst: a call whose temporary storage cannot be had
// fails having queued nothing (Lib.SetAllocator's promise). On the
// stand-in driver, a Lib without kernels whose allocator is closed: a
// histogram of more bins than shared memory holds needs privatized bins,
// and must fail with ErrFreed leaving hist as it was, not zeroed.
func TestTemporaryStorageFirst(t *testing.T) {
	if !standin.Run(t, standin.Majors{}) {
		return
	}
	ctx, s, a := standinLib(t)
	ca := standin.Must(ctx.NewCachingAllocator(cuda.CachingOptions{}))(t)
	ca.Close()
	a.SetAllocator(ca)
	in := standin.Must(cuda.AllocFrom(ctx, []int32{1, 2, 3}))(t)
	defer in.Close()
	bins := histogramSmemBins + 1
	before := slices.Repeat([]int32{7}, bins)
	hist := standin.Must(cuda.AllocFrom(ctx, before))(t)
	defer hist.Close()
	err := HistogramEven(a, s, in, hist, 0, int32(bins))
	if !errors.Is(err, cuda.ErrFreed) {
		t.Fatalf("HistogramEven with a closed allocator: %v, want ErrFreed", err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	got := make([]int32, bins)
	if err := hist.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, before) {
		t.Errorf("hist after the refused call starts %v: the call queued work before its storage failed", got[:4])
	}
}

// standinLib is a context, a stream and a Lib of it on the stand-in
// driver, for a test inside standin.Run: the Lib has no kernels (fns is
// empty for the test to fill) and sm_90's policies on 2 multiprocessors;
// all three are closed when the test ends.
func standinLib(t *testing.T) (*cuda.Context, *cuda.Stream, *Lib) {
	t.Helper()
	ctx := standin.Must(cuda.NewContext(0))(t)
	t.Cleanup(func() { ctx.Close() })
	s := standin.Must(ctx.NewStream())(t)
	t.Cleanup(func() { s.Close() })
	h := standin.Must(cuda.NewHandle(ctx, func() (uint64, error) { return 1, nil }, func(uint64) error { return nil }))(t)
	t.Cleanup(func() { h.Close() })
	return ctx, s, &Lib{h: h, arch: 90, sms: 2, resident: 16, fns: map[string]any{}}
}
