package emit

import (
	"fmt"
	"github.com/cugen/cugen/library"
	"strings"
	"unicode"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// graphGlue is the library's GraphAPI (library.Desc.Graph) resolved to
// this package's Go names.
type graphGlue struct {
	api                     library.GraphAPI
	graphType               string
	captureInfo             string
	results                 []string // the capture query's results: "status", "graph" or "_"
	active                  string
	create, retain, release string
	noSync, move            string
	execOwned               bool // an exec's host node takes a Go func: its destroy releases them
}

// findGraphAPI resolves the library's GraphAPI for this package, or returns nil (and
// says so in the audit) when the headers lack a piece: stream-ordered
// callbacks are then one-shot, as outside capture.
func (m *model) findGraphAPI() *graphGlue {
	a := m.desc.Graph
	if a == nil {
		return nil
	}
	g := &graphGlue{
		api: *a, graphType: m.typeName(a.Graph),
		captureInfo: m.goFunc(a.CaptureInfo), active: m.valNames[a.Active],
		create: m.goFunc(a.Create), retain: m.goFunc(a.Retain), release: m.goFunc(a.Release),
		noSync: m.valNames[a.NoSync], move: m.valNames[a.Move],
	}
	var info *ir.Function
	for _, f := range m.funcs {
		if f.Name == a.CaptureInfo {
			info = f
		}
	}
	if info == nil || g.graphType == "" || m.typeName(a.Stream) == "" || g.active == "" || g.create == "" ||
		g.retain == "" || g.release == "" || g.noSync == "" || g.move == "" {
		m.audit = append(m.audit, fmt.Sprintf("callback lifetime: the headers lack %s, %s, %s, %s or their constants: stream-ordered callbacks are one-shot even inside stream capture", a.CaptureInfo, a.Create, a.Retain, a.Release))
		return nil
	}
	ps, err := m.classify(info)
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
			case p.c.Type.Elem.Name == a.Graph:
				r, graph = "graph", true
			case m.enum(p.c.Type.Elem) != nil && !status:
				r, status = "status", true
			}
		}
		g.results = append(g.results, r)
	}
	if !status || !graph || !m.isErrorResult(info.Result) {
		m.audit = append(m.audit, fmt.Sprintf("callback lifetime: %s returns no capture status and graph: stream-ordered callbacks are one-shot even inside stream capture", a.CaptureInfo))
		return nil
	}
	for _, f := range m.funcs {
		var host, exec bool
		for _, p := range f.Params {
			host = host || (p.Direction != ir.Out && (m.hostParamsOf(p.Type) != nil || m.nodeHostOf(p.Type) != nil))
			exec = exec || (p.Type.Kind == ir.Named && p.Type.Name == a.Exec)
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
	f.Commentf("not capturing (or %s fails: the call that follows fails too,", g.api.CaptureInfo)
	f.Comment("or records nothing).")
	f.Func().Id("captureGraph").Params(jen.Id("stream").Id(m.typeName(g.api.Stream))).Id(g.graphType).Block(
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
	goType         string // the struct's Go name
}

// hostParamsOf returns the host node struct t points to, or nil.
func (m *model) hostParamsOf(t *ir.Type) *hostParams {
	if t.Kind != ir.Pointer || t.Elem == nil {
		return nil
	}
	return m.hostRecord(t.Elem)
}

// hostRecord returns the host node struct t denotes, or nil.
func (m *model) hostRecord(t *ir.Type) *hostParams {
	r := m.record(t)
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
	return &hostParams{cb: cb, fnOff: f0.Offset, udOff: f1.Offset, size: r.Size, fnName: f0.Name, udName: f1.Name, goType: m.declName(r.Name)}
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
	if p := handleParam(ps, m.graph.api.Graph); p != nil {
		return lifeGraph, p, true
	}
	if p := handleParam(ps, m.graph.api.Exec); p != nil {
		return lifeExec, p, true
	}
	if handleParam(ps, m.graph.api.Node) != nil {
		return lifeGraph, nil, true
	}
	return 0, nil, false
}

// nodeHost is a node parameter struct whose union has a host node member
// (CUgraphNodeParams.host, cudaGraphNodeParams.host): the generic node
// calls (cuGraphAddNode, cuGraphNodeSetParams, cuGraphExecNodeSetParams)
// take it, and its SetHost methods give that member a Go func.
type nodeHost struct {
	rec       *ir.Record
	goType    string      // the struct's Go name
	member    string      // the union member's C name ("host")
	off       int64       // the member's offset in the struct
	host      *hostParams // the member's {fn, userData} layout
	typeField string      // the Go name of the struct's node type member
	hostValue string      // the Go name of that enum's host value
}

func (n *nodeHost) setHost() string        { return "Set" + fieldName(n.member) }
func (n *nodeHost) setHostForExec() string { return n.setHost() + "ForExec" }

// nodeHostOf returns the node parameter struct t points to, or nil.
func (m *model) nodeHostOf(t *ir.Type) *nodeHost {
	if t.Kind != ir.Pointer || t.Elem == nil {
		return nil
	}
	return m.nodeHostRecord(m.record(t.Elem))
}

// nodeHostRecord decides whether r is a node parameter struct: a struct
// with a union member (anonymous, or of a union type) one of whose members
// is a host node struct (hostRecord), and a member of an enum type with
// exactly one value named for that union member at a word boundary
// (CU_GRAPH_NODE_TYPE_HOST, cudaGraphNodeTypeHost for "host"). A struct
// without both is no node parameter struct: its host member keeps a raw C
// function pointer.
func (m *model) nodeHostRecord(r *ir.Record) *nodeHost {
	if r == nil || r.Union || m.graph == nil {
		return nil
	}
	var n *nodeHost
	for _, fl := range r.Fields {
		u, base := fl.Record, int64(0)
		if !fl.Anonymous {
			// A named union member: its members' offsets are the union's own.
			u, base = m.record(fl.Type), fl.Offset
		}
		if u == nil || !u.Union {
			continue
		}
		for _, mem := range unionMembers(u.Fields) {
			if hp := m.hostRecord(mem.Type); hp != nil && mem.Name != "" {
				if n != nil {
					return nil // two host members: which one a node type names is unclear
				}
				n = &nodeHost{rec: r, goType: m.declName(r.Name), member: mem.Name, off: base + mem.Offset, host: hp}
			}
		}
	}
	if n == nil || n.goType == "" || n.off%8 != 0 {
		return nil
	}
	for _, fl := range r.Fields {
		e := m.enum(fl.Type)
		if fl.Anonymous || e == nil || reservedMember(fl.Name) {
			continue
		}
		var hit []string
		for _, v := range e.Values {
			if namedFor(v.Name, n.member) {
				hit = append(hit, v.Name)
			}
		}
		if len(hit) == 1 && m.valNames[hit[0]] != "" {
			if n.typeField != "" {
				return nil // two type members
			}
			n.typeField, n.hostValue = fieldName(fl.Name), m.valNames[hit[0]]
		}
	}
	if n.typeField == "" {
		return nil
	}
	return n
}

// unionMembers flattens a union's members, looking through anonymous
// structs and unions.
func unionMembers(fs []ir.Field) []ir.Field {
	var out []ir.Field
	for _, fl := range fs {
		if fl.Anonymous && fl.Record != nil {
			out = append(out, unionMembers(fl.Record.Fields)...)
			continue
		}
		out = append(out, fl)
	}
	return out
}

// namedFor reports whether the enum value v ends with the word w, case
// aside: after an underscore (CU_GRAPH_NODE_TYPE_HOST) or as a capitalised
// word (cudaGraphNodeTypeHost).
func namedFor(v, w string) bool {
	if w == "" || len(v) <= len(w) || !strings.EqualFold(v[len(v)-len(w):], w) {
		return false
	}
	i := len(v) - len(w)
	if v[i-1] == '_' {
		return true
	}
	// A capitalised word: an upper-case letter, then lower case to the end
	// ("GHOST" in CU_GRAPH_NODE_TYPE_GHOST is not "Host").
	return unicode.IsUpper(rune(v[i])) && strings.ToLower(v[i+1:]) == v[i+1:] && !unicode.IsUpper(rune(v[i-1]))
}

// nodeHostUse says how a function that takes a pointer to n gives its host
// member a Go func: through SetHost (a graph, or a node of a graph) or
// SetHostForExec (an exec), by the handles the function takes; "" when
// neither.
func (m *model) nodeHostUse(f *ir.Function, n *nodeHost) string {
	var graph, exec, node bool
	for _, p := range f.Params {
		if p.Type.Kind == ir.Named {
			graph = graph || p.Type.Name == m.graph.api.Graph
			exec = exec || p.Type.Name == m.graph.api.Exec
			node = node || p.Type.Name == m.graph.api.Node
		}
	}
	switch {
	case graph:
		return n.setHost()
	case exec:
		return n.setHostForExec()
	case node:
		return n.setHost()
	}
	return ""
}

// nodeHostAudit is the audit line for parameter p of f when it points to
// a node parameter struct, or "".
func (m *model) nodeHostAudit(f *ir.Function, p ir.Param) string {
	n := m.nodeHostOf(p.Type)
	if n == nil || p.Direction == ir.Out {
		return ""
	}
	use := m.nodeHostUse(f, n)
	if use == "" {
		return fmt.Sprintf("callback %s.%s: the struct's %s.%s stays a raw C function pointer (no graph, exec or node parameter to own a Go func); nil: 0 is NULL; lifetime: the caller's", f.Name, p.Name, n.member, n.host.fnName)
	}
	life := "the graph passed to " + use + " owns it through a user object: until that graph and its last exec and clone are destroyed"
	if use == n.setHostForExec() {
		life = "registered under the exec passed to " + use + " until " + m.graph.api.ExecDestroy + " (an exec takes user objects only at instantiation)"
	}
	return fmt.Sprintf("callback %s.%s: the struct's %s member takes a Go func through %s.%s (%s = %s, %s.%s = the static trampoline, %s.%s = an ffi handle); nil: NULL %s, no handle; lifetime: %s", f.Name, p.Name, n.member, n.goType, use, n.typeField, n.hostValue, n.member, n.host.fnName, n.member, n.host.udName, n.host.fnName, life)
}

// genNodeHosts emits SetHost and SetHostForExec for every node parameter
// struct a bound function takes, adding the host callback to the
// trampolines to emit (callbacks, order). It returns the new order, and
// the glue the methods need.
func (m *model) genNodeHosts(f *jen.File, callbacks map[string]*callback, order []string) ([]string, glue) {
	var needs glue
	if m.graph == nil {
		return order, needs
	}
	seen := map[*ir.Record]bool{}
	for _, r := range m.recs {
		n := m.nodeHostRecord(r)
		if n == nil || seen[r] {
			continue
		}
		seen[r] = true
		var graphUsers, execUsers []string
		for _, fn := range m.funcs {
			if m.funcNames[fn] == "" {
				continue
			}
			for _, p := range fn.Params {
				if p.Direction != ir.Out && p.Type.Kind == ir.Pointer && p.Type.Elem != nil && m.record(p.Type.Elem) == r {
					switch m.nodeHostUse(fn, n) {
					case n.setHost():
						graphUsers = append(graphUsers, "["+m.funcNames[fn]+"]")
					case n.setHostForExec():
						execUsers = append(execUsers, "["+m.funcNames[fn]+"]")
					}
				}
			}
		}
		if len(graphUsers) == 0 && len(execUsers) == 0 {
			continue
		}
		cb := n.host.cb
		if callbacks[cb.typedef] == nil {
			callbacks[cb.typedef] = cb
			order = append(order, cb.typedef)
		}
		needs.add(m.genSetHost(f, n, graphUsers, execUsers))
	}
	return order, needs
}

// genSetHost emits n's SetHost (the handle owned by a graph) and, where an
// exec takes the struct, SetHostForExec (the handle registered under the
// exec until its destroy releases it). It returns the glue they need.
func (m *model) genSetHost(f *jen.File, n *nodeHost, graphUsers, execUsers []string) glue {
	words := int(n.host.size / 8)
	recv := jen.Id("p").Op("*").Id(n.goType)
	// fill sets the node type and clears the host member; set stores the
	// trampoline and the handle into it. The union is raw integer storage,
	// so the handle never sits in a Go pointer word.
	fill := []jen.Code{
		jen.Id("p").Dot(n.typeField).Op("=").Id(n.hostValue),
		jen.Id("host").Op(":=").Parens(jen.Op("*").Index(jen.Lit(words)).Uintptr()).Call(
			jen.Qual("unsafe", "Add").Call(jen.Qual("unsafe", "Pointer").Call(jen.Id("p")), jen.Lit(int(n.off)))),
		jen.Op("*").Id("host").Op("=").Index(jen.Lit(words)).Uintptr().Values(),
	}
	set := []jen.Code{
		jen.Id("host").Index(jen.Lit(int(n.host.fnOff / 8))).Op("=").Id(trampolineName(n.host.cb)).Call(),
		jen.Id("host").Index(jen.Lit(int(n.host.udOff / 8))).Op("=").Uintptr().Call(jen.Id("hdl")),
	}
	needs := glue{graph: true}
	if len(graphUsers) > 0 {
		doc := fmt.Sprintf("%s makes p the parameters of a host node that calls fn, for %s: it sets p.%s to [%s] and the C member %s ([%s]) to the package's trampoline and a handle of fn. "+
			"graph, the graph the node is added to or belongs to, owns the handle through a user object: fn runs on every launch of graph and of every exec and clone made from it after this call, and is released when the last of them is destroyed "+
			"(also if the node is never added or its parameters are replaced: fn lives until then). "+
			"A nil fn sets a NULL %s and %s and makes no handle. If graph cannot take the user object, the error is returned and the host member left NULL.",
			n.setHost(), andList(graphUsers), n.typeField, n.hostValue, n.member, n.host.goType, n.host.fnName, n.host.udName)
		if len(execUsers) > 0 {
			doc += fmt.Sprintf("\n\nFor %s use [%s.%s]: an exec takes its graph's user objects when it is instantiated, so a user object given to the graph later does not keep fn alive for an existing exec.",
				andList(execUsers), n.goType, n.setHostForExec())
		}
		comment(f, wrapText(doc, docCommentWidth))
		f.Func().Params(recv).Id(n.setHost()).Params(jen.Id("graph").Id(m.graph.graphType), jen.Id("fn").Add(n.host.cb.goFunc)).Error().Block(
			append(append(fill,
				jen.If(jen.Id("fn").Op("==").Nil()).Block(jen.Return(jen.Nil())),
				jen.Id("hdl").Op(":=").Qual(FFIImplPath, "NewHandle").Call(jen.Id("fn")),
				jen.If(jen.Id("err").Op(":=").Id("retainHandle").Call(jen.Id("graph"), jen.Id("hdl")), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
			), append(set, jen.Return(jen.Nil()))...)...,
		)
		f.Line()
	}
	if len(execUsers) > 0 && m.graph.execOwned {
		needs.registry = true
		exec := m.typeName(m.graph.api.Exec)
		comment(f, wrapText(fmt.Sprintf("%s makes p the parameters of a host node that calls fn, for %s on exec: it sets p.%s to [%s] and the C member %s ([%s]) to the package's trampoline and a handle of fn. "+
			"The package keeps fn until exec is destroyed with [%s] (CUDA gives an exec user objects only when it is instantiated); destroy the exec only after its launches have completed. "+
			"fn is kept until then even if the call that takes p fails. A nil fn sets a NULL %s and %s and makes no handle.",
			n.setHostForExec(), andList(execUsers), n.typeField, n.hostValue, n.member, n.host.goType, m.goFunc(m.graph.api.ExecDestroy), n.host.fnName, n.host.udName), docCommentWidth))
		f.Func().Params(recv).Id(n.setHostForExec()).Params(jen.Id("exec").Id(exec), jen.Id("fn").Add(n.host.cb.goFunc)).Block(
			append(append(fill,
				jen.If(jen.Id("fn").Op("==").Nil()).Block(jen.Return()),
				jen.Id("hdl").Op(":=").Qual(FFIImplPath, "NewHandle").Call(jen.Id("fn")),
				jen.Id("callbackRegistry").Dot("Add").Call(jen.Uintptr().Call(jen.Id("exec")), jen.Id("hdl")),
			), set...)...,
		)
		f.Line()
	}
	return needs
}

// andList joins names as English does: "A", "A and B", "A, B and C".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// nodeHostDoc is the wrapper doc's paragraph pointing a function that takes
// a node parameter struct to its SetHost method, or "".
func (m *model) nodeHostDoc(f *ir.Function) string {
	for _, p := range f.Params {
		n := m.nodeHostOf(p.Type)
		if n == nil || p.Direction == ir.Out {
			continue
		}
		switch use := m.nodeHostUse(f, n); use {
		case n.setHost():
			return fmt.Sprintf("\n\nFor a host node, fill %s with [%s.%s]: it gives the node a Go func that the graph keeps alive until the graph and its last exec and clone are destroyed.", p.Name, n.goType, use)
		case n.setHostForExec():
			return fmt.Sprintf("\n\nFor a host node, fill %s with [%s.%s]: it gives the node a Go func that the package keeps until the exec is destroyed with [%s].", p.Name, n.goType, use, m.goFunc(m.graph.api.ExecDestroy))
		}
	}
	return ""
}
