package emit

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// This file renders the parser's ir.Doc as Go doc comments, the one place
// emit turns header documentation into text: paragraphs and lists wrapped,
// code blocks indented, ::cuX as a doc link [X] where X is in this package,
// \p x as the parameter's Go name, the Deprecated: paragraph last.

// docWidth is the width paragraphs are wrapped to, without the "// ".
const docWidth = docCommentWidth

var (
	docRefRE   = regexp.MustCompile(`::(\w+)(\(\))?`)
	docParamRE = regexp.MustCompile(`\\p\s+\**(\w*)`)
)

// docParam says how a function's wrapper documents one C parameter.
type docParam struct {
	goName string // the name the Go text uses for it
	drop   bool   // the wrapper passes it itself: not in the list
	mark   string // "(result)" and the like, before the text
	ref    string // what a \p reference to it reads as, if not goName
}

// convertDoc renders the documentation of a declaration other than a
// function (a type, enum, record, constant).
func (m *model) convertDoc(d *ir.Doc) string { return m.renderDoc(d, nil) }

// renderDoc renders d; params, for a function's wrapper, says how each C
// parameter appears.
func (m *model) renderDoc(d *ir.Doc, params map[string]docParam) string {
	if d == nil {
		return ""
	}
	inline := func(s string) string {
		if strings.Contains(s, `\p`) {
			s = docParamRE.ReplaceAllStringFunc(s, func(r string) string {
				name := docParamRE.FindStringSubmatch(r)[1]
				if p, ok := params[name]; ok && name != "" {
					if p.ref != "" {
						return p.ref
					}
					return p.goName
				}
				return name
			})
		}
		if strings.Contains(s, "::") {
			s = docRefRE.ReplaceAllStringFunc(s, m.docLink)
		}
		return s
	}
	var blocks []string
	var kinds []ir.BlockKind
	add := func(k ir.BlockKind, text string) {
		blocks, kinds = append(blocks, text), append(kinds, k)
	}
	para := func(s string) {
		if s = inline(s); s != "" {
			add(ir.Paragraph, wrap(s, docWidth))
		}
	}
	para(d.Brief)
	for i, b := range d.Body {
		switch b.Kind {
		case ir.Paragraph:
			para(b.Text)
		case ir.List:
			items := b.Items
			if i+1 < len(d.Body) && d.Body[i+1].Kind == ir.Code {
				// Go doc lists cannot hold code: the indented lines would
				// continue the last item. The item that introduces the
				// code becomes a paragraph.
				items = items[:len(items)-1]
			}
			var lines []string
			for _, it := range items {
				lines = append(lines, listItem(inline(it)))
			}
			if len(lines) > 0 {
				add(ir.List, strings.Join(lines, "\n"))
			}
			if len(items) < len(b.Items) {
				para(b.Items[len(items)])
			}
		case ir.Table:
			// A table becomes a list: a row's first cell, then the others.
			var lines []string
			for _, row := range b.Rows {
				text := inline(row[0])
				if len(row) > 1 {
					var rest []string
					for _, c := range row[1:] {
						rest = append(rest, inline(c))
					}
					text += ": " + strings.Join(rest, "; ")
				}
				lines = append(lines, listItem(text))
			}
			add(ir.List, strings.Join(lines, "\n"))
		case ir.Code:
			lines := strings.Split(b.Text, "\n")
			for i, l := range lines {
				if l != "" {
					lines[i] = "\t" + l
				}
			}
			add(ir.Code, strings.Join(lines, "\n"))
		}
	}
	// A one-line paragraph without final punctuation would read as a
	// heading to gofmt (CUDA's \brief lines often lack the period): it
	// gets one, unless it introduces code (then it is no heading).
	for i, b := range blocks {
		if kinds[i] == ir.Paragraph && !strings.Contains(b, "\n") && !strings.ContainsAny(b[len(b)-1:], ".:!?)]") &&
			(i+1 == len(blocks) || kinds[i+1] != ir.Code) {
			blocks[i] += "."
		}
	}
	var items []string
	for _, p := range d.Params {
		name, text := p.Name, p.Text
		if dp, ok := params[p.Name]; ok {
			if dp.drop {
				continue
			}
			name = dp.goName
			if dp.mark != "" {
				text = strings.TrimSpace(dp.mark + " " + text)
			}
		}
		items = append(items, listItem(name+": "+inline(text)))
	}
	if len(items) > 0 {
		if len(kinds) > 0 && kinds[len(kinds)-1] == ir.List {
			// Two lists in a row would read as one.
			add(ir.Paragraph, "Parameters:")
		}
		add(ir.List, strings.Join(items, "\n"))
	}
	if d.Returns != "" {
		add(ir.Paragraph, wrap("Returns: "+inline(d.Returns), docWidth))
	}
	for _, n := range d.Notes {
		add(ir.Paragraph, wrap("Note: "+inline(n), docWidth))
	}
	if len(d.SeeAlso) > 0 {
		links := make([]string, len(d.SeeAlso))
		for i, s := range d.SeeAlso {
			links[i] = m.docLink(s)
		}
		add(ir.Paragraph, wrap("See also: "+strings.Join(links, ", ")+".", docWidth))
	}
	if d.Deprecated {
		text := inline(d.DeprecatedText)
		if text == "" {
			text = "the header marks this deprecated."
		}
		add(ir.Paragraph, wrap("Deprecated: "+text, docWidth))
	}
	return strings.Join(blocks, "\n\n")
}

