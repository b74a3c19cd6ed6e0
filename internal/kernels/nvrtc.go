//go:build linux && (amd64 || arm64)

package kernels

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/internal/nvrtcffi"
	"github.com/cugen/cugen/library"
)

// NVRTC is a loaded NVRTC library, found as the generated nvrtc packages
// find it (CUGEN_LIBNVRTC, the loader, wheels, toolkits), newest major
// first. cugen kernels runs it on the CPU: compiling needs no GPU.
type NVRTC struct {
	lib     *nvrtcffi.Lib
	Major   int
	Version [2]int
}

// OpenNVRTC loads NVRTC of CUDA 13, else 12; the error names every place
// tried for each.
func OpenNVRTC() (*NVRTC, error) {
	var errs []error
	for _, major := range []int{13, 12} {
		lib := ffi.NewLibrary(library.NVRTC.LoadSpec(major).LibraryDesc(nil))
		if err := lib.Load(); err != nil {
			errs = append(errs, err)
			continue
		}
		n := &NVRTC{lib: nvrtcffi.New(lib), Major: major}
		v, r := n.lib.Version()
		if r != 0 {
			return nil, fmt.Errorf("cugen kernels: nvrtcVersion: %s", n.errorText(r))
		}
		n.Version = v
		return n, nil
	}
	return nil, fmt.Errorf("cugen kernels: NVRTC not found (compiling needs NVRTC 12 or 13, no GPU): %s, or pip install %s, or install a CUDA toolkit; where it looked:\n%w",
		library.NVRTC.LibsCommand(12), library.NVRTC.Load.PipPackage(13), errors.Join(errs...)) // the *ffi.LoadErrors: a test skips for want of NVRTC
}

// maxErrorText bounds the text of an nvrtcResult read from NVRTC.
const maxErrorText = 256

func (n *NVRTC) errorText(res int32) string { return n.lib.ErrorText(res, maxErrorText) }

// Output is one compile's result.
type Output struct {
	Image   []byte            // a cubin (-arch=sm_XX) or PTX (-arch=compute_XX)
	Lowered map[string]string // name expression -> lowered (mangled) name
	Log     string
}

// maxOutput bounds what a compile returns (an image, a log): NVRTC's sizes
// are trusted no further.
const maxOutput = 1 << 30

// Compile compiles src (named name in diagnostics), with headers as its
// in-memory headers, with opts, adding each
// of exprs as a name expression, and returns the cubin when opts ask for
// a real arch (-arch=sm_XX), else the PTX. A compile error returns the log
// in the error.
func (n *NVRTC) Compile(src, name string, headers []Header, opts, exprs []string) (*Output, error) {
	hs := make([]nvrtcffi.Header, len(headers))
	for i, h := range headers {
		hs[i] = nvrtcffi.Header{Name: h.Name, Text: h.Text}
	}
	prog, r := n.lib.CreateProgramHeaders(src, name, hs)
	if r != 0 {
		return nil, fmt.Errorf("nvrtcCreateProgram: %s", n.errorText(r))
	}
	defer prog.Destroy()
	for _, e := range exprs {
		if r := prog.AddNameExpression(e); r != 0 {
			return nil, fmt.Errorf("nvrtcAddNameExpression(%q): %s", e, n.errorText(r))
		}
	}
	r = prog.Compile(opts)
	log, _ := prog.Log(maxOutput) // a log NVRTC cannot give is none
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
		out.Image, _ = prog.CUBIN(maxOutput)
	} else {
		out.Image, _ = prog.PTX(maxOutput)
	}
	if out.Image == nil {
		return nil, fmt.Errorf("%s: NVRTC returned no image", name)
	}
	out.Lowered = map[string]string{}
	for _, e := range exprs {
		lowered, r := prog.LoweredName(e, 4096)
		if r != 0 || lowered == "" {
			return nil, fmt.Errorf("nvrtcGetLoweredName(%q): %s", e, n.errorText(r))
		}
		out.Lowered[e] = lowered
	}
	return out, nil
}

// Archs returns the real architectures NVRTC compiles for (nvrtcGetSupportedArchs).
func (n *NVRTC) Archs() ([]int, error) {
	var count int32
	if r := n.lib.Call("nvrtcGetNumSupportedArchs", &count); r != 0 {
		return nil, errors.New("nvrtcGetNumSupportedArchs: " + n.errorText(r))
	}
	if count <= 0 || count > 256 {
		return nil, fmt.Errorf("nvrtcGetNumSupportedArchs: %d", count)
	}
	buf := make([]byte, 4*count)
	if r := n.lib.Call("nvrtcGetSupportedArchs", buf); r != 0 {
		return nil, errors.New("nvrtcGetSupportedArchs: " + n.errorText(r))
	}
	archs := make([]int, count)
	for i := range archs {
		archs[i] = int(*(*int32)(unsafe.Pointer(&buf[4*i])))
	}
	return archs, nil
}
