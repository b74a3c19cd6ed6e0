package emit

import (
	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// goFunc returns the Go name of the C function name in this package, or "".
func (m *model) goFunc(cname string) string {
	for _, f := range m.funcs {
		if f.Name == cname {
			return m.funcNames[f]
		}
	}
	return ""
}

// genHelpers emits the package's hand-shaped API around the generated
// functions: Check (the seed's checkRuntime) and the thread-rule helper
// (OnPrimaryContext for cu, OnDevice for cudart). The logic is in ffi.
func (m *model) genHelpers(f *jen.File) error {
	f.Comment("Check is the seed's checkRuntime for Go: for a non-nil err it prints the")
	f.Comment("caller's file:line, the C function that failed, the error's C name and the")
	f.Comment("library's message, and returns false; for nil it returns true.")
	f.Comment("")
	f.Comment("\tif !Check(err) { ... }")
	f.Func().Id("Check").Params(jen.Id("err").Error()).Bool().Block(
		jen.Return(jen.Qual(FFIPath, "Check").Call(jen.Id("err"), jen.Lit(1))))
	f.Line()
	if m.lib == ir.Driver {
		init, retain, release, setCur := m.goFunc("cuInit"), m.goFunc("cuDevicePrimaryCtxRetain"), m.goFunc("cuDevicePrimaryCtxRelease"), m.goFunc("cuCtxSetCurrent")
		if init == "" || retain == "" || release == "" || setCur == "" {
			m.audit = append(m.audit, "skip OnPrimaryContext: the headers lack cuInit/cuDevicePrimaryCtx*/cuCtxSetCurrent")
			return nil
		}
		dev, ctx := m.typeName("CUdevice"), m.typeName("CUcontext")
		f.Comment("OnPrimaryContext runs fn on a goroutine locked to an OS thread of its own,")
		f.Comment("with dev's primary context retained and current, and returns fn's error.")
		f.Comment("CUDA's current context belongs to the OS thread and Go moves goroutines")
		f.Comment("between threads, so code that relies on the current context must run")
		f.Comment("this way (or call runtime.LockOSThread itself). A panic or runtime.Goexit")
		f.Comment("(t.Fatal) in fn ends the caller the same way; see ffi.RunLocked.")
		f.Func().Id("OnPrimaryContext").Params(jen.Id("dev").Id(dev), jen.Id("fn").Func().Params(jen.Id("ctx").Id(ctx)).Error()).Error().Block(
			jen.Return(jen.Qual(FFIPath, "RunLocked").Call(jen.Func().Params().Error().Block(
				jen.If(jen.Id("err").Op(":=").Id(init).Call(jen.Lit(0)), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
				jen.List(jen.Id("ctx"), jen.Id("err")).Op(":=").Id(retain).Call(jen.Id("dev")),
				jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
				jen.Defer().Id(release).Call(jen.Id("dev")),
				jen.If(jen.Id("err").Op(":=").Id(setCur).Call(jen.Id("ctx")), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
				jen.Return(jen.Id("fn").Call(jen.Id("ctx"))),
			))),
		)
		return nil
	}
	setDev := m.goFunc("cudaSetDevice")
	if setDev == "" {
		m.audit = append(m.audit, "skip OnDevice: the headers lack cudaSetDevice")
		return nil
	}
	f.Comment("OnDevice runs fn on a goroutine locked to an OS thread of its own, after")
	f.Comment("cudaSetDevice(device) on that thread (which makes the device's primary")
	f.Comment("context current), and returns fn's error. The runtime's current device")
	f.Comment("belongs to the OS thread and Go moves goroutines between threads, so code")
	f.Comment("that relies on it must run this way (or call runtime.LockOSThread itself).")
	f.Comment("A panic or runtime.Goexit (t.Fatal) in fn ends the caller the same way;")
	f.Comment("see ffi.RunLocked.")
	f.Func().Id("OnDevice").Params(jen.Id("device").Int32(), jen.Id("fn").Func().Params().Error()).Error().Block(
		jen.Return(jen.Qual(FFIPath, "RunLocked").Call(jen.Func().Params().Error().Block(
			jen.If(jen.Id("err").Op(":=").Id(setDev).Call(jen.Id("device")), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
			jen.Return(jen.Id("fn").Call()),
		))),
	)
	return nil
}
