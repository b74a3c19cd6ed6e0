package cuda

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/cugen/cugen/cuda/sys/nccl"
	"github.com/cugen/cugen/cugentest"
)

// TestCommChecks: the collectives check lengths, the root, liveness and
// contexts before NCCL is called (fake driver: no NCCL, no GPU), and a
// communicator is destroyed once, holding its context until then.
func TestCommChecks(t *testing.T) {
	f, c := newFake(t)
	f2 := &fakeDriver{t: t, next: 0x90000, live: map[uint64]bool{}}
	c2 := wrapCtx(&ctxState{drv: f2, ctx: 2}, Device{})
	comm := newComm(c.ref.s, 0xc0, 0, 2)
	a, _ := Alloc[float32](c, 8)
	b, _ := Alloc[float32](c, 16)
	other, _ := Alloc[float32](c2, 8)
	for _, tc := range []struct {
		what string
		err  error
		want string
	}{
		{"AllReduce lengths", AllReduce(comm, nil, a, b, nccl.Sum), "cuda: AllReduce: recv has 16 elements, send is 8"},
		{"AllGather lengths", AllGather(comm, nil, a, a), "cuda: AllGather: recv has 8 elements, Size() × send is 16"},
		{"ReduceScatter lengths", ReduceScatter(comm, nil, a, a, nccl.Sum), "cuda: ReduceScatter: send has 8 elements, Size() × recv is 16"},
		{"Broadcast root", Broadcast(comm, nil, a, a, 2), "cuda: Broadcast: root 2 of 2 ranks"},
		{"another context", AllReduce(comm, nil, a, other, nccl.Sum), errOtherCommContext.Error()},
		{"Reduce root", Reduce(comm, nil, a, a, nccl.Sum, -1), "cuda: Reduce: root -1 of 2 ranks"},
		{"Send peer", Send(comm, nil, a, 2), "cuda: Send: peer 2 of 2 ranks"},
		{"Recv peer", Recv(comm, nil, a, -1), "cuda: Recv: peer -1 of 2 ranks"},
		{"Recv another context", Recv(comm, nil, other, 1), errOtherCommContext.Error()},
		{"checks passed, nil stream", AllGather(comm, nil, a, b), errNilStream.Error()},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.what, tc.err, tc.want)
		}
	}
	if err := comm.Close(); err != nil {
		t.Fatal(err)
	}
	if err := AllReduce(comm, nil, a, a, nccl.Sum); !errors.Is(err, ErrFreed) {
		t.Errorf("AllReduce after Close: %v, want ErrFreed", err)
	}
	if err := comm.Close(); !errors.Is(err, ErrFreed) {
		t.Errorf("second Close: %v, want ErrFreed", err)
	}
	for _, x := range []*Buffer[float32]{a, b} {
		x.Close()
	}
	other.Close()
	c.Close()
	c2.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Errorf("after everything: %d live, context released %d times", live, released)
	}
	if _, err := JoinComm(c, nccl.UniqueId{}, 2, 2); err == nil || !strings.Contains(err.Error(), "rank 2 of 2") {
		t.Errorf("JoinComm(rank 2 of 2): %v", err)
	}
	for _, dt := range []struct{ got, want nccl.DataType }{
		{dataType[int8](), nccl.Int8}, {dataType[uint8](), nccl.Uint8}, {dataType[int32](), nccl.Int32},
		{dataType[uint32](), nccl.Uint32}, {dataType[int64](), nccl.Int64}, {dataType[uint64](), nccl.Uint64},
		{dataType[float32](), nccl.Float32}, {dataType[float64](), nccl.Float64},
	} {
		if dt.got != dt.want {
			t.Errorf("dataType = %v, want %v", dt.got, dt.want)
		}
	}
}

// gpuContexts returns the contexts of the first two GPUs, or skips.
func gpuContexts(t *testing.T) []*Context {
	t.Helper()
	n, err := DeviceCount()
	cugentest.NeedDevice(t, err)
	cugentest.SkipFewGPUs(t, 2, n)
	cugentest.NeedLibrary(t, nccl.SharedLibrary().Load())
	var ctxs []*Context
	for i := 0; i < 2; i++ {
		c, err := NewContext(i)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		ctxs = append(ctxs, c)
	}
	return ctxs
}

// ranks runs fn for every rank on its own goroutine and reports errors.
func ranks(t *testing.T, n int, fn func(rank int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = fn(i)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("rank %d: %v", i, err)
		}
	}
}

