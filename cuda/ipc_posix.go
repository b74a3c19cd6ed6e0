//go:build !windows

package cuda

import "syscall"

// closeOnExec marks fd close-on-exec.
func closeOnExec(fd int) { syscall.CloseOnExec(fd) }

// closeFD closes fd.
func closeFD(fd int) { syscall.Close(fd) }

// dupHigh duplicates fd to a descriptor of at least 4096, close-on-exec.
func dupHigh(fd int) (int, error) {
	r, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 4096)
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}