// listItem is one "  - " item of a Go doc list, its continuation lines
// indented under its text.
func listItem(s string) string {
	return wrap("  - "+s, docWidth)
}

// wrapperDoc renders a function's documentation for its Go wrapper:
// parameters the wrapper fills itself (a callback's userData, a buffer's
// length) are not listed, and a reference to a buffer's length says what
// the wrapper passes; outputs are marked as results; parameters have their
// Go names.
func (m *model) wrapperDoc(d *ir.Doc, ps []*param) string {
	params := make(map[string]docParam, len(ps))
	for _, p := range ps {
		dp := docParam{goName: p.goName}
		switch p.role {
		case roleUserData:
			dp.drop, dp.goName = true, p.c.Name
		case roleBufferLen:
			dp.drop = true
			dp.ref = fmt.Sprintf("the buffer length (%d bytes, passed by the wrapper)", stringBufferLen)
		case roleOptString:
			dp.mark = "(nil passes NULL)"
		case roleOut, roleOutAligned, roleOutString, roleOutBuffer:
			dp.mark = "(result)"
			if p.role == roleOut && p.c.Array != nil && p.c.Array.Len > 0 {
				dp.mark = fmt.Sprintf("(result, %d elements)", p.c.Array.Len)
			}
		}
		params[p.c.Name] = dp
	}
	return m.renderDoc(d, params)
}

// leadDoc is a function's documentation with its first paragraph (the
// header's \brief, or without one the first paragraph of the text) in the
// form a Go doc comment starts with, the wrapper's name then what it does:
// "Gets free and total memory" under MemGetInfo is "MemGetInfo gets free
// and total memory.", "nvrtcCompileProgram compiles the given program." is
// "CompileProgram compiles the given program.". ok is false, and d the
// header's own, when that paragraph does not start with a verb or the C
// name (cuBLAS documents nothing; "This API has been deprecated.").
func leadDoc(goName string, fn *ir.Function) (d *ir.Doc, ok bool) {
	if fn.Doc == nil {
		return nil, false
	}
	c := *fn.Doc
	text, body := c.Brief, c.Body
	if text == "" && len(body) > 0 && body[0].Kind == ir.Paragraph {
		text, body = body[0].Text, body[1:]
	}
	w, rest, _ := strings.Cut(strings.TrimSpace(text), " ")
	var lead string
	switch {
	case w == "":
		return fn.Doc, false
	case w == fn.Name || w == fn.Symbol:
		lead = goName
	default:
		verb, ok := thirdPerson(strings.TrimSuffix(w, "'s")) // "Update's a graph node's parameters"
		if !ok {
			return fn.Doc, false
		}
		lead = goName + " " + verb
	}
	if rest = strings.TrimSpace(rest); rest != "" {
		lead += " " + rest
	}
	if !strings.ContainsAny(lead[len(lead)-1:], ".!?:") {
		lead += "."
	}
	c.Brief, c.Body = lead, body
	return &c, true
}

