package cuda

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// LinkInputKind is what a [LinkInput] holds (CUjitInputType).
type LinkInputKind int

const (
	// LinkAuto takes the kind from the bytes, as [PrepareImage] does:
	// a cubin, a fatbin, else PTX.
	LinkAuto    LinkInputKind = iota
	LinkPTX                   // PTX text (CU_JIT_INPUT_PTX), JIT-compiled; a NUL is appended when it has none
	LinkCubin                 // an ELF cubin (CU_JIT_INPUT_CUBIN)
	LinkFatbin                // a fatbin (CU_JIT_INPUT_FATBINARY)
	LinkObject                // a host object with embedded device code (CU_JIT_INPUT_OBJECT)
	LinkLibrary               // an archive of such objects (CU_JIT_INPUT_LIBRARY)
	// LinkLTOIR is NVVM IR for link-time optimisation (CU_JIT_INPUT_NVVM,
	// nvcc -dlto); the link sets CU_JIT_LTO for it. The driver's linker
	// takes LTO-IR of toolkits before CUDA 12.0 only (NVIDIA deprecated
	// the path there); a newer toolkit's LTO-IR is linked with nvJitLink
	// (package nvjitlink), whose cubin LoadModule takes.
	LinkLTOIR
)

func (k LinkInputKind) String() string {
	switch k {
	case LinkAuto:
		return "auto"
	case LinkPTX:
		return "PTX"
	case LinkCubin:
		return "cubin"
	case LinkFatbin:
		return "fatbin"
	case LinkObject:
		return "object"
	case LinkLibrary:
		return "library"
	case LinkLTOIR:
		return "LTO-IR"
	}
	return fmt.Sprintf("LinkInputKind(%d)", int(k))
}

func (k LinkInputKind) jit() cu.JitInputType {
	switch k {
	case LinkPTX:
		return cu.JitInputPtx
	case LinkCubin:
		return cu.JitInputCubin
	case LinkFatbin:
		return cu.JitInputFatbinary
	case LinkObject:
		return cu.JitInputObject
	case LinkLibrary:
		return cu.JitInputLibrary
	}
	return cu.JitInputNvvm
}

// LinkInput is one input of [Context.Link].
type LinkInput struct {
	Kind LinkInputKind
	Data []byte
	// Name names the input in the linker's logs; "" is no name, which
	// the layer passes on as NULL, as C programs do.
	Name string
}

// OptimizationNone is the [LinkOptions.OptimizationLevel] that asks for
// level 0 (no optimisation).
const OptimizationNone = -1

// LinkOptions are the JIT linker's options (CUjit_option) as Go values;
// the zero value is the driver's defaults, for the context's device.
type LinkOptions struct {
	// MaxRegisters caps the registers a thread uses (CU_JIT_MAX_REGISTERS);
	// 0 sets no cap.
	MaxRegisters int
	// OptimizationLevel is the PTX optimisation level, 1 to 4
	// (CU_JIT_OPTIMIZATION_LEVEL); 0 is the driver's default (4) and
	// OptimizationNone level 0.
	OptimizationLevel int
	// Target is the compute capability to link for, 10*major+minor (90
	// for sm_90, CU_JIT_TARGET); 0 is the context's device
	// (CU_JIT_TARGET_FROM_CUCONTEXT).
	Target int
	// PreferBinary picks a fatbin's best cubin over its PTX
	// (CU_JIT_FALLBACK_STRATEGY = CU_PREFER_BINARY); false prefers PTX.
	PreferBinary bool
	// GenerateDebugInfo, GenerateLineInfo and LogVerbose are
	// CU_JIT_GENERATE_DEBUG_INFO, CU_JIT_GENERATE_LINE_INFO and
	// CU_JIT_LOG_VERBOSE.
	GenerateDebugInfo, GenerateLineInfo, LogVerbose bool
	// LTO asks for link-time optimisation (CU_JIT_LTO); an LTO-IR input
	// sets it.
	LTO bool
	// LogSize is the size of each log buffer, in bytes; 0 is 16 KiB. A
	// longer log is cut there.
	LogSize int
}

// Linked is what [Context.Link] returns.
type Linked struct {
	// Image is the linked cubin, in Go memory (LoadModule takes it).
	Image []byte
	// InfoLog and ErrorLog are the linker's logs
	// (CU_JIT_INFO_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER), trimmed.
	InfoLog, ErrorLog string
	// WallTime is the time the linker took (CU_JIT_WALL_TIME).
	WallTime time.Duration
}

// LinkError is the error of a link that failed: the step, the driver's
// error, and the logs the linker wrote. Its Error includes the error log.
type LinkError struct {
	Step              string // "cuLinkCreate", `input 1 (PTX "b.ptx")`, "cuLinkComplete"
	Err               error
	InfoLog, ErrorLog string
}

