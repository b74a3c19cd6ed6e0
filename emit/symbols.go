package emit

import (
	"bytes"

	"github.com/dave/jennifer/jen"
)

// symbolsTest emits symbols_test.go: every bound function must resolve in
// the library found at test time. The logic is cugentest.Symbols; the test
// hands it the package's procedures and version function.
func (m *model) symbolsTest() ([]byte, error) {
	f := jen.NewFile(m.pkg)
	f.HeaderComment(m.header())
	f.ImportName(FFIPath, "ffi")
	f.ImportName(TestPath, "cugentest")
	// A package without a version function (a test fixture) only logs.
	version := jen.Nil()
	if vf := m.versionFunc(); vf != "" {
		version = jen.Id(vf)
	}
	f.Comment("TestSymbolsResolve resolves every bound function in the library.")
	f.Func().Id("TestSymbolsResolve").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Qual(TestPath, "Symbols").Call(jen.Id("t"), jen.Id("lib"), jen.Id("procs"), version, jen.Id("HeaderVersion")),
	)
	f.Line()
	var all []jen.Code
	for _, fn := range m.funcs {
		all = append(all, jen.Id(m.procName(fn)))
	}
	f.Comment("procs lists every procedure.")
	f.Var().Id("procs").Op("=").Index().Op("*").Qual(FFIPath, "Proc").Values(all...)
	var b bytes.Buffer
	if err := f.Render(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
