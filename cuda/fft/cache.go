package fft

import (
	"slices"
	"sync"

	cuda "github.com/cugen/cugen/cuda"
)

// Cache keeps plans by context, stream, type, sizes, batch and layout, up
// to a number of plans, as CuPy's plan cache does: [Cache.Do] makes a
// plan the first time a Desc is seen and hands the same plan to later
// calls. When full it closes the plan used least recently, once no call
// is using it. A Cache is safe to use from any goroutine; its zero value
// is not: make one with NewCache.
type Cache struct {
	mu      sync.Mutex
	max     int
	tick    uint64
	entries map[cacheKey]*entry

	// newPlan and closePlan are NewPlan and Plan.Close; the tests replace
	// them.
	newPlan   func(ctx *cuda.Context, s *cuda.Stream, d Desc) (*Plan, error)
	closePlan func(p *Plan) error
}

type cacheKey struct {
	ctx *cuda.Context
	s   *cuda.Stream
	key
}

type entry struct {
	p       *Plan
	busy    int    // calls of Do using p
	last    uint64 // the tick of its last use
	evicted bool   // out of the map: the last call closes p
}

// NewCache returns a cache of at most n plans (at least 1).
func NewCache(n int) *Cache {
	return &Cache{
		max:       max(n, 1),
		entries:   map[cacheKey]*entry{},
		newPlan:   NewPlan,
		closePlan: (*Plan).Close,
	}
}

// Do calls fn with the cache's plan for d on stream s of ctx, making it
// first if the cache has none. The plan stays open while fn runs; fn must
// not Close it or keep it after returning (a later Do returns it again,
// unless it was evicted). A hit allocates nothing.
func (c *Cache) Do(ctx *cuda.Context, s *cuda.Stream, d Desc, fn func(p *Plan) error) error {
	k, ok := keyOf(&d)
	if !ok {
		_, err := check("Cache.Do", &d) // says what is wrong
		return err
	}
	ck := cacheKey{ctx: ctx, s: s, key: k}
	c.mu.Lock()
	e := c.entries[ck]
	if e == nil {
		c.mu.Unlock()
		p, err := c.newPlan(ctx, s, d.clone()) // d itself stays on the caller's stack
		if err != nil {
			return err
		}
		c.mu.Lock()
		if e = c.entries[ck]; e != nil { // another goroutine made it first
			defer c.closePlan(p)
		} else {
			e = &entry{p: p}
			c.entries[ck] = e
		}
	}
	c.tick++
	e.last = c.tick
	e.busy++
	c.evict() // after the use is counted: never e
	c.mu.Unlock()

	err := fn(e.p)

	c.mu.Lock()
	e.busy--
	closeNow := e.evicted && e.busy == 0
	c.mu.Unlock()
	if closeNow {
		c.closePlan(e.p)
	}
	return err
}

// evict drops the least recently used entries beyond max; c.mu is held.
// An entry in use is closed by its last call; the newest (the caller's)
// is never the least recently used.
func (c *Cache) evict() {
	for len(c.entries) > c.max {
		var oldK cacheKey
		var old *entry
		for k, e := range c.entries {
			if old == nil || e.last < old.last {
				oldK, old = k, e
			}
		}
		delete(c.entries, oldK)
		old.evicted = true
		if old.busy == 0 {
			go c.closePlan(old.p) // Close may wait for the device: not under c.mu
		}
	}
}

// Len returns the number of plans the cache holds.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// Close closes every plan of the cache and empties it; plans in use by a
// Do are closed when it returns. The cache stays usable.
func (c *Cache) Close() error {
	c.mu.Lock()
	var idle []*Plan
	for k, e := range c.entries {
		delete(c.entries, k)
		e.evicted = true
		if e.busy == 0 {
			idle = append(idle, e.p)
		}
	}
	c.mu.Unlock()
	var first error
	for _, p := range idle {
		if err := c.closePlan(p); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// clone returns d with slices of its own, field by field: so d's own
// slices do not escape (a struct copy would make them).
func (d *Desc) clone() Desc {
	return Desc{
		Type: d.Type, Dims: slices.Clone(d.Dims), Batch: d.Batch,
		InEmbed: slices.Clone(d.InEmbed), OutEmbed: slices.Clone(d.OutEmbed),
		InStride: d.InStride, OutStride: d.OutStride, InDist: d.InDist, OutDist: d.OutDist,
		ExternalWorkspace: d.ExternalWorkspace,
	}
}
