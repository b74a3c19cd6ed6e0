package ffi

import (
	"sync"
	"syscall"
	"unsafe"
)

// probe is the pipe readable writes to; its mutex orders the write with
// the read that empties the pipe again.
var probe struct {
	sync.Mutex
	fds  [2]int
	made bool
	buf  [1]byte
}

// readable reports whether the byte at a can be read: the kernel copies it
// into a pipe, and says EFAULT where the process would fault. If no pipe
// can be made (no file descriptor left), it reports false.
func readable(a uintptr) bool {
	probe.Lock()
	defer probe.Unlock()
	if !probe.made {
		if err := syscall.Pipe2(probe.fds[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
			return false
		}
		probe.made = true
	}
	for {
		n, _, errno := syscall.Syscall(syscall.SYS_WRITE, uintptr(probe.fds[1]), a, 1)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 || n != 1 {
			return false
		}
		break
	}
	for {
		_, _, errno := syscall.Syscall(syscall.SYS_READ, uintptr(probe.fds[0]), uintptr(unsafe.Pointer(&probe.buf[0])), 1)
		if errno != syscall.EINTR {
			break
		}
	}
	return true
}
