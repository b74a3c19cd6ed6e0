package emit

import (
	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// This file prepares a wrapper's C arguments: the locals they point to,
// declared before the call, and the argument words in order.

// prepare declares what the C arguments point to. Everything that calls a
// function is prepared before the Frame gets its first stack address (see
// the stack invariant on ffiimpl.Frame). A function that takes a Go callback
// may run Go code on this goroutine during the C call (C calls back on the
// calling thread), which can move the stack: its Frame and outputs live on
// the heap instead.
func (w *wrapper) prepare() {
	for _, p := range w.ps {
		w.prepareHostOrDevice(p) // devptr.go
		if w.heap {
			w.prepareOnHeap(p)
			if p.role == roleOut || p.role == roleOutString || p.role == roleOutBuffer {
				continue
			}
		}
		w.prepareLocals(p)
	}
}

// escape is ffiimpl.Escape(x): x is moved to the heap.
func escape(x jen.Code) jen.Code { return jen.Qual(FFIImplPath, "Escape").Call(x) }

// prepareOnHeap allocates p's output on the heap, or moves to the heap
// what a pointer argument points to, for a wrapper whose stack may move
// during the call.
func (w *wrapper) prepareOnHeap(p *param) {
	v := jen.Id(p.goName)
	switch p.role {
	case roleOut:
		w.body = append(w.body, jen.Id(p.goName+"P").Op(":=").New(p.goType), escape(unsafePointer(jen.Id(p.goName+"P"))))
	case roleOutString:
		w.body = append(w.body, jen.Id(p.goName+"C").Op(":=").New(jen.Uintptr()), escape(unsafePointer(jen.Id(p.goName+"C"))))
	case roleOutBuffer:
		w.body = append(w.body, jen.Id(p.goName+"Buf").Op(":=").New(jen.Index(jen.Lit(stringBufferLen)).Byte()), escape(unsafePointer(jen.Id(p.goName+"Buf"))))
	case rolePointer:
		w.body = append(w.body, escape(p.asUnsafePointer()))
	case roleKernelArgs:
		w.body = append(w.body, escape(unsafePointer(jen.Qual("unsafe", "SliceData").Call(v))))
	}
}

// prepareLocals declares the locals p's C argument is made of: C strings,
// output buffers, aligned copies, callback handles.
func (w *wrapper) prepareLocals(p *param) {
	v := jen.Id(p.goName)
	switch p.role {
	case roleString:
		w.body = append(w.body, jen.Id(p.goName+"C").Op(":=").Qual(FFIImplPath, "CString").Call(v))
	case roleOptString:
		w.body = append(w.body, jen.Id(p.goName+"C").Op(":=").Qual(FFIImplPath, "OptCString").Call(v))
	case roleStrings:
		if o := p.countOf; o != nil {
			w.body = append(w.body, jen.If(jen.Len(v).Op("!=").Len(jen.Id(o.goName))).Add(w.fail(
				jen.Id("err").Op("=").Qual(FFIImplPath, "LengthMismatch").Call(jen.Lit(w.fn.Name), jen.Lit(p.goName), jen.Len(v), jen.Lit(o.goName), jen.Len(jen.Id(o.goName))))))
		}
		w.body = append(w.body, jen.Id(p.goName+"C").Op(":=").Qual(FFIImplPath, "CStrings").Call(v))
	case roleOutString:
		w.body = append(w.body, jen.Var().Id(p.goName+"C").Uintptr())
	case roleOutBuffer:
		w.body = append(w.body, jen.Var().Id(p.goName+"Buf").Index(jen.Lit(stringBufferLen)).Byte())
	case rolePointer:
		if p.align != 0 {
			w.prepareAlignedIn(p)
		}
	case roleOutAligned:
		// Stack copies move a stack by a multiple of its page-aligned
		// size, so the alignment computed here survives them.
		buf := p.goName + "Buf"
		w.body = append(w.body,
			jen.Var().Id(buf).Index(jen.Qual("unsafe", "Sizeof").Call(jen.Id(p.goName)).Op("+").Lit(int(p.align))).Byte(),
			jen.Id(p.goName+"P").Op(":=").Qual("unsafe", "Add").Call(
				unsafePointer(jen.Op("&").Id(buf)),
				jen.Parens(jen.Lit(int(p.align)).Op("-").Uintptr().Call(unsafePointer(jen.Op("&").Id(buf))).Op("%").Lit(int(p.align))).Op("%").Lit(int(p.align))),
		)
	case roleCallback:
		w.prepareCallback(p)
	case roleHostParams:
		w.prepareHostParams(p)
	case roleLaunchExtra:
		if w.heap {
			w.body = append(w.body, jen.Id(p.goName+"C").Op(":=").New(jen.Qual(FFIImplPath, "Extra")))
		} else {
			w.body = append(w.body, jen.Var().Id(p.goName+"C").Qual(FFIImplPath, "Extra"))
		}
	case roleGlobalFunc:
		// stored before the call: C may call it during the call
		addr := p.goName + "Addr"
		w.body = append(w.body,
			jen.Var().Id(addr).Uintptr(),
			jen.If(jen.Id(p.goName).Op("!=").Nil()).Block(
				jen.Id(addr).Op("=").Id(trampolineName(p.cb)).Call(),
				jen.Id(globalName(p.cb)).Dot("Store").Call(jen.Op("&").Id(p.goName)),
			),
		)
	case roleCallbackSync:
		w.body = append(w.body, w.m.scopeStmts()...)
		w.body = append(w.body,
			jen.Var().Id("cbAddr").Uintptr(),
			jen.If(jen.Id(p.goName).Op("!=").Nil()).Block(
				jen.Id("cbAddr").Op("=").Id(trampolineName(p.cb)).Call(),
				jen.Id("cbScope").Dot("Hold").Call(jen.Op("&").Id(slotName(p.cb)), v),
			),
		)
	}
}

// prepareAlignedIn declares the aligned copy ffiimpl.AlignedIn makes of a
// misaligned host value p points to.
func (w *wrapper) prepareAlignedIn(p *param) {
	buf := p.goName + "Buf"
	size := p.valueSize()
	bufType := jen.Index(p.valueSize().Op("+").Lit(int(p.align))).Byte()
	bufPtr := unsafePointer(jen.Op("&").Id(buf))
	if w.heap {
		w.body = append(w.body, jen.Id(buf).Op(":=").New(bufType), escape(unsafePointer(jen.Id(buf))))
		bufPtr = unsafePointer(jen.Id(buf))
	} else {
		w.body = append(w.body, jen.Var().Id(buf).Add(bufType))
	}
	w.body = append(w.body, jen.Id(p.goName+"P").Op(":=").Qual(FFIImplPath, "AlignedIn").Call(p.asUnsafePointer(), bufPtr, size, jen.Lit(int(p.align))))
}

// prepareCallback makes the trampoline address and the handle C passes
// back as userData for the Go func p. nil is NULL: no trampoline, no
// handle (hdl 0 is NULL userData).
func (w *wrapper) prepareCallback(p *param) {
	m := w.m
	v := jen.Id(p.goName)
	set := []jen.Code{jen.Id("cbAddr").Op("=").Id(trampolineName(p.cb)).Call()}
	switch p.life {
	case lifeOnce:
		set = append(set, jen.Id("hdl").Op("=").Qual(FFIImplPath, "NewHandleOnce").Call(v))
	case lifeRegistered:
		set = append(set, jen.Id("hdl").Op("=").Qual(FFIImplPath, "NewHandle").Call(v))
	case lifeStream:
		// A capturing stream records the callback into a graph node
		// that runs on every launch of the graph: its handle then
		// lives as long as the graph (see retainHandle).
		set = append(set, jen.If(jen.Id("cbGraph").Op("=").Id("captureGraph").Call(jen.Id(m.streamParam(w.ps).goName)), jen.Id("cbGraph").Op("!=").Lit(0)).Block(
			jen.Id("hdl").Op("=").Qual(FFIImplPath, "NewHandle").Call(v),
		).Else().Block(
			jen.Id("hdl").Op("=").Qual(FFIImplPath, "NewHandleOnce").Call(v),
		))
		w.body = append(w.body, jen.Var().Id("cbGraph").Id(m.graph.graphType))
	}
	w.body = append(w.body, m.scopeStmts()...)
	w.body = append(w.body,
		jen.Var().Id("cbAddr").Uintptr(),
		jen.Var().Id("hdl").Qual(FFIImplPath, "Handle"),
		jen.If(jen.Id(p.goName).Op("!=").Nil()).Block(set...),
	)
}

// prepareHostParams builds on the heap the host node struct C reads for
// p: the trampoline in its function field, the Go func's handle in its
// userData field.
func (w *wrapper) prepareHostParams(p *param) {
	h := p.host
	c := p.goName + "C"
	w.body = append(w.body, w.m.scopeStmts()...)
	w.body = append(w.body,
		jen.Var().Id("hdl").Qual(FFIImplPath, "Handle"),
		jen.Id(c).Op(":=").New(jen.Index(jen.Lit(int(h.size/8))).Uintptr()),
		escape(unsafePointer(jen.Id(c))),
		jen.If(jen.Id(p.goName).Op("!=").Nil()).Block(
			jen.Id("hdl").Op("=").Qual(FFIImplPath, "NewHandle").Call(jen.Id(p.goName)),
			jen.Id(c).Index(jen.Lit(int(h.fnOff/8))).Op("=").Id(trampolineName(p.cb)).Call(),
			jen.Id(c).Index(jen.Lit(int(h.udOff/8))).Op("=").Uintptr().Call(jen.Id("hdl")),
		),
	)
}

// unsafePointer is unsafe.Pointer(x).
func unsafePointer(x jen.Code) jen.Code { return jen.Qual("unsafe", "Pointer").Call(x) }

// asUnsafePointer is the rolePointer parameter p as an unsafe.Pointer:
// itself if it is one already.
func (p *param) asUnsafePointer() jen.Code {
	if isHostOrDevice(p) {
		return jen.Id(p.goName + "V") // prepareHostOrDevice's
	}
	if sameType(p.goType, jen.Qual("unsafe", "Pointer")) {
		return jen.Id(p.goName)
	}
	return unsafePointer(jen.Id(p.goName))
}

// arguments lists the C arguments in order: an integer-register word
// each, except floats and by-value structs, which only a Frame can pass.
// It notes what must stay alive through the call and the conversions of
// outputs after it.
func (w *wrapper) arguments() {
	for _, p := range w.ps {
		if p.role.isResult() {
			w.outArgument(p)
		} else {
			w.inArgument(p)
		}
	}
	w.ints = w.m.callsInts(w.fn, w.cargs, w.heap)
}

// word adds an integer-register argument.
func (w *wrapper) word(x jen.Code) { w.cargs = append(w.cargs, callArg{word: x}) }

// keep keeps x alive until the call returns: C got its address.
func (w *wrapper) keep(x ...jen.Code) { w.keepAlive = append(w.keepAlive, x...) }

// inArgument adds the argument of p, a parameter the caller gives or the
// wrapper fills.
func (w *wrapper) inArgument(p *param) {
	m := w.m
	v := jen.Id(p.goName)
	switch p.role {
	case roleValue:
		w.word(jen.Uintptr().Call(v))
	case roleFloat:
		if m.resolve(p.c.Type).Size == 4 {
			w.cargs = append(w.cargs, callArg{frame: jen.Id("frame").Dot("Float32").Call(jen.Float32().Call(v))})
		} else {
			w.cargs = append(w.cargs, callArg{frame: jen.Id("frame").Dot("Float64").Call(jen.Float64().Call(v))})
		}
	case rolePointer:
		w.pointerArgument(p)
	case roleKernelArgs:
		w.word(jen.Uintptr().Call(unsafePointer(jen.Qual("unsafe", "SliceData").Call(v))))
		w.keep(v)
	case roleLaunchExtra:
		// Set is nosplit and calls nothing: the stack invariant holds.
		w.word(jen.Id(p.goName + "C").Dot("Set").Call(v))
		w.keep(v)
		if w.heap {
			w.keep(jen.Id(p.goName + "C"))
		} else {
			w.keep(jen.Op("&").Id(p.goName + "C"))
		}
	case roleString, roleOptString:
		cs := p.goName + "C"
		w.word(jen.Uintptr().Call(unsafePointer(jen.Id(cs))))
		w.keep(jen.Id(cs))
	case roleStruct:
		w.cargs = append(w.cargs, callArg{frame: jen.Id("frame").Dot("Struct").Call(unsafePointer(jen.Op("&").Add(v)), jen.Op("&").Id(m.layoutName(p.c.Type)))})
		w.keep(jen.Op("&").Add(v))
	case roleBufferLen:
		w.word(jen.Lit(stringBufferLen))
	case roleStrings:
		w.word(jen.Uintptr().Call(unsafePointer(jen.Qual("unsafe", "SliceData").Call(jen.Id(p.goName + "C")))))
		w.keep(jen.Id(p.goName + "C"))
	case roleCount:
		w.word(jen.Uintptr().Call(jen.Len(jen.Id(p.countOf.goName))))
	case roleCallback, roleCallbackSync:
		w.word(jen.Id("cbAddr"))
	case roleGlobalFunc:
		w.word(jen.Id(p.goName + "Addr"))
	case roleHostParams:
		w.word(jen.Uintptr().Call(unsafePointer(jen.Id(p.goName + "C"))))
		w.keep(jen.Id(p.goName + "C"))
	case roleUserData:
		w.word(jen.Uintptr().Call(jen.Id("hdl")))
	}
}

// pointerArgument passes the pointer p, or the aligned copy of what it
// points to (prepareAlignedIn), copied back after the call unless const.
func (w *wrapper) pointerArgument(p *param) {
	v := jen.Id(p.goName)
	if p.align == 0 {
		w.word(jen.Uintptr().Call(p.asUnsafePointer()))
		w.keep(v)
		return
	}
	w.word(jen.Uintptr().Call(jen.Id(p.goName + "P")))
	w.keep(v)
	if w.heap {
		w.keep(jen.Id(p.goName + "Buf"))
	} else {
		w.keep(jen.Op("&").Id(p.goName + "Buf"))
	}
	if e := w.m.resolve(p.c.Type).Elem; e == nil || !e.Const {
		w.copyBack = append(w.copyBack, jen.Qual(FFIImplPath, "AlignedOut").Call(p.asUnsafePointer(), jen.Id(p.goName+"P"), p.valueSize()))
	}
}

// outArgument passes where C writes the output p, and notes its
// conversion to the result after the call.
func (w *wrapper) outArgument(p *param) {
	v := jen.Id(p.goName)
	switch p.role {
	case roleOut:
		if w.heap {
			w.word(jen.Uintptr().Call(unsafePointer(jen.Id(p.goName + "P"))))
			w.keep(jen.Id(p.goName + "P"))
			w.post = append(w.post, jen.Id(p.goName).Op("=").Op("*").Id(p.goName+"P"))
			break
		}
		w.word(jen.Uintptr().Call(unsafePointer(jen.Op("&").Add(v))))
		w.keep(jen.Op("&").Add(v))
	case roleOutAligned:
		w.word(jen.Uintptr().Call(jen.Id(p.goName + "P")))
		w.keep(jen.Op("&").Id(p.goName + "Buf"))
		w.post = append(w.post, jen.Id(p.goName).Op("=").Op("*").Parens(jen.Op("*").Add(p.goType)).Call(jen.Id(p.goName+"P")))
	case roleOutString:
		tmp := p.goName + "C"
		if w.heap {
			w.word(jen.Uintptr().Call(unsafePointer(jen.Id(tmp))))
			w.keep(jen.Id(tmp))
			w.post = append(w.post, jen.Id(p.goName).Op("=").Qual(FFIImplPath, "GoString").Call(jen.Op("*").Id(tmp)))
			break
		}
		w.word(jen.Uintptr().Call(unsafePointer(jen.Op("&").Id(tmp))))
		w.keep(jen.Op("&").Id(tmp))
		w.post = append(w.post, jen.Id(p.goName).Op("=").Qual(FFIImplPath, "GoString").Call(jen.Id(tmp)))
	case roleOutBuffer:
		buf := p.goName + "Buf"
		w.word(jen.Uintptr().Call(unsafePointer(jen.Op("&").Id(buf).Index(jen.Lit(0)))))
		if w.heap {
			w.keep(jen.Id(buf))
		} else {
			w.keep(jen.Op("&").Id(buf))
		}
		w.post = append(w.post, jen.Id(p.goName).Op("=").Qual(FFIImplPath, "GoStringN").Call(jen.Id(buf).Index(jen.Op(":"))))
	}
}

// callArg is one C argument of a call: an integer-register word, or (for
// floats and by-value structs) the Frame statement that adds it.
type callArg struct {
	word  jen.Code
	frame jen.Code
}

// ffiIntsArgs is the number of arguments ffiimpl.CallInts takes.
const ffiIntsArgs = 6

// callsInts reports whether fn is called through ffiimpl.CallInts rather than
// a Frame: every argument an integer-register word and at most six of them,
// a result that is void, an integer or a pointer, and no Go callback (a
// callback needs the heap Frame, see the stack invariant on ffiimpl.Frame).
func (m *model) callsInts(fn *ir.Function, args []callArg, heap bool) bool {
	if heap || len(args) > ffiIntsArgs {
		return false
	}
	for _, a := range args {
		if a.frame != nil {
			return false
		}
	}
	if fn.Result.Kind == ir.Void {
		return true
	}
	if m.record(fn.Result) != nil {
		return false
	}
	return m.resolve(fn.Result).Kind != ir.Float
}
