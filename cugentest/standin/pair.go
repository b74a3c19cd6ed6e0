package standin

import (
	"runtime"
	"testing"
	"time"
)

// Pair is the benchmark of a package's call against the raw generated
// call it makes: each iteration runs calls calls each way (raw(calls),
// pkg(calls)), in alternating order, on one locked thread, and it reports
// per call the thread's CPU time each way (raw-ns/call, pkg-ns/call),
// their difference (over-ns/call, what the package adds) and the wall
// clock's difference (over-wall-ns/call). The thread's CPU time leaves
// out the time other processes had the CPU, which the wall clock counts
// on a loaded machine. raw and pkg fail b themselves.
func Pair(b *testing.B, calls int, raw, pkg func(calls int)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	raw(calls) // warm both
	pkg(calls)
	var rawCPU, pkgCPU, rawWall, pkgWall time.Duration
	timed := func(f func(int), cpu, wall *time.Duration) {
		c, w := ThreadCPU(), time.Now()
		f(calls)
		*cpu += ThreadCPU() - c
		*wall += time.Since(w)
	}
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			timed(raw, &rawCPU, &rawWall)
			timed(pkg, &pkgCPU, &pkgWall)
		} else {
			timed(pkg, &pkgCPU, &pkgWall)
			timed(raw, &rawCPU, &rawWall)
		}
	}
	n := float64(b.N * calls)
	b.ReportMetric(float64(rawCPU.Nanoseconds())/n, "raw-ns/call")
	b.ReportMetric(float64(pkgCPU.Nanoseconds())/n, "pkg-ns/call")
	b.ReportMetric(float64((pkgCPU-rawCPU).Nanoseconds())/n, "over-ns/call")
	b.ReportMetric(float64((pkgWall-rawWall).Nanoseconds())/n, "over-wall-ns/call")
	b.ReportMetric(0, "ns/op")
}
