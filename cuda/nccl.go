package cuda

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/cuda/sys/nccl"
)

func init() {
	destroyComm = func(h uint64) error { return nccl.CommDestroy(nccl.Comm(h)) }
}

// Comm is one rank of an NCCL communicator (ncclComm_t) on the device of
// its Context: the collectives ([AllReduce], [AllGather], [ReduceScatter],
// [Broadcast], [Reduce]) of every rank of a communicator must be called, in
// the same order, each from its own goroutine (or process, or machine);
// [Send] and [Recv] move a buffer between two ranks. Close
// destroys it (ncclCommDestroy); like the other resources it holds a
// reference to its context.
type Comm struct {
	r          *resource
	rank, size int
}

// NewComms makes a communicator with one rank per context, on their
// devices, rank i on ctxs[i] (ncclCommInitAll): the way one process drives
// several GPUs, a goroutine per rank.
func NewComms(ctxs ...*Context) ([]*Comm, error) {
	if len(ctxs) == 0 {
		return nil, errors.New("cuda: NewComms: no context")
	}
	devs := make([]int32, len(ctxs))
	states := make([]*ctxState, len(ctxs))
	for i, c := range ctxs {
		s, err := c.use()
		if err != nil {
			return nil, err
		}
		defer c.ref.end()
		states[i], devs[i] = s, int32(c.Device().Ordinal())
	}
	raw := make([]nccl.Comm, len(ctxs))
	// ncclCommInitAll makes each device current in turn on this thread.
	err := onThread(nil, func() error { return nccl.CommInitAll(&raw[0], int32(len(raw)), &devs[0]) })
	if err != nil {
		return nil, err
	}
	comms := make([]*Comm, len(raw))
	for i, h := range raw {
		comms[i] = newComm(states[i], h, i, len(raw))
	}
	return comms, nil
}

// JoinComm makes this process's rank of a communicator of size ranks on
// c's device (ncclCommInitRankConfig). Every rank passes the same id, made
// once by one of them with [nccl.GetUniqueId] and sent to the others (over
// a TCP connection, or by the job's launcher); the call returns when all
// ranks have joined. A job on several machines starts this way.
func JoinComm(c *Context, id nccl.UniqueId, rank, size int) (*Comm, error) {
	if size < 1 || rank < 0 || rank >= size {
		return nil, fmt.Errorf("cuda: JoinComm: rank %d of %d", rank, size)
	}
	var comm *Comm
	err := c.do(func(s *ctxState) error {
		h, err := commInitRank(int32(size), id, int32(rank))
		if err == nil {
			comm = newComm(s, h, rank, size)
		}
		return err
	})
	return comm, err
}

// commInitRank is ncclCommInitRankConfig with NCCL's default config;
// CPU tests replace it with a stand-in.
var commInitRank = func(size int32, id nccl.UniqueId, rank int32) (nccl.Comm, error) {
	config := nccl.ConfigInitializer()
	return nccl.CommInitRankConfig(size, id, rank, &config)
}

func newComm(s *ctxState, h nccl.Comm, rank, size int) *Comm {
	c := &Comm{rank: rank, size: size}
	c.r = newResource(c, s, kindComm, uint64(h), nil)
	return c
}

// Rank is the rank's number, 0 to Size()-1.
func (c *Comm) Rank() int { return c.rank }

// Size is the number of ranks.
func (c *Comm) Size() int { return c.size }

// Raw returns NCCL's handle, for the nccl package.
func (c *Comm) Raw() nccl.Comm { return nccl.Comm(c.r.h) }

// Close destroys the rank's communicator (ncclCommDestroy) after its
// queued work; ErrFreed if it was closed before.
func (c *Comm) Close() error { return c.r.free() }

// Element is a type NCCL reduces and copies: its DataType.
type Element interface {
	int8 | uint8 | int32 | uint32 | int64 | uint64 | float32 | float64
}

func dataType[T Element]() nccl.DataType {
	switch any(*new(T)).(type) {
	case int8:
		return nccl.Int8
	case uint8:
		return nccl.Uint8
	case int32:
		return nccl.Int32
	case uint32:
		return nccl.Uint32
	case int64:
		return nccl.Int64
	case uint64:
		return nccl.Uint64
	case float32:
		return nccl.Float32
	}
	return nccl.Float64
}

// AllReduce queues on s the reduction of every rank's send by op
// (nccl.Sum, nccl.Prod, nccl.Max, nccl.Min, nccl.Avg), leaving the result
// in every rank's recv (ncclAllReduce). send and recv have the same length
// and may be the same buffer.
func AllReduce[T Element](c *Comm, s *Stream, send, recv *Buffer[T], op nccl.RedOp) error {
	if send.n != recv.n {
		return lengthError("AllReduce", "recv", recv.n, "send", send.n)
	}
	return c.queue(s, send, recv, func(st cudart.Stream) error {
		return nccl.AllReduce(ptr(send), ptr(recv), uint64(send.n), dataType[T](), op, c.Raw(), st)
	})
}

// Broadcast queues on s the copy of rank root's send into every rank's
// recv (ncclBroadcast); send is read on root only. They have the same
// length and may be the same buffer.
func Broadcast[T Element](c *Comm, s *Stream, send, recv *Buffer[T], root int) error {
	if send.n != recv.n {
		return lengthError("Broadcast", "recv", recv.n, "send", send.n)
	}
	if err := c.checkRank("Broadcast", "root", root); err != nil {
		return err
	}
	return c.queue(s, send, recv, func(st cudart.Stream) error {
		return nccl.Broadcast(ptr(send), ptr(recv), uint64(send.n), dataType[T](), int32(root), c.Raw(), st)
	})
}

