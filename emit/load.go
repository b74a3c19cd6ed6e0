package emit

import (
	"fmt"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// genLoad emits load.go: the library and one lazily resolved procedure per
// function.
func (m *model) genLoad(f *jen.File) error {
	major := m.headerVersion() / 1000
	// The driver's description is the same in every generated package, so
	// that ffi.DriverLibrary hands them all one Library: one process, one
	// driver, whichever package calls first.
	driver := jen.Qual(FFIPath, "DriverLibrary").Call(jen.Qual(FFIPath, "LibraryDesc").Add(keyed(true,
		kv{"Name", jen.Lit("CUDA driver")},
		kv{"EnvVar", jen.Lit(driverEnvVar)},
		kv{"Files", jen.Index().String().Values(jen.Lit("libcuda.so.1"), jen.Lit("libcuda.so"))},
		kv{"Identify", jen.Lit("cuDriverGetVersion")},
		kv{"WSL", jen.True()},
	)))
	if m.lib == ir.Driver {
		f.Comment("lib is the CUDA driver library this package calls, opened on first use.")
		f.Comment("It is the process's one driver library (ffi.DriverLibrary), which the")
		f.Comment("runtime packages load before libcudart: the runtime then calls the same")
		f.Comment("driver, whichever package is called first. ffiimpl.Bind lists the")
		f.Comment("procedures this package binds in it.")
		f.Var().Id("lib").Op("=").Qual(FFIImplPath, "Bind").Call(driver)
	} else {
		f.Comment("lib is the shared library this package calls, opened on first use. The")
		f.Comment("driver library (ffi.DriverLibrary, the one the driver packages call) is")
		f.Comment("loaded first: libcudart opens libcuda.so.1 by its soname and is handed")
		f.Comment("that copy, so one process has one driver whatever the call order.")
		f.Comment("ffiimpl.Bind lists the procedures this package binds in it.")
		f.Var().Id("lib").Op("=").Qual(FFIImplPath, "Bind").Call(jen.Qual(FFIPath, "NewLibrary").Call(jen.Qual(FFIPath, "LibraryDesc").Add(keyed(true,
			kv{"Name", jen.Lit(fmt.Sprintf("CUDA %d runtime", major))},
			kv{"EnvVar", jen.Lit(m.envVar())},
			kv{"Files", jen.Index().String().Values(jen.Lit(fmt.Sprintf("libcudart.so.%d", major)))},
			kv{"Wheels", jen.Index().String().Values(runtimeWheels(major)...)},
			kv{"Identify", jen.Lit("cudaRuntimeGetVersion")},
			kv{"Validate", jen.Qual(FFIImplPath, "RuntimeMajor").Call(jen.Lit(int(major)))},
			kv{"Driver", driver},
		))))
	}
	f.Line()
	f.Comment("SharedLibrary returns the library handle, to load it eagerly or ask its path.")
	f.Func().Id("SharedLibrary").Params().Op("*").Qual(FFIPath, "Library").Block(jen.Return(jen.Id("lib").Dot("Library")))
	f.Line()
	var defs []jen.Code
	for _, fn := range m.funcs {
		since := ""
		if fn.SinceVersion != 0 {
			since = "CUDA " + versionString(int64(fn.SinceVersion))
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

// runtimeWheels are the directories, under a Python site-packages
// directory, where NVIDIA's pip wheels of a CUDA major put libcudart:
// nvidia/cuda_runtime/lib up to CUDA 12 (nvidia-cuda-runtime-cu12), one
// directory per major from CUDA 13 on (nvidia/cu13/lib, shared by all of
// 13's wheels).
func runtimeWheels(major int64) []jen.Code {
	if major >= 13 {
		return []jen.Code{jen.Lit(fmt.Sprintf("nvidia/cu%d/lib", major))}
	}
	return []jen.Code{jen.Lit("nvidia/cuda_runtime/lib")}
}

// versionFunc is the Go name of the function that reports the library's
// CUDA version (cuDriverGetVersion, cudaRuntimeGetVersion).
func (m *model) versionFunc() string {
	if m.lib == ir.Driver {
		return m.goFunc("cuDriverGetVersion")
	}
	return m.goFunc("cudaRuntimeGetVersion")
}
