package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
)

// Device memory is never a Go pointer (library.Overrides.Memory): a
// pointer parameter the library documents as device memory is an
// ffi.DevicePtr[T], passed as the integer it is, so a caller holding a
// device address needs no unsafe conversion and go vet and checkptr see no
// integer made a Go pointer. A parameter the handle's pointer mode puts in
// host or device memory is an ffi.HostOrDevice[T] (ffi.Host(&x) or
// ffi.Device(p)), passed as the address it holds and kept alive as a Go
// pointer when it is one. A host row, or no row, leaves the parameter a Go
// pointer.

// memoryRule is the library's memory row for f's parameter p, if one
// applies, and the row's key: only pointer parameters are classified.
func (m *model) memoryRule(f *ir.Function, p *param) (library.MemoryRule, string, bool) {
	if len(m.desc.Overrides.Memory) == 0 || !m.memoryClassifiable(p) {
		return library.MemoryRule{}, "", false
	}
	return m.desc.Overrides.MemoryOf(f.Name, p.c.Name)
}

// memoryClassifiable reports whether p is a parameter memory rows
// classify: a pointer, not a handle (an opaque pointer typedef).
func (m *model) memoryClassifiable(p *param) bool {
	rt := m.resolve(p.c.Type)
	return rt.Kind == ir.Pointer && !(p.c.Type.Kind == ir.Named && m.isHandleType(rt))
}

// hostArrayOfDevice reports whether the row r makes the parameter of C
// type t (a pointer) a host array of device pointers: a device row whose
// Arrays is host memory, for a pointer to pointers.
func (m *model) hostArrayOfDevice(r library.MemoryRule, t *ir.Type) bool {
	e := m.resolve(t.Elem)
	return r.Memory == library.DeviceMemory && r.Arrays == library.HostMemory && e != nil && e.Kind == ir.Pointer
}

// classifyMemory gives p the role and Go type its memory row decides and
// reports whether a row did (classify's hook, before the rules for
// outputs: device memory is never a Go result).
func (m *model) classifyMemory(f *ir.Function, p *param) bool {
	r, _, ok := m.memoryRule(f, p)
	if !ok {
		return false
	}
	t := m.resolve(p.c.Type)
	switch {
	case m.hostArrayOfDevice(r, t):
		// A host array of device pointers: a Go pointer to the first
		// of them, each the integer a DevicePtr is.
		p.role = rolePointer
		p.goType = jen.Op("*").Add(m.deviceType(m.resolve(t.Elem)))
		return true
	case r.Memory == library.DeviceMemory:
		p.role = roleValue
		p.goType = m.deviceType(t)
		return true
	case r.Memory == library.HostOrDeviceMemory:
		p.role = rolePointer
		p.hod = m.hostOrDeviceElem(t)
		p.goType = jen.Qual(FFIPath, "HostOrDeviceAddr")
		if p.hod != nil {
			p.goType = jen.Qual(FFIPath, "HostOrDevice").Types(p.hod)
		}
		if rec := m.record(t.Elem); rec != nil && rec.Align > m.recordGoAlign(rec) && m.desc.Overrides.AlignedValues[p.c.Name] != "" {
			// As for a Go pointer: a host value Go misaligned is
			// copied for the call; a device address is left as is.
			p.align = rec.Align
		}
		return true
	}
	return false
}

// deviceType is the Go type of a device pointer of C type t (a pointer):
// ffi.DevicePtr of the element's Go type, itself a DevicePtr when the
// element is a pointer (an array of device pointers in device memory), or
// ffi.DeviceAddr for `void *` and opaque elements.
func (m *model) deviceType(t *ir.Type) jen.Code {
	if e := m.resolve(t.Elem); e != nil && e.Kind == ir.Pointer {
		return jen.Qual(FFIPath, "DevicePtr").Types(m.deviceType(e))
	}
	if e := m.hostOrDeviceElem(t); e != nil {
		return jen.Qual(FFIPath, "DevicePtr").Types(e)
	}
	return jen.Qual(FFIPath, "DeviceAddr")
}

