package abitest_test

import "syscall"

var procGetCurrentThreadId = syscall.NewLazyDLL("kernel32.dll").NewProc("GetCurrentThreadId")

func gettid() int {
	id, _, _ := syscall.SyscallN(procGetCurrentThreadId.Addr())
	return int(id)
}
