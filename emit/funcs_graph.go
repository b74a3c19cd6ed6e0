package emit

import (
	"fmt"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// graphAPI is one library's row of graphAPIs (C names).
type graphAPI struct {
	stream, graph, exec, node string // the stream, graph, exec and node handle typedefs
	execDestroy               string // releases the Go funcs an exec's host nodes were given
	captureInfo, active       string // the capture query and its "capturing" status
	create, retain, release   string // user object calls
	noSync, move              string // their flags
}

// graphGlue is graphAPI resolved to this package's Go names.
type graphGlue struct {
	api                     graphAPI
	graphType               string
	captureInfo             string
	results                 []string // the capture query's results: "status", "graph" or "_"
	active                  string
	create, retain, release string
	noSync, move            string
	execOwned               bool // an exec's host node takes a Go func: its destroy releases them
}

// findGraphAPI resolves graphAPIs for this package, or returns nil (and
// says so in the audit) when the headers lack a piece: stream-ordered
// callbacks are then one-shot, as outside capture.
func (m *model) findGraphAPI() *graphGlue {
	a, ok := graphAPIs[m.lib]
	if !ok {
		return nil
	}
	g := &graphGlue{
		api: a, graphType: m.typeName(a.graph),
		captureInfo: m.goFunc(a.captureInfo), active: m.valNames[a.active],
		create: m.goFunc(a.create), retain: m.goFunc(a.retain), release: m.goFunc(a.release),
		noSync: m.valNames[a.noSync], move: m.valNames[a.move],
	}
	var info *ir.Function
	for _, f := range m.funcs {
		if f.Name == a.captureInfo {
			info = f
		}
	}
	if info == nil || g.graphType == "" || m.typeName(a.stream) == "" || g.active == "" || g.create == "" ||
		g.retain == "" || g.release == "" || g.noSync == "" || g.move == "" {
		m.audit = append(m.audit, fmt.Sprintf("callback lifetime: the headers lack %s, %s, %s, %s or their constants: stream-ordered callbacks are one-shot even inside stream capture", a.captureInfo, a.create, a.retain, a.release))
		return nil
	}
	n := len(m.audit)
	ps, err := m.classify(info)
	m.audit = m.audit[:n] // classified again when its wrapper is emitted
	if err != nil {
		return nil
	}
	var status, graph bool
	for _, p := range ps {
		if !p.role.isResult() {
			continue
		}
		r := "_"
		if p.c.Type.Elem != nil && p.c.Type.Elem.Kind == ir.Named {
			switch {
			case p.c.Type.Elem.Name == a.graph:
				r, graph = "graph", true
			case m.enum(p.c.Type.Elem) != nil && !status:
				r, status = "status", true
			}
		}
		g.results = append(g.results, r)
	}
	if !status || !graph || !m.isErrorResult(info.Result) {
		m.audit = append(m.audit, fmt.Sprintf("callback lifetime: %s returns no capture status and graph: stream-ordered callbacks are one-shot even inside stream capture", a.captureInfo))
		return nil
	}
	for _, f := range m.funcs {
		var host, exec bool
		for _, p := range f.Params {
			host = host || (p.Direction != ir.Out && m.hostParamsOf(p.Type) != nil)
			exec = exec || (p.Type.Kind == ir.Named && p.Type.Name == a.exec)
		}
		g.execOwned = g.execOwned || (host && exec)
	}
	return g
}

// genGraphGlue emits captureGraph and retainHandle, which the wrappers of
// stream-ordered callbacks call.
func (m *model) genGraphGlue(f *jen.File) {
	g := m.graph
	var lhs []jen.Code
	for _, r := range g.results {
		lhs = append(lhs, jen.Id(r))
	}
	lhs = append(lhs, jen.Id("err"))
	f.Comment("captureGraph returns the graph stream is capturing into, or 0 when it is")
	f.Commentf("not capturing (or %s fails: the call that follows fails too,", g.api.captureInfo)
	f.Comment("or records nothing).")
	f.Func().Id("captureGraph").Params(jen.Id("stream").Id(m.typeName(g.api.stream))).Id(g.graphType).Block(
		jen.List(lhs...).Op(":=").Id(g.captureInfo).Call(jen.Id("stream")),
		jen.If(jen.Id("err").Op("!=").Nil().Op("||").Id("status").Op("!=").Id(g.active)).Block(jen.Return(jen.Lit(0))),
		jen.Return(jen.Id("graph")),
	)
	f.Line()
	f.Comment("retainHandle makes graph own hdl, the handle of a Go func that a node of")
	f.Comment("graph calls: a user object whose destructor deletes hdl, its one reference")
	f.Comment("moved into graph. CUDA retains a graph's user objects in every exec and")
	f.Comment("clone made from it and runs the destructor when the last of them is")
	f.Comment("destroyed, so the Go func runs on every launch and is released exactly")
	f.Comment("then. If the graph cannot take the reference, the user object is released")
	f.Comment("(deleting hdl: the node then calls nothing) and the error returned.")
	f.Func().Id("retainHandle").Params(jen.Id("graph").Id(g.graphType), jen.Id("hdl").Qual(FFIImplPath, "Handle")).Error().Block(
		jen.List(jen.Id("obj"), jen.Id("err")).Op(":=").Id(g.create).Call(jen.Id("hdl").Dot("Delete"), jen.Lit(1), jen.Uint32().Call(jen.Id(g.noSync))),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(
			jen.Id("hdl").Dot("Delete").Call(),
			jen.Return(jen.Id("err")),
		),
		jen.If(jen.Id("err").Op(":=").Id(g.retain).Call(jen.Id("graph"), jen.Id("obj"), jen.Lit(1), jen.Uint32().Call(jen.Id(g.move))), jen.Id("err").Op("!=").Nil()).Block(
			jen.Id(g.release).Call(jen.Id("obj"), jen.Lit(1)),
			jen.Return(jen.Id("err")),
		),
		jen.Return(jen.Nil()),
	)
	f.Line()
}

// hostParams describes a host node's parameter struct: exactly a callback
// with userData and the void * userData it is called with
// (CUDA_HOST_NODE_PARAMS, cudaHostNodeParams).
type hostParams struct {
	cb             *callback
	fnOff, udOff   int64
	size           int64
	fnName, udName string
}

// hostParamsOf returns the host node struct t points to, or nil.
func (m *model) hostParamsOf(t *ir.Type) *hostParams {
	if t.Kind != ir.Pointer || t.Elem == nil {
		return nil
	}
	r := m.record(t.Elem)
	if r == nil || r.Union || len(r.Fields) != 2 || r.Size%8 != 0 {
		return nil
	}
	f0, f1 := r.Fields[0], r.Fields[1]
	if m.resolve(f0.Type).Kind != ir.FuncPtr || !m.isVoidPtr(f1.Type) || f0.Offset%8 != 0 || f1.Offset%8 != 0 {
		return nil
	}
	cb := m.callbackOf(f0.Type)
	if cb == nil || cb.user < 0 {
		return nil
	}
	return &hostParams{cb: cb, fnOff: f0.Offset, udOff: f1.Offset, size: r.Size, fnName: f0.Name, udName: f1.Name}
}

// handleParam is the first parameter of ps whose C type is the typedef
// name, or nil.
func handleParam(ps []*param, name string) *param {
	for _, p := range ps {
		if p.c.Type.Kind == ir.Named && p.c.Type.Name == name {
			return p
		}
	}
	return nil
}

// hostNodeOwner decides who keeps the Go func of a host node parameter
// struct alive, from the wrapper's other parameters: the graph the node is
// added to (cuGraphAddHostNode); the exec whose node is changed
// (cuGraphExecHostNodeSetParams: CUDA cannot attach a user object to an
// exec, so the package registry keeps it until cuGraphExecDestroy); else,
// for a node of a graph (cuGraphHostNodeSetParams: no call in these
// headers finds a node's graph), a graph the wrapper adds as its last
// parameter. ok is false when the struct cannot take a Go func here.
func (m *model) hostNodeOwner(f *ir.Function, ps []*param) (life cbLife, owner *param, ok bool) {
	if m.graph == nil || !m.isErrorResult(f.Result) {
		return 0, nil, false
	}
	if p := handleParam(ps, m.graph.api.graph); p != nil {
		return lifeGraph, p, true
	}
	if p := handleParam(ps, m.graph.api.exec); p != nil {
		return lifeExec, p, true
	}
	if handleParam(ps, m.graph.api.node) != nil {
		return lifeGraph, nil, true
	}
	return 0, nil, false
}
