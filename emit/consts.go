package emit

import (
	"fmt"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// genMacros emits consts.go: the header's object-like macros as constants.
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
	return nil
}
