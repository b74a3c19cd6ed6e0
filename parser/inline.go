package parser

import (
	"regexp"
	"slices"
	"strconv"

	"modernc.org/cc/v4"
)

// inlineForward is a static inline function of a library header whose
// body only forwards its parameters, in order, to an extern function:
//
//	static inline nvJitLinkResult nvJitLinkCreate(nvJitLinkHandle *handle, uint32_t numOptions, const char **options)
//	{ return __nvJitLinkCreate_12_4(handle, numOptions, options); }
//
// A C program calling nvJitLinkCreate links __nvJitLinkCreate_12_4, so the
// binding is the extern's symbol under the inline's name and documentation.
type inlineForward struct {
	name string // the API name: nvJitLinkCreate
	doc  string // the inline's doc comment
}

// inlineForwards maps a forwarded-to symbol to the inline function that
// forwards to it, for every static inline definition in a library header
// whose body is exactly `return symbol(p1, p2, ...);` with its own
// parameters. Other inline bodies are not bindings and are left alone.
func (p *parse) inlineForwards() map[string]inlineForward {
	out := map[string]inlineForward{}
	for l := p.ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil || ed.Case != cc.ExternalDeclarationFuncDef || ed.FunctionDefinition == nil {
			continue
		}
		fd := ed.FunctionDefinition
		d := fd.Declarator
		if d == nil || fd.CompoundStatement == nil || !d.IsInline() {
			continue
		}
		if _, ok := p.libraryOf(d.Position().Filename); !ok {
			continue
		}
		ft, ok := d.Type().(*cc.FunctionType)
		if !ok {
			continue
		}
		var params []string
		for _, prm := range ft.Parameters() {
			if prm.Name() != "" {
				params = append(params, prm.Name())
			}
		}
		target := forwardTarget(fd.CompoundStatement, params)
		if target == "" || target == d.Name() {
			continue
		}
		out[target] = inlineForward{name: d.Name(), doc: docBefore(fd)}
	}
	return out
}

// forwardTarget returns the function a body `{ return f(a, b, ...); }`
// calls when its arguments are exactly params, in order; "" otherwise. The
// C front end declares __func__ at the top of every body; it is not code.
func forwardTarget(body *cc.CompoundStatement, params []string) string {
	var stmt *cc.Statement
	for l := body.BlockItemList; l != nil; l = l.BlockItemList {
		it := l.BlockItem
		switch {
		case it == nil:
		case it.Statement != nil && stmt == nil:
			stmt = it.Statement
		case it.Declaration != nil && declaresFunc(it.Declaration):
		default:
			return ""
		}
	}
	if stmt == nil {
		return ""
	}
	var toks []string
	for _, t := range cc.NodeTokens(stmt) {
		toks = append(toks, t.SrcStr())
	}
	// return f ( a , b ) ;
	if len(toks) < 5 || toks[0] != "return" || !identRE.MatchString(toks[1]) || toks[2] != "(" ||
		!slices.Equal(toks[len(toks)-2:], []string{")", ";"}) {
		return ""
	}
	var args []string
	for i, t := range toks[3 : len(toks)-2] {
		if i%2 == 1 {
			if t != "," {
				return ""
			}
			continue
		}
		args = append(args, t)
	}
	if !slices.Equal(args, params) {
		return ""
	}
	return toks[1]
}

// declaresFunc reports the front end's implicit `static const char
// __func__[] = "name";`.
func declaresFunc(d *cc.Declaration) bool {
	l := d.InitDeclaratorList
	return l != nil && l.InitDeclaratorList == nil && l.InitDeclarator != nil &&
		l.InitDeclarator.Declarator != nil && l.InitDeclarator.Declarator.Name() == "__func__"
}

var symbolVersionRE = regexp.MustCompile(`_(\d+)_(\d+)$`)

// symbolVersion reads the library version a per-version symbol names
// (__nvJitLinkCreate_12_4: 12040, CUDA's encoding), 0 if it names none.
func symbolVersion(sym string) int {
	m := symbolVersionRE.FindStringSubmatch(sym)
	if m == nil {
		return 0
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	if minor > 99 {
		return 0
	}
	return major*1000 + minor*10
}
