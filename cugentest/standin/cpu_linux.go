package standin

import (
	"syscall"
	"time"
)

// ThreadCPU returns the CPU time the calling OS thread has used (user and
// system), or the wall clock where that is not known: a measure of a
// benchmark's own work on a loaded machine, where the wall clock counts
// the time others ran. Lock the goroutine to its thread around the
// measures (runtime.LockOSThread).
func ThreadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil { // RUSAGE_THREAD
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
