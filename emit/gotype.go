package emit

import (
	"fmt"
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// This file is the one place C types become Go types.

// resolve follows typedefs to the type they finally denote.
func (m *model) resolve(t *ir.Type) *ir.Type {
	for i := 0; t != nil && t.Kind == ir.Named && i < 32; i++ {
		td, ok := m.typedefs[t.Name]
		if !ok {
			return t
		}
		t = td.Type
	}
	return t
}

// isHandle reports whether a typedef is an opaque handle: a pointer to a
// struct that is never defined (CUcontext = struct CUctx_st *) or to void.
func (m *model) isHandleType(t *ir.Type) bool {
	if t == nil || t.Kind != ir.Pointer || t.Elem == nil {
		return false
	}
	e := t.Elem
	if e.Kind == ir.Void {
		return true
	}
	if e.Kind == ir.Named {
		if r, ok := m.records[e.Name]; ok && r.Opaque {
			return true
		}
	}
	return false
}

// record returns the record a type denotes after typedefs, if any.
func (m *model) record(t *ir.Type) *ir.Record {
	t = m.resolve(t)
	if t == nil || t.Kind != ir.Named {
		return nil
	}
	return m.records[t.Name]
}

func (m *model) enum(t *ir.Type) *ir.Enum {
	t = m.resolve(t)
	if t == nil || t.Kind != ir.Named {
		return nil
	}
	return m.enums[t.Name]
}

// intType is the Go integer type of a C integer of this size and sign.
func intType(size int64, signed bool, c string) string {
	if size == 1 && strings.TrimPrefix(c, "const ") == "char" {
		return "byte"
	}
	s := fmt.Sprintf("int%d", size*8)
	if !signed {
		s = "u" + s
	}
	return s
}

// goType is the Go type of a C type used as a struct member, a typedef
// target or a by-value parameter.
func (m *model) goType(t *ir.Type) jen.Code {
	switch t.Kind {
	case ir.Int:
		return jen.Id(intType(t.Size, t.Signed, t.C))
	case ir.Float:
		if t.Size == 4 {
			return jen.Float32()
		}
		return jen.Float64()
	case ir.Pointer:
		e := t.Elem
		if e == nil || e.Kind == ir.Void || e.Kind == ir.FuncPtr {
			return jen.Qual("unsafe", "Pointer")
		}
		if e.Kind == ir.Named {
			if q, ok := m.imported[e.Name]; ok {
				return jen.Op("*").Add(q) // *cudart.CuComplex in cublas
			}
			if r, ok := m.records[e.Name]; ok && (r.Opaque || m.typeName(e.Name) == "") {
				return jen.Qual("unsafe", "Pointer")
			}
			if m.typeName(e.Name) == "" {
				return jen.Qual("unsafe", "Pointer")
			}
		}
		return jen.Op("*").Add(m.goType(e))
	case ir.Array:
		return jen.Index(jen.Lit(int(t.Len))).Add(m.goType(t.Elem))
	case ir.Named:
		if q, ok := m.imported[t.Name]; ok {
			return q
		}
		if n := m.typeName(t.Name); n != "" {
			return jen.Id(n)
		}
		// A record or enum of the other library not reached here should
		// not happen: reach() follows every reference.
		return jen.Index(jen.Lit(int(t.Size))).Byte()
	case ir.FuncPtr:
		return jen.Uintptr()
	}
	return jen.Index(jen.Lit(int(t.Size))).Byte()
}

// goAlign is the alignment Go gives goType(t) on 64-bit targets, used to
// place explicit padding so every field lands at its C offset.
func (m *model) goAlign(t *ir.Type) int64 {
	switch t.Kind {
	case ir.Int, ir.Float:
		return t.Size
	case ir.Pointer, ir.FuncPtr:
		return 8
	case ir.Array:
		return m.goAlign(t.Elem)
	case ir.Named:
		if g, ok := builtinTypedefs[t.Name]; ok {
			switch g {
			case "uint8", "int8":
				return 1
			case "uint16", "int16":
				return 2
			case "uint32", "int32":
				return 4
			}
			return 8
		}
		if td, ok := m.typedefs[t.Name]; ok {
			if m.isHandleType(td.Type) || td.Type.Kind == ir.FuncPtr {
				return 8
			}
			return m.goAlign(td.Type)
		}
		if r, ok := m.records[t.Name]; ok {
			return m.recordGoAlign(r)
		}
		if e, ok := m.enums[t.Name]; ok {
			return e.Size
		}
	}
	return 1
}

// recordGoAlign is the alignment of the Go struct emitted for r.
func (m *model) recordGoAlign(r *ir.Record) int64 {
	if r.Union {
		return unionWord(r)
	}
	a := int64(1)
	for _, f := range r.Fields {
		var fa int64
		switch {
		case f.BitWidth > 0:
			fa = 1
		case f.Anonymous && f.Record != nil:
			if f.Record.Union {
				fa = unionWord(f.Record)
			} else {
				fa = m.recordGoAlign(f.Record)
			}
		default:
			fa = m.goAlign(f.Type)
		}
		if fa > a {
			a = fa
		}
	}
	return a
}

// unionWord is the element size of a union's raw storage: its C alignment,
// capped at 8 (Go has no wider scalar).
func unionWord(r *ir.Record) int64 {
	a := r.Align
	if a > 8 {
		a = 8
	}
	if a < 1 {
		a = 1
	}
	for r.Size%a != 0 {
		a /= 2
	}
	return a
}

func uintOfSize(n int64) jen.Code {
	switch n {
	case 8:
		return jen.Uint64()
	case 4:
		return jen.Uint32()
	case 2:
		return jen.Uint16()
	}
	return jen.Byte()
}

// fieldName exports a C member name.
func fieldName(c string) string {
	if c == "" {
		return "_"
	}
	return strings.ToUpper(c[:1]) + c[1:]
}
