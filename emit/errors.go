package emit

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// genErrors makes the package's status enum (Desc.Status: CUresult,
// cudaError_t, nvrtcResult) an error: "NAME: message", the message from the
// library itself (Desc.ErrorString: cuGetErrorString, nvrtcGetErrorString)
// when it has one and can be loaded, else from the header's own
// description of the value.
func (m *model) genErrors(f *jen.File) error {
	if m.desc.NoStatus {
		f.Commentf("The %s functions return no status (library.Desc.NoStatus): no call", m.desc.Title)
		f.Comment("returns an error, and one whose library or symbol cannot be loaded returns")
		f.Comment("the zero value (SharedLibrary().Load() says why).")
		return nil
	}
	typ := m.errorType()
	e := m.enum(&ir.Type{Kind: ir.Named, Name: m.desc.Status})
	if typ == "" || e == nil {
		// Name what is missing: a header directory holding only cuda.h
		// has no runtime API at all.
		header := m.desc.Declare[0]
		if !slices.Contains(m.api.Sources, header) && len(m.api.Sources) > 0 {
			return fmt.Errorf("no %s in the headers: %s not found in the header directory (the %s package needs it)", m.desc.Status, header, m.pkg)
		}
		return fmt.Errorf("no error enum %s in the headers (the %s package needs it)", m.desc.Status, m.pkg)
	}
	var getStr *ir.Function
	for _, fn := range m.funcs {
		if m.desc.ErrorString != "" && fn.Name == m.desc.ErrorString {
			getStr = fn
		}
	}
	f.Comment("Error returns the C error name and the library's message, as the")
	f.Comment("checkRuntime macro of CUDA C++ code prints them: \"NAME: message\".")
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
				jen.If(jen.Id("s").Op(":=").Id(g).Call(jen.Id("r")), jen.Id("s").Op("!=").Lit("").Op("&&").Id("s").Op("!=").Lit("unrecognized error code").Op("&&").Id("s").Op("!=").Id("r").Dot("String").Call()).Block(jen.Return(jen.Id("s"))))
		}
	}
	msgBody = append(msgBody, jen.Return(jen.Id("r").Dot("headerMessage").Call()))
	f.Func().Params(jen.Id("r").Id(typ)).Id("Message").Params().String().Block(msgBody...)
	f.Line()
	var cases []jen.Code
	seen := map[int64]bool{}
	for _, v := range e.Values {
		if seen[v.Value] {
			continue
		}
		seen[v.Value] = true
		msg := ""
		switch {
		case v.Doc != nil:
			msg = headerMessage(v.Doc)
		default:
			// No text in the header (nvJitLink's and NVRTC's values,
			// whose library strings are the C names): the name in words.
			msg = m.nameWords(v.Name)
		}
		cases = append(cases, jen.Case(jen.Id(m.valNames[v.Name])).Block(jen.Return(jen.Lit(msg))))
	}
	cases = append(cases, jen.Default().Block(jen.Return(jen.Lit("unknown error"))))
	f.Comment("headerMessage is the first sentence the header gives each value.")
	f.Func().Params(jen.Id("r").Id(typ)).Id("headerMessage").Params().String().Block(jen.Switch(jen.Id("r")).Block(cases...))
	return nil
}

// nameWords is a status value's name in words, without the library's
// prefix: NVJITLINK_ERROR_PTX_COMPILE (Go ErrorPtxCompile) -> "error ptx
// compile".
func (m *model) nameWords(c string) string {
	var b strings.Builder
	for i, r := range m.goName(c) {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
