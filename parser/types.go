package parser

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"modernc.org/cc/v4"
)

// typ converts a cc type to IR, keeping typedef names: a parameter of type
// CUcontext becomes Named{Name: "CUcontext"}, so emit can map it to
// cu.Context instead of a bare pointer.
func (p *parse) typ(t cc.Type) *ir.Type {
	if td := t.Typedef(); td != nil {
		name := td.Name()
		p.ensureTypedef(td)
		return &ir.Type{
			Kind: ir.Named, C: constPrefix(t) + name, Name: name,
			Size: t.Size(), Align: int64(t.Align()), Const: isConst(t),
			Signed: isSigned(t),
		}
	}
	return p.structural(t)
}

// structural converts t ignoring a typedef name on t itself (names on
// element types are kept).
func (p *parse) structural(t cc.Type) *ir.Type {
	r := &ir.Type{Size: t.Size(), Align: int64(t.Align()), Const: isConst(t)}
	switch x := t.(type) {
	case *cc.PointerType:
		elem := x.Elem()
		if ft, ok := elem.(*cc.FunctionType); ok && elem.Typedef() == nil {
			r.Kind = ir.FuncPtr
			r.Func = p.signature(ft)
			r.C = constPrefix(t) + funcPtrC(r.Func)
			return r
		}
		r.Kind = ir.Pointer
		r.Elem = p.typ(elem)
		r.C = r.Elem.C + " *"
		if r.Const {
			r.C += "const"
		}
		return r
	case *cc.ArrayType:
		r.Kind = ir.Array
		r.Elem = p.typ(x.Elem())
		r.Len = x.Len()
		r.C = fmt.Sprintf("%s[%d]", r.Elem.C, r.Len)
		return r
	case *cc.StructType, *cc.UnionType:
		r.Kind = ir.Named
		r.Name = p.record(t)
		r.C = constPrefix(t) + r.Name
		return r
	case *cc.EnumType:
		r.Kind = ir.Named
		r.Name = p.enum(x, "")
		r.C = constPrefix(t) + r.Name
		r.Signed = isSigned(t)
		return r
	case *cc.FunctionType:
		r.Kind = ir.FuncPtr
		r.Func = p.signature(x)
		r.C = funcPtrC(r.Func)
		return r
	}
	switch t.Kind() {
	case cc.Void:
		r.Kind = ir.Void
		r.C = constPrefix(t) + "void"
	case cc.Float, cc.Double:
		r.Kind = ir.Float
		r.C = constPrefix(t) + t.Kind().String()
	case cc.Bool, cc.Char, cc.SChar, cc.UChar, cc.Short, cc.UShort, cc.Int, cc.UInt,
		cc.Long, cc.ULong, cc.LongLong, cc.ULongLong:
		r.Kind = ir.Int
		r.Signed = isSigned(t)
		r.C = constPrefix(t) + cIntName(t.Kind())
	default:
		// long double, __int128, vectors: nothing in CUDA's host API uses
		// them; keep the layout so a struct that did would still be exact.
		r.Kind = ir.Array
		r.Elem = &ir.Type{Kind: ir.Int, C: "unsigned char", Size: 1, Align: 1}
		r.Len = t.Size()
		r.C = t.String()
	}
	return r
}

func cIntName(k cc.Kind) string {
	switch k {
	case cc.Bool:
		return "_Bool"
	case cc.UInt:
		return "unsigned int"
	case cc.ULong:
		return "unsigned long"
	case cc.LongLong:
		return "long long"
	case cc.ULongLong:
		return "unsigned long long"
	case cc.UShort:
		return "unsigned short"
	case cc.UChar:
		return "unsigned char"
	case cc.SChar:
		return "signed char"
	}
	return k.String()
}

func funcPtrC(s *ir.Signature) string {
	var ps []string
	for _, p := range s.Params {
		ps = append(ps, p.Type.C)
	}
	if len(ps) == 0 {
		ps = []string{"void"}
	}
	return fmt.Sprintf("%s (*)(%s)", s.Result.C, strings.Join(ps, ", "))
}

func isConst(t cc.Type) bool { return t.Attributes().IsConst() }

func constPrefix(t cc.Type) string {
	if isConst(t) {
		return "const "
	}
	return ""
}

func isSigned(t cc.Type) bool {
	switch t.Kind() {
	case cc.Char, cc.SChar, cc.Short, cc.Int, cc.Long, cc.LongLong:
		return true
	case cc.Enum:
		if e, ok := t.(*cc.EnumType); ok {
			return e.Min() < 0 || isSigned(e.UnderlyingType())
		}
	}
	return false
}

