package emit

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// This file emits a function wrapper from its parameters' roles: its
// signature, the call and the result; funcs_args.go prepares the call's
// arguments.

// procName is the ffiimpl.Proc variable that resolves f's symbol.
func (m *model) procName(f *ir.Function) string { return "proc" + m.funcNames[f] }

// genFunc emits fn's wrapper, then a function per C alias macro of it.
// The wrapper is built in steps, each a method of wrapper: the doc comment,
// the locals prepared before the call, the C arguments, the call, and the
// result check.
func (m *model) genFunc(f *jen.File, fn *ir.Function, ps []*param) {
	w := m.newWrapper(fn, ps)
	comment(f, m.funcDoc(fn, ps))
	w.guard()
	w.load()
	w.prepare()
	w.arguments()
	w.call()
	w.result()
	f.Func().Id(w.name).Params(w.params()...).Params(w.results()...).Block(w.body...)
	f.Line()
	m.genAliases(f, w)
}

// wrapper is the Go function being built for one C function.
type wrapper struct {
	m      *model
	fn     *ir.Function
	ps     []*param
	name   string // Go name
	proc   string // its ffiimpl.Proc variable
	errRes bool   // the C result is the library's status type: an error result
	// recStatus: the C result is the struct holding the status
	// (Desc.StatusRecord), an error result too, read into rs.
	recStatus bool
	cResult   *ir.Type // another non-void C result: the ret result
	ptrRes    bool     // cResult is a pointer the library allocated (Overrides.PointerResults)
	heap      bool     // Frame and outputs on the heap (a Go callback may move the stack)
	// named: the results have names (outputs, ret, or err set after the
	// check); otherwise the only result is an unnamed error, returned
	// directly.
	named bool

	body      []jen.Code
	keepAlive []jen.Code // objects whose address C got: kept alive after the call
	post      []jen.Code // converting outputs after the call
	copyBack  []jen.Code // aligned copies back to the caller's values, right after the call, whatever it returned
	tail      []jen.Code // after a successful call: keeping callback handles
	cargs     []callArg
	ints      bool     // called through ffiimpl.CallInts, not a Frame
	ret       jen.Code // the C result register as a uintptr
}

func (m *model) newWrapper(fn *ir.Function, ps []*param) *wrapper {
	w := &wrapper{m: m, fn: fn, ps: ps, name: m.funcNames[fn], proc: m.procName(fn), heap: hasCallback(ps)}
	switch {
	case m.isErrorResult(fn.Result):
		w.errRes = true
	case m.isStatusRecord(fn.Result):
		w.errRes, w.recStatus = true, true
	case fn.Result.Kind != ir.Void:
		w.cResult = fn.Result
		w.ptrRes = m.isPointerResult(fn, m.resolve(fn.Result))
	}
	w.tail = w.tailStmts()
	w.named = w.cResult != nil || w.errRes && (len(w.tail) > 0 || hasHandle(ps))
	for _, p := range ps {
		w.named = w.named || p.role.isResult()
	}
	return w
}

// params is the wrapper's parameter list: the C parameters the caller
// gives (not those the wrapper fills or returns), plus ownerGraph where
// the wrapper needs it.
func (w *wrapper) params() []jen.Code {
	var fs []field
	for _, p := range w.ps {
		if !p.role.isResult() && !p.role.filled() {
			fs = append(fs, field{p.goName, p.goType})
		}
	}
	if addsOwnerGraph(w.ps) {
		fs = append(fs, field{"ownerGraph", jen.Id(w.m.graph.graphType)})
	}
	return fieldList(fs)
}