// thirdPerson is the verb a brief starts with, in the form that follows
// the function's name: Gets -> gets, Get -> gets, Query -> queries, Attach
// -> attaches, Setup -> sets up. ok is false for a word that is no verb
// (an initialism, a name in camelCase, a word with punctuation, one of
// notVerbs or one ending like a participle, an adjective or a noun).
func thirdPerson(w string) (string, bool) {
	if w == "" {
		return "", false
	}
	for i, r := range w {
		if !unicode.IsLetter(r) || i > 0 && !unicode.IsLower(r) {
			return "", false
		}
	}
	l := strings.ToLower(w)
	if notVerbs[l] {
		return "", false
	}
	for _, suf := range []string{"ed", "ing", "ion", "ions", "ly", "al"} {
		if strings.HasSuffix(l, suf) {
			return "", false
		}
	}
	switch {
	case l == "setup":
		return "sets up", true
	case strings.HasSuffix(l, "s") && !strings.HasSuffix(l, "ss"):
		return l, true // Gets, Returns, Copies
	case len(l) > 1 && strings.HasSuffix(l, "y") && !strings.ContainsRune("aeiou", rune(l[len(l)-2])):
		return l[:len(l)-1] + "ies", true
	case strings.HasSuffix(l, "sh"), strings.HasSuffix(l, "ch"), strings.HasSuffix(l, "ss"),
		strings.HasSuffix(l, "x"), strings.HasSuffix(l, "z"), strings.HasSuffix(l, "o"):
		return l + "es", true
	}
	return l + "s", true
}

// notVerbs are words CUDA's briefs start with that are no verb ("Given an
// address, returns ...", "Helper function ...", "This API ...").
var notVerbs = map[string]bool{
	"a": true, "an": true, "the": true, "this": true, "these": true, "each": true, "all": true,
	"given": true, "helper": true, "matrix": true, "please": true, "routine": true,
	"if": true, "when": true, "for": true, "in": true, "on": true, "with": true, "note": true,
	"old": true, "new": true, "inline": true,
}

// headerMessage shortens an enum value's doc to a message: the first
// sentence of its description, in plain text (a \deprecated marker is not
// part of it: "This error return is deprecated as of CUDA 5.0" says so).
func headerMessage(d *ir.Doc) string {
	if d == nil {
		return ""
	}
	s := d.Brief
	for _, b := range d.Body {
		if s == "" && b.Kind == ir.Paragraph {
			s = b.Text
		}
	}
	if s == "" {
		s = d.DeprecatedText
	}
	s = docParamRE.ReplaceAllString(s, "$1")
	s = docRefRE.ReplaceAllString(s, "$1$2")
	return strings.TrimSuffix(firstSentence(s), ".")
}

// funcsByC indexes the Go names of the functions by C API name and by
// linked symbol, for docLink (a scan of funcNames per link was 15% of
// Generate). API names first, then linked symbols, in header order, so a
// name that could match two functions always picks the same.
func (m *model) funcsByC() map[string]string {
	idx := make(map[string]string, 2*len(m.funcs))
	for _, f := range m.funcs {
		idx[f.Name] = m.funcNames[f]
	}
	for _, f := range m.funcs {
		if _, ok := idx[f.Symbol]; !ok {
			idx[f.Symbol] = m.funcNames[f]
		}
	}
	return idx
}

// docLink renders ::cuFoo as [Foo] when Foo is a function, type or constant
// of this package, else as the C name.
func (m *model) docLink(s string) string {
	name := strings.TrimSuffix(strings.TrimPrefix(s, "::"), "()")
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

// comment writes text as // lines (jennifer would use /* */ for several),
// through the sanitiser (commentLines).
func comment(f *jen.File, text string) {
	for _, l := range commentLines(text) {
		f.Comment(l)
	}
}

// commentBlock is text as // lines followed by a new line, to prefix a
// const, var or field definition, through the sanitiser (commentLines).
// Long lines of text are wrapped; a line wrap leaves as it is (one word
// longer than the width) is kept whole, not wrapped again without end.
func commentBlock(text string) *jen.Statement {
	s := jen.Null()
	for _, l := range commentLines(text) {
		if len(l) > docWidth && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t") {
			if w := wrap(l, docWidth); w != l {
				s.Add(commentBlock(w))
				continue
			}
		}
		s.Comment(l).Line()
	}
	return s
}