// hostOrDeviceElem is the Go type of what a pointer of C type t points
// to, or nil for `void *` and opaque elements (untyped).
func (m *model) hostOrDeviceElem(t *ir.Type) jen.Code {
	g := m.goType(t)
	if sameType(g, jen.Qual("unsafe", "Pointer")) {
		return nil
	}
	return m.goType(t.Elem)
}

// prepareHostOrDevice takes the address a HostOrDevice parameter holds
// into a local unsafe.Pointer (asUnsafePointer's) before the Frame takes
// its first stack address: a stack copy updates the local, and the call
// that reads it is over by then.
func (w *wrapper) prepareHostOrDevice(p *param) {
	if p.role == rolePointer && p.goType != nil && isHostOrDevice(p) {
		w.body = append(w.body, jen.Id(p.goName+"V").Op(":=").Id(p.goName).Dot("Pointer").Call())
	}
}

// isHostOrDevice reports whether p is an ffi.HostOrDevice parameter.
func isHostOrDevice(p *param) bool {
	return p.hod != nil || sameType(p.goType, jen.Qual(FFIPath, "HostOrDeviceAddr"))
}

// valueSize is unsafe.Sizeof of the one value the rolePointer parameter p
// points to (its aligned copy's size).
func (p *param) valueSize() *jen.Statement {
	if p.hod != nil {
		return jen.Qual("unsafe", "Sizeof").Call(jen.Op("*").New(p.hod))
	}
	return jen.Qual("unsafe", "Sizeof").Call(jen.Op("*").Id(p.goName))
}

// memoryAudit is the audit's lines for the parameters of fn a memory row
// classified: the memory, the Go type and the row's reason. In a library
// with rows, a Go pointer parameter no row classifies has a line too, so
// that a function the rows miss is seen (TestCublasMemoryComplete).
func (m *model) memoryAudit(fn *ir.Function, ps []*param) []string {
	var out []string
	for _, p := range ps {
		r, key, ok := m.memoryRule(fn, p)
		if !ok {
			if m.memoryUnclassified(p) {
				out = append(out, fmt.Sprintf("memory %s.%s: no Memory row, a Go pointer", fn.Name, p.c.Name))
			}
			continue
		}
		typ, mem := "a Go pointer", r.Memory.String()
		switch {
		case m.hostArrayOfDevice(r, m.resolve(p.c.Type)):
			typ, mem = goTypeString(p.goType), "host array of device pointers"
		case r.Memory == library.DeviceMemory:
			typ = goTypeString(p.goType)
		case r.Memory == library.HostOrDeviceMemory && p.hod == nil:
			typ = goTypeString(p.goType) + ", ffi.Host(&v).Untyped() or ffi.Device(p).Untyped()"
		case r.Memory == library.HostOrDeviceMemory:
			typ = goTypeString(p.goType) + ", ffi.Host(&v) or ffi.Device(p)"
		}
		// A row of the parameter's name (or the function's) is named by
		// the line itself; a pattern or the default row by its key.
		row := "Memory"
		if key != p.c.Name && key != fn.Name+"."+p.c.Name {
			row = fmt.Sprintf("Memory %q", key)
		}
		out = append(out, fmt.Sprintf("memory %s.%s: %s, %s (%s: %s)", fn.Name, p.c.Name, mem, typ, row, r.Why))
	}
	return out
}

// memoryUnclassified reports whether the audit lists p, a parameter no
// memory row classifies: in a library with rows, a Go pointer parameter;
// in one whose rows include a pattern (NPP's "p*", a rule that claims
// every pointer), any pointer parameter, a result or a handle's pointer
// too, so that a name the rule misses is seen.
func (m *model) memoryUnclassified(p *param) bool {
	rows := m.desc.Overrides.Memory
	if len(rows) == 0 {
		return false
	}
	for k := range rows {
		if strings.Contains(k, "*") {
			return m.memoryClassifiable(p)
		}
	}
	return p.role == rolePointer && p.c.Direction != ir.Out
}

// goTypeString renders a Go type expression for the audit, each package
// by its name (ffi.DevicePtr[float32]).
func goTypeString(c jen.Code) string {
	return fmt.Sprintf("%#v", jen.Null().Add(c))
}
