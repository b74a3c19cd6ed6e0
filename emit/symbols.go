package emit

import (
	"github.com/cugen/cugen/library"

	"github.com/dave/jennifer/jen"
)

// symbolsTest emits symbols_test.go: every bound function must resolve in
// the library found at test time. The logic is cugentest.Symbols, which
// finds the package's procedures through the library (ffi.Library.Procs);
// the test hands it the library and the version function.
func (m *model) symbolsTest() ([]byte, error) {
	f := jen.NewFile(m.pkg)
	m.headerComment(f)
	f.ImportName(TestPath, "cugentest")
	// A package without a version function (a test fixture) only logs.
	version := jen.Nil()
	var header jen.Code = jen.Id("HeaderVersion")
	var unexported []jen.Code
	for _, fn := range m.funcs {
		if _, ok := m.desc.Unexported[fn.Symbol]; ok {
			unexported = append(unexported, jen.Line().Lit(fn.Symbol))
		}
	}
	// NPP's nppGetLibVersion returns a struct: its symbol test only logs
	// (e2e/npp and e2e/npp13 check the exports exactly).
	if vf := m.versionFunc(); vf != "" && m.desc.Load.Version.Form != library.Struct {
		version = jen.Id(vf)
		if v := m.desc.Load.Version; v.Form == library.Property {
			// GetProperty(MAJOR_VERSION), GetProperty(MINOR_VERSION) ->
			// 1000*major + 10*minor, against the header's macros
			version = jen.Func().Params().Params(jen.Int32(), jen.Error()).Block(
				jen.List(jen.Id("major"), jen.Id("err")).Op(":=").Id(vf).Call(jen.Lit(0)),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Lit(0), jen.Err())),
				jen.List(jen.Id("minor"), jen.Id("err")).Op(":=").Id(vf).Call(jen.Lit(1)),
				jen.Return(jen.Id("major").Op("*").Lit(1000).Op("+").Id("minor").Op("*").Lit(10), jen.Id("err")),
			)
			if maj, min := m.valNames[v.Macros[0]], m.valNames[v.Macros[1]]; maj != "" && min != "" {
				header = jen.Id(maj).Op("*").Lit(1000).Op("+").Id(min).Op("*").Lit(10)
			}
		}
		if m.desc.Load.Version.Form == library.MajorMinor {
			// major, minor -> CUDA's 1000*major + 10*minor
			version = jen.Func().Params().Params(jen.Int32(), jen.Error()).Block(
				jen.List(jen.Id("major"), jen.Id("minor"), jen.Id("err")).Op(":=").Id(vf).Call(),
				jen.Return(jen.Int32().Call(jen.Id("major").Op("*").Lit(1000).Op("+").Id("minor").Op("*").Lit(10)), jen.Id("err")),
			)
		}
	}
	f.Comment("TestSymbolsResolve resolves every bound function in the library.")
	f.Func().Id("TestSymbolsResolve").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Qual(TestPath, "Symbols").Call(append([]jen.Code{jen.Id("t"), jen.Id("lib"), version, header}, unexported...)...),
	)
	return renderFile("symbols_test.go", f)
}
