package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// demoNeeds are the C functions the context demo calls, per package.
var demoNeeds = map[string][]string{
	"cu": {"cuCtxGetCurrent", "cuCtxSetCurrent", "cuDevicePrimaryCtxRetain",
		"cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxGetState"},
	"cudart": {"cudaGetDeviceCount", "cudaSetDevice", "cudaGetDevice"},
}

// demoTest emits cudart's context_demo_test.go: cugentest's context demo
// (how the runtime rides on the driver's primary context), run against this
// package and its sibling cu. It needs the import path of the output
// directory; without it (no go.mod above the output) the demo is left out
// and the audit says so.
func demoTest(drv, rt *model, importPath string) ([]byte, error) {
	fn := map[string]string{}
	for _, m := range []*model{drv, rt} {
		for _, need := range demoNeeds[m.pkg] {
			if fn[need] = m.goFunc(need); fn[need] == "" {
				return nil, fmt.Errorf("the headers lack %s", need)
			}
		}
	}
	cuPath := importPath + "/cu"
	rtPath := importPath + "/cudart"
	f := jen.NewFilePathName(rtPath+"_test", "cudart_test")
	rt.headerComment(f)
	f.ImportName(cuPath, "cu")
	f.ImportName(rtPath, "cudart")
	f.ImportName(TestPath, "cugentest")
	cu := func(name string) *jen.Statement { return jen.Qual(cuPath, fn[name]) }
	crt := func(name string) *jen.Statement { return jen.Qual(rtPath, fn[name]) }
	ctx := func(call jen.Code) []jen.Code {
		return []jen.Code{
			jen.List(jen.Id("c"), jen.Id("err")).Op(":=").Add(call),
			jen.Return(jen.Uintptr().Call(jen.Id("c")), jen.Id("err")),
		}
	}
	dev := func(v string) jen.Code { return jen.Qual(cuPath, drv.typeName("CUdevice")).Call(jen.Id(v)) }
	f.Comment("demoAPI hands this package's functions, and the sibling cu package's, to the")
	f.Comment("hand-written demo in package cugentest.")
	f.Func().Id("demoAPI").Params().Qual(TestPath, "ContextAPI").Block(jen.Return(jen.Qual(TestPath, "ContextAPI").Add(keyed(true,
		kv{"LoadDriver", jen.Qual(cuPath, "SharedLibrary").Call().Dot("Load")},
		kv{"LoadRuntime", jen.Qual(rtPath, "SharedLibrary").Call().Dot("Load")},
		kv{"CtxGetCurrent", jen.Func().Params().Params(jen.Uintptr(), jen.Error()).Block(
			ctx(cu("cuCtxGetCurrent").Call())...)},
		kv{"CtxSetCurrent", jen.Func().Params(jen.Id("c").Uintptr()).Error().Block(
			jen.Return(cu("cuCtxSetCurrent").Call(jen.Qual(cuPath, drv.typeName("CUcontext")).Call(jen.Id("c")))))},
		kv{"DevicePrimaryCtxRetain", jen.Func().Params(jen.Id("d").Int32()).Params(jen.Uintptr(), jen.Error()).Block(
			ctx(cu("cuDevicePrimaryCtxRetain").Call(dev("d")))...)},
		kv{"DevicePrimaryCtxRelease", jen.Func().Params(jen.Id("d").Int32()).Error().Block(
			jen.Return(cu("cuDevicePrimaryCtxRelease").Call(dev("d"))))},
		kv{"DevicePrimaryCtxGetState", jen.Func().Params(jen.Id("d").Int32()).Params(jen.Uint32(), jen.Bool(), jen.Error()).Block(
			jen.List(jen.Id("flags"), jen.Id("active"), jen.Id("err")).Op(":=").Add(cu("cuDevicePrimaryCtxGetState").Call(dev("d"))),
			jen.Return(jen.Uint32().Call(jen.Id("flags")), jen.Id("active").Op("!=").Lit(0), jen.Id("err")),
		)},
		kv{"GetDeviceCount", crt("cudaGetDeviceCount")},
		kv{"SetDevice", crt("cudaSetDevice")},
		kv{"GetDevice", crt("cudaGetDevice")},
		kv{"ErrNotInitialized", jen.Qual(cuPath, drv.valNames["CUDA_ERROR_NOT_INITIALIZED"])},
		kv{"ErrInvalidDevice", jen.Qual(rtPath, rt.valNames["cudaErrorInvalidDevice"])},
	))))
	f.Line()
	f.Comment("TestContextDemo shows how the runtime API rides on the driver API: the first")
	f.Comment("runtime call initialises the driver, the first one that needs a context makes")
	f.Comment("the primary context current. It runs in a fresh process; without a GPU it")
	f.Comment("checks what needs none and skips.")
	f.Func().Id("TestContextDemo").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Qual(TestPath, "ContextDemo").Call(jen.Id("t"), jen.Id("demoAPI").Call()))
	f.Line()
	f.Comment("TestContextPerThread shows that the current context belongs to the OS thread.")
	f.Func().Id("TestContextPerThread").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Qual(TestPath, "ContextPerThread").Call(jen.Id("t"), jen.Id("demoAPI").Call()))
	return renderFile("context_demo_test.go", f)
}
