package emit

import (
	"fmt"
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// genRecords emits structs with exactly the C layout (padding explicit),
// unions as sized raw storage with typed accessors, and compile-time guards
// that fail the build if Go's layout ever differs from the one cc/v4
// computed (and gcc confirmed, see parser's layout test).
func (m *model) genRecords(f *jen.File) error {
	var guards []jen.Code
	for _, r := range m.recs {
		name := m.declName(r.Name)
		what := "struct"
		if r.Union {
			what = "union"
		}
		cname := r.Name
		if r.Parent != "" {
			cname = fmt.Sprintf("the anonymous %s of member %s of %s", what, r.Member, stripKeyword(r.Parent))
		}
		lead, paired := m.versionedLead(r.Name, what, fmt.Sprintf("%s, %d bytes", r.Pos.File, r.Size))
		if !paired {
			lead = fmt.Sprintf("is the C %s %s (%s, %d bytes).", what, cname, r.Pos.File, r.Size)
		}
		if _, ok := m.defaultOne[r.Name]; ok && len(r.Fields) == 3 {
			// The constructors genDefaultOne emits.
			lead += fmt.Sprintf("\nC++'s %[1]s constructor defaults omitted fields to 1, a Go literal to 0,\n"+
				"and a zero dimension is an invalid launch configuration: %[2]s{X: 512}\n"+
				"is {512, 0, 0} where C++'s %[1]s(512) is {512, 1, 1}. Use [Dim1](x) or\n"+
				"[Dim2](x, y) for C++'s defaults, or set all three fields.", r.Name, name)
		}
		if paired {
			m.pairDocComment(f, name, lead, r.Doc)
		} else {
			m.docComment(f, name, lead, r.Doc)
		}
		var fields []jen.Code
		var goFields []placedField
		var accessors []accessor
		if r.Union {
			w := unionWord(r)
			fields = append(fields, jen.Id("raw").Index(jen.Lit(int(r.Size/w))).Add(uintOfSize(w)))
			accessors = m.unionAccessors(r.Fields, 0)
		} else {
			var err error
			fields, goFields, accessors, err = m.structFields(r)
			if err != nil {
				return err
			}
			m.audit = append(m.audit, m.recordAudit(r)...)
			for _, g := range goFields {
				if g.storage {
					continue
				}
				guards = append(guards, jen.Id("_").Op("=").Id("x").Index(
					jen.Qual("unsafe", "Offsetof").Call(jen.Id(name).Values().Dot(g.name)).Op("-").Lit(int(g.offset))))
			}
		}
		if err := recordNames(r, name, goFields, accessors); err != nil {
			return err
		}
		f.Type().Id(name).Struct(fields...)
		f.Line()
		for _, a := range accessors {
			comment(f, fmt.Sprintf("%s returns a pointer to the C member %s (offset %d).", a.name, a.cname, a.offset))
			var ptr jen.Code = jen.Qual("unsafe", "Pointer").Call(jen.Id("s"))
			if a.offset != 0 {
				ptr = jen.Qual("unsafe", "Add").Call(ptr, jen.Lit(int(a.offset)))
			}
			f.Func().Params(jen.Id("s").Op("*").Id(name)).Id(a.name).Params().Op("*").Add(a.typ).Block(
				jen.Return(jen.Parens(jen.Op("*").Add(a.typ)).Call(ptr)),
			)
			f.Line()
		}
		guards = append(guards, jen.Id("_").Op("=").Id("x").Index(
			jen.Qual("unsafe", "Sizeof").Call(jen.Id(name).Values()).Op("-").Lit(int(r.Size))))
	}
	if len(guards) > 0 {
		f.Comment("Layout guards: an index out of range here means the Go layout of a type")
		f.Comment("no longer matches the C layout it was generated from. Regenerate.")
		f.Func().Id("_").Params().Block(append([]jen.Code{jen.Var().Id("x").Index(jen.Lit(1)).Struct()}, guards...)...)
	}
	return nil
}

type placedField struct {
	name, cname string
	offset      int64
	storage     bool // an anonymous union's raw storage: no layout guard
}

// recordNames claims the Go names of a record's fields and accessor
// methods in one scope (goNames): C members that differ only in their
// first letter's case (x and X) would both become X.
func recordNames(r *ir.Record, name string, fields []placedField, acc []accessor) error {
	ns := newGoNames("type " + name)
	if r.Union {
		ns.reserve("cugen's storage raw", "raw")
	}
	for _, f := range fields {
		if err := ns.add(fmt.Sprintf("member %s of %s", f.cname, r.Name), f.name); err != nil {
			return fmt.Errorf("%s:%d: %w", r.Pos.File, r.Pos.Line, err)
		}
	}
	for _, a := range acc {
		if err := ns.add(fmt.Sprintf("member %s of %s (its accessor)", a.cname, r.Name), a.name); err != nil {
			return fmt.Errorf("%s:%d: %w", r.Pos.File, r.Pos.Line, err)
		}
	}
	return nil
}

type accessor struct {
	name, cname string
	offset      int64
	typ         jen.Code
}

// structFields lays out a struct's members in Go, inserting `_ [n]byte`
// wherever C puts padding. Members of anonymous structs are flattened (C
// code names them directly); an anonymous union becomes raw storage with an
// accessor per member.
func (m *model) structFields(r *ir.Record) ([]jen.Code, []placedField, []accessor, error) {
	var out []jen.Code
	var placed []placedField
	var acc []accessor
	off := int64(0)
	pad := func(to int64) {
		if to > off {
			out = append(out, jen.Id("_").Index(jen.Lit(int(to-off))).Byte())
			off = to
		}
	}
	var place func(fs []ir.Field) error
	place = func(fs []ir.Field) error {
		for _, fl := range fs {
			switch {
			case fl.BitWidth > 0:
				continue
			case fl.Anonymous && fl.Record != nil && !fl.Record.Union:
				if err := place(fl.Record.Fields); err != nil {
					return err
				}
				continue
			case fl.Anonymous && fl.Record != nil:
				w := unionWord(fl.Record)
				if fl.Offset%w != 0 || roundUp(off, w) > fl.Offset {
					return fmt.Errorf("record %s: cannot place anonymous union at offset %d", r.Name, fl.Offset)
				}
				pad(fl.Offset)
				fname := fl.Name
				out = append(out, jen.Id(fname).Index(jen.Lit(int(fl.Record.Size/w))).Add(uintOfSize(w)))
				placed = append(placed, placedField{name: fname, cname: fname, offset: fl.Offset, storage: true})
				off = fl.Offset + fl.Record.Size
				acc = append(acc, m.unionAccessors(fl.Record.Fields, 0)...)
				continue
			}
			if reservedMember(fl.Name) {
				continue // the next member's (or the end's) padding covers it
			}
			a := m.goAlign(fl.Type)
			if roundUp(off, a) > fl.Offset || fl.Offset%a != 0 {
				return fmt.Errorf("record %s: member %s at C offset %d cannot be placed in Go (alignment %d, Go offset %d)", r.Name, fl.Name, fl.Offset, a, off)
			}
			pad(fl.Offset)
			name := fieldName(fl.Name)
			c := jen.Id(name).Add(m.memberType(r, fl))
			if fl.Doc != nil {
				c = commentBlock(firstSentence(m.convertDoc(fl.Doc))).Add(c)
			}
			out = append(out, c)
			placed = append(placed, placedField{name: name, cname: fl.Name, offset: fl.Offset})
			off = fl.Offset + fl.Type.Size
		}
		return nil
	}
	if err := place(r.Fields); err != nil {
		return nil, nil, nil, err
	}
	pad(r.Size)
	return out, placed, acc, nil
}

// unionAccessors lists typed views of a union's members (offsets are
// relative to the outermost record, as in the IR).
func (m *model) unionAccessors(fs []ir.Field, _ int64) []accessor {
	var out []accessor
	for _, fl := range fs {
		if fl.Anonymous && fl.Record != nil {
			out = append(out, m.unionAccessors(fl.Record.Fields, 0)...)
			continue
		}
		if fl.BitWidth > 0 || fl.Name == "" || reservedMember(fl.Name) {
			continue
		}
		out = append(out, accessor{name: fieldName(fl.Name), cname: fl.Name, offset: fl.Offset, typ: m.goType(fl.Type)})
	}
	return out
}

// reservedMember reports whether a C member is reserved by its header: a
// name that starts with an underscore (CUdevResource's _internal_padding,
// the _oversize member that sizes its union for future resource types).
// Go gives it storage only: padding in a struct (the reserved bytes do not
// take part in ==, like other padding), no accessor in a union. An
// accessor named _oversize would be unexported, so no caller could reach
// it.
func reservedMember(name string) bool { return strings.HasPrefix(name, "_") }

func roundUp(n, a int64) int64 {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// layoutScalars flattens a by-value record to its scalar leaves for the ABI
// classification done by ffiimpl (System V eightbytes, AAPCS64 HFAs).
func (m *model) layoutScalars(t *ir.Type, base int64, out *[]scalarLeaf) {
	t0 := t
	t = m.resolve(t)
	switch t.Kind {
	case ir.Int:
		*out = append(*out, scalarLeaf{base, t.Size, false})
	case ir.Float:
		*out = append(*out, scalarLeaf{base, t.Size, true})
	case ir.Pointer, ir.FuncPtr:
		*out = append(*out, scalarLeaf{base, 8, false})
	case ir.Array:
		for i := int64(0); i < t.Len; i++ {
			m.layoutScalars(t.Elem, base+i*t.Elem.Size, out)
		}
	case ir.Named:
		if _, ok := builtinTypedefs[t.Name]; ok {
			*out = append(*out, scalarLeaf{base, t0.Size, false})
			return
		}
		if r, ok := m.records[t.Name]; ok {
			m.recordScalars(r.Fields, base, out)
			return
		}
		if e, ok := m.enums[t.Name]; ok {
			*out = append(*out, scalarLeaf{base, e.Size, false})
		}
	}
}

func (m *model) recordScalars(fs []ir.Field, base int64, out *[]scalarLeaf) {
	for _, fl := range fs {
		if fl.Anonymous && fl.Record != nil {
			// Anonymous member offsets are already absolute in the IR.
			m.recordScalars(fl.Record.Fields, base, out)
			continue
		}
		m.layoutScalars(fl.Type, base+fl.Offset, out)
	}
}

// memberType is the Go type of a struct member: goType, except that a
// runtime `void *func` member takes a kernel (isKernelPointer) and is typed
// as the Kernel handle, and the `void **extra` member of kernel parameters
// holds launch words that are not all pointers (CU_LAUNCH_PARAM_BUFFER_SIZE
// is 2), so it is *uintptr: an unsafe.Pointer holding 2 makes the runtime
// throw when it scans or moves the stack.
func (m *model) memberType(r *ir.Record, fl ir.Field) jen.Code {
	switch {
	case m.isKernelPointer(r.Name, fl.Name, fl.Type):
		return jen.Id(m.typeName(kernelTypedef))
	case fl.Name == "extra" && m.isVoidPtrPtr(fl.Type):
		return jen.Op("*").Uintptr()
	}
	return m.goType(fl.Type)
}

// recordAudit is the audit file's lines for the members of the struct r
// that structFields does not lay out as their plain Go type: bitfields
// and reserved members kept as padding, a kernel pointer and a launch's
// extra words (memberType). It walks the members as structFields places
// them: into anonymous structs, not into anonymous unions (raw storage
// whose accessors take the members' plain types).
func (m *model) recordAudit(r *ir.Record) []string {
	var out []string
	var walk func(fs []ir.Field)
	walk = func(fs []ir.Field) {
		for _, fl := range fs {
			switch {
			case fl.BitWidth > 0:
				out = append(out, fmt.Sprintf("layout %s.%s: bitfield of %d bits kept as padding", r.Name, fl.Name, fl.BitWidth))
			case fl.Anonymous && fl.Record != nil && !fl.Record.Union:
				walk(fl.Record.Fields)
			case fl.Anonymous && fl.Record != nil:
			case reservedMember(fl.Name):
				out = append(out, fmt.Sprintf("layout %s.%s: reserved member kept as padding", r.Name, fl.Name))
			case m.isKernelPointer(r.Name, fl.Name, fl.Type):
				out = append(out, fmt.Sprintf("kernel %s.%s: %s (a cudaKernel_t, or the address of a kernel's host entry function), not unsafe.Pointer", r.Name, fl.Name, m.typeName(kernelTypedef)))
			case fl.Name == "extra" && m.isVoidPtrPtr(fl.Type):
				out = append(out, fmt.Sprintf("launch %s.%s: *uintptr, the first of the extra words (launch markers such as CU_LAUNCH_PARAM_BUFFER_SIZE are not pointers)", r.Name, fl.Name))
			}
		}
	}
	walk(r.Fields)
	return out
}