// AllGather queues on s the gathering of every rank's send into every
// rank's recv, rank i's at element i*send.Len() (ncclAllGather): recv has
// Size() times send's length.
func AllGather[T Element](c *Comm, s *Stream, send, recv *Buffer[T]) error {
	if recv.n != send.n*c.size {
		return lengthError("AllGather", "recv", recv.n, "Size() × send", send.n*c.size)
	}
	return c.queue(s, send, recv, func(st cudart.Stream) error {
		return nccl.AllGather(ptr(send), ptr(recv), uint64(send.n), dataType[T](), c.Raw(), st)
	})
}

// ReduceScatter queues on s the reduction of every rank's send by op,
// rank i receiving the i-th block of recv.Len() elements of the result in
// its recv (ncclReduceScatter): send has Size() times recv's length.
func ReduceScatter[T Element](c *Comm, s *Stream, send, recv *Buffer[T], op nccl.RedOp) error {
	if send.n != recv.n*c.size {
		return lengthError("ReduceScatter", "send", send.n, "Size() × recv", recv.n*c.size)
	}
	return c.queue(s, send, recv, func(st cudart.Stream) error {
		return nccl.ReduceScatter(ptr(send), ptr(recv), uint64(recv.n), dataType[T](), op, c.Raw(), st)
	})
}

// Reduce queues on s the reduction of every rank's send by op into rank
// root's recv (ncclReduce); recv is written on root only. They have the
// same length and may be the same buffer.
func Reduce[T Element](c *Comm, s *Stream, send, recv *Buffer[T], op nccl.RedOp, root int) error {
	if send.n != recv.n {
		return lengthError("Reduce", "recv", recv.n, "send", send.n)
	}
	if err := c.checkRank("Reduce", "root", root); err != nil {
		return err
	}
	return c.queue(s, send, recv, func(st cudart.Stream) error {
		return nccl.Reduce(ptr(send), ptr(recv), uint64(send.n), dataType[T](), op, int32(root), c.Raw(), st)
	})
}

// Send queues on s the sending of b to rank peer, which must Recv the same
// number of elements of the same type from this rank (ncclSend). A Send
// and a Recv that must progress together (an exchange between two ranks)
// go in one [Group].
func Send[T Element](c *Comm, s *Stream, b *Buffer[T], peer int) error {
	if err := c.checkRank("Send", "peer", peer); err != nil {
		return err
	}
	return c.queue(s, b, b, func(st cudart.Stream) error {
		return nccl.Send(ptr(b), uint64(b.n), dataType[T](), int32(peer), c.Raw(), st)
	})
}

// Recv queues on s the receiving into b of what rank peer Sends to this
// rank (ncclRecv).
func Recv[T Element](c *Comm, s *Stream, b *Buffer[T], peer int) error {
	if err := c.checkRank("Recv", "peer", peer); err != nil {
		return err
	}
	return c.queue(s, b, b, func(st cudart.Stream) error {
		return nccl.Recv(ptr(b), uint64(b.n), dataType[T](), int32(peer), c.Raw(), st)
	})
}

// Group runs fn between ncclGroupStart and ncclGroupEnd: the NCCL calls fn
// makes (sends and receives that must progress together, or the
// collectives of several communicators from one goroutine) are launched
// as one when fn returns. ncclGroupEnd runs even if fn fails; fn's error
// comes first. NCCL keeps the group per OS thread, so the goroutine is
// locked to its thread until the group ends: fn must make its calls on the
// calling goroutine.
func Group(fn func() error) error {
	return onThread(nil, func() error {
		if err := nccl.GroupStart(); err != nil {
			return err
		}
		err := fn()
		if gerr := nccl.GroupEnd(); err == nil {
			err = gerr
		}
		return err
	})
}

func (c *Comm) checkRank(op, what string, r int) error {
	if r < 0 || r >= c.size {
		return fmt.Errorf("cuda: %s: %s %d of %d ranks", op, what, r, c.size)
	}
	return nil
}

func lengthError(op, a string, an int, b string, bn int) error {
	return fmt.Errorf("cuda: %s: %s has %d elements, %s is %d", op, a, an, b, bn)
}

var errOtherCommContext = errors.New("cuda: the buffers and the stream must belong to the communicator's context")

// queue runs call, a collective of c, on s: the communicator, the buffers
// and the stream alive and of one context, the OS thread locked with that
// context current.
func (c *Comm) queue(s *Stream, send, recv interface{ res() *resource }, call func(cudart.Stream) error) error {
	if err := c.r.alive(); err != nil {
		return err
	}
	for _, b := range []*resource{send.res(), recv.res()} {
		if err := b.use(); err != nil {
			return err
		}
		defer b.uses.release()
		if b.ctx.ctx != c.r.ctx.ctx {
			return errOtherCommContext
		}
	}
	return s.deviceOp(c.r, func(st cu.Stream) error { return call(cudart.Stream(st)) })
}

// ptr is b's device address as the unsafe.Pointer NCCL's buffers are.
func ptr[T any](b *Buffer[T]) unsafe.Pointer { return b.ptr.Pointer() }