func (e *LinkError) Error() string {
	s := fmt.Sprintf("cuda: link: %s: %v", e.Step, e.Err)
	if e.ErrorLog != "" {
		s += "\n" + e.ErrorLog
	}
	return s
}

func (e *LinkError) Unwrap() error { return e.Err }

// linkDriver is the driver's JIT linker calls: the real driver, or the
// fake of the tests (link_test.go). vals must stay valid, and the memory
// its log buffers point to pinned, until linkDestroy: the driver keeps
// them (cuLinkCreate's documentation).
type linkDriver interface {
	linkCreate(opts []cu.JitOption, vals []uintptr) (cu.LinkState, error)
	// linkAddData adds one input; null: pass NULL as the name.
	linkAddData(ls cu.LinkState, typ cu.JitInputType, data []byte, name string, null bool) error
	// linkComplete returns a copy of the image in Go memory.
	linkComplete(ls cu.LinkState) ([]byte, error)
	linkDestroy(ls cu.LinkState) error
	// linkAddFile adds the file at path (cuLinkAddFile).
	linkAddFile(ls cu.LinkState, typ cu.JitInputType, path string) error
}

func (realDriver) linkCreate(opts []cu.JitOption, vals []uintptr) (cu.LinkState, error) {
	if len(opts) == 0 {
		return cu.LinkCreate(0, nil, nil)
	}
	return cu.LinkCreate(uint32(len(opts)), &opts[0], &vals[0])
}

func (realDriver) linkAddFile(ls cu.LinkState, typ cu.JitInputType, path string) error {
	return cu.LinkAddFile(ls, typ, path, 0, nil, nil)
}

func (realDriver) linkAddData(ls cu.LinkState, typ cu.JitInputType, data []byte, name string, null bool) error {
	p := &name
	if null {
		p = nil // the binding passes NULL for nil (the docs' "optional name")
	}
	err := cu.LinkAddData(ls, typ, unsafe.Pointer(&data[0]), uint64(len(data)), p, 0, nil, nil)
	runtime.KeepAlive(data)
	return err
}

func (realDriver) linkComplete(ls cu.LinkState) ([]byte, error) {
	p, n, err := cu.LinkComplete(ls)
	if err != nil {
		return nil, err
	}
	if p == nil || n == 0 {
		return nil, errors.New("cuLinkComplete returned no image")
	}
	// The image is the link state's memory until cuLinkDestroy.
	return bytes.Clone(unsafe.Slice((*byte)(p), n)), nil
}

func (realDriver) linkDestroy(ls cu.LinkState) error { return cu.LinkDestroy(ls) }

