package ffi

import (
	"sync"
	"syscall"
	"unsafe"
)

// probe is the pipe Readable writes to; its mutex orders the write with
// the read that empties the pipe again.
var probe struct {
	sync.Mutex
	fds  [2]int
	made bool
	buf  [256]byte
}

// readable reports whether the byte at a can be read.
func readable(a uintptr) bool { return Readable(a, 1) }

// Readable reports whether the n bytes at a can be read without a fault:
// the kernel copies them into a pipe, and says EFAULT where the process
// would fault (unmapped memory, or a device address that is not mapped on
// the host). If no pipe can be made (no file descriptor left), it reports
// false. Generated wrappers ask it before they copy a value that C must
// see at an alignment Go does not give (see ffiimpl.AlignedIn).
func Readable(a, n uintptr) bool {
	probe.Lock()
	defer probe.Unlock()
	if !probe.made {
		if err := syscall.Pipe2(probe.fds[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
			return false
		}
		probe.made = true
	}
	for n > 0 {
		k := min(n, uintptr(len(probe.buf)))
		w, _, errno := syscall.Syscall(syscall.SYS_WRITE, uintptr(probe.fds[1]), a, k)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 || w != k {
			drain()
			return false
		}
		drain()
		a += k
		n -= k
	}
	return true
}

// drain empties the probe pipe.
func drain() {
	for {
		_, _, errno := syscall.Syscall(syscall.SYS_READ, uintptr(probe.fds[0]), uintptr(unsafe.Pointer(&probe.buf[0])), uintptr(len(probe.buf)))
		if errno != syscall.EINTR {
			return
		}
	}
}