func (p *parse) signature(ft *cc.FunctionType) *ir.Signature {
	s := &ir.Signature{Result: p.typ(ft.Result())}
	for i, prm := range ft.Parameters() {
		if prm.Type().Kind() == cc.Void {
			continue
		}
		name := prm.Name()
		if name == "" {
			name = fmt.Sprintf("arg%d", i)
		}
		s.Params = append(s.Params, ir.Param{Name: name, Type: p.typ(prm.Type()), Direction: ir.In})
	}
	return s
}

// ensureTypedef records the typedef declared by d, once.
func (p *parse) ensureTypedef(d *cc.Declarator) {
	name := d.Name()
	if _, ok := p.typedefs[name]; ok {
		return
	}
	pos := d.Position()
	lib, _ := p.libraryOf(pos.Filename)
	td := &ir.Typedef{Name: name, Library: lib, Pos: p.pos(pos.Filename, pos.Line)}
	p.typedefs[name] = td // before converting: recursive types terminate
	td.Type = p.typedefTarget(d)
	p.api.Typedefs = append(p.api.Typedefs, td)
}

// typedef handles a file-scope typedef declaration.
func (p *parse) typedef(d *cc.Declarator, doc string) error {
	p.ensureTypedef(d)
	td := p.typedefs[d.Name()]
	if td.Doc == nil {
		td.Doc = parseDoc(doc).doc
	}
	// A record or enum typedef'd directly (typedef struct X {...} Y) takes
	// the typedef's name: the name C programmers use. A typedef of that
	// typedef (typedef float2 cuFloatComplex) is an alias, never the
	// record's name, also when the tag is the first typedef's name.
	if td.Type.Kind == ir.Named {
		if r, ok := p.records[td.Type.Name]; ok && r.Parent == "" && td.Type.Name == r.Ref && (r.Name == r.Tag || r.Name == r.Ref) {
			r.Name = td.Name
			p.records[td.Name] = r
		}
		if e, ok := p.enums[td.Type.Name]; ok && td.Type.Name == e.Ref && (e.Name == e.Tag || e.Name == e.Ref) {
			e.Name = td.Name
			p.enums[td.Name] = e
		}
		if r, ok := p.records[td.Type.Name]; ok && r.Doc == nil {
			r.Doc = parseDoc(doc).doc
		}
		if e, ok := p.enums[td.Type.Name]; ok && e.Doc == nil {
			e.Doc = parseDoc(doc).doc
		}
	}
	return nil
}

// typedefTarget is what a typedef names. cc folds `typedef A B` into A's
// type renamed to B; the declaration's specifiers still say A, so a plain
// alias of another typedef name keeps the chain (CUdevice -> CUdevice_v1 ->
// int), which the versioned names of cuda.h rely on.
func (p *parse) typedefTarget(d *cc.Declarator) *ir.Type {
	t := d.Type()
	if d.Pointer == nil && d.DirectDeclarator != nil && d.DirectDeclarator.Case == cc.DirectDeclaratorIdent {
		if base := p.specTypedefName(d); base != "" && base != d.Name() {
			if bd := p.lookupTypedef(base); bd != nil {
				p.ensureTypedef(bd)
				return &ir.Type{Kind: ir.Named, Name: base, C: constPrefix(t) + base,
					Size: t.Size(), Align: int64(t.Align()), Const: isConst(t), Signed: isSigned(t)}
			}
		}
	}
	return p.structural(t)
}

// specTypedefName returns the typedef name used as the type specifier of
// the declaration that declares d, if any.
func (p *parse) specTypedefName(d *cc.Declarator) string {
	decl := p.declarationOf(d)
	if decl == nil {
		return ""
	}
	for ds := decl.DeclarationSpecifiers; ds != nil; ds = ds.DeclarationSpecifiers {
		if ts := ds.TypeSpecifier; ts != nil && ts.Case == cc.TypeSpecifierTypeName {
			return ts.Token.SrcStr()
		}
	}
	return ""
}

func (p *parse) lookupTypedef(name string) *cc.Declarator {
	for _, n := range p.ast.Scope.Nodes[name] {
		if d, ok := n.(*cc.Declarator); ok && d.IsTypename() {
			return d
		}
	}
	return nil
}

// record registers a struct or union and returns the name references use:
// "struct tag", "union tag", or a synthetic name for anonymous records.
func (p *parse) record(t cc.Type) string {
	if k, ok := p.recordKeys[t]; ok {
		return k
	}
	var tag string
	union := false
	switch x := t.(type) {
	case *cc.StructType:
		tok := x.Tag()
		tag = tok.SrcStr()
	case *cc.UnionType:
		tok := x.Tag()
		tag = tok.SrcStr()
		union = true
	}
	kw := "struct"
	if union {
		kw = "union"
	}
	key := kw + " " + tag
	if tag == "" {
		// Anonymous records get their position as a name; they only occur
		// as members (handled inline) or behind a typedef, which renames it.
		// cc gives the typedef's declarator a type of its own, so the key,
		// not the cc type, identifies the record.
		pos := recordPos(t)
		key = fmt.Sprintf("%s <anonymous at %s:%d>", kw, p.pos(pos.File, pos.Line).File, pos.Line)
	}
	if r, ok := p.records[key]; ok {
		p.recordKeys[t] = key
		// An earlier reference may have seen the incomplete type.
		if r.Opaque && !t.IsIncomplete() {
			p.fillRecord(r, t)
		}
		return key
	}
	r := &ir.Record{Name: tag, Tag: tag, Ref: key, Union: union}
	if tag == "" {
		r.Name = key
	}
	p.recordKeys[t] = key
	p.records[key] = r
	p.fillRecord(r, t)
	p.api.Records = append(p.api.Records, r)
	return key
}

