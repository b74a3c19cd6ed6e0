//go:build linux && (amd64 || arm64)

package kernels

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"unsafe"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/library"
)

// NVRTC is a loaded NVRTC library, found as the generated nvrtc packages
// find it (CUGEN_LIBNVRTC, the loader, wheels, toolkits), newest major
// first. cugen kernels runs it on the CPU: compiling needs no GPU.
type NVRTC struct {
	lib     *ffi.Library
	Major   int
	Version [2]int
}

// OpenNVRTC loads NVRTC of CUDA 13, else 12; the error names every place
// tried for each.
func OpenNVRTC() (*NVRTC, error) {
	var errs []string
	for _, major := range []int{13, 12} {
		lib := ffi.NewLibrary(library.NVRTC.LoadSpec(major).LibraryDesc(nil))
		if err := lib.Load(); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		n := &NVRTC{lib: lib, Major: major}
		var maj, min int32
		if r := n.call("nvrtcVersion", &maj, &min); r != 0 {
			return nil, fmt.Errorf("cugen kernels: nvrtcVersion: %s", n.errorText(r))
		}
		n.Version = [2]int{int(maj), int(min)}
		return n, nil
	}
	return nil, fmt.Errorf("cugen kernels: NVRTC not found (compiling needs NVRTC 12 or 13, no GPU):\n%s", strings.Join(errs, "\n"))
}

func (n *NVRTC) call(symbol string, args ...any) int32 {
	fn, err := n.lib.Lookup(symbol)
	if err != nil {
		return -1
	}
	r, err := ffi.Call(fn, args...)
	if err != nil {
		return -1
	}
	return int32(r)
}

func (n *NVRTC) errorText(res int32) string {
	if res == -1 {
		return "the call could not be made"
	}
	if fn, err := n.lib.Lookup("nvrtcGetErrorString"); err == nil {
		if p, err := ffi.Call(fn, res); err == nil && p != 0 {
			return ffi.GoString(p, 256)
		}
	}
	return fmt.Sprintf("nvrtcResult %d", res)
}

// Output is one compile's result.
type Output struct {
	Image   []byte            // a cubin (-arch=sm_XX) or PTX (-arch=compute_XX)
	Lowered map[string]string // name expression -> lowered (mangled) name
	Log     string
}

// maxOutput bounds what a compile returns (an image, a log): NVRTC's sizes
// are trusted no further.
const maxOutput = 1 << 30

// Compile compiles src (named name in diagnostics) with opts, adding each
// of exprs as a name expression, and returns the cubin when opts ask for
// a real arch (-arch=sm_XX), else the PTX. A compile error returns the log
// in the error.
func (n *NVRTC) Compile(src, name string, opts, exprs []string) (*Output, error) {
	var prog uintptr
	if r := n.call("nvrtcCreateProgram", &prog, cstr(src), cstr(name), 0, []byte(nil), []byte(nil)); r != 0 {
		return nil, fmt.Errorf("nvrtcCreateProgram: %s", n.errorText(r))
	}
	defer n.call("nvrtcDestroyProgram", &prog)
	for _, e := range exprs {
		if r := n.call("nvrtcAddNameExpression", prog, cstr(e)); r != 0 {
			return nil, fmt.Errorf("nvrtcAddNameExpression(%q): %s", e, n.errorText(r))
		}
	}
	// const char **options: an array of pointers to NUL-terminated copies
	// on the heap, kept alive through the call.
	keep := make([][]byte, len(opts))
	ptrs := make([]byte, 8*len(opts))
	for i, o := range opts {
		keep[i] = cstr(o)
		*(*uintptr)(unsafe.Pointer(&ptrs[8*i])) = uintptr(unsafe.Pointer(&keep[i][0]))
	}
	r := n.call("nvrtcCompileProgram", prog, int32(len(opts)), ptrs)
	log := n.bytes(prog, "nvrtcGetProgramLogSize", "nvrtcGetProgramLog")
	runtime.KeepAlive(keep) // ptrs points into keep
	out := &Output{Log: strings.TrimRight(string(log), "\x00 \n")}
	if r != 0 {
		return nil, fmt.Errorf("%s: %s\n%s", name, n.errorText(r), out.Log)
	}
	real := false
	for _, o := range opts {
		if strings.HasPrefix(o, "-arch=sm_") || strings.HasPrefix(o, "--gpu-architecture=sm_") {
			real = true
		}
	}
	if real {
		out.Image = n.bytes(prog, "nvrtcGetCUBINSize", "nvrtcGetCUBIN")
	} else {
		out.Image = n.bytes(prog, "nvrtcGetPTXSize", "nvrtcGetPTX")
	}
	if out.Image == nil {
		return nil, fmt.Errorf("%s: NVRTC returned no image", name)
	}
	out.Lowered = map[string]string{}
	for _, e := range exprs {
		var p uintptr
		if r := n.call("nvrtcGetLoweredName", prog, cstr(e), &p); r != 0 || p == 0 {
			return nil, fmt.Errorf("nvrtcGetLoweredName(%q): %s", e, n.errorText(r))
		}
		out.Lowered[e] = ffi.GoString(p, 4096)
	}
	return out, nil
}

// bytes reads one of NVRTC's size-then-buffer outputs.
func (n *NVRTC) bytes(prog uintptr, sizeFn, getFn string) []byte {
	var size uintptr
	if n.call(sizeFn, prog, &size) != 0 || size == 0 || size > maxOutput {
		return nil
	}
	buf := make([]byte, size)
	if n.call(getFn, prog, buf) != 0 {
		return nil
	}
	return buf
}

// Archs returns the real architectures NVRTC compiles for (nvrtcGetSupportedArchs).
func (n *NVRTC) Archs() ([]int, error) {
	var count int32
	if r := n.call("nvrtcGetNumSupportedArchs", &count); r != 0 {
		return nil, errors.New("nvrtcGetNumSupportedArchs: " + n.errorText(r))
	}
	if count <= 0 || count > 256 {
		return nil, fmt.Errorf("nvrtcGetNumSupportedArchs: %d", count)
	}
	buf := make([]byte, 4*count)
	if r := n.call("nvrtcGetSupportedArchs", buf); r != 0 {
		return nil, errors.New("nvrtcGetSupportedArchs: " + n.errorText(r))
	}
	archs := make([]int, count)
	for i := range archs {
		archs[i] = int(*(*int32)(unsafe.Pointer(&buf[4*i])))
	}
	return archs, nil
}

func cstr(s string) []byte { return append([]byte(s), 0) }
