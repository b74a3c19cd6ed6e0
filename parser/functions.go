package parser

import (
	"regexp"
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"modernc.org/cc/v4"
)

func (p *parse) function(d *cc.Declarator, name string, lib ir.Library, doc string) (*ir.Function, error) {
	ft := d.Type().(*cc.FunctionType)
	pos := d.Position()
	fn := &ir.Function{
		Name:    name,
		Symbol:  d.Name(),
		Library: lib,
		Result:  p.typ(ft.Result()),
		Doc:     doc,
		Pos:     p.pos(pos.Filename, pos.Line),
	}
	fn.Deprecated = strings.Contains(doc, `\deprecated`) || hasDeprecatedAttr(p.declarationOf(d))
	pdocs := paramDocs(doc)
	sig := p.signature(ft)
	fn.Params = sig.Params
	for i := range fn.Params {
		fn.Params[i].Doc = pdocs[fn.Params[i].Name].text
	}
	for i := range fn.Params {
		prm := &fn.Params[i]
		pd := pdocs[prm.Name]
		prm.Direction, prm.Why = direction(fn, prm, pd)
	}
	return fn, nil
}

func hasDeprecatedAttr(decl *cc.Declaration) bool {
	if decl == nil {
		return false
	}
	// Only attribute lists can say deprecated: looking at them, not at every
	// token of the declaration, saves a tenth of the parse.
	lists := []cc.Node{decl.AttributeSpecifierList}
	for ds := decl.DeclarationSpecifiers; ds != nil; ds = ds.DeclarationSpecifiers {
		if ds.AttributeSpecifierList != nil {
			lists = append(lists, ds.AttributeSpecifierList)
		}
	}
	for il := decl.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
		if id := il.InitDeclarator; id != nil && id.AttributeSpecifierList != nil {
			lists = append(lists, id.AttributeSpecifierList)
		}
	}
	for _, l := range lists {
		for _, t := range cc.NodeTokens(l) {
			if s := t.SrcStr(); s == "deprecated" || s == "__deprecated__" {
				return true
			}
		}
	}
	return false
}

// paramDoc is one \param entry of a Doxygen comment.
type paramDoc struct {
	text string
	tag  string // "in", "out", "in,out" from \param[...], if written
}

var paramRE = regexp.MustCompile(`^\\param(?:\[([a-z, ]+)\])?\s+(\w+)\s*-?\s*(.*)$`)

// paramDocs splits a Doxygen comment into its \param entries by name.
func paramDocs(doc string) map[string]paramDoc {
	out := map[string]paramDoc{}
	var cur string
	for _, line := range strings.Split(doc, "\n") {
		l := strings.TrimSpace(line)
		if m := paramRE.FindStringSubmatch(l); m != nil {
			cur = m[2]
			out[cur] = paramDoc{text: m[3], tag: strings.ReplaceAll(m[1], " ", "")}
			continue
		}
		if cur == "" {
			continue
		}
		if l == "" || strings.HasPrefix(l, `\`) {
			cur = ""
			continue
		}
		pd := out[cur]
		pd.text = strings.TrimSpace(pd.text + " " + l)
		out[cur] = pd
	}
	return out
}

// outPhrases start a \param text that documents a value the callee writes.
// They are the phrases CUDA's headers use; the audit file quotes the text
// that matched.
var outPhrases = []string{
	"returned", "returns", "return ", "pointer to returned", "pointer to the returned",
	"location to return", "location to store", "location where", "pointer to location",
	"pointer to a location", "output", "will be set", "place to return",
	"pointer to store", "address to return", "on return", "the returned",
	"pointer to the location", "pointer where", "optional location to",
	"optionally returns", "on success, this will", "optional parameter to receive",
	"pointer to new", "newly created", "pointer to allocated", "pointer for the output",
	"pointer to an int in which", "pointer to a signed integer in", "pointer to an unsigned integer in",
}

// arrayPhrases mark a parameter as a caller-provided array, which must stay
// a pointer: returning one element would let C write past it.
var arrayPhrases = []string{
	"array of", "an array of", "output array", "optional array", "buffer where",
	"array containing", "a two-dimensional array", "list of",
}

// direction decides in/out for one parameter of fn. Only a pointer to
// non-const, non-void data can be an output; of those, in order: the
// override table, a \param[dir] tag, array markers, then the header's own
// words. What nothing decides stays a pointer (InOut), which is always safe.
func direction(fn *ir.Function, prm *ir.Param, pd paramDoc) (ir.Direction, string) {
	t := prm.Type
	if t.Kind != ir.Pointer || t.Elem == nil {
		return ir.In, ""
	}
	if t.Elem.Const {
		return ir.In, "pointer to const"
	}
	if t.Elem.Kind == ir.Void {
		return ir.In, "void * buffer"
	}
	if o, ok := directionOverrides[fn.Name+"."+prm.Name]; ok {
		return o.dir, "override: " + o.why
	}
	switch pd.tag {
	case "out":
		return ir.Out, `documented \param[out]`
	case "in,out", "inout":
		return ir.InOut, `documented \param[in,out]`
	case "in":
		return ir.In, `documented \param[in]`
	}
	low := strings.ToLower(pd.text)
	if low == "see description" {
		return ir.InOut, `documented "See description": an in/out element count`
	}
	for _, ph := range arrayPhrases {
		if strings.HasPrefix(low, ph) {
			return ir.InOut, `array: documented "` + ph + `"`
		}
	}
	if hasCountParam(fn) {
		return ir.InOut, "array: the function also takes an in/out element count"
	}
	for _, ph := range outPhrases {
		if strings.HasPrefix(low, ph) {
			return ir.Out, `documented "` + firstWords(pd.text, 5) + `"`
		}
	}
	if strings.Contains(low, "returned") || strings.Contains(low, "to return") || strings.HasSuffix(low, "object to create") {
		return ir.Out, `documented "` + firstWords(pd.text, 6) + `"`
	}
	return ir.InOut, "non-const pointer, not documented as returned"
}

// hasCountParam reports whether fn takes an in/out element count, which CUDA
// documents as "See description" (the query-then-fill pattern of
// cuGraphGetNodes and friends): its other pointers are arrays.
func hasCountParam(fn *ir.Function) bool {
	for _, p := range fn.Params {
		if strings.EqualFold(strings.TrimSpace(p.Doc), "see description") && p.Type.Kind == ir.Pointer {
			return true
		}
	}
	return false
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}
