package emit

import (
	"fmt"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// This file emits a package's functions: genFuncs classifies each C
// function's parameters (funcs_classify.go), writes its audit lines
// (funcs_audit.go) and its wrapper (funcs_wrapper.go), then the
// package-level code the wrappers share: the layouts of by-value records
// (here), the callback trampolines (funcs_trampoline.go) and the graph
// glue (funcs_graph.go).

// genFuncs emits every function's wrapper, then what they share, in the
// order the functions first need it, so the output does not depend on map
// order.
func (m *model) genFuncs(f *jen.File) error {
	pairs := m.findBufferPairs()
	layouts := map[string]bool{}
	var layoutOrder []*ir.Type
	callbacks := map[string]*callback{}
	cbKind := map[string]string{} // typedef -> the first function passing it
	var cbOrder []string
	var needs glue
	if m.desc.OneThread != "" {
		m.audit = append(m.audit, fmt.Sprintf("thread: every C call runs on the package's one OS thread (%s.Run): %s", threadVar, m.desc.OneThread))
	}
	for _, fn := range m.funcs {
		ps, err := m.classify(fn)
		if err != nil {
			return err
		}
		needs.add(glueOf(ps))
		for _, p := range ps {
			if p.role == roleStruct {
				if !layouts[p.c.Type.Name] {
					layouts[p.c.Type.Name] = true
					layoutOrder = append(layoutOrder, p.c.Type)
				}
			}
			if p.role.takesGoFunc() && m.desc.OneThread != "" {
				// A callback that calls the library again would wait in
				// libThread.Run for the call it is part of.
				return fmt.Errorf("%s:%d: %s: parameter %s takes a Go callback, which a library whose calls run on one thread (library.Desc.OneThread) cannot take", fn.Pos.File, fn.Pos.Line, fn.Name, p.c.Name)
			}
			if p.role.takesGoFunc() && callbacks[p.cb.typedef] == nil {
				callbacks[p.cb.typedef] = p.cb
				cbOrder = append(cbOrder, p.cb.typedef)
			}
			if p.role.takesGoFunc() {
				// one trampoline per typedef: a global slot or not, for all
				if g := p.role == roleGlobalFunc; cbKind[p.cb.typedef] == "" {
					cbKind[p.cb.typedef] = fn.Name
					callbacks[p.cb.typedef].global = g
				} else if g != callbacks[p.cb.typedef].global {
					return fmt.Errorf("%s:%d: %s: callback %s is set process-wide by one function and passed per call by the other of %s and %s: its one trampoline cannot serve both",
						fn.Pos.File, fn.Pos.Line, fn.Name, p.cb.typedef, cbKind[p.cb.typedef], fn.Name)
				}
			}
		}
		if m.record(fn.Result) != nil && !layouts[fn.Result.Name] {
			layouts[fn.Result.Name] = true
			layoutOrder = append(layoutOrder, fn.Result)
		}
		m.audit = append(m.audit, m.funcAudit(fn, ps, pairs[fn])...)
		if bp := pairs[fn]; bp != nil {
			m.genBufferFunc(f, fn, ps, bp)
			continue
		}
		if m.registryStmts(fn, ps) != nil {
			needs.registry = true
		}
		m.genFunc(f, fn, ps)
	}
	cbOrder, hosts := m.genNodeHosts(f, callbacks, cbOrder)
	needs.add(hosts)
	for _, t := range layoutOrder {
		m.genLayout(f, t)
	}
	for _, name := range cbOrder {
		m.genTrampoline(f, callbacks[name])
	}
	if needs.graph {
		m.genGraphGlue(f)
	}
	if needs.registry {
		f.Comment("callbackRegistry holds the handles of registered callbacks until they are unregistered.")
		if m.graph != nil && m.graph.execOwned {
			f.Commentf("It also holds the Go funcs of exec host nodes until %s.", m.goFunc(m.graph.api.ExecDestroy))
		}
		f.Var().Id("callbackRegistry").Qual(FFIImplPath, "Registry")
	}
	return nil
}

// layoutName is the variable holding the ffiimpl.Layout of the by-value
// record type t: layout plus its Go name, or, for a type another package
// declares (cudart's cuDoubleComplex in cusparse), its C name in Go form.
func (m *model) layoutName(t *ir.Type) string {
	if n := m.typeName(m.structRef(t)); n != "" {
		return "layout" + n
	}
	return "layout" + m.goName(t.Name)
}

// scalarLeaf is one scalar of a by-value record (layoutScalars): its
// offset and size, and whether it is floating point.
type scalarLeaf struct {
	offset, size int64
	float        bool
}

// scalarRun is one ffiimpl.Scalar: count equal leaves, each size bytes after
// the one before.
type scalarRun struct {
	offset, size, count int64
	float               bool
}

// scalarRuns merges leaves into runs where equal leaves lie end to end, so
// an array is one ffiimpl.Scalar with a Count rather than a line per element
// (the 64 chars of an IPC handle were 64 Scalars).
func scalarRuns(leaves []scalarLeaf) []scalarRun {
	var runs []scalarRun
	for _, l := range leaves {
		if n := len(runs); n > 0 {
			p := &runs[n-1]
			if p.size == l.size && p.float == l.float && p.offset+p.count*p.size == l.offset {
				p.count++
				continue
			}
		}
		runs = append(runs, scalarRun{offset: l.offset, size: l.size, count: 1, float: l.float})
	}
	return runs
}

func (m *model) genLayout(f *jen.File, t *ir.Type) {
	var sc []scalarLeaf
	m.layoutScalars(t, 0, &sc)
	var elems []jen.Code
	for _, r := range scalarRuns(sc) {
		e := []kv{{"Offset", jen.Lit(int(r.offset))}, {"Size", jen.Lit(int(r.size))}}
		if r.float {
			e = append(e, kv{"Float", jen.True()})
		}
		if r.count > 1 {
			e = append(e, kv{"Count", jen.Lit(int(r.count))})
		}
		elems = append(elems, keyed(false, e...))
	}
	name := m.layoutName(t)
	r := m.record(t)
	comment(f, fmt.Sprintf("%s describes %s for passing by value.", name, t.C))
	f.Var().Id(name).Op("=").Qual(FFIImplPath, "Layout").Add(keyed(true,
		kv{"Size", jen.Lit(int(r.Size))},
		kv{"Align", jen.Lit(int(r.Align))},
		kv{"Scalars", jen.Index().Qual(FFIImplPath, "Scalar").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, elems...)},
	))
}

// kv is one element of a keyed composite literal.
type kv struct {
	key string
	val jen.Code
}

// keyed is a keyed composite literal's body with the keys in the order
// given, the struct's declared order (jen.Dict sorts them: Align before
// Size), one element a line if multi.
func keyed(multi bool, kvs ...kv) jen.Code {
	items := make([]jen.Code, len(kvs))
	for i, e := range kvs {
		items[i] = jen.Id(e.key).Op(":").Add(e.val)
	}
	return jen.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: multi}, items...)
}
