package cuda

import (
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"sync"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// CachingAllocator keeps the device memory of closed buffers and hands it
// to the next allocation of the same size class on the same stream, with
// no driver call: what CuPy's MemoryPool and PyTorch's caching allocator
// do. It is opt-in: [AllocAsync] asks the driver's stream-ordered pool at
// every allocation and free, which is cheap on the device but a round trip
// through the driver each time; a loop that allocates and frees buffers of
// a few sizes on a stream costs, through [AllocCached], a lock and a map
// lookup instead.
//
// Blocks come from the driver with cuMemAllocAsync (from the pool of
// [CachingOptions].Pool, or the device's current pool) on the stream of
// the allocation that misses. A buffer's Close puts its block back in the
// cache, on the list of its stream and size class, and a later
// [AllocCached] on that stream takes it: the stream's order makes the
// reuse safe, as the driver's own pool does for cuMemFreeAsync, so the
// block's earlier work is done before the new owner's work begins. A block
// is never reused on another stream: an allocation on stream B misses on
// A's blocks. The rule that follows for a buffer used on several streams
// is cuMemFreeAsync's: before its Close, make its own stream wait for the
// other streams' work on it ([Stream.WaitEvent]); its memory may be handed
// to the next allocation on its stream at once.
//
// The cache holds at most [CachingOptions].MaxCached bytes of free blocks;
// a block closed beyond that is freed to the driver (cuMemFreeAsync on its
// stream). [CachingAllocator.Trim] frees every cached block, and so does
// a miss the driver answers with CUDA_ERROR_OUT_OF_MEMORY, before it asks
// again. [CachingAllocator.Close] frees the cache; the buffers still open
// free their blocks to the driver at their own Close. Blocks of a closed
// stream are freed at the next Trim, Close, return beyond the bound
// (cuMemFree: the stream is gone), or when a new stream's first block
// comes back; a block whose stream is closed before the buffer is freed
// at the buffer's Close. The allocator is safe to use from any
// goroutine.
//
// A Buffer of the allocator is a Buffer like any other: after its Close,
// every use of it or its views is [ErrFreed], though its memory may
// already belong to another buffer (so do not keep its [Buffer.Ptr]).
// Memory is not allocated while the stream is captured
// ([Stream.BeginCapture]): allocate before, or use [AllocAsync], whose
// allocation becomes a node of the graph.
type CachingAllocator struct{ c *cache }

// CachingOptions configure a [CachingAllocator].
type CachingOptions struct {
	// Pool is the memory pool blocks are allocated from
	// (cuMemAllocFromPoolAsync); nil: the device's current pool
	// (cuMemAllocAsync). It must stay open while the allocator
	// allocates: a miss on a closed pool is ErrFreed.
	Pool *MemPool
	// MaxCached bounds the bytes of free blocks the cache keeps; 0: no
	// bound, as CuPy's MemoryPool keeps all until told otherwise.
	MaxCached uint64
	// Divisions is the number of size classes in each power-of-two range
	// above 1 MiB: a request there is rounded up to the next multiple of
	// 1/Divisions of the power of two below it, wasting at most that
	// fraction. 0 means 4; 1 rounds to powers of two. It must be a power
	// of two, at most 1024.
	Divisions int
}

// CachingStats are an allocator's counters. Bytes are the blocks' sizes,
// the requests rounded up to their size class.
type CachingStats struct {
	Cached   uint64 // bytes of free blocks in the cache
	InUse    uint64 // bytes of blocks held by open buffers
	Hits     uint64 // allocations served from the cache
	Misses   uint64 // allocations that called cuMemAllocAsync
	Released uint64 // blocks freed to the driver (bound, Trim, Close, out of memory)
}

// Size classes. Up to 1 MiB a request rounds up to a multiple of 512 B
// (CuPy's and PyTorch's granule; the driver's pools align allocations
// at least that much): the waste is under 512 B a block, and the classes,
// at most 2048, are each a list of blocks of exactly one size, so a freed
// block fits any request of its class with no splitting. Above 1 MiB a
// fixed granule would make as many classes as there are sizes (and a
// varied workload would miss on each), and powers of two waste up to
// half: Divisions classes per power of two keep the classes logarithmic
// in the size and the waste at 1/Divisions.
const (
	cacheSmall   = 1 << 20
	cacheGranule = 512
)

type cache struct {
	ctx  *ctxState
	pool *MemPool
	max  uint64
	div  uint64

	mu      sync.Mutex
	closed  bool
	streams map[*streamState]*streamCache
	last    *streamCache // the stream of the last hit or return: most loops use one
	stats   CachingStats
}

// streamCache is one stream's free blocks: a list per size class.
type streamCache struct {
	st    *streamState
	lists map[uint64]*cacheBlock // by size; keys stay when their list empties
}

// cacheBlock is one block of device memory the allocator took from the
// driver, in its cache or held by one open buffer (the buffer's
// resource keeps it); the same record serves every owner in turn.
type cacheBlock struct {
	c    *cache
	next *cacheBlock // on its list
	size uint64
	// res frees the block to the driver: stream-ordered memory of its
	// stream, which destroy frees on the stream, with cuMemFree once the
	// stream is closed, or at the capture's end while it is captured.
	res resource
}

var (
	errNilCache     = errors.New("cuda: nil *CachingAllocator")
	errCacheContext = errors.New("cuda: the caching allocator belongs to another context than the stream")
	errCacheCapture = errors.New("cuda: AllocCached on a stream being captured: allocate before BeginCapture, or use AllocAsync (a node of the graph)")
)

// NewCachingAllocator returns a caching allocator of device memory for the
// streams of c. Close it when done; it keeps a reference to the context
// until then.
func (c *Context) NewCachingAllocator(o CachingOptions) (*CachingAllocator, error) {
	div := o.Divisions
	if div == 0 {
		div = 4
	}
	if div < 0 || div > 1024 || div&(div-1) != 0 {
		return nil, fmt.Errorf("cuda: CachingOptions.Divisions %d: want a power of two up to 1024 (0: 4)", o.Divisions)
	}
	s, err := c.use()
	if err != nil {
		return nil, err
	}
	defer c.ref.end()
	if o.Pool != nil {
		if err := o.Pool.r.alive(); err != nil {
			return nil, err
		}
		if o.Pool.r.ctx.ctx != s.ctx {
			return nil, errPoolContext
		}
	}
	s.retain()
	cc := &cache{ctx: s, pool: o.Pool, max: o.MaxCached, div: uint64(div), streams: map[*streamState]*streamCache{}}
	a := &CachingAllocator{c: cc}
	runtime.AddCleanup(a, cleanupCache, cc)
	return a, nil
}

// round returns the size class of a request of n bytes.
func (c *cache) round(n uint64) uint64 {
	if n <= cacheSmall {
		return (n + cacheGranule - 1) &^ (cacheGranule - 1)
	}
	step := (uint64(1) << (bits.Len64(n-1) - 1)) / c.div // of the power of two below n
	return (n + step - 1) &^ (step - 1)
}

// AllocCached allocates n elements of device memory for use on s from the
// caching allocator a: a free block of the size class on s's list if there
// is one, else a new block (cuMemAllocAsync on s). The buffer's Close
// returns the block to a; see [CachingAllocator] for the rules. s must be
// of a's context.
func AllocCached[T any](a *CachingAllocator, s *Stream, n int) (*Buffer[T], error) {
	size, err := elemSize[T]("Buffer", n)
	if err != nil {
		return nil, err
	}
	if a == nil {
		return nil, errNilCache
	}
	if s == nil {
		return nil, errNilStream
	}
	st, c := s.st, a.c
	if !st.uses.acquire() {
		return nil, ErrFreed
	}
	defer st.uses.release()
	if st.ctx.ctx != c.ctx.ctx {
		return nil, errCacheContext
	}
	if n == 0 {
		if c.isClosed() {
			return nil, ErrFreed
		}
		b, _ := newBuffer[T](st.ctx, kindNone, 0, 0, false)
		return b, nil
	}
	blk, err := c.get(st, uint64(n)*size)
	if err != nil {
		return nil, err
	}
	b, r := newBuffer[T](st.ctx, kindCached, cu.Deviceptr(blk.res.h), n, false) // bufalloc.go
	r.st, r.keep = st, blk
	return b, nil
}

func (c *cache) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// get returns a block of at least n bytes for st, whose use the caller
// holds.
func (c *cache) get(st *streamState, n uint64) (*cacheBlock, error) {
	size := c.round(n)
	st.mu.Lock()
	capturing := st.capturing
	st.mu.Unlock()
	if capturing {
		return nil, errCacheCapture
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, ErrFreed
	}
	if sc, _ := c.streamOf(st, false); sc != nil {
		if blk := sc.lists[size]; blk != nil {
			sc.lists[size], blk.next = blk.next, nil
			c.stats.Cached -= size
			c.stats.InUse += size
			c.stats.Hits++
			c.mu.Unlock()
			return blk, nil
		}
	}
	c.mu.Unlock()
	return c.fresh(st, size)
}

// streamOf returns st's lists, made (and made true) if create is set,
// else nil when st has none; c.mu is held.
func (c *cache) streamOf(st *streamState, create bool) (sc *streamCache, made bool) {
	if sc := c.last; sc != nil && sc.st == st {
		return sc, false
	}
	sc = c.streams[st]
	if sc == nil {
		if !create {
			return nil, false
		}
		sc = &streamCache{st: st, lists: map[uint64]*cacheBlock{}}
		c.streams[st] = sc
		made = true
	}
	c.last = sc
	return sc, made
}

// fresh allocates a block of size bytes on st from the driver. Out of
// memory, it frees the cache and asks once more.
func (c *cache) fresh(st *streamState, size uint64) (*cacheBlock, error) {
	var pool cu.MemoryPool
	if p := c.pool; p != nil {
		if err := p.r.use(); err != nil {
			return nil, err
		}
		defer p.r.uses.release()
		pool = cu.MemoryPool(p.r.h)
	}
	var ptr cu.Deviceptr
	err := onThread(st.ctx, func() (err error) {
		d := st.ctx.drv
		ptr, err = d.memAllocAsync(size, pool, st.h)
		if errors.Is(err, cu.ErrorOutOfMemory) {
			if blks := c.takeAll(false); len(blks) > 0 {
				c.freeAll(blks) // its error is the pool's, which the retry meets
				ptr, err = d.memAllocAsync(size, pool, st.h)
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	blk := &cacheBlock{c: c, size: size}
	blk.res = resource{ctx: c.ctx, kind: kindMemAsync, h: uint64(ptr), st: st}
	c.mu.Lock()
	c.stats.Misses++
	c.stats.InUse += size
	c.mu.Unlock()
	return blk, nil
}

// recycle is the Close of a buffer of a caching allocator (resource.free,
// once): its block goes back to its stream's list, or to the driver when
// the cache is full or closed, or the stream is (no allocation can take
// the block then). The first block of a stream new to the cache sweeps
// the blocks of the streams closed since, so a program that makes a
// stream per task does not fill the cache with blocks nothing can reuse.
func recycle(r *resource) error {
	blk := r.keep.(*cacheBlock)
	c, st := blk.c, blk.res.st
	c.mu.Lock()
	c.stats.InUse -= blk.size
	if !c.closed && !st.uses.closed() {
		if c.max != 0 && c.stats.Cached+blk.size > c.max {
			c.mu.Unlock()
			c.freeAll(c.takeAll(true)) // the blocks of closed streams first
			c.mu.Lock()
		}
		if !c.closed && (c.max == 0 || c.stats.Cached+blk.size <= c.max) {
			sc, made := c.streamOf(st, true)
			blk.next = sc.lists[blk.size]
			sc.lists[blk.size] = blk
			c.stats.Cached += blk.size
			c.mu.Unlock()
			if made {
				return c.freeAll(c.takeAll(true))
			}
			return nil
		}
	}
	c.stats.Released++
	c.mu.Unlock()
	return onThread(r.ctx, func() error { return r.ctx.drv.destroy(&blk.res) })
}

// takeAll empties the cache, or only the lists of closed streams when dead
// is set, and returns the blocks it held.
func (c *cache) takeAll(dead bool) []*cacheBlock {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*cacheBlock
	for st, sc := range c.streams {
		if dead && !st.uses.closed() {
			continue
		}
		for _, blk := range sc.lists {
			for ; blk != nil; blk = blk.next {
				out = append(out, blk)
				c.stats.Cached -= blk.size
			}
		}
		delete(c.streams, st)
		if c.last == sc {
			c.last = nil
		}
	}
	c.stats.Released += uint64(len(out))
	return out
}

// freeAll frees blks, taken out of the cache, to the driver, each on its
// own stream, and returns the first error.
func (c *cache) freeAll(blks []*cacheBlock) error {
	var first error
	for _, blk := range blks {
		// One onThread a block: a free the bind's check repeats is that
		// block's alone.
		if err := onThread(c.ctx, func() error { return c.ctx.drv.destroy(&blk.res) }); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Trim frees every cached block to the driver: cuMemFreeAsync on the
// block's stream, after the work queued there, or cuMemFree when the
// stream was closed. The buffers open keep theirs. ErrFreed after Close.
func (a *CachingAllocator) Trim() error {
	c := a.c
	if c.isClosed() {
		return ErrFreed
	}
	return c.freeAll(c.takeAll(false))
}

// Stats returns the allocator's counters; they stay readable after Close.
func (a *CachingAllocator) Stats() CachingStats {
	c := a.c
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Close frees the cached blocks as Trim does and drops the allocator's
// reference to its context. Buffers still open stay valid; their Close
// frees their blocks to the driver. AllocCached and Trim return ErrFreed
// after it, and so does a second Close.
func (a *CachingAllocator) Close() error { return a.c.close() }

func (c *cache) close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return ErrFreed
	}
	c.closed = true
	c.mu.Unlock()
	err := c.freeAll(c.takeAll(false))
	if rerr := c.ctx.release(); err == nil {
		err = rerr
	}
	return err
}

// cleanupCache closes c when its CachingAllocator became unreachable
// unclosed, on its context's release goroutine.
func cleanupCache(c *cache) {
	if !c.isClosed() {
		c.ctx.releases.push(c)
	}
}

func (c *cache) releaseUnreachable() { c.close() }
