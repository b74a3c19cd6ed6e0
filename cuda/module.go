package cuda

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// Module is code loaded into a context (CUmodule): PTX, a cubin or a fatbin.
type Module struct {
	r       *resource
	lowered map[string]string // name expression -> mangled name (ModuleFromSource)
}

// ImageKind is what a module image holds.
type ImageKind int

const (
	ImagePTX    ImageKind = iota + 1 // PTX text, JIT-compiled by the driver
	ImageCubin                       // an ELF cubin
	ImageFatbin                      // a fatbin (nvcc -fatbin)
)

func (k ImageKind) String() string {
	switch k {
	case ImagePTX:
		return "PTX"
	case ImageCubin:
		return "cubin"
	case ImageFatbin:
		return "fatbin"
	}
	return fmt.Sprintf("ImageKind(%d)", int(k))
}

// fatbinMagic starts a fatbin (0xBA55ED50, little-endian).
var fatbinMagic = []byte{0x50, 0xed, 0x55, 0xba}

// PrepareImage returns what image holds and the bytes to hand the driver:
// a cubin or fatbin as it is, PTX text NUL-terminated (a NUL is appended
// when it has none; a NUL inside the text is an error, as the driver would
// stop reading there).
func PrepareImage(image []byte) (ImageKind, []byte, error) {
	switch {
	case len(image) == 0:
		return 0, nil, errors.New("cuda: empty module image")
	case bytes.HasPrefix(image, []byte("\x7fELF")):
		return ImageCubin, image, nil
	case bytes.HasPrefix(image, fatbinMagic):
		return ImageFatbin, image, nil
	}
	text := image
	if text[len(text)-1] == 0 {
		text = text[:len(text)-1]
	}
	if i := bytes.IndexByte(text, 0); i >= 0 {
		return 0, nil, fmt.Errorf("cuda: PTX image has a NUL byte at offset %d of %d (the driver would stop reading there)", i, len(text))
	}
	if len(text) == len(image) {
		image = append(image[:len(image):len(image)], 0)
	}
	return ImagePTX, image, nil
}

// jitLogSize is the size of the buffers the JIT writes its logs into.
const jitLogSize = 16 << 10

// LoadModule loads a module from PTX, cubin or fatbin bytes (go:embed
// them) into the context (cuModuleLoadDataEx). A JIT error's log is in the
// error.
func (c *Context) LoadModule(image []byte) (*Module, error) {
	kind, img, err := PrepareImage(image)
	if err != nil {
		return nil, err
	}
	var m *Module
	err = c.do(func(s *ctxState) error {
		h, log, err := loadData(s.drv, img)
		if err != nil {
			if log != "" {
				return fmt.Errorf("cuda: loading a %s module: %w\n%s", kind, err, log)
			}
			return fmt.Errorf("cuda: loading a %s module: %w", kind, err)
		}
		m = &Module{}
		m.r = newResource(m, s, kindModule, uint64(h), nil)
		return nil
	})
	return m, err
}

// loadData calls cuModuleLoadDataEx with an error log buffer.
func loadData(d driver, img []byte) (h cu.Module, log string, err error) {
	log, err = withJITLog(func(opts *cu.JitOption, vals *uintptr, n uint32) (err error) {
		h, err = d.moduleLoad(unsafe.Pointer(&img[0]), n, opts, vals)
		return err
	})
	runtime.KeepAlive(img)
	return h, log, err
}

// withJITLog calls load with the JIT options that make the driver write
// its error log into a buffer of ours (CU_JIT_ERROR_LOG_BUFFER and its
// size), and returns the log, trimmed, when load fails.
func withJITLog(load func(opts *cu.JitOption, vals *uintptr, n uint32) error) (string, error) {
	logBuf := make([]byte, jitLogSize)
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&logBuf[0])
	opts := [...]cu.JitOption{cu.JitErrorLogBuffer, cu.JitErrorLogBufferSizeBytes}
	vals := [...]uintptr{uintptr(unsafe.Pointer(&logBuf[0])), jitLogSize}
	err := load(&opts[0], &vals[0], uint32(len(opts)))
	runtime.KeepAlive(logBuf)
	if err == nil {
		return "", nil
	}
	n := bytes.IndexByte(logBuf, 0)
	if n < 0 {
		n = len(logBuf)
	}
	return string(bytes.TrimSpace(logBuf[:n])), err
}