// results is the wrapper's result list: the outputs in order, then the
// error (or the C result), named if w.named.
func (w *wrapper) results() []jen.Code {
	var fs []field
	for _, p := range w.ps {
		if p.role.isResult() {
			fs = append(fs, field{p.goName, p.goType})
		}
	}
	switch {
	case w.errRes:
		fs = append(fs, field{"err", jen.Error()})
	case w.cResult != nil && w.ptrRes:
		fs = append(fs, field{"ret", w.m.deviceType(w.cResult)})
	case w.cResult != nil:
		fs = append(fs, field{"ret", w.m.resultGoType(w.cResult)})
	}
	if !w.named {
		var types []jen.Code
		for _, f := range fs {
			types = append(types, f.typ)
		}
		return types
	}
	return fieldList(fs)
}

// fail returns from the wrapper with the error in err (named results, or
// a wrapper without an error result: the zero values), after the
// statements first.
func (w *wrapper) fail(first ...jen.Code) jen.Code {
	if w.named || !w.errRes {
		return jen.Block(append(first, jen.Return())...)
	}
	return jen.Block(append(first, jen.Return(jen.Id("err")))...)
}

// load resolves the symbol: an error (the library or the symbol missing)
// is the wrapper's error.
func (w *wrapper) load() {
	w.body = append(w.body,
		jen.List(jen.Id("sym"), jen.Id("err")).Op(":=").Id(w.proc).Dot("Addr").Call(),
		jen.If(jen.Id("err").Op("!=").Nil()).Add(w.fail()),
	)
}

// call makes the C call, through ffiimpl.CallInts where every argument is a
// register word, else through a Frame, and keeps the arguments alive.
//
// A CallInts call cannot fail once the symbol resolved. A Frame call can:
// whether the arguments fit the Frame is decided by ffiimpl's classification
// for the architecture it runs on (on arm64 a large struct is copied into
// the Frame's stack area), which the generator does not model, so the
// wrapper checks frame.Err and returns it.
func (w *wrapper) call() {
	m := w.m
	if w.ints {
		args := []jen.Code{jen.Id("sym")}
		for _, a := range w.cargs {
			args = append(args, a.word)
		}
		for len(args) < 1+ffiIntsArgs {
			args = append(args, jen.Lit(0))
		}
		call := jen.Qual(FFIImplPath, "CallInts").Call(args...)
		if w.errRes || w.cResult != nil {
			w.body = append(w.body, m.cCall(":=", call)...)
		} else {
			w.body = append(w.body, m.cCall("", call)...) // void
		}
		w.ret = jen.Id("r")
		w.keepAlives()
		return
	}
	frameRef := jen.Op("&").Id("frame")
	if w.heap {
		w.body = append(w.body, jen.Id("frame").Op(":=").Qual(FFIImplPath, "NewHeapFrame").Call())
		frameRef = jen.Id("frame")
	} else {
		w.body = append(w.body, jen.Var().Id("frame").Qual(FFIImplPath, "Frame"))
	}
	if w.cResult != nil && m.record(w.cResult) != nil {
		w.body = append(w.body, jen.Id("frame").Dot("StructResult").Call(unsafePointer(jen.Op("&").Id("ret")), jen.Op("&").Id(m.layoutName(w.fn.Result))))
	}
	if w.recStatus {
		w.body = append(w.body,
			jen.Var().Id("rs").Id(m.typeName(m.structRef(w.fn.Result))),
			jen.Id("frame").Dot("StructResult").Call(unsafePointer(jen.Op("&").Id("rs")), jen.Op("&").Id(m.layoutName(w.fn.Result))))
	}
	// The arguments go into the frame where the call is made: on the
	// library's thread (cCall), a Go pointer among them is taken there.
	var fill []jen.Code
	for _, a := range w.cargs {
		if a.frame != nil {
			fill = append(fill, a.frame)
		} else {
			fill = append(fill, jen.Id("frame").Dot("Int").Call(a.word))
		}
	}
	w.body = append(w.body, m.cCall("", jen.Qual(FFIImplPath, "Call").Call(jen.Id("sym"), frameRef), fill...)...)
	w.keepAlives()
	var cleanup []jen.Code
	if hasHandle(w.ps) {
		cleanup = append(cleanup, jen.Id("hdl").Dot("Delete").Call())
	}
	w.body = append(w.body, jen.If(jen.Id("err").Op("=").Id("frame").Dot("Err").Call(), jen.Id("err").Op("!=").Nil()).Add(w.fail(cleanup...)))
	w.ret = jen.Id("frame").Dot("Ret").Call()
	if w.recStatus {
		w.body = append(w.body, jen.Id("frame").Dot("RetStruct").Call(unsafePointer(jen.Op("&").Id("rs")), jen.Op("&").Id(m.layoutName(w.fn.Result))))
		w.ret = jen.Id("rs")
	}
}

