package emit

import (
	"github.com/cugen/cugen/library"
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
	if m.desc.OneThread != "" {
		f.Comment(threadVar + " is the OS thread every C call of this package runs on (see the")
		f.Comment("package documentation).")
		f.Var().Id(threadVar).Qual(FFIImplPath, "Thread")
		f.Line()
	}
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

// libraryDesc is the ffi.LibraryDesc literal of a library: the
// library.LoadSpec of the package's CUDA major (its name for messages,
// files, the symbol that identifies it, its version check and version
// text, the driver it needs), which cugen doctor loads as well.
func (m *model) libraryDesc(d *library.Desc) *jen.Statement {
	s := d.LoadSpec(int(m.api.CUDAVersion / 1000))
	var files []jen.Code
	for _, f := range s.Files {
		files = append(files, jen.Lit(f))
	}
	kvs := []kv{
		{"Name", jen.Lit(s.Name)},
		{"EnvVar", jen.Lit(s.EnvVar)},
		{"Files", jen.Index().String().Values(files...)},
	}
	if len(s.ToolkitDirs) > 0 {
		var dirs []jen.Code
		for _, d := range s.ToolkitDirs {
			dirs = append(dirs, jen.Lit(d))
		}
		kvs = append(kvs, kv{"ToolkitDirs", jen.Index().String().Values(dirs...)})
	}
	if len(s.Wheels) > 0 {
		var wheels []jen.Code
		for _, w := range s.Wheels {
			wheels = append(wheels, jen.Lit(w))
		}
		kvs = append(kvs, kv{"Wheels", jen.Index().String().Values(wheels...)})
	}
	if s.WSL {
		kvs = append(kvs, kv{"WSL", jen.True()})
	}
	kvs = append(kvs, kv{"Identify", jen.Lit(s.Identify)})
	if c := s.Check; c.Func != "" {
		var check *jen.Statement
		switch c.Func {
		case "PropertyMajor", "StructMajor":
			check = jen.Qual(FFIImplPath, c.Func).Call(jen.Lit(c.Title), jen.Lit(c.Symbol), jen.Lit(c.Major))
		default:
			check = jen.Qual(FFIImplPath, c.Func).Call(jen.Lit(c.Title), jen.Lit(c.Symbol), jen.Lit(c.TwoInts), jen.Lit(c.Major))
		}
		if c.InDependency {
			check = jen.Qual(FFIImplPath, "InDependency").Call(jen.Lit(c.Symbol), check)
		}
		kvs = append(kvs, kv{"Validate", check})
	}
	if v := s.Version; v.Symbol != "" {
		kvs = append(kvs, kv{"Version", jen.Qual(FFIImplPath, "VersionText").Call(jen.Lit(v.Prefix), jen.Lit(v.Symbol), jen.Qual(FFIImplPath, versionForms[v.Form]))})
	}
	if s.NeedsDriver {
		kvs = append(kvs, kv{"Driver", m.driverLibrary()})
	}
	return jen.Qual(FFIPath, "LibraryDesc").Add(keyed(true, kvs...))
}

// versionForms are package ffiimpl's names of the version forms.
var versionForms = map[library.VersionForm]string{
	library.Encoded:    "VersionEncoded",
	library.MajorMinor: "VersionMajorMinor",
	library.Property:   "VersionProperty",
	library.Struct:     "VersionStruct",
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
	panic("emit: no driver library among the descriptions (library.Check refuses that)")
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

// threadVar names the package's ffiimpl.Thread (library.Desc.OneThread).
const threadVar = "libThread"

// cCall returns the statements of one C call, call (an ffiimpl.CallInts
// or ffiimpl.Call expression), assigned to r with op (":=" or "=") or,
// with op "", evaluated for its effect, after before (a Frame's
// arguments, set just before the call). In a package whose calls all run
// on one OS thread (library.Desc.OneThread) they are made inside
// libThread.Run, so the arguments are evaluated there; r, a uintptr, is
// declared before it for ":=".
func (m *model) cCall(op string, call jen.Code, before ...jen.Code) []jen.Code {
	stmt := jen.Add(call)
	if op != "" {
		stmt = jen.Id("r").Op(op).Add(call)
	}
	if m.desc.OneThread == "" {
		return append(before, stmt)
	}
	var out []jen.Code
	if op == ":=" {
		out = append(out, jen.Var().Id("r").Uintptr())
		stmt = jen.Id("r").Op("=").Add(call)
	}
	inner := append(append([]jen.Code(nil), before...), stmt)
	return append(out, jen.Id(threadVar).Dot("Run").Call(jen.Func().Params().Block(inner...)))
}
