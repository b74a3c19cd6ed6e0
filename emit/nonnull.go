package emit

import (
	"fmt"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"

	"github.com/dave/jennifer/jen"
)

// nonNull is a parameter of fn that must not be zero
// (library.Overrides.NonNullHandles): a handle passed by value to a
// function that returns the library's status.
type nonNull struct {
	p    *param
	rule library.NonNullHandle
	typ  string // the handle's C typedef
}

// nonNulls are fn's parameters a zero value of which the wrapper refuses.
func (m *model) nonNulls(fn *ir.Function, ps []*param) []nonNull {
	rules := m.desc.Overrides.NonNullHandles
	if len(rules) == 0 || !m.isErrorResult(fn.Result) {
		return nil
	}
	var out []nonNull
	for _, p := range ps {
		t := p.c.Type
		if p.role != roleValue || t.Kind != ir.Named {
			continue
		}
		if r, ok := rules[t.Name]; ok {
			out = append(out, nonNull{p, r, t.Name})
		}
	}
	return out
}

// statusValue is the Go expression of the library's status value named
// cname: its constant, or the status type converting its number.
func (m *model) statusValue(fn *ir.Function, cname string) jen.Code {
	if n, ok := m.valNames[cname]; ok {
		return jen.Id(n)
	}
	for _, e := range m.api.Enums {
		for _, v := range e.Values {
			if v.Name == cname {
				return jen.Add(m.goType(fn.Result)).Call(jen.Lit(int(v.Value)))
			}
		}
	}
	return nil
}

// guard returns from the wrapper with the rule's status for a zero
// handle, before the symbol is loaded or anything is called: the library
// would crash on it.
func (w *wrapper) guard() {
	for _, n := range w.m.nonNulls(w.fn, w.ps) {
		v := w.m.statusValue(w.fn, n.rule.Status) // checkNonNull: not nil
		e := jen.Qual(FFIImplPath, "Error").Call(jen.Id(w.proc), v)
		if w.named {
			w.body = append(w.body, jen.If(jen.Id(n.p.goName).Op("==").Lit(0)).Block(jen.Id("err").Op("=").Add(e), jen.Return()))
		} else {
			w.body = append(w.body, jen.If(jen.Id(n.p.goName).Op("==").Lit(0)).Block(jen.Return(e)))
		}
	}
}

// nonNullDoc is what the wrapper's doc says of its guarded handles.
func (m *model) nonNullDoc(fn *ir.Function, ps []*param) string {
	text := ""
	for _, n := range m.nonNulls(fn, ps) {
		goStatus := n.rule.Status
		if g, ok := m.valNames[n.rule.Status]; ok {
			goStatus = "[" + g + "]"
		}
		text += fmt.Sprintf("\n\nA zero %s returns %s, the status the header documents, without calling %s, which can crash on a zero %s.", n.p.goName, goStatus, m.desc.Title, n.typ)
	}
	return text
}

// nonNullAudit is the audit's lines for fn's guarded handles.
func (m *model) nonNullAudit(fn *ir.Function, ps []*param) []string {
	var out []string
	for _, n := range m.nonNulls(fn, ps) {
		out = append(out, fmt.Sprintf("nonnull %s.%s: a zero %s returns %s before the call (NonNullHandles: %s)", fn.Name, n.p.c.Name, n.typ, n.rule.Status, n.rule.Why))
	}
	return out
}

// checkNonNull reports a NonNullHandles rule whose status is no value of
// the headers' enums: its wrappers could not return it.
func (m *model) checkNonNull() error {
	for typ, r := range m.desc.Overrides.NonNullHandles {
		found := false
		for _, e := range m.api.Enums {
			for _, v := range e.Values {
				found = found || v.Name == r.Status
			}
		}
		if !found {
			return fmt.Errorf("library %s: NonNullHandles[%s]: status %s is no enum value of the headers", m.desc.Key, typ, r.Status)
		}
	}
	return nil
}
