package emit

import (
	"fmt"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// genMacros emits consts.go: the header's object-like macros as constants,
// and its struct initializer macros as functions returning the value.
func (m *model) genMacros(f *jen.File) error {
	var defs []jen.Code
	for _, mc := range m.macros {
		if mc.Name == m.versionMacro() {
			continue // HeaderVersion, in doc.go
		}
		name := m.valNames[mc.Name]
		var val jen.Code
		switch mc.Kind {
		case ir.Float:
			val = jen.Op(mc.Value)
		default:
			val = jen.Op(mc.Value)
		}
		var typ jen.Code
		if tn := m.typeName(mc.CType); tn != "" {
			typ = jen.Id(tn)
		} else if mc.Kind == ir.Pointer {
			typ = jen.Uintptr()
		}
		doc := fmt.Sprintf("%s is %s (%s).", name, mc.Name, mc.Pos.File)
		if mc.Doc != nil {
			doc = fmt.Sprintf("%s is %s: %s", name, mc.Name, firstSentence(m.convertDoc(mc.Doc)))
		}
		c := commentBlock(wrapText(doc, specCommentWidth)).Id(name)
		if typ != nil {
			c.Add(typ)
		}
		defs = append(defs, c.Op("=").Add(val))
	}
	if len(defs) > 0 {
		f.Comment("Constants from the header's object-like macros. A macro whose C type is")
		f.Comment("plain int is untyped here, as C converts it implicitly; one with a cast or")
		f.Comment("suffix keeps its type.")
		f.Const().Defs(defs...)
	}
	for _, in := range m.inits {
		name, typ := m.valNames[in.Name], m.typeName(in.Record)
		// One member a line, in declared order, as a person writes it.
		var vals []jen.Code
		for _, fl := range in.Fields {
			vals = append(vals, jen.Line().Id(fieldName(fl.Name)).Op(":").Op(fl.Value))
		}
		vals = append(vals, jen.Line())
		doc := fmt.Sprintf("%s returns %s (%s), the value the header gives a new %s: start from it and change the fields to set.", name, in.Name, in.Pos.File, typ)
		f.Add(commentBlock(wrapText(doc, docCommentWidth)).Func().Id(name).Params().Id(typ).Block(jen.Return(jen.Id(typ).Values(vals...))))
	}
	return nil
}
