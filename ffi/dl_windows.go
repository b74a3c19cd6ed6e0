//go:build windows && amd64

package ffi

import (
	"strings"
	"syscall"
	"unsafe"
)

var (
	kernel32               = syscall.NewLazyDLL("kernel32.dll")
	procLoadLibraryExW     = kernel32.NewProc("LoadLibraryExW")
	procGetModuleFileNameW = kernel32.NewProc("GetModuleFileNameW")
)

// LoadLibraryExW flags: a DLL named by its path finds its own dependencies
// in its directory first (CUDA_PATH\bin holds cudart and cublasLt side by
// side), then in the default directories.
const (
	loadLibrarySearchDLLLoadDir  = 0x00000100
	loadLibrarySearchDefaultDirs = 0x00001000
)

// dlopenNow loads a DLL with LoadLibraryExW. Windows resolves a DLL's
// imports at load time, so a missing dependency fails here, as RTLD_NOW
// makes it on Linux. A bare file name goes through the standard search
// (the executable's directory, System32, the Windows directory, PATH), the
// counterpart of the dynamic loader's own search.
func dlopenNow(p string) (uintptr, error) {
	name, err := syscall.UTF16PtrFromString(p)
	if err != nil {
		return 0, err
	}
	var flags uintptr
	if hasDir(p) {
		flags = loadLibrarySearchDLLLoadDir | loadLibrarySearchDefaultDirs
	}
	h, _, errno := procLoadLibraryExW.Call(uintptr(unsafe.Pointer(name)), 0, flags)
	if h == 0 {
		return 0, errno
	}
	return h, nil
}

func dlsym(h uintptr, name string) (uintptr, error) {
	return syscall.GetProcAddress(syscall.Handle(h), name)
}

func dlclose(h uintptr) { syscall.FreeLibrary(syscall.Handle(h)) }

// hasDir reports whether p names a file by path rather than a bare file
// name the loader searches for.
func hasDir(p string) bool { return strings.ContainsAny(p, `/\`) }

// resolvedPath reports where a loaded DLL was found: the module's file
// name as Windows reports it, or p if that fails.
func resolvedPath(p string, h uintptr, identify string) string {
	if hasDir(p) {
		return p
	}
	var buf [1024]uint16
	n, _, _ := procGetModuleFileNameW.Call(h, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	if n == 0 || int(n) >= len(buf) {
		return p
	}
	return syscall.UTF16ToString(buf[:n])
}