// Link links device code with the driver's JIT linker (cuLinkCreate,
// cuLinkAddData for each input, cuLinkComplete, cuLinkDestroy) for the
// context's device, and returns the cubin with the linker's info and
// error logs. A failure is a *LinkError, which names the step and input
// and carries both logs; its Error includes the error log. Empty inputs,
// an unknown kind and a PTX input with a NUL inside are errors before the
// driver. An input with no Name is passed as NULL, as C programs pass
// it. Held by TestLink (the fake driver) and TestGPULinkPTX.
func (c *Context) Link(inputs []LinkInput, o LinkOptions) (*Linked, error) {
	if len(inputs) == 0 {
		return nil, errors.New("cuda: link: no inputs")
	}
	type prepared struct {
		kind LinkInputKind
		data []byte
	}
	ins := make([]prepared, len(inputs))
	lto := o.LTO
	for i, in := range inputs {
		kind, data := in.Kind, in.Data
		if len(data) == 0 {
			return nil, fmt.Errorf("cuda: link: input %d (%s %q): empty", i, kind, in.Name)
		}
		switch kind {
		case LinkAuto, LinkPTX:
			k, img, err := PrepareImage(data)
			if err != nil {
				return nil, fmt.Errorf("cuda: link: input %d (%s %q): %w", i, kind, in.Name, err)
			}
			if kind == LinkPTX && k != ImagePTX {
				return nil, fmt.Errorf("cuda: link: input %d (PTX %q): the bytes are a %s", i, in.Name, k)
			}
			kind, data = map[ImageKind]LinkInputKind{ImagePTX: LinkPTX, ImageCubin: LinkCubin, ImageFatbin: LinkFatbin}[k], img
		case LinkCubin, LinkFatbin, LinkObject, LinkLibrary:
		case LinkLTOIR:
			lto = true
		default:
			return nil, fmt.Errorf("cuda: link: input %d (%q): unknown kind %d", i, in.Name, int(kind))
		}
		ins[i] = prepared{kind, data}
	}
	opts, err := o.jitOptions(lto)
	if err != nil {
		return nil, err
	}
	logSize := o.LogSize
	if logSize == 0 {
		logSize = jitLogSize
	}
	info, errLog := make([]byte, logSize), make([]byte, logSize)
	vals := make([]uintptr, 0, len(opts.opts)+5)
	jopts := make([]cu.JitOption, 0, len(opts.opts)+5)
	jopts = append(jopts, cu.JitInfoLogBuffer, cu.JitInfoLogBufferSizeBytes, cu.JitErrorLogBuffer, cu.JitErrorLogBufferSizeBytes, cu.JitWallTime)
	vals = append(vals, uintptr(unsafe.Pointer(&info[0])), uintptr(logSize), uintptr(unsafe.Pointer(&errLog[0])), uintptr(logSize), 0)
	jopts = append(jopts, opts.opts...)
	vals = append(vals, opts.vals...)

	var out *Linked
	err = c.do(func(s *ctxState) error {
		// The driver writes the logs and the wall time through vals for
		// the link state's life: they stay pinned until its destroy.
		var pin runtime.Pinner
		defer pin.Unpin()
		pin.Pin(&info[0])
		pin.Pin(&errLog[0])
		pin.Pin(&vals[0])
		clear(info) // a second run (onThread's) starts from empty logs
		clear(errLog)
		d := s.drv
		fail := func(step string, err error) error {
			return &LinkError{Step: step, Err: err, InfoLog: cLog(info), ErrorLog: cLog(errLog)}
		}
		ls, err := d.linkCreate(jopts, vals)
		if err != nil {
			return fail("cuLinkCreate", err)
		}
		defer d.linkDestroy(ls)
		for i, in := range ins {
			name := inputs[i].Name
			if err := d.linkAddData(ls, in.kind.jit(), in.data, name, name == ""); err != nil {
				return fail(fmt.Sprintf("input %d (%s %q)", i, in.kind, name), err)
			}
		}
		img, err := d.linkComplete(ls)
		if err != nil {
			return fail("cuLinkComplete", err)
		}
		ms := math.Float32frombits(uint32(vals[4]))
		out = &Linked{Image: img, InfoLog: cLog(info), ErrorLog: cLog(errLog), WallTime: time.Duration(float64(ms) * float64(time.Millisecond))}
		return nil
	})
	runtime.KeepAlive(info)
	runtime.KeepAlive(errLog)
	runtime.KeepAlive(vals)
	return out, err
}

// cLog returns the NUL-terminated log in b, trimmed.
func cLog(b []byte) string {
	if n := bytes.IndexByte(b, 0); n >= 0 {
		b = b[:n]
	}
	return strings.TrimSpace(string(b))
}

type jitOpts struct {
	opts []cu.JitOption
	vals []uintptr
}

// jitOptions returns o as option and value pairs, checked.
func (o LinkOptions) jitOptions(lto bool) (jitOpts, error) {
	var j jitOpts
	add := func(opt cu.JitOption, v uintptr) {
		j.opts = append(j.opts, opt)
		j.vals = append(j.vals, v)
	}
	switch {
	case o.MaxRegisters < 0:
		return j, fmt.Errorf("cuda: link: negative MaxRegisters (%d)", o.MaxRegisters)
	case o.OptimizationLevel < OptimizationNone || o.OptimizationLevel > 4:
		return j, fmt.Errorf("cuda: link: OptimizationLevel %d: want 1 to 4, 0 (the default) or OptimizationNone", o.OptimizationLevel)
	case o.Target < 0 || o.Target > 1<<20:
		return j, fmt.Errorf("cuda: link: Target %d: want a compute capability as 10*major+minor (90), or 0", o.Target)
	case o.LogSize < 0 || o.LogSize > 1<<30:
		return j, fmt.Errorf("cuda: link: LogSize %d: want 0 to 1 GiB", o.LogSize)
	}
	if o.MaxRegisters > 0 {
		add(cu.JitMaxRegisters, uintptr(o.MaxRegisters))
	}
	switch o.OptimizationLevel {
	case 0:
	case OptimizationNone:
		add(cu.JitOptimizationLevel, 0)
	default:
		add(cu.JitOptimizationLevel, uintptr(o.OptimizationLevel))
	}
	if o.Target > 0 {
		add(cu.CuJitTarget, uintptr(o.Target))
	}
	if o.PreferBinary {
		add(cu.JitFallbackStrategy, uintptr(cu.PreferBinary))
	}
	flag := func(opt cu.JitOption, on bool) {
		if on {
			add(opt, 1)
		}
	}
	flag(cu.JitGenerateDebugInfo, o.GenerateDebugInfo)
	flag(cu.JitGenerateLineInfo, o.GenerateLineInfo)
	flag(cu.JitLogVerbose, o.LogVerbose)
	flag(cu.JitLto, lto)
	return j, nil
}