// TestGPUCollectives: the typed collectives over two GPUs, a goroutine per
// rank (NewComms), each result checked: AllReduce, AllGather,
// ReduceScatter, Broadcast, Reduce, and a Send/Recv exchange in a Group.
func TestGPUCollectives(t *testing.T) {
	ctxs := gpuContexts(t)
	comms, err := NewComms(ctxs...)
	if err != nil {
		t.Fatal(err)
	}
	const n = 1 << 16
	ranks(t, len(comms), func(rank int) error {
		c, ctx := comms[rank], ctxs[rank]
		defer c.Close()
		s, err := ctx.NewStream()
		if err != nil {
			return err
		}
		defer s.Close()
		x, err := Alloc[float32](ctx, n)
		if err != nil {
			return err
		}
		defer x.Close()
		y, err := Alloc[float32](ctx, n*c.Size())
		if err != nil {
			return err
		}
		defer y.Close()
		if err := x.Fill(float32(c.Rank() + 1)); err != nil {
			return err
		}
		got := make([]float32, n*c.Size())
		check := func(what string, b *Buffer[float32], want func(i int) float32) error {
			if err := s.Synchronize(); err != nil {
				return err
			}
			if err := b.CopyTo(got[:b.Len()]); err != nil {
				return err
			}
			for i, v := range got[:b.Len()] {
				if v != want(i) {
					return fmt.Errorf("%s: element %d is %v, want %v", what, i, v, want(i))
				}
			}
			return nil
		}
		if err := AllReduce(c, s, x, y.Slice(0, n), nccl.Sum); err != nil {
			return err
		}
		if err := check("AllReduce", y.Slice(0, n), func(int) float32 { return 3 }); err != nil {
			return err
		}
		if err := AllGather(c, s, x, y); err != nil {
			return err
		}
		if err := check("AllGather", y, func(i int) float32 { return float32(i/n + 1) }); err != nil {
			return err
		}
		// Max over the ranks of y (1s then 2s on both): rank r gets block r.
		if err := ReduceScatter(c, s, y, x, nccl.Max); err != nil {
			return err
		}
		if err := check("ReduceScatter", x, func(int) float32 { return float32(c.Rank() + 1) }); err != nil {
			return err
		}
		if err := Broadcast(c, s, x, x, 1); err != nil {
			return err
		}
		if err := check("Broadcast", x, func(int) float32 { return 2 }); err != nil {
			return err
		}
		// Reduce by Sum to rank 0 of [r+1 ...]: 3 there; then the ranks
		// swap buffers in one group: each receives the other's rank+1.
		if err := x.Fill(float32(c.Rank() + 1)); err != nil {
			return err
		}
		z := y.Slice(0, n)
		if err := Reduce(c, s, x, z, nccl.Sum, 0); err != nil {
			return err
		}
		if c.Rank() == 0 {
			if err := check("Reduce", z, func(int) float32 { return 3 }); err != nil {
				return err
			}
		}
		peer := 1 - c.Rank()
		if err := Group(func() error {
			if err := Send(c, s, x, peer); err != nil {
				return err
			}
			return Recv(c, s, z, peer)
		}); err != nil {
			return err
		}
		return check("Send/Recv", z, func(int) float32 { return float32(peer + 1) })
	})
}

// TestGPUJoinComm: two goroutines join one communicator with a shared id,
// as two processes (or machines) would, and all-reduce int32s.
func TestGPUJoinComm(t *testing.T) {
	ctxs := gpuContexts(t)
	id, err := nccl.GetUniqueId()
	if err != nil {
		t.Fatal(err)
	}
	ranks(t, len(ctxs), func(rank int) error {
		ctx := ctxs[rank]
		c, err := JoinComm(ctx, id, rank, len(ctxs))
		if err != nil {
			return err
		}
		defer c.Close()
		s, err := ctx.NewStream()
		if err != nil {
			return err
		}
		defer s.Close()
		x, err := AllocFrom(ctx, []int32{int32(rank), 10, -5})
		if err != nil {
			return err
		}
		defer x.Close()
		if err := AllReduce(c, s, x, x, nccl.Sum); err != nil {
			return err
		}
		if err := s.Synchronize(); err != nil {
			return err
		}
		got := make([]int32, 3)
		if err := x.CopyTo(got); err != nil {
			return err
		}
		if got[0] != 1 || got[1] != 20 || got[2] != -10 {
			return fmt.Errorf("AllReduce in place: %v, want [1 20 -10]", got)
		}
		return nil
	})
}
