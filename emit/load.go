package emit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// genLoad emits load.go: the library and one lazily resolved procedure per
// function.
func (m *model) genLoad(f *jen.File) error {
	d := m.desc.Load
	switch {
	case d.Driver:
		f.Comment("lib is the CUDA driver library this package calls, opened on first use.")
		f.Comment("It is the process's one driver library (ffi.DriverLibrary), which the")
		f.Comment("runtime packages load before libcudart: the runtime then calls the same")
		f.Comment("driver, whichever package is called first. ffiimpl.Bind lists the")
		f.Comment("procedures this package binds in it.")
		f.Var().Id("lib").Op("=").Qual(FFIImplPath, "Bind").Call(m.driverLibrary())
	case d.NeedsDriver:
		f.Comment("lib is the shared library this package calls, opened on first use. The")
		f.Comment("driver library (ffi.DriverLibrary, the one the driver packages call) is")
		f.Comment("loaded first: libcudart opens libcuda.so.1 by its soname and is handed")
		f.Comment("that copy, so one process has one driver whatever the call order.")
		f.Comment("ffiimpl.Bind lists the procedures this package binds in it.")
		f.Var().Id("lib").Op("=").Qual(FFIImplPath, "Bind").Call(jen.Qual(FFIPath, "NewLibrary").Call(m.libraryDesc(m.desc)))
	default:
		f.Comment("lib is the shared library this package calls, opened on first use.")
		f.Comment("ffiimpl.Bind lists the procedures this package binds in it.")
		f.Var().Id("lib").Op("=").Qual(FFIImplPath, "Bind").Call(jen.Qual(FFIPath, "NewLibrary").Call(m.libraryDesc(m.desc)))
	}
	f.Line()
	f.Comment("SharedLibrary returns the library handle, to load it eagerly or ask its path.")
	f.Func().Id("SharedLibrary").Params().Op("*").Qual(FFIPath, "Library").Block(jen.Return(jen.Id("lib").Dot("Library")))
	f.Line()
	var defs []jen.Code
	for _, fn := range m.funcs {
		since := ""
		if fn.SinceVersion != 0 {
			since = m.sinceName() + " " + versionString(int64(fn.SinceVersion))
		}
		proc := jen.Id("lib").Dot("NewProc").Call(jen.Lit(fn.Symbol), jen.Lit(since))
		if fn.Name != fn.Symbol {
			proc = proc.Dot("API").Call(jen.Lit(fn.Name)) // errors name the API, not the symbol
		}
		if fn.PerThreadSymbol != "" {
			proc = proc.Dot("PerThread").Call(jen.Lit(fn.PerThreadSymbol))
		}
		defs = append(defs, jen.Id(m.procName(fn)).Op("=").Add(proc))
	}
	f.Comment("One procedure per function, resolved on its first call; it also holds")
	f.Comment("the errors the function returns (ffiimpl.Error). lib.Procs lists them.")
	f.Var().Defs(defs...)
	return nil
}

// libraryDesc is the ffi.LibraryDesc literal of a library: its name for
// messages ("NVRTC 12"), files for the package's CUDA major, the symbol
// that identifies it, its version check and the driver it needs.
func (m *model) libraryDesc(d *library.Desc) *jen.Statement {
	major := int(m.api.CUDAVersion / 1000)
	name := d.Load.Name
	if strings.Contains(name, "%d") {
		name = fmt.Sprintf(name, major)
	}
	var files []jen.Code
	for _, f := range d.Load.FilesFor(major) {
		files = append(files, jen.Lit(f))
	}
	kvs := []kv{
		{"Name", jen.Lit(name)},
		{"EnvVar", jen.Lit(d.Load.EnvVar)},
		{"Files", jen.Index().String().Values(files...)},
	}
	if ws := d.Load.WheelsFor(major); len(ws) > 0 {
		var wheels []jen.Code
		for _, w := range ws {
			wheels = append(wheels, jen.Lit(w))
		}
		kvs = append(kvs, kv{"Wheels", jen.Index().String().Values(wheels...)})
	}
	if d.Load.WSL {
		kvs = append(kvs, kv{"WSL", jen.True()})
	}
	kvs = append(kvs, kv{"Identify", jen.Lit(d.Load.Identify)})
	switch v := d.Load.Version; {
	case v.Form == library.NoVersionCheck || d.Load.Driver:
	case d.Key == ir.Runtime && v.Form == library.Encoded:
		kvs = append(kvs, kv{"Validate", jen.Qual(FFIImplPath, "RuntimeMajor").Call(jen.Lit(major))})
	case v.Form == library.Property:
		kvs = append(kvs, kv{"Validate", jen.Qual(FFIImplPath, "PropertyMajor").Call(jen.Lit(d.Title), jen.Lit(v.Symbol), jen.Lit(sonameMajor(d.Load.FilesFor(major), major)))})
	default:
		kvs = append(kvs, kv{"Validate", jen.Qual(FFIImplPath, "LibraryMajor").Call(jen.Lit(d.Title), jen.Lit(v.Symbol), jen.Lit(v.Form == library.MajorMinor), jen.Lit(major))})
	}
	if d.Load.NeedsDriver {
		kvs = append(kvs, kv{"Driver", m.driverLibrary()})
	}
	return jen.Qual(FFIPath, "LibraryDesc").Add(keyed(true, kvs...))
}

// driverLibrary is the process's one driver library: its description is
// the same in every generated package, so that ffi.DriverLibrary hands
// them all one Library, whichever package calls first.
func (m *model) driverLibrary() *jen.Statement {
	for _, d := range m.opts.Libraries {
		if d.Load.Driver {
			return jen.Qual(FFIPath, "DriverLibrary").Call(m.libraryDesc(d))
		}
	}
	panic("emit: no driver library among the descriptions")
}

// sinceName introduces the version a symbol needs in messages: "CUDA"
// (a driver of CUDA 12.0), or the library's own (nvJitLink 12.4).
func (m *model) sinceName() string {
	if m.desc.Since != "" {
		return m.desc.Since
	}
	return "CUDA"
}

// envVar selects the package's library, overriding the search.
func (m *model) envVar() string { return m.desc.Load.EnvVar }

// versionFunc is the Go name of the function that reports the library's
// version (cuDriverGetVersion, cudaRuntimeGetVersion, nvrtcVersion), ""
// if the package has none.
func (m *model) versionFunc() string {
	if m.desc.Load.Driver {
		return m.goFunc(m.desc.Load.Identify)
	}
	return m.goFunc(m.desc.Load.Version.Symbol)
}

// sonameMajor is the library's own major version, the number its soname
// carries (libcufft.so.11: 11), or def when the first file has none.
func sonameMajor(files []string, def int) int {
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
