package emit

import (
	"fmt"
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// bufferPair is a size-then-buffer pair of C functions: size writes the
// number of elements the buffer function then fills,
//
//	nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t *ptxSizeRet);
//	nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char *ptx);
//
// The buffer function's wrapper asks the size, allocates, fills and returns
// the buffer: GetPTX(prog) ([]byte, error). The size function keeps its own
// wrapper.
type bufferPair struct {
	size     *ir.Function
	elem     jen.Code // the element's Go type: byte, int32
	sizeType jen.Code // the count's Go type: uint64 (size_t), int32 (int)
	text     bool     // a log: returned as a string, up to its NUL
}

// kind is what the wrapper returns, for its doc and the audit file.
func (bp *bufferPair) kind() string {
	if bp.text {
		return "the text up to its NUL"
	}
	return "the buffer"
}

// findBufferPairs finds the pairs by one rule, never a list: the buffer
// function's last parameter is a pointer to non-const elements whose
// count the header does not give, its others are values passed in
// registers (handles, integers, enums); the size function is named for it
// (nvrtcGetPTX: nvrtcGetPTXSize; nvrtcGetSupportedArchs:
// nvrtcGetNumSupportedArchs) and takes the same leading parameters and a
// pointer to an integer count. A buffer whose name says it is a log
// (nvrtcGetProgramLog's log), or of a function the description names as
// a log (Desc.Logs: nvvmGetProgramLog's buffer), is a string.
func (m *model) findBufferPairs() map[*ir.Function]*bufferPair {
	byName := map[string]*ir.Function{}
	for _, fn := range m.funcs {
		byName[fn.Name] = fn
	}
	out := map[*ir.Function]*bufferPair{}
	for _, fn := range m.funcs {
		n := len(fn.Params)
		if n == 0 || !m.isErrorResult(fn.Result) {
			continue
		}
		buf := fn.Params[n-1]
		bt := buf.Type
		if bt.Kind != ir.Pointer || bt.Elem == nil || bt.Elem.Const || buf.Array != nil && (buf.Array.Len > 0 || buf.Array.Param != "") {
			continue
		}
		elem := m.resolve(bt.Elem)
		var elemType jen.Code
		switch {
		case elem.Kind == ir.Void, elem.Kind == ir.Int && elem.Size == 1:
			elemType = jen.Byte()
		case elem.Kind == ir.Int:
			elemType = m.goType(bt.Elem)
		default:
			continue
		}
		if !m.registerValues(fn.Params[:n-1]) {
			continue
		}
		var size *ir.Function
		for _, name := range sizeFuncNames(fn.Name) {
			if s := byName[name]; s != nil && m.isErrorResult(s.Result) && m.sizeOf(s, fn.Params[:n-1]) {
				size = s
			}
		}
		if size == nil {
			continue
		}
		st := size.Params[len(size.Params)-1].Type.Elem
		out[fn] = &bufferPair{
			size:     size,
			elem:     elemType,
			sizeType: m.goType(st),
			text:     (strings.Contains(strings.ToLower(buf.Name), "log") || m.isLogFunc(fn)) && elem.Kind == ir.Int && elem.Size == 1,
		}
	}
	return out
}

// isLogFunc reports whether the description names fn as the log of a
// failing call (Desc.Logs): the error's Log field is text.
func (m *model) isLogFunc(fn *ir.Function) bool {
	for _, l := range m.desc.Logs {
		if l.Log == fn.Name {
			return true
		}
	}
	return false
}

// sizeFuncNames are the names a buffer function's size function may have:
// nvrtcGetPTX -> nvrtcGetPTXSize; nvrtcGetSupportedArchs ->
// nvrtcGetNumSupportedArchs; nvFatbinGet -> nvFatbinSize.
func sizeFuncNames(name string) []string {
	names := []string{name + "Size"}
	if base, ok := strings.CutSuffix(name, "Get"); ok {
		names = append(names, base+"Size") // nvFatbinGet -> nvFatbinSize
	}
	if i := strings.Index(name, "Get"); i >= 0 {
		names = append(names, name[:i+3]+"Num"+name[i+3:])
	}
	return names
}

// sizeOf reports whether s takes exactly params (same C types) and then a
// pointer to an integer it writes the count to.
func (m *model) sizeOf(s *ir.Function, params []ir.Param) bool {
	if len(s.Params) != len(params)+1 {
		return false
	}
	for i, p := range params {
		if s.Params[i].Type.C != p.Type.C {
			return false
		}
	}
	last := s.Params[len(params)].Type
	return last.Kind == ir.Pointer && last.Elem != nil && !last.Elem.Const && m.resolve(last.Elem).Kind == ir.Int
}

// registerValues reports whether every parameter is an integer, enum or
// handle passed in a register as it is.
func (m *model) registerValues(ps []ir.Param) bool {
	if len(ps) > ffiIntsArgs-1 {
		return false
	}
	for _, p := range ps {
		rt := m.resolve(p.Type)
		switch {
		case rt.Kind == ir.Int || m.enum(p.Type) != nil:
		case rt.Kind == ir.Pointer && p.Type.Kind == ir.Named:
		default:
			return false
		}
	}
	return true
}

// genBufferFunc emits the wrapper of the buffer function of a pair: the
// size call, the allocation, the fill.
func (m *model) genBufferFunc(f *jen.File, fn *ir.Function, ps []*param, bp *bufferPair) {
	name := m.funcNames[fn]
	lead := ps[:len(ps)-1]
	var params, words []jen.Code
	for _, p := range lead {
		params = append(params, jen.Id(p.goName).Add(p.goType))
		words = append(words, jen.Uintptr().Call(jen.Id(p.goName)))
	}
	result := jen.Index().Add(bp.elem)
	zero := jen.Nil()
	kind := bp.kind()
	if bp.text {
		result, zero = jen.String(), jen.Lit("")
	}
	ints := func(sym string, last jen.Code) jen.Code {
		args := append([]jen.Code{jen.Id(sym)}, words...)
		args = append(args, last)
		for len(args) < 1+ffiIntsArgs {
			args = append(args, jen.Lit(0))
		}
		return jen.Qual(FFIImplPath, "CallInts").Call(args...)
	}
	check := func(proc string) jen.Code {
		return jen.If(jen.Err().Op(":=").Qual(FFIImplPath, "Error").Call(jen.Id(proc), jen.Id(m.errorType()).Call(jen.Id("r"))), jen.Err().Op("!=").Nil()).Block(jen.Return(zero, jen.Err()))
	}
	sizeProc, proc := m.procName(bp.size), m.procName(fn)
	body := []jen.Code{
		jen.List(jen.Id("sizeSym"), jen.Err()).Op(":=").Id(sizeProc).Dot("Addr").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(zero, jen.Err())),
		jen.List(jen.Id("sym"), jen.Err()).Op(":=").Id(proc).Dot("Addr").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(zero, jen.Err())),
		jen.Var().Id("size").Add(bp.sizeType),
	}
	body = append(body, m.cCall(":=", ints("sizeSym", jen.Uintptr().Call(unsafePointer(jen.Op("&").Id("size")))))...)
	body = append(body,
		jen.Qual("runtime", "KeepAlive").Call(jen.Op("&").Id("size")),
		check(sizeProc),
		jen.If(jen.Id("size").Op("<=").Lit(0)).Block(jen.Return(zero, jen.Nil())),
		jen.Id("buf").Op(":=").Make(jen.Index().Add(bp.elem), jen.Id("size")),
	)
	body = append(body, m.cCall("=", ints("sym", jen.Uintptr().Call(unsafePointer(jen.Op("&").Id("buf").Index(jen.Lit(0))))))...)
	body = append(body,
		jen.Qual("runtime", "KeepAlive").Call(jen.Id("buf")),
		check(proc),
	)
	if bp.text {
		body = append(body, jen.Return(jen.Qual(FFIImplPath, "GoStringN").Call(jen.Id("buf")), jen.Nil()))
	} else {
		body = append(body, jen.Return(jen.Id("buf"), jen.Nil()))
	}
	text := m.funcDoc(fn, ps)
	text += "\n\n" + wrapText(fmt.Sprintf("%s asks [%s] for the size first and returns %s (%s and %s are one call: the parameter %s is the result).",
		name, m.funcNames[bp.size], kind, bp.size.Name, fn.Name, ps[len(ps)-1].goName), docCommentWidth)
	comment(f, text)
	f.Func().Id(name).Params(params...).Params(result, jen.Error()).Block(body...)
	f.Line()
}
