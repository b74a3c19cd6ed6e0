package emit

import (
	"fmt"
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// helperNames are the exported functions the generator writes beside the
// wrappers (helpers.go, load.go): no C name takes them (assignNames).
// TestHelperNames checks the list against the generated files.
var helperNames = []string{"SharedLibrary", "Check", "CheckDepth", "CheckHelper", "OnDevice", "OnPrimaryContext", "Dim1", "Dim2", "LaunchExtra"}

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
// functions: Check (like CUDA C++'s checkRuntime macro) and the thread-rule
// helper (OnPrimaryContext for cu, OnDevice for cudart). The logic is in ffi.
func (m *model) genHelpers(f *jen.File) error {
	api := m.desc.API
	if !m.desc.NoStatus {
		errType := m.errorType()
		f.Commentf("API returns %q: [Check] names the API an error belongs to.", api)
		f.Func().Params(jen.Id("r").Id(errType)).Id("API").Params().String().Block(jen.Return(jen.Lit(api)))
		f.Line()
	}
	f.Comment("Check checks err like the checkRuntime macro of CUDA C++ code: for a")
	f.Comment("non-nil err it prints the caller's file:line, the C function that failed,")
	f.Commentf("the error's C name and the library's message (%q for this package's", api+" error")
	f.Comment("errors), and returns false; for nil it returns true.")
	f.Comment("")
	f.Comment("\tif !Check(err) { ... }")
	f.Comment("")
	f.Comment("Check reports the first caller that is not a helper: a function that wraps")
	f.Comment("Check (a checkCudaErrors of your own) calls [CheckHelper] first, and the")
	f.Comment("line printed is its caller's.")
	f.Func().Id("Check").Params(jen.Id("err").Error()).Bool().Block(
		jen.Return(jen.Qual(FFIPath, "Check").Call(jen.Id("err"), jen.Lit(1))))
	f.Line()
	f.Comment("CheckDepth is Check reporting the caller depth frames above its own caller")
	f.Comment("(0: the caller, as Check), then passing over helpers as Check does.")
	f.Func().Id("CheckDepth").Params(jen.Id("err").Error(), jen.Id("depth").Int()).Bool().Block(
		jen.Return(jen.Qual(FFIPath, "Check").Call(jen.Id("err"), jen.Id("depth").Op("+").Lit(1))))
	f.Line()
	f.Comment("CheckHelper marks the calling function as a check helper, as")
	f.Comment("testing.T.Helper does for tests: [Check] and [CheckDepth] pass over it and")
	f.Comment("report the line that called it.")
	f.Comment("")
	f.Comment("\tfunc checkCudaErrors(err error) {")
	f.Comment("\t\tCheckHelper()")
	f.Comment("\t\tif !Check(err) {")
	f.Comment("\t\t\tos.Exit(1)")
	f.Comment("\t\t}")
	f.Comment("\t}")
	f.Func().Id("CheckHelper").Params().Block(jen.Qual(FFIPath, "Helper").Call(jen.Lit(1)))
	f.Line()
	m.genDefaultOne(f)
	m.genDevicePointers(f)
	m.genLaunchExtra(f)
	if m.lib == ir.Runtime || m.lib == ir.Driver {
		return m.genThreadHelper(f)
	}
	return nil
}

// genThreadHelper emits the helper that runs a func on a locked OS thread
// with the CUDA thread state it needs: OnPrimaryContext for cu, OnDevice
// for cudart.
func (m *model) genThreadHelper(f *jen.File) error {
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

// genDefaultOne emits, for each record of defaultOneRecords in this
// package, constructors that give the fields a C++ constructor defaults to 1
// (dim3(512) is {512, 1, 1}) that default: Dim1(x), Dim2(x, y).
func (m *model) genDefaultOne(f *jen.File) {
	for _, r := range m.recs {
		if _, ok := m.defaultOne[r.Name]; !ok || len(r.Fields) < 2 {
			continue
		}
		name := m.typeName(r.Name)
		for n := 1; n < len(r.Fields); n++ {
			var params []jen.Code
			var vals []jen.Code
			var given, ones []string
			for i, fl := range r.Fields {
				fn := fieldName(fl.Name)
				if i < n {
					params = append(params, jen.Id(fl.Name).Add(m.goType(fl.Type)))
					vals = append(vals, jen.Id(fn).Op(":").Id(fl.Name))
					given = append(given, fl.Name)
				} else {
					vals = append(vals, jen.Id(fn).Op(":").Lit(1))
					ones = append(ones, fn)
				}
			}
			ctor := fmt.Sprintf("Dim%d", n)
			if name != "Dim3" {
				ctor = fmt.Sprintf("%s%d", name, n)
			}
			comment(f, fmt.Sprintf("%s returns the %s C++'s %s(%s) makes: %s set to 1.", ctor, name, r.Name, strings.Join(given, ", "), strings.Join(ones, " and ")))
			f.Func().Id(ctor).Params(params...).Id(name).Block(jen.Return(jen.Id(name).Values(vals...)))
			f.Line()
			m.audit = append(m.audit, fmt.Sprintf("helper %s: constructor of %s with C++'s default 1 for %s (%s)", ctor, name, strings.Join(ones, ", "), m.defaultOne[r.Name]))
		}
	}
}

// genDevicePointers gives each integer device-address type of
// devicePointerTypes a Pointer method: the runtime's `void *` parameters
// take unsafe.Pointer (they take host memory too, which must stay a real Go
// pointer), and converting an integer to unsafe.Pointer in user code is what
// go vet's unsafeptr check flags.
func (m *model) genDevicePointers(f *jen.File) {
	for _, td := range m.tds {
		if _, ok := m.devicePointerTypes[td.Name]; !ok {
			continue
		}
		// The method goes on the defined type (Deviceptr), never the alias
		// of a versioned pair (DeviceptrV2 = Deviceptr): go doc lists a
		// type's methods only under the receiver's own name.
		name := m.declName(td.Name)
		if name == "" || m.resolve(td.Type).Kind != ir.Int {
			continue
		}
		f.Commentf("Pointer returns the device address p as an unsafe.Pointer, for the")
		f.Comment("runtime API's `void *` parameters (cudart.Memcpy, cudart.Free, ...):")
		f.Comment("under unified addressing a device address is valid in every CUDA call.")
		f.Comment("It is the vet-clean form of unsafe.Pointer(uintptr(p)); the collector")
		f.Comment("ignores the address, which is never in Go's heap. The other way needs")
		f.Commentf("no unsafe: %s(uintptr(ptr)).", name)
		f.Func().Params(jen.Id("p").Id(name)).Id("Pointer").Params().Qual("unsafe", "Pointer").Block(
			jen.Return(jen.Qual(FFIImplPath, "Pointer").Call(jen.Uintptr().Call(jen.Id("p")))))
		f.Line()
		m.audit = append(m.audit, fmt.Sprintf("helper %s.Pointer: %s as unsafe.Pointer for runtime void * parameters (%s)", name, td.Name, m.devicePointerTypes[td.Name]))
	}
}

// genLaunchExtra emits LaunchExtra in a package with a struct member that
// holds an extra array (memberType types it *uintptr): the words for a
// packed argument buffer, built and kept alive by ffiimpl.ExtraWords.
func (m *model) genLaunchExtra(f *jen.File) {
	var members []string
	for _, r := range m.recs {
		for _, fl := range allFields(r) {
			if fl.Name == "extra" && m.isVoidPtrPtr(fl.Type) {
				members = append(members, m.typeName(r.Name)+"."+fieldName(fl.Name))
			}
		}
	}
	if len(members) == 0 {
		return
	}
	f.Comment("LaunchExtra returns the extra words for a kernel's packed argument buffer,")
	f.Comment("for the Extra member of the kernel node parameters (nil for a nil buf):")
	f.Comment("{CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,")
	f.Comment("CU_LAUNCH_PARAM_END}, in one heap object the returned pointer keeps alive")
	f.Comment("with buf. CUDA copies the arguments when the node is added or updated.")
	f.Comment("")
	f.Comment("\tparams.Extra = LaunchExtra(buf)")
	f.Func().Id("LaunchExtra").Params(jen.Id("buf").Index().Byte()).Op("*").Uintptr().Block(
		jen.Return(jen.Qual(FFIImplPath, "ExtraWords").Call(jen.Id("buf"))))
	f.Line()
	m.audit = append(m.audit, fmt.Sprintf("helper LaunchExtra: the extra words of a packed argument buffer for %s", strings.Join(members, ", ")))
}
