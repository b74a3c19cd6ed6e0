package emit

import (
	"fmt"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// This file emits the one C entry point of each callback typedef a
// wrapper passes a Go func as.

func trampolineName(cb *callback) string { return "trampoline" + cb.name }

// genTrampoline emits the one C entry point for a callback typedef. With a
// userData parameter it finds the Go func by the handle C hands back there
// (Use deletes a one-shot handle); without one (a synchronous callback) it
// takes the func from the typedef's CallbackSlot.
func (m *model) genTrampoline(f *jen.File, cb *callback) {
	name := trampolineName(cb)
	var cfields []field
	var args []jen.Code
	for i, p := range cb.sig.Params {
		pn := fmt.Sprintf("a%d", i)
		cfields = append(cfields, field{pn, jen.Uintptr()})
		if i == cb.user {
			continue
		}
		args = append(args, m.fromUintptr(p.Type, jen.Id(pn)))
	}
	cparams := fieldList(cfields)
	goFn := "fn" + cb.name
	f.Commentf("%s is the C address of %sGo, created once: purego allows 2000", name, name)
	f.Comment("callbacks per process, so every call shares it and finds its Go func")
	switch {
	case cb.user >= 0:
		f.Comment("through the handle passed as userData. A panic in the Go func never")
	case cb.global:
		f.Commentf("in %s, set by the last call that passed one, from any thread.", globalName(cb))
		f.Comment("A panic in the Go func never")
	default:
		f.Commentf("through %s in the ffiimpl.CallbackScope of the call that passes", slotName(cb))
		f.Comment("it, on this thread. A panic in the Go func never")
	}
	f.Comment("unwinds through C's frames (see ffiimpl.Recover).")
	switch {
	case cb.global:
		f.Var().Id(globalName(cb)).Qual("sync/atomic", "Pointer").Types(cb.goFunc)
	case cb.user < 0:
		f.Var().Id(slotName(cb)).Qual(FFIImplPath, "CallbackSlot")
	}
	f.Var().Id(name).Op("=").Qual("sync", "OnceValue").Call(jen.Func().Params().Uintptr().Block(
		jen.Return(jen.Qual(FFIImplPath, "Callback").Call(jen.Id(name + "Go"))),
	))
	var lookup jen.Code
	switch {
	case cb.user >= 0:
		lookup = jen.List(jen.Id(goFn), jen.Id("_")).Op(":=").Qual(FFIImplPath, "Handle").Call(jen.Id(fmt.Sprintf("a%d", cb.user))).Dot("Use").Call().Assert(cb.goFunc)
	case cb.global:
		lookup = jen.Id(goFn).Op(":=").Id(globalName(cb)).Dot("Load").Call()
	default:
		lookup = jen.List(jen.Id(goFn), jen.Id("_")).Op(":=").Id(slotName(cb)).Dot("Value").Call().Assert(cb.goFunc)
	}
	call := jen.Id(goFn).Call(args...)
	if cb.global {
		call = jen.Parens(jen.Op("*").Id(goFn)).Call(args...)
	}
	if cb.sig.Result.Kind == ir.Void {
		f.Func().Id(name+"Go").Params(cparams...).Block(
			jen.Defer().Qual(FFIImplPath, "Recover").Call(),
			lookup,
			jen.If(jen.Id(goFn).Op("!=").Nil()).Block(call),
		)
	} else {
		f.Func().Id(name+"Go").Params(cparams...).Uintptr().Block(
			jen.Defer().Qual(FFIImplPath, "Recover").Call(), // a panic returns 0 to C
			lookup,
			jen.If(jen.Id(goFn).Op("==").Nil()).Block(jen.Return(jen.Lit(0))),
			jen.Return(jen.Uintptr().Call(call)),
		)
	}
	f.Line()
}

func slotName(cb *callback) string { return "slot" + cb.name }

func globalName(cb *callback) string { return "global" + cb.name }

// fromUintptr converts a register value back to the Go type of t.
func (m *model) fromUintptr(t *ir.Type, v jen.Code) jen.Code {
	gt := m.goType(t)
	rt := m.resolve(t)
	if rt.Kind == ir.Pointer && t.Kind != ir.Named {
		// A raw pointer from C: unsafe.Pointer via a uintptr is how C
		// memory is viewed; go vet accepts it in this form.
		return jen.Op("*").Parens(jen.Op("*").Add(gt)).Call(jen.Qual("unsafe", "Pointer").Call(jen.Op("&").Add(v)))
	}
	return jen.Add(gt).Call(v)
}
