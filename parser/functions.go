package parser

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
	"modernc.org/cc/v4"
)

func (p *parse) function(d *cc.Declarator, name string, lib ir.Library, doc string, parsed *parsedDoc) (*ir.Function, error) {
	if parsed == nil {
		pd := parseFunctionDoc(doc)
		parsed = &pd
	}
	ft := d.Type().(*cc.FunctionType)
	pos := d.Position()
	fn := &ir.Function{
		Name:    name,
		Symbol:  d.Name(),
		Library: lib,
		Result:  p.typ(ft.Result()),
		Pos:     p.pos(pos.Filename, pos.Line),
	}
	c := parsed.c
	fn.Doc = c.doc
	fn.Deprecated = c.doc != nil && c.doc.Deprecated || hasDeprecatedAttr(p.declarationOf(d))
	sig := p.signature(ft)
	fn.Params = sig.Params
	// The classifier reads the \param texts as written (pdocs); the IR
	// holds them parsed, matched to the parameters the same way.
	pdocs := matchParamDocs(fn.Params, c.params)
	var irDocs []ir.ParamDoc
	if c.doc != nil {
		irDocs = c.doc.Params
	}
	for i, d := range matchParamDocs(fn.Params, irParamDocs(irDocs)) {
		fn.Params[i].Doc = d.text
	}
	returned := parsed.returned
	ovr := &library.Overrides{}
	if d := library.ByKey(p.libs, lib); d != nil {
		ovr = &d.Overrides
	}
	for i := range fn.Params {
		prm := &fn.Params[i]
		prm.Array = arrayOf(fn, prm, pdocs, i, ovr)
		prm.Direction, prm.Why = direction(fn, prm, paramFacts{
			doc:         pdocs[i],
			first:       i == 0,
			returned:    returned[prm.Name],
			handle:      prm.Type.Kind == ir.Pointer && p.isHandle(prm.Type.Elem),
			brief:       c.brief,
			getter:      c.doc == nil && i == len(fn.Params)-1 && p.verbIs(fn.Name, lib, "Get", "Create"),
			creates:     i == 0 && (p.verbIs(fn.Name, lib, "Create", "Plan") || strings.HasSuffix(fn.Name, "Create")),
			typedefElem: prm.Type.Kind == ir.Pointer && p.isHandleOrIntTypedef(prm.Type.Elem),
			sizes:       i == len(fn.Params)-1 && p.sizeQuery(fn.Name, lib) && prm.Type.Kind == ir.Pointer && p.isInteger(prm.Type.Elem),
			ovr:         ovr,
		})
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

// matchParamDocs gives each parameter its \param entry: by name, or, where
// the comment names parameters the declaration does not have (cudaMemPoolImportPointer
// documents ptr_out, pool, shareData for ptr, memPool, exportData), by
// position, when the comment has exactly one entry per parameter.
func matchParamDocs(params []ir.Param, docs []paramDoc) []paramDoc {
	out := make([]paramDoc, len(params))
	byName := map[string]paramDoc{}
	for _, d := range docs {
		if _, dup := byName[d.name]; !dup {
			byName[d.name] = d
		}
	}
	isParam := map[string]bool{}
	for _, p := range params {
		isParam[p.Name] = true
	}
	positional := len(docs) == len(params)
	for i, p := range params {
		if d, ok := byName[p.Name]; ok {
			out[i] = d
		} else if positional && !isParam[docs[i].name] {
			out[i] = docs[i]
		}
	}
	return out
}

// returnedRE finds "Returns in \p X" (and "returned in \p *X") in a
// function's description: X is written by the callee.
var returnedRE = regexp.MustCompile(`(?i)\breturn(?:s|ed)?\s+in\s+\\p\s+\*?(\w+)`)

func returnedIn(doc string) map[string]bool {
	out := map[string]bool{}
	for _, m := range returnedRE.FindAllStringSubmatch(doc, -1) {
		out[m[1]] = true
	}
	return out
}

// irParamDocs gives parsed \param entries the shape matchParamDocs takes.
func irParamDocs(ds []ir.ParamDoc) []paramDoc {
	out := make([]paramDoc, len(ds))
	for i, d := range ds {
		out[i] = paramDoc{name: d.Name, text: d.Text, tag: d.Dir}
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

// arrayPhrases start a \param text (after "the", "an", "optional") that
// documents a pointer to several elements; arrayAnywhere may appear
// anywhere in it.
var (
	arrayPhrases = []string{
		"array of", "array containing", "array to return", "output array", "buffer where",
		"list of", "set of", "two-dimensional array", "sorted array of",
	}
	arrayAnywhere = []string{"of each requested", "name of each"}
)

// fixedSizeRE finds a fixed element count in a \param text: "8-byte
// LUID", "16 bytes", "array of 4".
var fixedSizeRE = regexp.MustCompile(`(?i)\b(\d+)[- ]bytes?\b|\barray of (\d+)\b`)

// pRefRE finds "\p NAME" references in a \param text.
var pRefRE = regexp.MustCompile(`\\p\s+\*?(\w+)`)

// arrayOf decides whether the pointer parameter prm points to several
// elements, and how many: the array table first, then the documentation
// ("8-byte ...", "Array of ...", "List of ..."), then the query-then-fill
// pattern (an in/out count documented "See description"). A non-const char
// pointer with no size anywhere is an array of unknown size: C writes a
// string there, never one char.
func arrayOf(fn *ir.Function, prm *ir.Param, pds []paramDoc, i int, ovr *library.Overrides) *ir.ArraySize {
	pd := pds[i]
	t := prm.Type
	if t.Kind != ir.Pointer || t.Elem == nil || t.Elem.Kind == ir.Void {
		return nil
	}
	if o, ok := ovr.Arrays[fn.Name+"."+prm.Name]; ok {
		return &ir.ArraySize{Len: o.Len, Param: o.Param, Source: library.OverrideReason(o.Why)}
	}
	low := strings.ToLower(pd.text)
	if m := fixedSizeRE.FindStringSubmatch(pd.text); m != nil {
		n, unit := m[1], "byte"
		if n == "" {
			n, unit = m[2], "element"
		}
		if v, err := strconv.ParseInt(n, 10, 64); err == nil && v > 1 && (unit == "element" || t.Elem.Size == 1) {
			return &ir.ArraySize{Len: v, Source: `documented "` + m[0] + `"`}
		}
	}
	isArray := false
	head := low
	for _, w := range []string{"the ", "an ", "a ", "optional "} {
		head = strings.TrimPrefix(head, w)
	}
	for _, ph := range arrayPhrases {
		if strings.HasPrefix(head, ph) {
			isArray = true
		}
	}
	for _, ph := range arrayAnywhere {
		if strings.Contains(low, ph) {
			isArray = true
		}
	}
	// A C99 bool is one byte but one value, never a character
	// (cuFileGetParameterBool's bool *value, CUDA 13).
	charBuf := !t.Elem.Const && t.Elem.Kind == ir.Int && t.Elem.Size == 1 && t.Elem.C != "_Bool" && t.Elem.C != "bool"
	// Query-then-fill: the buffers the call fills ("Pointer to return the
	// nodes", a char buffer), not its other pointers (an iterator).
	if !isArray && countParam(fn, pds) != "" && !strings.EqualFold(strings.TrimSpace(pd.text), "see description") &&
		(strings.Contains(low, "return") || charBuf) {
		return &ir.ArraySize{Param: countParam(fn, pds), Source: "the in/out count " + countParam(fn, pds) + ` ("See description")`}
	}
	if !isArray {
		if n := namedCount(fn, prm, pds); n != "" {
			return &ir.ArraySize{Param: n, Source: "count in parameter " + n + ", named for it"}
		}
	}
	if !isArray && !charBuf {
		return nil
	}
	if n := sizeParam(fn, prm, pds, pd); n != "" {
		return &ir.ArraySize{Param: n, Source: "count in parameter " + n}
	}
	if c := countParam(fn, pds); c != "" {
		return &ir.ArraySize{Param: c, Source: "the in/out count " + c + ` ("See description")`}
	}
	if charBuf {
		return &ir.ArraySize{Source: "a char buffer whose size the header does not give"}
	}
	return &ir.ArraySize{Source: `documented "` + firstWords(pd.text, 4) + `", size not documented`}
}

// sizeParam names the integer parameter that holds prm's element count: one
// the \param text names with \p, else the only count-like parameter
// (count, num*, len, ...), preferring one whose name contains prm's.
func sizeParam(fn *ir.Function, prm *ir.Param, pds []paramDoc, pd paramDoc) string {
	isInt := map[string]bool{}
	for _, q := range fn.Params {
		if q.Name != prm.Name && q.Type.Kind != ir.Pointer && q.Type.Kind != ir.FuncPtr {
			isInt[q.Name] = true
		}
	}
	for _, m := range pRefRE.FindAllStringSubmatch(pd.text, -1) {
		if isInt[m[1]] && countLike(m[1]) {
			return m[1]
		}
	}
	var cands []string
	for _, q := range fn.Params {
		if isInt[q.Name] && countLike(q.Name) {
			cands = append(cands, q.Name)
		}
	}
	for _, c := range cands {
		if strings.Contains(strings.ToLower(c), strings.ToLower(prm.Name)) {
			return c
		}
	}
	if len(cands) == 1 {
		return cands[0]
	}
	// Several counts: one whose own text names prm ("Size of \p attrs and
	// \p attrsIdxs arrays"), else the only one whose text names no other
	// parameter.
	docOf := map[string]string{}
	for j, q := range fn.Params {
		docOf[q.Name] = pds[j].text
	}
	var naming, free []string
	for _, c := range cands {
		refs := pRefRE.FindAllStringSubmatch(docOf[c], -1)
		names := false
		for _, r := range refs {
			if r[1] == prm.Name {
				names = true
			}
		}
		switch {
		case names:
			naming = append(naming, c)
		case len(refs) == 0:
			free = append(free, c)
		}
	}
	if len(naming) == 1 {
		return naming[0]
	}
	if len(naming) == 0 && len(free) == 1 {
		return free[0]
	}
	return "" // several counts and nothing naming one: not guessed
}

// namedCount names the integer parameter that counts prm by name:
// numDependencies for dependencies, or a count documented "Number of
// resources ..." for resources.
func namedCount(fn *ir.Function, prm *ir.Param, pds []paramDoc) string {
	name := strings.ToLower(prm.Name)
	if len(name) < 3 {
		return ""
	}
	for j, q := range fn.Params {
		if q.Name == prm.Name || q.Type.Kind == ir.Pointer || q.Type.Kind == ir.FuncPtr || !countLike(q.Name) {
			continue
		}
		qn, qd := strings.ToLower(q.Name), strings.ToLower(pds[j].text)
		if strings.HasSuffix(qn, name) || strings.HasPrefix(qd, "number of "+name) {
			return q.Name
		}
	}
	return ""
}

// countLike reports whether a parameter name reads as an element count.
func countLike(name string) bool {
	l := strings.ToLower(name)
	if strings.HasPrefix(l, "min") || strings.HasPrefix(l, "max") {
		return false // a bound (minCount), not the count
	}
	switch l {
	case "count", "len", "length", "buflen", "n": // not "size": that is bytes
		return true
	}
	return strings.HasPrefix(l, "num") || strings.HasSuffix(l, "count") || strings.HasPrefix(l, "nb") || strings.HasSuffix(l, "rank")
}

// countParam is the name of fn's in/out count parameter ("See description").
func countParam(fn *ir.Function, pds []paramDoc) string {
	for i, p := range fn.Params {
		if strings.EqualFold(strings.TrimSpace(pds[i].text), "see description") && p.Type.Kind == ir.Pointer {
			return p.Name
		}
	}
	return ""
}

// paramFacts is what direction knows of one parameter beyond its type.
type paramFacts struct {
	ovr      *library.Overrides // the function's library's
	doc      paramDoc
	first    bool   // the function's first parameter
	returned bool   // the description says "Returns in \p NAME"
	handle   bool   // a pointer to a handle typedef (CUmemoryPool *)
	brief    string // the first word of the function's \brief, lower case
	// getter: the last parameter of an undocumented function whose name
	// says it gets or creates (cublasGetStream, cublasCreate)
	getter bool
	// creates: the first parameter of a function named Create or Plan
	// (curandCreateGenerator, cufftPlan1d, cusparseCreateCsr)
	creates bool
	// typedefElem: the parameter points to a named handle or integer type
	// of the headers (cufftHandle, an int; cublasLtMatmulDesc_t, a pointer
	// to a struct the header completes)
	typedefElem bool
	// sizes: the last parameter of a workspace-size query
	// (cusparseSpMV_bufferSize, cusolverDnSpotrf_bufferSize, cufftMakePlan1d)
	sizes bool
}

// briefGetters are the \brief verbs of functions whose undocumented first
// handle pointer is their result (cudaMemGetMemPool: "Gets the current memory
// pool ..."; cuDeviceGetDefaultMemPool: "Returns the default ...").
var briefGetters = map[string]bool{"returns": true, "gets": true, "creates": true, "imports": true}

// direction decides in/out for one parameter of fn. Only a pointer to
// non-const, non-void data can be an output; of those, in order: the
// override table, arrays (which stay pointers unless their size is fixed),
// a \param[dir] tag, then the header's own words. What nothing decides
// stays a pointer (InOut), which is always safe.
func direction(fn *ir.Function, prm *ir.Param, pf paramFacts) (ir.Direction, string) {
	t := prm.Type
	pd := pf.doc
	if t.Kind != ir.Pointer || t.Elem == nil {
		return ir.In, ""
	}
	if t.Elem.Const {
		return ir.In, "pointer to const"
	}
	if t.Elem.Kind == ir.Void {
		return ir.In, "void * buffer"
	}
	if a := prm.Array; a != nil && !(a.Len == 0 && a.Param != "" && t.Elem.Kind == ir.Int && t.Elem.Size == 1) {
		// C writes or reads several elements: never a scalar result. A
		// fixed count of outputs becomes a Go array result. (A char
		// buffer with its length is left to the words below: emit returns
		// an output one as a string.)
		if pd.tag == "in" {
			return ir.In, `documented \param[in], array: ` + a.Source
		}
		if a.Len > 0 {
			return ir.Out, "array of " + fmt.Sprint(a.Len) + ": " + a.Source
		}
		return ir.InOut, "array: " + a.Source
	}
	if o, ok := pf.ovr.Directions[fn.Name+"."+prm.Name]; ok {
		return o.Dir, library.OverrideReason(o.Why)
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
	for _, ph := range outPhrases {
		if strings.HasPrefix(low, ph) {
			return ir.Out, `documented "` + firstWords(pd.text, 5) + `"`
		}
	}
	if strings.Contains(low, "returned") || strings.Contains(low, "to return") || strings.HasSuffix(low, "object to create") {
		return ir.Out, `documented "` + firstWords(pd.text, 6) + `"`
	}
	if pf.returned {
		return ir.Out, `the description says "Returns in \p ` + prm.Name + `"`
	}
	if pf.getter {
		return ir.Out, "the last parameter of an undocumented function named Get or Create"
	}
	if pf.creates && (pf.handle || pf.typedefElem) {
		return ir.Out, "the handle pointer first of a function named Create or Plan: the handle it creates"
	}
	if pf.sizes {
		return ir.Out, "the last integer pointer of a workspace-size query (named bufferSize, MakePlan, Estimate): the size"
	}
	if pd.text == "" && pf.first && pf.handle && briefGetters[pf.brief] {
		return ir.Out, "undocumented first parameter, a handle pointer, of a function whose \\brief starts " + strconv.Quote(pf.brief)
	}
	return ir.InOut, "non-const pointer, not documented as returned"
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

// verbIs reports whether an API name, without its library's prefix,
// starts with one of verbs (cublasGetStream, curandCreateGenerator): where
// a header documents little, the name says what a call does.
func (p *parse) verbIs(name string, lib ir.Library, verbs ...string) bool {
	rest := p.unprefixed(name, lib)
	for _, v := range verbs {
		if strings.HasPrefix(rest, v) && (len(rest) == len(v) || unicode.IsUpper(rune(rest[len(v)])) || unicode.IsDigit(rune(rest[len(v)]))) {
			return true
		}
	}
	return false
}

// sizeQuery reports a function that writes the workspace size another
// call needs: cusparseSpMV_bufferSize, cusolverDnSpotrf_bufferSize,
// cusparseScsrgeam2_bufferSizeExt, cufftMakePlan1d, cufftEstimate1d.
func (p *parse) sizeQuery(name string, lib ir.Library) bool {
	low := strings.ToLower(name)
	return strings.Contains(low, "buffersize") || p.verbIs(name, lib, "MakePlan", "Estimate")
}

// unprefixed is name without its library's C prefix.
func (p *parse) unprefixed(name string, lib ir.Library) string {
	d := library.ByKey(p.libs, lib)
	if d == nil {
		return name
	}
	for _, pre := range d.Prefixes {
		if rest, ok := strings.CutPrefix(name, pre); ok {
			return rest
		}
	}
	return name
}

// isHandleOrIntTypedef reports a header typedef (not a C library one such as
// size_t) of an integer or a pointer: what a Create function hands back.
func (p *parse) isHandleOrIntTypedef(t *ir.Type) bool {
	if t == nil || t.Kind != ir.Named || t.Const {
		return false
	}
	td, ok := p.typedefs[t.Name]
	if !ok {
		return false
	}
	if td.Library == "" {
		return false // the C library's (size_t, uint64_t)
	}
	for td.Type.Kind == ir.Named {
		next, ok := p.typedefs[td.Type.Name]
		if !ok {
			break
		}
		td = next
	}
	return td.Type.Kind == ir.Int || td.Type.Kind == ir.Pointer
}

// isInteger reports an integer of at least 4 bytes, through typedefs
// (size_t, int64_t, int).
func (p *parse) isInteger(t *ir.Type) bool {
	for t != nil && t.Kind == ir.Named {
		td, ok := p.typedefs[t.Name]
		if !ok {
			return false
		}
		t = td.Type
	}
	return t != nil && t.Kind == ir.Int && t.Size >= 4
}