func (w *wrapper) keepAlives() {
	w.body = append(w.body, w.copyBack...)
	for _, k := range w.keepAlive {
		w.body = append(w.body, jen.Qual("runtime", "KeepAlive").Call(k))
	}
}

// result turns the C result into the wrapper's: the error of a status
// code (ffiimpl.Error: nil for success), or the converted C result, then the
// outputs and what a successful call keeps.
func (w *wrapper) result() {
	m := w.m
	// status is the C result as the library's status; errOf its error.
	status := func() jen.Code { return jen.Id(m.errorType()).Call(w.ret) }
	errOf := func(code jen.Code) jen.Code { return jen.Qual(FFIImplPath, "Error").Call(jen.Id(w.proc), code) }
	if w.recStatus {
		status = func() jen.Code { return w.ret }
		errOf = func(code jen.Code) jen.Code { return jen.Id("statusError").Call(jen.Id(w.proc), code) }
	}
	switch {
	case w.errRes && (hasHandle(w.ps) || len(w.tail) > 0):
		// Keeping a handle is for a successful call only.
		var onErr []jen.Code
		if hasHandle(w.ps) {
			onErr = append(onErr, jen.Comment("C never calls back after a failed registration."), jen.Id("hdl").Dot("Delete").Call())
		}
		if w.recStatus {
			onErr = append(onErr, jen.Id("err").Op("=").Id("rc"), jen.Return())
			w.body = append(w.body, jen.If(jen.Id("rc").Op(":=").Add(errOf(status())), jen.Id("rc").Op("!=").Nil()).Block(onErr...))
		} else {
			onErr = append(onErr, jen.Id("err").Op("=").Add(errOf(jen.Id("rc"))), jen.Return())
			w.body = append(w.body, jen.If(jen.Id("rc").Op(":=").Add(status()), jen.Id("rc").Op("!=").Lit(0)).Block(onErr...))
		}
		w.body = append(w.body, w.post...)
		w.body = append(w.body, w.tail...)
		w.body = append(w.body, jen.Return())
		return
	case w.errRes && !w.named && m.logOf(w.fn) != "":
		// The library explains the failure in a log of the handle the
		// call took first: the error carries it.
		w.body = append(w.body,
			jen.If(jen.Err().Op(":=").Add(errOf(status())), jen.Err().Op("!=").Nil()).Block(
				jen.List(jen.Id("log"), jen.Id("_")).Op(":=").Id(m.logOf(w.fn)).Call(jen.Id(w.ps[0].goName)),
				jen.Return(jen.Qual(FFIImplPath, "WithLog").Call(jen.Err(), jen.Id("log"))),
			),
			jen.Return(jen.Nil()))
		return
	case w.errRes && !w.named:
		w.body = append(w.body, jen.Return(errOf(status())))
		return
	case w.errRes:
		// Outputs are converted either way: after a failure they are the
		// zero values or what C left in them.
		w.body = append(w.body, w.post...)
		var res []jen.Code
		for _, p := range w.ps {
			if p.role.isResult() {
				res = append(res, jen.Id(p.goName))
			}
		}
		w.body = append(w.body, jen.Return(append(res, errOf(status()))...))
		return
	case w.cResult != nil && w.ptrRes:
		w.body = append(w.body, jen.Id("ret").Op("=").Add(m.deviceType(w.cResult)).Call(w.ret))
		w.body = append(w.body, w.post...)
	case w.cResult != nil && m.record(w.cResult) == nil:
		w.body = append(w.body, jen.Id("ret").Op("=").Add(m.retConversion(w.cResult, w.ret)))
		w.body = append(w.body, w.post...)
	case w.cResult != nil:
		w.body = append(w.body, jen.Id("frame").Dot("RetStruct").Call(unsafePointer(jen.Op("&").Id("ret")), jen.Op("&").Id(m.layoutName(w.cResult))))
		w.body = append(w.body, w.post...)
	default:
		w.body = append(w.body, w.post...)
	}
	w.body = append(w.body, w.tail...)
	if w.named {
		w.body = append(w.body, jen.Return())
	}
}

