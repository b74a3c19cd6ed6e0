//go:build windows && amd64

package ffiimpl

import (
	"syscall"

	"github.com/ebitengine/purego"
)

var procGetCurrentThreadId = syscall.NewLazyDLL("kernel32.dll").NewProc("GetCurrentThreadId")

// gettid returns the calling OS thread's id.
func gettid() int {
	id, _, _ := syscall.SyscallN(procGetCurrentThreadId.Addr())
	return int(id)
}

// newCallback is purego.NewCallback, which on Windows is
// syscall.NewCallback: it takes only funcs with one uintptr-sized result.
// A C callback returning void is a Go func without one, so it is wrapped
// in a func returning 0 (RAX is not read by a caller of a void function).
// The wrappers cover the shapes generated code makes (up to four uintptr
// arguments); anything else goes to purego as it is.
func newCallback(fn any) uintptr {
	switch f := fn.(type) {
	case func():
		return purego.NewCallback(func() uintptr { f(); return 0 })
	case func(uintptr):
		return purego.NewCallback(func(a0 uintptr) uintptr { f(a0); return 0 })
	case func(uintptr, uintptr):
		return purego.NewCallback(func(a0, a1 uintptr) uintptr { f(a0, a1); return 0 })
	case func(uintptr, uintptr, uintptr):
		return purego.NewCallback(func(a0, a1, a2 uintptr) uintptr { f(a0, a1, a2); return 0 })
	case func(uintptr, uintptr, uintptr, uintptr):
		return purego.NewCallback(func(a0, a1, a2, a3 uintptr) uintptr { f(a0, a1, a2, a3); return 0 })
	case func(uintptr, uintptr, uintptr, uintptr, uintptr):
		return purego.NewCallback(func(a0, a1, a2, a3, a4 uintptr) uintptr { f(a0, a1, a2, a3, a4); return 0 })
	case func(uintptr, uintptr, uintptr, uintptr, uintptr, uintptr):
		return purego.NewCallback(func(a0, a1, a2, a3, a4, a5 uintptr) uintptr { f(a0, a1, a2, a3, a4, a5); return 0 })
	}
	return purego.NewCallback(fn)
}
