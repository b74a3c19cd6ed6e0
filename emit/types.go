package emit

import (
	"fmt"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// genTypedefs emits types.go: handles, scalar typedefs and aliases.
func (m *model) genTypedefs(f *jen.File) error {
	for _, t := range m.tds {
		name, ok := m.typeNames[t.Name]
		if !ok || (t.Type.Kind == ir.Named && m.typeName(t.Type.Name) == name) {
			continue
		}
		lead, paired := m.versionedLead(t.Name, "type", t.Pos.File)
		if !paired {
			lead = fmt.Sprintf("is the C type %s (%s).", t.Name, t.Pos.File)
		}
		if y, ok := m.versioned[t.Name]; ok {
			// typedef CUdeviceptr_v2 CUdeviceptr: DeviceptrV2 = Deviceptr.
			m.pairDocComment(f, m.typeNames[y], lead, nil)
			f.Type().Id(m.typeNames[y]).Op("=").Id(name)
			f.Line()
			continue
		}
		name = m.declName(t.Name)
		doc := t.Doc
		if x, ok := m.unversioned[t.Name]; ok && doc == nil {
			doc = m.typedefs[x].Doc
		}
		if paired {
			m.pairDocComment(f, name, lead, doc)
		} else {
			m.docComment(f, name, lead, doc)
		}
		tt := t.Type
		switch {
		case m.isHandleType(tt) && m.mutableHandle(t) != "":
			// typedef const struct X *ConstX beside typedef struct X *X:
			// one handle, so a handle passes where the const one is taken.
			f.Comment("It is the same handle as " + m.mutableHandle(t) + " (C's pointer to const of it).")
			f.Type().Id(name).Op("=").Id(m.mutableHandle(t))
		case m.isHandleType(tt):
			f.Type().Id(name).Uintptr()
		case tt.Kind == ir.FuncPtr:
			f.Comment("It holds a C function pointer.")
			f.Type().Id(name).Uintptr()
		case tt.Kind == ir.Named && m.imported[tt.Name] != nil:
			f.Type().Id(name).Op("=").Add(m.imported[tt.Name])
		case tt.Kind == ir.Named:
			target := m.typeName(tt.Name)
			if target == "" || target == name {
				f.Type().Id(name).Add(m.goType(m.resolve(tt)))
			} else {
				f.Type().Id(name).Op("=").Id(target)
			}
		case tt.Kind == ir.Int, tt.Kind == ir.Float, tt.Kind == ir.Array:
			f.Type().Id(name).Add(m.goType(tt))
		default:
			f.Type().Id(name).Op("=").Add(m.goType(tt))
		}
		f.Line()
	}
	return nil
}

// handleRules is the package documentation of the handle, pointer and
// launch rules (funcs.go, structs.go, helpers.go), the same in cu and
// cudart.
const handleRules = `
# Handles, pointers and launches

Every CUDA handle is a named uintptr (Stream, Event, Graph, Kernel, ...).
Where the driver and the runtime name one C type twice (CUstream and
cudaStream_t, CUevent and cudaEvent_t, CUgraph and cudaGraph_t, CUkernel and
cudaKernel_t, ...) a plain conversion passes a handle from one package to
the other: cudart.Stream(s), cu.Stream(s).

A runtime void * that takes a kernel (every parameter or member named func,
as in cudaLaunchKernel, cudaFuncGetAttributes, the cudaOccupancy functions
and cudaKernelNodeParams, and those audit.txt lists) is a cudart.Kernel: a
cudaKernel_t, or the address of a kernel's host entry function.

Every other void * is an unsafe.Pointer: it may take host memory, and Go
memory must stay a real pointer for the collector to keep it alive during
the call. A driver device address (cu.Deviceptr) passes as d.Pointer(); an
unsafe.Pointer from the runtime converts back as cu.Deviceptr(uintptr(p)).
Neither needs a conversion go vet flags.

Kernel arguments are a []unsafe.Pointer, one pointer per kernel parameter.
cu.LaunchKernel's extra is the packed argument buffer, a []byte: the
wrapper builds the CU_LAUNCH_PARAM_* array in words the collector never
reads as pointers. The Extra member of the kernel node parameters is a
*uintptr for the same reason: set it to LaunchExtra(buf). cudart.Dim1(x) and cudart.Dim2(x, y) give
dim3's C++ defaults (1 for the omitted dimensions).`

// mutableHandle is, for a handle typedef to a pointer to const (typedef
// const struct cusparseSpMatDescr *cusparseConstSpMatDescr_t), the Go name
// of the package's handle typedef to the same struct without const
// (SpMatDescr); "" if t is no such typedef or there is none.
func (m *model) mutableHandle(t *ir.Typedef) string {
	tt := t.Type
	if tt.Kind != ir.Pointer || tt.Elem == nil || !tt.Elem.Const || tt.Elem.Kind != ir.Named {
		return ""
	}
	for _, o := range m.tds {
		ot := o.Type
		if o != t && ot.Kind == ir.Pointer && ot.Elem != nil && !ot.Elem.Const && ot.Elem.Kind == ir.Named && ot.Elem.Name == tt.Elem.Name && m.isHandleType(ot) {
			if n := m.typeNames[o.Name]; n != "" {
				return n
			}
		}
	}
	return ""
}
