package emit

import (
	"bytes"

	"github.com/dave/jennifer/jen"
)

// symbolsTest emits symbols_test.go: every bound function must resolve in
// the library found at test time. The logic is cugentest.Symbols, which
// finds the package's procedures through the library (ffi.Library.Procs);
// the test hands it the library and the version function.
func (m *model) symbolsTest() ([]byte, error) {
	f := jen.NewFile(m.pkg)
	f.HeaderComment(m.header())
	f.ImportName(TestPath, "cugentest")
	// A package without a version function (a test fixture) only logs.
	version := jen.Nil()
	if vf := m.versionFunc(); vf != "" {
		version = jen.Id(vf)
	}
	f.Comment("TestSymbolsResolve resolves every bound function in the library.")
	f.Func().Id("TestSymbolsResolve").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Qual(TestPath, "Symbols").Call(jen.Id("t"), jen.Id("lib"), version, jen.Id("HeaderVersion")),
	)
	var b bytes.Buffer
	if err := f.Render(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
