package cuda

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cugen/cugen/cuda/sys/nvrtc"
)

// Source is CUDA C++ source for NVRTC (the runtime compiler,
// libnvrtc.so of the same CUDA major as this package).
type Source struct {
	Code string
	Name string // the file name in NVRTC's messages; "kernel.cu" when empty
	// Headers are files the code may #include, by include name.
	Headers map[string]string
	// Options are nvcc-style options: "-std=c++17", "--use_fast_math",
	// "-DN=4", ... Give no -arch/--gpu-architecture: Arch says it.
	Options []string
	// Arch is the target, "sm_90" (a cubin) or "compute_90" (PTX the
	// driver compiles); with ModuleFromSource, empty means the context's
	// device: sm_XY when NVRTC knows it, else PTX for the newest
	// compute_XY it knows below it.
	Arch string
	// NameExpressions are kernels to find by their C++ name, e.g.
	// "scale<float>": Module.Kernel takes them as written.
	NameExpressions []string
}

// Compiled is the result of [Compile].
type Compiled struct {
	Image []byte    // a cubin, or NUL-terminated PTX
	Kind  ImageKind // ImageCubin or ImagePTX
	Arch  string    // the target compiled for
	Log   string    // NVRTC's log (warnings); empty when it said nothing
	// LoweredNames maps each of Source.NameExpressions to its mangled name.
	LoweredNames map[string]string
}

// Compile compiles src with NVRTC for src.Arch, which must be set. A
// compile error carries NVRTC's log, and its text includes it.
func Compile(src Source) (*Compiled, error) {
	arch := src.Arch
	var cubin bool
	switch {
	case strings.HasPrefix(arch, "sm_"):
		cubin = true
	case strings.HasPrefix(arch, "compute_"):
	default:
		return nil, fmt.Errorf("cuda: Compile: Arch %q: want sm_XY or compute_XY", arch)
	}
	for _, o := range src.Options {
		if strings.HasPrefix(o, "-arch") || strings.HasPrefix(o, "--gpu-architecture") {
			return nil, fmt.Errorf("cuda: Compile: option %q: set Source.Arch instead", o)
		}
	}
	name := src.Name
	if name == "" {
		name = "kernel.cu"
	}
	var hdrs, incs []string
	for _, inc := range slices.Sorted(mapKeys(src.Headers)) {
		incs = append(incs, inc)
		hdrs = append(hdrs, src.Headers[inc])
	}
	prog, err := nvrtc.CreateProgram(src.Code, &name, hdrs, incs)
	if err != nil {
		return nil, fmt.Errorf("cuda: compiling %s: %w", name, err)
	}
	defer nvrtc.DestroyProgram(&prog)
	for _, e := range src.NameExpressions {
		if err := nvrtc.AddNameExpression(prog, e); err != nil {
			return nil, fmt.Errorf("cuda: compiling %s: name expression %q: %w", name, e, err)
		}
	}
	opts := append([]string{"--gpu-architecture=" + arch}, src.Options...)
	if err := nvrtc.CompileProgram(prog, opts); err != nil {
		return nil, fmt.Errorf("cuda: compiling %s for %s: %w", name, arch, err)
	}
	out := &Compiled{Arch: arch, Kind: ImagePTX}
	if log, err := nvrtc.GetProgramLog(prog); err == nil {
		out.Log = strings.TrimRight(log, "\x00\n ")
	}
	if cubin {
		out.Kind = ImageCubin
		out.Image, err = nvrtc.GetCUBIN(prog)
	} else {
		out.Image, err = nvrtc.GetPTX(prog)
	}
	if err != nil {
		return nil, fmt.Errorf("cuda: compiling %s: %w", name, err)
	}
	if len(src.NameExpressions) > 0 {
		out.LoweredNames = make(map[string]string, len(src.NameExpressions))
		for _, e := range src.NameExpressions {
			l, err := nvrtc.GetLoweredName(prog, e)
			if err != nil {
				return nil, fmt.Errorf("cuda: compiling %s: lowered name of %q: %w", name, e, err)
			}
			out.LoweredNames[e] = l
		}
	}
	return out, nil
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// ArchFor returns the target to compile for a device of compute capability
// major.minor with the NVRTC at hand: sm_XY when NVRTC supports it, else
// compute_XY for the newest it supports below (PTX, which the driver
// compiles for the device).
func ArchFor(major, minor int) (string, error) {
	archs, err := nvrtc.GetSupportedArchs()
	if err != nil {
		return "", err
	}
	return archFor(major*10+minor, archs)
}

func archFor(cc int, archs []int32) (string, error) {
	best := int32(-1)
	for _, a := range archs {
		if int(a) == cc {
			return fmt.Sprintf("sm_%d", cc), nil
		}
		if int(a) < cc && a > best {
			best = a
		}
	}
	if best < 0 {
		return "", fmt.Errorf("cuda: NVRTC supports no architecture up to compute capability %d.%d (it knows %v)", cc/10, cc%10, archs)
	}
	return fmt.Sprintf("compute_%d", best), nil
}

// ModuleFromSource compiles src with NVRTC for the context's device (see
// Source.Arch) and loads the result. The module's Kernel takes
// src.NameExpressions as written.
func (c *Context) ModuleFromSource(src Source) (*Module, error) {
	if _, err := c.use(); err != nil {
		return nil, err
	}
	c.ref.end()
	if src.Arch == "" {
		major, minor, err := c.Device().ComputeCapability()
		if err != nil {
			return nil, err
		}
		if src.Arch, err = ArchFor(major, minor); err != nil {
			return nil, err
		}
	}
	out, err := Compile(src)
	if err != nil {
		return nil, err
	}
	m, err := c.LoadModule(out.Image)
	if err != nil {
		return nil, err
	}
	m.lowered = out.LoweredNames
	return m, nil
}
