//go:build linux && (amd64 || arm64)

package ffi

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/ebitengine/purego"
)

// dlopenNow opens a library with RTLD_NOW|RTLD_LOCAL.
// RTLD_NOW: an unresolvable dependency fails here, with dlerror text,
// rather than killing the process at some later first call.
// RTLD_LOCAL: libcudart finds an already loaded libcuda.so.1 by its
// soname anyway, so nothing needs to be global.
func dlopenNow(p string) (uintptr, error) {
	return dlopen(p, purego.RTLD_NOW|purego.RTLD_LOCAL)
}

func dlclose(h uintptr) { purego.Dlclose(h) }

// hasDir reports whether p names a file by path rather than a bare file
// name the dynamic loader searches for.
func hasDir(p string) bool { return strings.Contains(p, "/") }

// dlopen and dlsym are purego's on a locked OS thread. dlerror's text is
// per thread, and purego reads it in a second C call after the failing one:
// unlocked, the goroutine can move to another thread in between and report
// that thread's error state, usually none (seen as an empty reason in a
// LoadError under qemu, where the scheduler moves goroutines more).
func dlopen(path string, mode int) (uintptr, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return purego.Dlopen(path, mode)
}

func dlsym(handle uintptr, name string) (uintptr, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return purego.Dlsym(handle, name)
}

// resolvedPath reports where a loaded file name was found. The loader does
// not tell, so for a bare soname we look at /proc/self/maps: the mapping
// holding the address of a symbol of the library (identify, if the
// description names one), or else a file whose base name is p. A soname is
// often a link to a versioned file (libcuda.so.1 -> libcuda.so.550.54.15),
// which is the one mapped, so only the address finds it. On failure the
// name itself is a fine answer.
func resolvedPath(p string, h uintptr, identify string) string {
	if strings.Contains(p, "/") {
		return p
	}
	var addr uintptr
	if identify != "" {
		addr, _ = dlsym(h, identify)
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return p
	}
	byName := ""
	for line := range strings.Lines(string(maps)) {
		i := strings.IndexByte(line, '/')
		if i < 0 {
			continue
		}
		path := strings.TrimSpace(line[i:])
		if addr != 0 {
			lo, hi, _ := strings.Cut(strings.Fields(line)[0], "-")
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil && uint64(addr) >= l && uint64(addr) < h {
				return path
			}
		}
		if byName == "" && filepath.Base(path) == p {
			byName = path
		}
	}
	if byName != "" {
		return byName
	}
	return p
}
