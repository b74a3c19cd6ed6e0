package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
)

// genEnums emits enums.go: each C enum as a named integer type, its values
// as constants and a String method giving the C name.
func (m *model) genEnums(f *jen.File) error {
	for _, e := range m.ens {
		name := m.declName(e.Name)
		base := "uint32"
		if e.Signed {
			base = "int32"
		}
		if e.Size == 8 {
			base = strings.Replace(base, "32", "64", 1)
		}
		lead, paired := m.versionedLead(e.Name, "enum", e.Pos.File)
		if !paired {
			lead = fmt.Sprintf("is the C enum %s (%s).", e.Name, e.Pos.File)
		}
		text := name + " " + lead
		if d := m.convertDoc(e.Doc); d != "" {
			text += "\n\n" + d
		}
		comment(f, wrapText(text, docCommentWidth))
		f.Type().Id(name).Id(base)
		var defs []jen.Code
		for _, v := range e.Values {
			doc := fmt.Sprintf("%s is %s.", m.valNames[v.Name], v.Name)
			if v.Doc != nil {
				doc = fmt.Sprintf("%s is %s: %s", m.valNames[v.Name], v.Name, firstSentence(m.convertDoc(v.Doc)))
			}
			c := jen.Id(m.valNames[v.Name]).Id(name).Op("=").Lit(int(v.Value))
			defs = append(defs, commentBlock(wrapText(doc, specCommentWidth)).Add(c))
		}
		if len(defs) > 0 {
			f.Const().Defs(defs...)
		}
		// String gives the C name; values that share a number print the
		// first name the header gives them.
		seen := map[int64]bool{}
		var cases []jen.Code
		for _, v := range e.Values {
			if seen[v.Value] {
				continue
			}
			seen[v.Value] = true
			cases = append(cases, jen.Case(jen.Id(m.valNames[v.Name])).Block(jen.Return(jen.Lit(v.Name))))
		}
		cases = append(cases, jen.Default().Block(jen.Return(jen.Qual(FFIImplPath, "UnknownName").Call(jen.Lit(stripKW(e.Name)), jen.Int64().Call(jen.Id("v"))))))
		f.Comment("String returns the C name of v.")
		f.Func().Params(jen.Id("v").Id(name)).Id("String").Params().String().Block(jen.Switch(jen.Id("v")).Block(cases...))
		f.Line()
	}
	return nil
}

// stripKW is stripKeyword, the name an unknown value of the enum prints.
func stripKW(s string) string { return stripKeyword(s) }
