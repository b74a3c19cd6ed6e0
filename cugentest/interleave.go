package cugentest

import (
	"slices"
	"testing"
	"time"
)

// Interleave is the loop of a benchmark of two ways of the same work
// (the layer's call and the raw call it makes, each a block of calls
// that waits for its work): after one run of each to warm them, it runs
// both b.N times, alternately, the one that goes first alternating too,
// and returns the time of each run of x and of y. It stops b's timer at
// the end; the caller reports the metrics from the times ([Times]), and
// allocations if it wants them (b.ReportAllocs).
func Interleave(b *testing.B, x, y func()) (tx, ty Times) {
	t := InterleaveAll(b, x, y)
	return t[0], t[1]
}

// InterleaveAll is [Interleave] of any number of ways: each iteration
// runs every way once, starting with way i mod len(ways) and going on in
// order, so that each way follows each other in turn; it returns the
// times of each way.
func InterleaveAll(b *testing.B, ways ...func()) []Times {
	times := make([]Times, len(ways))
	for i, w := range ways {
		w()
		times[i] = make(Times, 0, b.N)
	}
	b.ResetTimer()
	for i := range b.N {
		for j := range ways {
			k := (i + j) % len(ways)
			t0 := time.Now()
			ways[k]()
			times[k] = append(times[k], time.Since(t0))
		}
	}
	b.StopTimer()
	return times
}

// Times are the times of a benchmark's runs of one way ([Interleave]).
type Times []time.Duration

// Total is the sum of the times.
func (t Times) Total() time.Duration {
	var s time.Duration
	for _, d := range t {
		s += d
	}
	return s
}

// Median is the middle time (of an even number, the upper of the two
// middle ones); 0 for none.
func (t Times) Median() time.Duration {
	if len(t) == 0 {
		return 0
	}
	s := slices.Clone(t)
	slices.Sort(s)
	return s[len(s)/2]
}

// Min is the fastest time: on a shared machine a run that was preempted
// is slower, never faster, so the fastest is nearest the cost itself; 0
// for none.
func (t Times) Min() time.Duration {
	if len(t) == 0 {
		return 0
	}
	return slices.Min(t)
}
