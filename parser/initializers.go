package parser

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"modernc.org/cc/v4"
)

// initPrefix names the variables the translation unit defines to have the
// C front end evaluate a struct initializer macro.
const initPrefix = "__cugen_initializer_"

type initializerMacro struct {
	macro, ctype string
	lib          ir.Library
}

// initializerMacros are the libraries' struct initializer macros
// (library.Desc.Initializers), in a fixed order.
func (p *parse) initializerMacros() []initializerMacro {
	var out []initializerMacro
	for _, d := range p.libs {
		for m, t := range d.Initializers {
			out = append(out, initializerMacro{m, t, d.Key})
		}
	}
	slices.SortFunc(out, func(a, b initializerMacro) int { return strings.Compare(a.macro, b.macro) })
	return out
}

// initializerDecl reports whether decl is one of the variables the parse
// defined for an initializer macro, and returns its init declarator.
func initializerDecl(decl *cc.Declaration) (*cc.InitDeclarator, bool) {
	il := decl.InitDeclaratorList
	if il == nil || il.InitDeclarator == nil || il.InitDeclarator.Declarator == nil {
		return nil, false
	}
	if !strings.HasPrefix(il.InitDeclarator.Declarator.Name(), initPrefix) {
		return nil, false
	}
	return il.InitDeclarator, true
}

// initializer records the value of an initializer macro: the members it
// sets, as the C front end evaluated them (sizeof, other macros, casts).
// Only flat initializers of scalar members are taken: a nested brace list
// or a value that is not a constant is an error naming the macro.
func (p *parse) initializer(id *cc.InitDeclarator) error {
	macro := strings.TrimPrefix(id.Declarator.Name(), initPrefix)
	ms := p.initializerMacros()
	i := slices.IndexFunc(ms, func(m initializerMacro) bool { return m.macro == macro })
	m := p.ast.Macros[macro]
	if i < 0 || m == nil {
		return nil
	}
	in := ms[i]
	pos := m.Position()
	out := &ir.Initializer{Name: macro, Record: in.ctype, Library: in.lib, Pos: p.pos(pos.Filename, pos.Line)}
	fail := func(format string, args ...any) error {
		return &Error{File: out.Pos.File, Line: out.Pos.Line, Col: 1, Msg: fmt.Sprintf("initializer macro %s: %s", macro, fmt.Sprintf(format, args...))}
	}
	init := id.Initializer
	if init == nil || init.Case != cc.InitializerInitList {
		return fail("does not expand to a brace-enclosed initializer of %s", in.ctype)
	}
	for l := init.InitializerList; l != nil; l = l.InitializerList {
		x := l.Initializer
		if x == nil {
			continue
		}
		if x.Case != cc.InitializerExpr || x.Field() == nil || l.Designation != nil {
			return fail("only a flat list of member values is supported")
		}
		f := ir.InitField{Name: x.Field().Name()}
		switch v := x.AssignmentExpression.Value().(type) {
		case cc.Int64Value:
			f.Kind, f.Value = ir.Int, strconv.FormatInt(int64(v), 10)
		case cc.UInt64Value:
			f.Kind, f.Value = ir.Int, strconv.FormatUint(uint64(v), 10)
		case cc.Float64Value:
			if math.IsInf(float64(v), 0) || math.IsNaN(float64(v)) {
				return fail("member %s: %v has no Go constant", f.Name, float64(v))
			}
			f.Kind, f.Value = ir.Float, strconv.FormatFloat(float64(v), 'g', -1, 64)
		default:
			return fail("member %s: not a constant (%T)", f.Name, v)
		}
		if f.Value != "0" {
			out.Fields = append(out.Fields, f)
		}
	}
	p.api.Initializers = append(p.api.Initializers, out)
	return nil
}