// tailStmts are what a successful call keeps: a registered callback's
// handle, a host node's Go func, a callback recorded into a capture graph.
func (w *wrapper) tailStmts() []jen.Code {
	stmts := w.m.registryStmts(w.fn, w.ps)
	for _, p := range w.ps {
		if p.role != roleHostParams {
			continue
		}
		var keep jen.Code
		switch {
		case p.life == lifeExec:
			keep = jen.Id("callbackRegistry").Dot("Add").Call(jen.Uintptr().Call(jen.Id(p.owner.goName)), jen.Id("hdl"))
		case p.owner == nil:
			keep = jen.Id("err").Op("=").Id("retainHandle").Call(jen.Id("ownerGraph"), jen.Id("hdl"))
		default:
			keep = jen.Id("err").Op("=").Id("retainHandle").Call(jen.Id(p.owner.goName), jen.Id("hdl"))
		}
		stmts = append(stmts, jen.If(jen.Id("hdl").Op("!=").Lit(0)).Block(keep))
	}
	if hasLife(w.ps, lifeStream) {
		stmts = append(stmts, jen.If(jen.Id("cbGraph").Op("!=").Lit(0)).Block(
			jen.Id("err").Op("=").Id("retainHandle").Call(jen.Id("cbGraph"), jen.Id("hdl")),
		))
	}
	return stmts
}

// genAliases gives each C alias macro (#define cuGraphInstantiate
// cuGraphInstantiateWithFlags) a Go function of its own name, with the
// wrapper's signature, that calls the wrapper.
func (m *model) genAliases(f *jen.File, w *wrapper) {
	fn := w.fn
	var args []jen.Code
	for _, p := range w.ps {
		if !p.role.isResult() && !p.role.filled() {
			args = append(args, jen.Id(p.goName))
		}
	}
	if addsOwnerGraph(w.ps) {
		args = append(args, jen.Id("ownerGraph"))
	}
	results := w.results()
	for _, a := range fn.Aliases {
		an := m.aliasNames[a]
		comment(f, fmt.Sprintf("%s is %s, which %s defines as %s: it calls [%s].", an, a, fn.Pos.File, fn.Name, w.name))
		var stmt jen.Code = jen.Return(jen.Id(w.name).Call(args...))
		if len(results) == 0 {
			stmt = jen.Id(w.name).Call(args...)
		}
		f.Func().Id(an).Params(w.params()...).Params(results...).Block(stmt)
		f.Line()
	}
}

// field is a named parameter or result.
type field struct {
	name string
	typ  jen.Code
}

// fieldList writes fields as Go does by hand: consecutive fields of one
// type share it, (x, y, z uint32).
func fieldList(fs []field) []jen.Code {
	var out []jen.Code
	for i := 0; i < len(fs); {
		j := i + 1
		for j < len(fs) && sameType(fs[j].typ, fs[i].typ) {
			j++
		}
		var names []jen.Code
		for _, f := range fs[i:j] {
			names = append(names, jen.Id(f.name))
		}
		out = append(out, jen.List(names...).Add(fs[i].typ))
		i = j
	}
	return out
}

// sameType reports whether two Go types are the same jennifer code, token
// by token. (Rendering them to compare, through GoString, runs gofmt on
// each: it was a third of the generator's time.)
func sameType(a, b jen.Code) bool { return reflect.DeepEqual(a, b) }