// Raw returns the driver's handle, for the cu package.
func (m *Module) Raw() cu.Module { return cu.Module(m.r.h) }

// Close unloads the module (cuModuleUnload); its kernels then return
// ErrFreed. A second Close returns ErrFreed.
func (m *Module) Close() error { return m.r.free() }

// Unload is Close.
//
// Deprecated: use Close.
func (m *Module) Unload() error { return m.Close() }

// Kernel returns the kernel (a __global__ function, by its mangled name
// unless declared extern "C", or by a name expression given to
// ModuleFromSource) of the module, with its parameter layout
// when the driver reports it (cuFuncGetParamInfo, CUDA 12.4 and newer).
// A layout that cannot be right (a parameter of size 0, overlapping the
// one before, or ending past the 32764 bytes a kernel may take) is an
// error naming the kernel and the parameter.
func (m *Module) Kernel(name string) (*Kernel, error) {
	sym := name
	if l, ok := m.lowered[name]; ok {
		sym = l
	}
	var k *Kernel
	err := m.r.do(func() error {
		drv := m.r.ctx.drv
		fn, err := drv.function(cu.Module(m.r.h), sym)
		if err != nil {
			return fmt.Errorf("cuda: kernel %q: %w", name, err)
		}
		k = &Kernel{fn: fn, name: name, mod: m}
		k.params, k.known, err = paramInfoOf(name, func(i uint64) (uint64, uint64, error) { return drv.paramInfo(fn, i) })
		return err
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// Global returns the address and size of a __device__ variable of the
// module (cuModuleGetGlobal).
func (m *Module) Global(name string) (cu.Deviceptr, uint64, error) {
	var p cu.Deviceptr
	var size uint64
	err := m.r.do(func() (err error) {
		p, size, err = m.r.ctx.drv.moduleGlobal(cu.Module(m.r.h), name)
		return err
	})
	return p, size, err
}

// maxParamBytes is the most bytes of parameters a kernel takes: 32764
// since CUDA 12.1 (4096 before), the most any driver that reports the
// parameters (12.4 and newer) allows.
const maxParamBytes = 32764

// paramInfoOf returns the parameters of kernel name from info
// (cuFuncGetParamInfo or cuKernelGetParamInfo); known is false when the
// driver cannot say (no such function before CUDA 12.4). Parameters that
// cannot be right (a size of 0, an offset below the end of the parameter
// before, an end past maxParamBytes) are an error naming the kernel and
// the parameter: Launch packs at these offsets. So at most maxParamBytes
// parameters are asked for.
func paramInfoOf(name string, info func(i uint64) (off, size uint64, err error)) (params []Param, known bool, err error) {
	var end uint64 // of the parameters so far
	for i := uint64(0); ; i++ {
		off, size, err := info(i)
		if errors.Is(err, cu.ErrorInvalidValue) {
			return params, true, nil // i is past the last parameter
		}
		if err != nil {
			return nil, false, nil
		}
		var why string
		switch {
		case size == 0:
			why = "size 0"
		case off > maxParamBytes || size > maxParamBytes-off:
			why = fmt.Sprintf("ends past the %d bytes a kernel's parameters may take", maxParamBytes)
		case i > 0 && off < uint64(params[i-1].Offset):
			p := params[i-1]
			why = fmt.Sprintf("below parameter %d's offset %d (offsets increase)", i-1, p.Offset)
		case off < end:
			p := params[i-1]
			why = fmt.Sprintf("overlaps parameter %d (offset %d, size %d)", i-1, p.Offset, p.Size)
		}
		if why != "" {
			return nil, false, fmt.Errorf("cuda: kernel %q: parameter %d: the driver reports offset %d, size %d: %s",
				name, i, int64(off), size, why)
		}
		params = append(params, Param{Offset: int(off), Size: int(size)})
		end = off + size
	}
}

// Library is code loaded once for every context (CUlibrary, CUDA 12.0 and
// newer drivers): its kernels are context-independent and launch in the
// context of the stream they are launched on, so a [Config] for one of its
// kernels needs a Stream.
type Library struct{ st *libState }

type libState struct {
	h    cu.Library
	uses uses
}

// libReleases releases the libraries that became unreachable.
var libReleases releaseQueue

// LoadLibrary loads PTX, cubin or fatbin bytes as a library
// (cuLibraryLoadData), after cuInit. A JIT error's log is in the error.
func LoadLibrary(image []byte) (*Library, error) {
	kind, img, err := PrepareImage(image)
	if err != nil {
		return nil, err
	}
	if err := initDriver(); err != nil {
		return nil, err
	}
	var h cu.Library
	log, err := withJITLog(func(opts *cu.JitOption, vals *uintptr, n uint32) (err error) {
		// A library is of no context (nor are its unload and kernels):
		// direct, outside the driver seam (driver.go).
		h, err = cu.LibraryLoadData(unsafe.Pointer(&img[0]), opts, vals, n, nil, nil, 0)
		return err
	})
	runtime.KeepAlive(img)
	if err != nil {
		if log != "" {
			return nil, fmt.Errorf("cuda: loading a %s library: %w\n%s", kind, err, log)
		}
		return nil, fmt.Errorf("cuda: loading a %s library: %w", kind, err)
	}
	st := &libState{h: h}
	l := &Library{st: st}
	runtime.AddCleanup(l, unloadLibrary, st)
	return l, nil
}

func unloadLibrary(st *libState) {
	if !st.uses.closed() {
		libReleases.push(st)
	}
}

func (st *libState) releaseUnreachable() { st.unload() }

// unload unloads the library, once, after its uses in flight.
func (st *libState) unload() error {
	if !st.uses.closeWait() {
		return ErrFreed
	}
	return cu.LibraryUnload(st.h)
}

// Raw returns the driver's handle, for the cu package.
func (l *Library) Raw() cu.Library { return l.st.h }

// Close unloads the library (cuLibraryUnload); its kernels then return
// ErrFreed. A second Close returns ErrFreed.
func (l *Library) Close() error { return l.st.unload() }

// Unload is Close.
//
// Deprecated: use Close.
func (l *Library) Unload() error { return l.Close() }

// Kernel returns the library's kernel of this name (cuLibraryGetKernel)
// with its parameter layout when the driver reports it
// (cuKernelGetParamInfo), checked as [Module.Kernel] checks it.
func (l *Library) Kernel(name string) (*Kernel, error) {
	if !l.st.uses.acquire() {
		return nil, ErrFreed
	}
	defer l.st.uses.release()
	h, err := cu.LibraryGetKernel(l.st.h, name)
	if err != nil {
		return nil, fmt.Errorf("cuda: kernel %q: %w", name, err)
	}
	k := &Kernel{fn: cu.Function(h), name: name, lib: l}
	if k.params, k.known, err = paramInfoOf(name, func(i uint64) (uint64, uint64, error) { return cu.KernelGetParamInfo(h, i) }); err != nil {
		return nil, err
	}
	return k, nil
}

// moduleDriver is the driver's module calls but cuModuleGetFunction
// (driver.function) and cuModuleUnload (driver.destroy).
type moduleDriver interface {
	// moduleLoad is cuModuleLoadDataEx; img stays valid through the call.
	moduleLoad(img unsafe.Pointer, n uint32, opts *cu.JitOption, vals *uintptr) (cu.Module, error)
	moduleGlobal(m cu.Module, name string) (cu.Deviceptr, uint64, error)
}

func (realDriver) moduleLoad(img unsafe.Pointer, n uint32, opts *cu.JitOption, vals *uintptr) (cu.Module, error) {
	return cu.ModuleLoadDataEx(img, n, opts, vals)
}

func (realDriver) moduleGlobal(m cu.Module, name string) (cu.Deviceptr, uint64, error) {
	return cu.ModuleGetGlobal(m, name)
}
