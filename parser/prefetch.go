package parser

import (
	"modernc.org/cc/v4"

	"github.com/cugen/cugen/internal/panics"
)

// declDoc is what collect needs of one item of the translation unit's
// list of external declarations: the comment before it and, for a
// declaration of a function, that comment parsed. prefetchDocs works
// them out on a goroutine of their own, one item ahead of collect or
// more, so that the Doxygen parsing (a third of collect) runs on the
// other core while collect converts types.
type declDoc struct {
	doc string // docBefore of the declaration; "" for any other item
	// fn: the declaration declares a function, and parsed holds doc's
	// parse (function's, for the comment docBefore gives).
	fn     bool
	parsed parsedDoc
	panic  *panics.Panic // a panic of the goroutine: raised again in collect's goroutine
}

// parsedDoc is a function's comment parsed: what function works out of
// it before it looks at the declaration.
type parsedDoc struct {
	c        comment
	returned map[string]bool
}

func parseFunctionDoc(doc string) parsedDoc {
	return parsedDoc{c: parseDoc(doc), returned: returnedIn(doc)}
}

// prefetchDocs sends a declDoc for each item of p.ast's list of external
// declarations, in order, until the list ends or stop is closed. It only
// reads the AST (tokens and their separators), as collect does, and
// computes nothing collect does not: what collect takes from it is what
// it would have computed itself. A panic ends the list with an item
// saying so; collect raises it again, where a caller's recover reaches
// it.
func (p *parse) prefetchDocs(stop <-chan struct{}) <-chan declDoc {
	out := make(chan declDoc, 64)
	go func() {
		defer close(out)
		for l := p.ast.TranslationUnit; l != nil; l = l.TranslationUnit {
			d := docOf(l.ExternalDeclaration)
			select {
			case out <- d:
			case <-stop:
				return
			}
			if d.panic != nil {
				return
			}
		}
	}()
	return out
}

func docOf(ed *cc.ExternalDeclaration) (d declDoc) {
	if p := panics.Catch("parser.prefetchDocs", func() { d = docOfDecl(ed) }); p != nil {
		return declDoc{panic: p}
	}
	return d
}

func docOfDecl(ed *cc.ExternalDeclaration) (d declDoc) {
	if ed == nil || ed.Case != cc.ExternalDeclarationDecl || ed.Declaration == nil {
		return declDoc{}
	}
	decl := ed.Declaration
	if _, ok := initializerDecl(decl); ok {
		return declDoc{}
	}
	d.doc = docBefore(decl)
	for il := decl.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
		if il.InitDeclarator != nil && il.InitDeclarator.Declarator != nil && il.InitDeclarator.Declarator.Type().Kind() == cc.Function {
			d.fn = true
			d.parsed = parseFunctionDoc(d.doc)
			break
		}
	}
	return d
}
