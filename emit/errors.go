package emit

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// genErrors makes the package's result enum (CUresult, cudaError_t) an
// error: "NAME: message", the message from the library itself
// (cuGetErrorString / cudaGetErrorString) when it can be loaded, else from
// the header's own description of the value.
func (m *model) genErrors(f *jen.File) error {
	typ := m.errorType()
	e := m.enum(&ir.Type{Kind: ir.Named, Name: map[ir.Library]string{ir.Driver: "CUresult", ir.Runtime: "cudaError_t"}[m.lib]})
	if typ == "" || e == nil {
		// Name what is missing: a header directory holding only cuda.h
		// has no runtime API at all.
		header := map[ir.Library]string{ir.Driver: "cuda.h", ir.Runtime: "cuda_runtime_api.h"}[m.lib]
		if !slices.Contains(m.api.Sources, header) && len(m.api.Sources) > 0 {
			return fmt.Errorf("no %s in the headers: %s not found in the header directory (the %s package needs it)", map[ir.Library]string{ir.Driver: "CUresult", ir.Runtime: "cudaError_t"}[m.lib], header, m.pkg)
		}
		return fmt.Errorf("no error enum (CUresult / cudaError_t) in the headers")
	}
	var getStr *ir.Function
	for _, fn := range m.funcs {
		if fn.Name == "cuGetErrorString" || fn.Name == "cudaGetErrorString" {
			getStr = fn
		}
	}
	f.Commentf("Error returns the C error name and the library's message, as the seed's")
	f.Comment("checkRuntime prints them: \"NAME: message\".")
	f.Func().Params(jen.Id("r").Id(typ)).Id("Error").Params().String().Block(
		jen.Return(jen.Id("r").Dot("String").Call().Op("+").Lit(": ").Op("+").Id("r").Dot("Message").Call()),
	)
	f.Line()
	f.Comment("Message is the library's description of r, or the header's when the")
	f.Comment("library cannot be loaded.")
	msgBody := []jen.Code{}
	if getStr != nil {
		g := m.funcNames[getStr]
		if m.isErrorResult(getStr.Result) {
			msgBody = append(msgBody,
				jen.If(jen.List(jen.Id("s"), jen.Id("err")).Op(":=").Id(g).Call(jen.Id("r")), jen.Id("err").Op("==").Nil().Op("&&").Id("s").Op("!=").Lit("")).Block(jen.Return(jen.Id("s"))))
		} else {
			msgBody = append(msgBody,
				jen.If(jen.Id("s").Op(":=").Id(g).Call(jen.Id("r")), jen.Id("s").Op("!=").Lit("").Op("&&").Id("s").Op("!=").Lit("unrecognized error code")).Block(jen.Return(jen.Id("s"))))
		}
	}
	msgBody = append(msgBody, jen.Return(jen.Id("r").Dot("headerMessage").Call()))
	f.Func().Params(jen.Id("r").Id(typ)).Id("Message").Params().String().Block(msgBody...)
	f.Line()
	var cases []jen.Code
	seen := map[int64]bool{}
	for _, v := range e.Values {
		if seen[v.Value] || v.Doc == "" {
			continue
		}
		seen[v.Value] = true
		cases = append(cases, jen.Case(jen.Id(m.valNames[v.Name])).Block(jen.Return(jen.Lit(headerMessage(v.Doc)))))
	}
	cases = append(cases, jen.Default().Block(jen.Return(jen.Lit("unknown error"))))
	f.Comment("headerMessage is the first sentence the header gives each value.")
	f.Func().Params(jen.Id("r").Id(typ)).Id("headerMessage").Params().String().Block(jen.Switch(jen.Id("r")).Block(cases...))
	return nil
}

// deprecatedRE is a \deprecated command and the space after it.
var deprecatedRE = regexp.MustCompile(`\\deprecated\s*`)

// headerMessage shortens an enum value's doc to a message. A \deprecated
// marker is dropped: the message is what the value means ("This error
// return is deprecated as of CUDA 5.0" says the rest), not Doxygen markup.
func headerMessage(doc string) string {
	doc = deprecatedRE.ReplaceAllString(doc, "")
	s := firstSentence(strings.NewReplacer("::", "", `\p `, "", `\ref `, "").Replace(doc))
	if strings.Contains(s, "&") {
		s = html.UnescapeString(s)
	}
	return strings.TrimSuffix(s, ".")
}

// genLoad emits the library and one lazily resolved procedure per function.
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
	)))
	if m.lib == ir.Driver {
		f.Comment("lib is the CUDA driver library this package calls, opened on first use.")
		f.Comment("It is the process's one driver library (ffi.DriverLibrary), which the")
		f.Comment("runtime packages load before libcudart: the runtime then calls the same")
		f.Comment("driver, whichever package is called first.")
		f.Var().Id("lib").Op("=").Add(driver)
	} else {
		f.Comment("lib is the shared library this package calls, opened on first use. The")
		f.Comment("driver library (ffi.DriverLibrary, the one the driver packages call) is")
		f.Comment("loaded first: libcudart opens libcuda.so.1 by its soname and is handed")
		f.Comment("that copy, so one process has one driver whatever the call order.")
		f.Var().Id("lib").Op("=").Qual(FFIPath, "NewLibrary").Call(jen.Qual(FFIPath, "LibraryDesc").Add(keyed(true,
			kv{"Name", jen.Lit(fmt.Sprintf("CUDA %d runtime", major))},
			kv{"EnvVar", jen.Lit(m.envVar())},
			kv{"Files", jen.Index().String().Values(jen.Lit(fmt.Sprintf("libcudart.so.%d", major)))},
			kv{"Identify", jen.Lit("cudaRuntimeGetVersion")},
			kv{"Validate", jen.Qual(FFIPath, "RuntimeMajor").Call(jen.Lit(int(major)))},
			kv{"Driver", driver},
		)))
	}
	f.Line()
	f.Comment("SharedLibrary returns the library handle, to load it eagerly or ask its path.")
	f.Func().Id("SharedLibrary").Params().Op("*").Qual(FFIPath, "Library").Block(jen.Return(jen.Id("lib")))
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
	f.Comment("the errors the function returns (ffi.Error). lib.Procs lists them.")
	f.Var().Defs(defs...)
	return nil
}

// versionFunc is the Go name of the function that reports the library's
// CUDA version (cuDriverGetVersion, cudaRuntimeGetVersion).
func (m *model) versionFunc() string {
	if m.lib == ir.Driver {
		return m.goFunc("cuDriverGetVersion")
	}
	return m.goFunc("cudaRuntimeGetVersion")
}

// symbolsTest emits symbols_test.go: every bound function must resolve in
// the library found at test time. The logic is ffitest.Symbols, which
// finds the package's procedures through the library (ffi.Library.Procs);
// the test hands it the library and the version function.
func (m *model) symbolsTest() ([]byte, error) {
	f := jen.NewFile(m.pkg)
	f.HeaderComment(m.header())
	f.ImportName(FFITestPath, "ffitest")
	// A package without a version function (a test fixture) only logs.
	version := jen.Nil()
	if vf := m.versionFunc(); vf != "" {
		version = jen.Id(vf)
	}
	f.Comment("TestSymbolsResolve resolves every bound function in the library.")
	f.Func().Id("TestSymbolsResolve").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Qual(FFITestPath, "Symbols").Call(jen.Id("t"), jen.Id("lib"), version, jen.Id("HeaderVersion")),
	)
	var b bytes.Buffer
	if err := f.Render(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