type srcPos struct {
	File string
	Line int
}

func recordPos(t cc.Type) srcPos {
	var tok cc.Token
	switch x := t.(type) {
	case *cc.StructType:
		tok = x.Tag()
	case *cc.UnionType:
		tok = x.Tag()
	}
	ps := tok.Position()
	if ps.Filename == "" {
		// Anonymous: the first field's position.
		if n := numFields(t); n > 0 {
			if f := fieldByIndex(t, 0); f != nil && f.Declarator() != nil {
				ps = f.Declarator().Position()
			}
		}
	}
	return srcPos{ps.Filename, ps.Line}
}

func numFields(t cc.Type) int {
	switch x := t.(type) {
	case *cc.StructType:
		return x.NumFields()
	case *cc.UnionType:
		return x.NumFields()
	}
	return 0
}

func fieldByIndex(t cc.Type, i int) *cc.Field {
	switch x := t.(type) {
	case *cc.StructType:
		return x.FieldByIndex(i)
	case *cc.UnionType:
		return x.FieldByIndex(i)
	}
	return nil
}

func (p *parse) fillRecord(r *ir.Record, t cc.Type) {
	if t.IsIncomplete() {
		r.Opaque = true
		lib, pos := p.placeOf(recordPos(t))
		r.Library, r.Pos = lib, pos
		return
	}
	r.Opaque = false
	r.Size = t.Size()
	r.Align = int64(t.Align())
	lib, pos := p.placeOf(recordPos(t))
	r.Library, r.Pos = lib, pos
	r.Fields = p.fields(t, 0, p.recordKeys[t])
}

func (p *parse) placeOf(s srcPos) (ir.Library, ir.Pos) {
	lib, _ := p.libraryOf(s.File)
	return lib, p.pos(s.File, s.Line)
}

// fields lists t's members with offsets relative to the outermost record
// (base is t's own offset in it). Anonymous struct/union members are kept as
// one Anonymous field whose Record holds their members, so a union inside a
// struct stays one union.
func (p *parse) fields(t cc.Type, base int64, owner string) []ir.Field {
	var out []ir.Field
	n := numFields(t)
	anon := 0
	for i := 0; i < n; i++ {
		f := fieldByIndex(t, i)
		if f == nil {
			continue
		}
		ft := f.Type()
		fld := ir.Field{Name: f.Name(), Offset: base + f.Offset()}
		if f.IsBitfield() {
			fld.BitWidth = int(f.ValueBits())
			fld.BitOffset = f.OffsetBits()
			fld.Type = p.typ(ft)
			if fld.Name == "" {
				// Unnamed bitfields only pad; keep them out of the Go struct
				// but the record's size and other offsets stay exact.
				continue
			}
		} else if fld.Name == "" && (ft.Kind() == cc.Struct || ft.Kind() == cc.Union) && ft.Typedef() == nil {
			fld.Anonymous = true
			fld.Name = fmt.Sprintf("_anon%d", anon)
			anon++
			sub := &ir.Record{Union: ft.Kind() == cc.Union, Size: ft.Size(), Align: int64(ft.Align())}
			sub.Fields = p.fields(ft, fld.Offset, owner)
			fld.Record = sub
			fld.Type = &ir.Type{Kind: ir.Named, Size: ft.Size(), Align: int64(ft.Align()), C: "anonymous"}
		} else {
			fld.Type = p.typ(ft)
			p.adopt(fld.Type, owner, fld.Name)
		}
		if d := f.Declarator(); d != nil {
			pos := d.Position()
			fld.Doc = parseDoc(p.trailingDoc(pos.Filename, pos.Line)).doc
		}
		out = append(out, fld)
	}
	return out
}

// adopt records the owner of an anonymous record used as the type of a named
// member (directly or as an array element), so emit can name it after them.
func (p *parse) adopt(t *ir.Type, owner, member string) {
	for t != nil && t.Kind == ir.Array {
		t = t.Elem
	}
	if t == nil || t.Kind != ir.Named {
		return
	}
	if r, ok := p.records[t.Name]; ok && r.Tag == "" && r.Parent == "" && strings.Contains(t.Name, "<anonymous") {
		r.Parent, r.Member = owner, member
	}
}

