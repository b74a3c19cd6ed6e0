package library

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// LoadSpec is how the generated package of one CUDA major finds, checks and
// names its shared library: the ffi.LibraryDesc its load.go declares. The
// emitter writes it as that literal and cugen doctor builds the same
// description from it ([LoadSpec.LibraryDesc]), so what doctor reports is
// what a package would load.
type LoadSpec struct {
	Name   string // "CUDA 12 runtime", "cuFFT (CUDA 12)"
	EnvVar string
	Files  []string
	Wheels []string
	// ToolkitDirs: Load.ToolkitDirs.
	ToolkitDirs []string
	WSL         bool
	Identify    string
	// Check is the version check a loaded file must pass (Validate); its
	// Func is "" for none (the driver, NVML).
	Check VersionCheck
	// Version reads the loaded library's version for messages; its Symbol
	// is "" when the library has no version function.
	Version VersionRead
	// Driver: the process's one driver library (ffi.DriverLibrary).
	Driver bool
	// NeedsDriver: the driver library is loaded first (LibraryDesc.Driver).
	NeedsDriver bool
}

// VersionCheck is a LibraryDesc.Validate of package ffi (the generated
// load.go calls it through package ffiimpl): Func names it (LibraryMajor,
// PropertyMajor), the other fields are its arguments.
type VersionCheck struct {
	Func    string
	Title   string // the library in the error: "NVRTC"
	Symbol  string // its version function
	TwoInts bool   // LibraryMajor: f(int *major, int *minor)
	// InDependency: Symbol is a library's this one depends on
	// (Version.Dependency): the check is made where the lookup finds it
	// (ffi.InDependency).
	InDependency bool
	Major        int // the major the loaded library must report: the CUDA major, or its own (cuFFT 11)
}

// VersionRead is a LibraryDesc.Version of package ffi (ffi.VersionText):
// the loaded library's version, named by Prefix ("driver CUDA", "NVRTC"),
// read through Symbol of the given Form.
type VersionRead struct {
	Prefix string
	Symbol string
	Form   VersionForm
}

// LoadSpec returns how the package of CUDA major major loads d's library.
func (d *Desc) LoadSpec(major int) LoadSpec {
	l := d.Load
	name := l.Name
	if strings.Contains(name, "%d") {
		name = fmt.Sprintf(name, major)
	}
	s := LoadSpec{
		Name:        name,
		EnvVar:      l.EnvVar,
		Files:       l.FilesFor(major),
		Wheels:      l.WheelsFor(major),
		ToolkitDirs: l.ToolkitDirs,
		WSL:         l.WSL,
		Identify:    l.Identify,
		Driver:      l.Driver,
		NeedsDriver: l.NeedsDriver,
	}
	// The library whose version function checks this one: itself, or
	// the one it depends on.
	vd := d
	if l.Version.Dependency != nil {
		vd = l.Version.Dependency
	}
	switch v := l.Version; {
	case v.Form == NoVersionCheck || l.Driver:
	case v.Form == Property:
		s.Check = VersionCheck{Func: "PropertyMajor", Title: vd.Title, Symbol: v.Symbol, Major: SonameMajor(vd.Load.FilesFor(major), major)}
	case v.Form == Struct:
		s.Check = VersionCheck{Func: "StructMajor", Title: vd.Title, Symbol: v.Symbol, Major: major}
	default:
		s.Check = VersionCheck{Func: "LibraryMajor", Title: vd.Title, Symbol: v.Symbol, TwoInts: v.Form == MajorMinor, Major: major}
	}
	s.Check.InDependency = s.Check.Func != "" && l.Version.Dependency != nil
	switch {
	case l.Driver:
		s.Version = VersionRead{Prefix: "driver CUDA", Symbol: l.Identify, Form: Encoded}
	case l.Version.Form != NoVersionCheck:
		s.Version = VersionRead{Prefix: vd.Title, Symbol: l.Version.Symbol, Form: l.Version.Form}
	}
	return s
}

// PerMajor reports whether the library's file depends on the CUDA major
// (the runtime's does; the driver's libcuda.so.1 and NVML's do not).
func (l Load) PerMajor() bool {
	_, shared := l.Files[0]
	return !shared || len(l.Files) > 1
}

// PipPackage names the pip package of NVIDIA's that installs the library
// for a CUDA major, or "" if none does: the one Pip names, else the
// toolkit wheels' name: the CUDA 12 wheels are named after the directory
// they install into (nvidia/cuda_runtime/lib: nvidia-cuda-runtime-cu12),
// and the CUDA 13 ones, which share nvidia/cu13/lib, keep that name without
// the suffix (nvidia-cuda-runtime, version 13).
func (l Load) PipPackage(major int) string {
	if p, ok := l.Pip[major]; ok {
		return p
	}
	ws := l.WheelsFor(12)
	if len(ws) == 0 || len(l.WheelsFor(major)) == 0 {
		return ""
	}
	name := "nvidia-" + strings.ReplaceAll(path.Base(path.Dir(ws[0])), "_", "-")
	if major == 12 {
		name += "-cu12"
	}
	return name
}

// SonameMajor is the library's own major version, the number its soname
// carries (libcufft.so.11: 11), or def when the first file has none.
func SonameMajor(files []string, def int) int {
	if len(files) == 0 {
		return def
	}
	_, v, ok := strings.Cut(files[0], ".so.")
	if !ok {
		return def
	}
	n, err := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	if err != nil {
		return def
	}
	return n
}
