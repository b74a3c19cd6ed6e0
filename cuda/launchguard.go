package cuda

import (
	"math/bits"
	"runtime"
	"sync/atomic"
	"time"
)

// The launch guard: how Kernel.Launch keeps its operands open without a
// use count of each. A launch of a kernel of a module on a stream with two
// buffers would begin and end 4 uses, 8 atomic adds, a third of the
// layer's cost of a launch. Instead the launch marks its OS thread (locked
// for the launch) busy in a word of its own, checks that none of its
// operands is closed, and marks the thread idle after the driver call: 2
// atomic adds whatever the operands. A Close, once it has marked its
// resource closed (uses.closeWait), waits for every launch in flight to
// end (waitLaunches): those that began before the mark may use the
// resource, and those that begin after see it closed and refuse. The
// mark and the launch's check are sequentially consistent atomics on
// both sides (a Dekker pair): a launch that misses the mark is one the
// Close sees busy. Only a resource that was ever an operand of a guarded
// launch waits: its first such launch sets usesLaunched in its uses'
// word (uses.guarded), in the word the Close marks, so either the Close
// sees the bit or the launch sees the mark. Such a Close may wait for a
// launch on another thread that uses none of its operands, for as long as
// the driver takes to queue it (cuLaunchKernel blocks only while the
// device's launch queue is full).
//
// A slot's word is the owner's M (runtime.getm) shifted 16 bits, a
// sequence number of its launches and, in bit 0, the launch in flight. A
// thread finds its slot among 4 by its M's hash; when it owns none of
// them it takes one that is not in flight (free, or another thread's: an
// exited thread's slot is not lost, and a compare-and-swap decides
// between the owner's next launch and the taker). When all 4 are in
// flight, or noGuards is set (tests), the launch counts its uses as before.

const guardSlots = 64 // the bits of guards.used

type guardSlot struct {
	w atomic.Uint64 // m<<16 | seq<<1 | in flight
	_ [56]byte      // a cache line each: threads launching at once do not share one
}

var guards struct {
	used atomic.Uint64 // bit i: slot i was taken once
	slot [guardSlots]guardSlot
}

// noGuards makes every launch count its uses (tests).
var noGuards atomic.Bool

// enterLaunch marks a launch in flight on the calling thread, which is
// locked, and returns the thread's slot for exit; nil when it has none
// (the launch counts uses instead).
func enterLaunch() *guardSlot {
	m := uint64(getm())
	if m>>48 != 0 || noGuards.Load() {
		return nil
	}
	h := int((m * 0x9e3779b97f4a7c15) >> (64 - 6)) // of guardSlots
	for try := range 4 {
		s := &guards.slot[(h+try)&(guardSlots-1)]
		if w := s.w.Load(); w>>16 == m && s.w.CompareAndSwap(w, w|1) {
			return s // only its owner puts a slot in flight: w is idle
		}
	}
	for try := range 4 {
		i := (h + try) & (guardSlots - 1)
		s := &guards.slot[i]
		w := s.w.Load()
		if w&1 != 0 {
			continue
		}
		// Before the launch's checks: a Close that looks at guards.used
		// after marking its resource closed sees the bit, or the launch
		// sees the mark.
		if guards.used.Load()&(1<<i) == 0 {
			guards.used.Or(1 << i)
		}
		if s.w.CompareAndSwap(w, m<<16|w&0xfffe|1) {
			return s
		}
	}
	return nil
}

// exit marks the launch of enterLaunch done, with the next sequence
// number; nil does nothing.
func (s *guardSlot) exit() {
	if s != nil {
		w := s.w.Load() // in flight: only this thread changes it
		s.w.Store(w&^0xffff | (w+1)&0xffff)
	}
}

// waitLaunches returns once every launch in flight at its call has ended.
// Launches are short (a driver call that queues work), so it yields, and
// after 100 yields sleeps, while one is in flight; each time it looks at
// every slot still in flight, so that it waits about as long as the
// longest launch, even on a machine busier than it has cores.
func waitLaunches() {
	var seen [guardSlots]uint64
	var busy uint64
	for used := guards.used.Load(); used != 0; used &= used - 1 {
		i := bits.TrailingZeros64(used)
		if v := guards.slot[i].w.Load(); v&1 != 0 {
			seen[i] = v
			busy |= 1 << i
		}
	}
	for try := 0; busy != 0; try++ {
		if try < 100 {
			runtime.Gosched()
		} else {
			time.Sleep(20 * time.Microsecond)
		}
		for b := busy; b != 0; b &= b - 1 {
			i := bits.TrailingZeros64(b)
			if guards.slot[i].w.Load() != seen[i] {
				busy &^= 1 << i
			}
		}
	}
}

// launchesInFlight counts the guarded launches in flight (tests).
func launchesInFlight() int {
	n := 0
	for i := range guards.slot {
		n += int(guards.slot[i].w.Load() & 1)
	}
	return n
}

// guarded checks, for a launch whose guard is in flight, that u is open,
// and marks u launched (so its Close waits for the launches in flight);
// false once closed. The guard is entered before: a Close that missed the
// bit is one whose mark this load sees.
func (u *uses) guarded() bool {
	v := u.state.Load()
	if v&usesLaunched == 0 {
		v = u.state.Or(usesLaunched)
	}
	return v&usesClosed == 0
}
