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
		comment(f, fmt.Sprintf("The %s functions return no status (library.Desc.NoStatus): no call", m.desc.Title))
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
	return m.genStatusRecord(f)
}

// genStatusRecord makes the struct a library returns its status in
// (Desc.StatusRecord: cuFile's CUfileError_t {err, cu_err}) an error, and
// writes statusError, with which the wrappers turn it into theirs: nil
// when the status member is zero, else the *ffi.CallError of the C
// function with the struct as its Code.
func (m *model) genStatusRecord(f *jen.File) error {
	sr := m.desc.StatusRecord
	if sr == nil {
		return nil
	}
	t := &ir.Type{Kind: ir.Named, Name: sr.Type, C: sr.Type}
	r := m.record(t)
	if r == nil {
		return fmt.Errorf("%s: no struct %s in the headers (library.Desc.StatusRecord)", m.pkg, sr.Type)
	}
	field := func(c string) (string, *ir.Field, error) {
		for i := range r.Fields {
			if r.Fields[i].Name == c {
				return fieldName(c), &r.Fields[i], nil
			}
		}
		return "", nil, fmt.Errorf("%s: struct %s has no member %s (library.Desc.StatusRecord)", m.pkg, sr.Type, c)
	}
	typ := m.typeName(m.structRef(t))
	fld, fl, err := field(sr.Field)
	if err != nil {
		return err
	}
	if e := m.enum(fl.Type); e == nil || e != m.enum(&ir.Type{Kind: ir.Named, Name: m.desc.Status}) {
		return fmt.Errorf("%s: %s.%s is %s, not the status type %s (library.Desc.StatusRecord)", m.pkg, sr.Type, sr.Field, fl.Type.C, m.desc.Status)
	}
	r0 := jen.Id("r").Dot(fld)
	text := jen.Id("s").Op(":=").Add(r0).Dot("Error").Call()
	var unwrap jen.Code = jen.Return(jen.Index().Error().Values(r0))
	doc := fmt.Sprintf("Error returns the text of %s (%s.%s)", fld, sr.Type, sr.Field)
	udoc := fmt.Sprintf("Unwrap returns %s", fld)
	body := []jen.Code{text}
	if sr.Cause != "" {
		cfld, cf, err := field(sr.Cause)
		if err != nil {
			return err
		}
		if m.resolve(cf.Type).Kind != ir.Int && m.enum(cf.Type) == nil {
			return fmt.Errorf("%s: %s.%s is %s, not a status (library.Desc.StatusRecord)", m.pkg, sr.Type, sr.Cause, cf.Type.C)
		}
		c := jen.Id("r").Dot(cfld)
		body = append(body, jen.If(c.Clone().Op("!=").Lit(0)).Block(jen.Id("s").Op("+=").Lit(" (").Op("+").Add(c.Clone()).Dot("Error").Call().Op("+").Lit(")")))
		unwrap = jen.If(c.Clone().Op("!=").Lit(0)).Block(jen.Return(jen.Index().Error().Values(r0.Clone(), c.Clone()))).Line().Return(jen.Index().Error().Values(r0.Clone()))
		doc += fmt.Sprintf(" and, where not zero, of %s (%s.%s) after it", cfld, sr.Type, sr.Cause)
		udoc += fmt.Sprintf(", and %s where not zero", cfld)
	}
	body = append(body, jen.Return(jen.Id("s")))
	f.Line()
	comment(f, wrapText(doc+": \"NAME: message\". The wrappers return it as the Code of an *ffi.CallError (library.Desc.StatusRecord).", docCommentWidth))
	f.Func().Params(jen.Id("r").Id(typ)).Id("Error").Params().String().Block(body...)
	f.Line()
	comment(f, wrapText(udoc+": errors.Is matches either status.", docCommentWidth))
	f.Func().Params(jen.Id("r").Id(typ)).Id("Unwrap").Params().Index().Error().Block(unwrap)
	f.Line()
	comment(f, wrapText(fmt.Sprintf("statusError is nil for a status whose %s is zero (success), else the *ffi.CallError of p's C function with r as its Code.", fld), docCommentWidth))
	f.Func().Id("statusError").Params(jen.Id("p").Op("*").Qual(FFIImplPath, "Proc"), jen.Id("r").Id(typ)).Error().Block(
		jen.If(r0.Clone().Op("==").Lit(0)).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Op("&").Qual(FFIPath, "CallError").Values(jen.Dict{jen.Id("Func"): jen.Id("p").Dot("Func").Call(), jen.Id("Code"): jen.Id("r")})),
	)
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
