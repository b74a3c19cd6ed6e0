package emit

import (
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// docLink renders ::cuFoo as [Foo] when Foo is a function, type or constant
// of this package, else as the C name.
func (m *model) docLink(s string) string {
	name := strings.TrimSuffix(strings.TrimPrefix(s, "::"), "()")
	if m.funcByC == nil {
		// Index the functions once: a scan of funcNames per link was 15% of
		// Generate. API names first, then linked symbols, in header order,
		// so a name that could match two functions always picks the same.
		m.funcByC = make(map[string]string, 2*len(m.funcs))
		for _, f := range m.funcs {
			m.funcByC[f.Name] = m.funcNames[f]
		}
		for _, f := range m.funcs {
			if _, ok := m.funcByC[f.Symbol]; !ok {
				m.funcByC[f.Symbol] = m.funcNames[f]
			}
		}
	}
	if g, ok := m.funcByC[name]; ok {
		return "[" + g + "]"
	}
	if g := m.typeName(name); g != "" && !isBuiltinGo(g) {
		return "[" + g + "]"
	}
	if g, ok := m.valNames[name]; ok {
		return "[" + g + "]"
	}
	return name
}

func isBuiltinGo(s string) bool {
	switch s {
	case "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "uintptr":
		return true
	}
	return false
}

// firstSentence returns the first sentence of a paragraph, on one line.
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(strings.SplitN(s, "\n\n", 2)[0]), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if s != "" && !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// docComment writes "// Name lead" followed by the converted header doc.
func (m *model) docComment(f *jen.File, name, lead string, doc *ir.Doc) {
	text := name + " " + lead
	if d := m.convertDoc(doc); d != "" {
		text += "\n\n" + d
	}
	comment(f, text)
}

// comment writes text as // lines (jennifer would use /* */ for several).
func comment(f *jen.File, text string) {
	for _, l := range strings.Split(text, "\n") {
		f.Comment(strings.TrimRight(l, " \t"))
	}
}

// commentBlock is text as // lines followed by a new line, to prefix a
// const, var or field definition. Long lines of text are wrapped.
func commentBlock(text string) *jen.Statement {
	s := jen.Null()
	for _, l := range strings.Split(text, "\n") {
		if len(l) > docWidth && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t") {
			s.Add(commentBlock(wrap(l, docWidth)))
			continue
		}
		s.Comment(strings.TrimRight(l, " \t")).Line()
	}
	return s
}