// registryStmts keeps a registered callback's handle until its unregister
// call: the register wrapper adds it under the registration handle C
// returned, the unregister wrapper removes (and deletes) it.
func (m *model) registryStmts(fn *ir.Function, ps []*param) []jen.Code {
	if _, ok := m.desc.Overrides.RegisteredCallbacks[fn.Name]; ok && hasHandle(ps) {
		for _, p := range ps {
			if p.role == roleOut {
				return []jen.Code{jen.Id("callbackRegistry").Dot("Add").Call(jen.Uintptr().Call(jen.Id(p.goName)), jen.Id("hdl"))}
			}
		}
	}
	if m.graph != nil && m.graph.execOwned && fn.Name == m.graph.api.ExecDestroy {
		if p := handleParam(ps, m.graph.api.Exec); p != nil && p.role == roleValue {
			return []jen.Code{jen.Comment("Release the Go funcs given to the exec's host nodes."), jen.Id("callbackRegistry").Dot("Remove").Call(jen.Uintptr().Call(jen.Id(p.goName)))}
		}
	}
	// In name order: with two registrations sharing one unregister
	// function, map order would decide the output.
	for _, reg := range slices.Sorted(maps.Keys(m.desc.Overrides.RegisteredCallbacks)) {
		if m.desc.Overrides.RegisteredCallbacks[reg] != fn.Name {
			continue
		}
		var key string // the C type of the registration handle
		for _, g := range m.funcs {
			if g.Name == reg {
				for _, p := range g.Params {
					if p.Direction == ir.Out && p.Type.Elem != nil {
						key = p.Type.Elem.Name
					}
				}
			}
		}
		for _, p := range ps {
			if key != "" && p.c.Type.Name == key && p.role == roleValue {
				return []jen.Code{jen.Id("callbackRegistry").Dot("Remove").Call(jen.Uintptr().Call(jen.Id(p.goName)))}
			}
		}
	}
	return nil
}

// scopeStmts opens the wrapper's ffiimpl.CallbackScope: C may run the Go
// callback on this thread during the call (see ffiimpl.Recover).
func (m *model) scopeStmts() []jen.Code {
	return []jen.Code{
		jen.Id("cbScope").Op(":=").Qual(FFIImplPath, "EnterCallbacks").Call(),
		jen.Defer().Id("cbScope").Dot("Exit").Call(),
	}
}

// structRef returns the reference name of the record a by-value parameter
// type names, following typedefs to the one that has a Go name.
func (m *model) structRef(t *ir.Type) string {
	if m.typeName(t.Name) != "" {
		return t.Name
	}
	return m.resolve(t).Name
}

func (m *model) resultGoType(t *ir.Type) jen.Code {
	r := m.resolve(t)
	if r.Kind == ir.Pointer && r.Elem != nil && r.Elem.Kind == ir.Int && r.Elem.Size == 1 {
		return jen.String()
	}
	return m.goType(t)
}

// retConversion converts a scalar C result to its Go type: raw is the
// integer result register (a uintptr expression); float results come from
// the Frame, the only call path that returns them.
func (m *model) retConversion(t *ir.Type, raw jen.Code) jen.Code {
	r := m.resolve(t)
	switch {
	case r.Kind == ir.Pointer && r.Elem != nil && r.Elem.Kind == ir.Int && r.Elem.Size == 1:
		return jen.Qual(FFIImplPath, "GoString").Call(raw)
	case m.isConstRecordPtr(r):
		return jen.Qual(FFIImplPath, "CopyOut").Types(m.goType(r.Elem)).Call(raw)
	case r.Kind == ir.Float && r.Size == 4:
		return jen.Id("frame").Dot("RetFloat32").Call()
	case r.Kind == ir.Float:
		return jen.Id("frame").Dot("RetFloat64").Call()
	}
	return jen.Add(m.goType(t)).Call(raw)
}