// enum registers an enum, de-duplicated by tag (types are not canonical in
// cc/v4), and returns its reference name.
func (p *parse) enum(e *cc.EnumType, typedefName string) string {
	tagTok := e.Tag()
	tag := tagTok.SrcStr()
	key := "enum " + tag
	if tag == "" {
		// Anonymous enums are identified by their first enumerator.
		if es := e.Enumerators(); len(es) > 0 {
			key = "enum <anonymous " + es[0].Token.SrcStr() + ">"
		}
	}
	if _, ok := p.enums[key]; ok {
		return key
	}
	pos := e.Tag().Position()
	es := e.Enumerators()
	if pos.Filename == "" && len(es) > 0 {
		pos = es[0].Position()
	}
	lib, _ := p.libraryOf(pos.Filename)
	en := &ir.Enum{Name: key, Tag: tag, Ref: key, Size: e.Size(), Signed: isSigned(e), Library: lib, Pos: p.pos(pos.Filename, pos.Line)}
	if tag != "" {
		en.Name = tag
	}
	for _, x := range es {
		v := ir.EnumValue{Name: x.Token.SrcStr()}
		switch val := x.Value().(type) {
		case cc.Int64Value:
			v.Value = int64(val)
		case cc.UInt64Value:
			v.Value = int64(val)
		}
		ps := x.Position()
		v.Doc = parseDoc(p.trailingDoc(ps.Filename, ps.Line)).doc
		if v.Doc == nil {
			v.Doc = parseDoc(docBefore(x)).doc
		}
		en.Values = append(en.Values, v)
	}
	p.enums[key] = en
	p.api.Enums = append(p.api.Enums, en)
	return key
}

// declSpecTypes registers struct/union/enum types defined in a declaration's
// specifiers (including `enum X {...};` with no declarator).
func (p *parse) declSpecTypes(decl *cc.Declaration, doc string) {
	for ds := decl.DeclarationSpecifiers; ds != nil; ds = ds.DeclarationSpecifiers {
		ts := ds.TypeSpecifier
		if ts == nil {
			continue
		}
		file := ts.Position().Filename
		if _, ok := p.libraryOf(file); !ok && !p.isCUDAFile(file) {
			continue
		}
		switch ts.Case {
		case cc.TypeSpecifierEnum:
			if es := ts.EnumSpecifier; es != nil && es.Case == cc.EnumSpecifierDef {
				if et, ok := es.Type().(*cc.EnumType); ok {
					k := p.enum(et, "")
					if e := p.enums[k]; e != nil && e.Doc == nil {
						e.Doc = parseDoc(doc).doc
					}
				}
			}
		case cc.TypeSpecifierStructOrUnion:
			if su := ts.StructOrUnionSpecifier; su != nil && su.StructDeclarationList != nil {
				t := su.Type()
				if t.Kind() == cc.Struct || t.Kind() == cc.Union {
					k := p.record(t)
					if r := p.records[k]; r != nil && r.Doc == nil {
						r.Doc = parseDoc(doc).doc
					}
				}
			}
		}
	}
}

// isCUDAFile reports whether a file lies in the header directory (as
// opposed to the host's libc headers, whose types we do not emit).
func (p *parse) isCUDAFile(file string) bool {
	_, ok := p.rel(file)
	return ok
}

// trailingDoc returns the /**< ... */ comment that starts on the given line
// of file, which documents the member declared there.
func (p *parse) trailingDoc(file string, line int) string {
	lines, ok := p.lines[file]
	if !ok {
		// The bytes the parse read (and the lock pinned), never the
		// file as it may be now.
		if f := p.served[filepath.Clean(file)]; f != nil {
			lines = strings.Split(string(f.data), "\n")
		}
		p.lines[file] = lines
	}
	if line < 1 || line > len(lines) {
		return ""
	}
	l := lines[line-1]
	i := strings.Index(l, "/**<")
	if i < 0 {
		return ""
	}
	text := l[i+4:]
	for j := line; !strings.Contains(text, "*/") && j < len(lines) && j < line+20; j++ {
		text += "\n" + lines[j]
	}
	if k := strings.Index(text, "*/"); k >= 0 {
		text = text[:k]
	}
	return cleanComment(text)
}

// isHandle reports whether t names a typedef of a pointer (CUcontext,
// cudaMemPool_t), following typedef chains.
func (p *parse) isHandle(t *ir.Type) bool {
	for i := 0; t != nil && t.Kind == ir.Named && i < 16; i++ {
		td := p.typedefs[t.Name]
		if td == nil {
			return false
		}
		t = td.Type
	}
	return t != nil && t.Kind == ir.Pointer
}
