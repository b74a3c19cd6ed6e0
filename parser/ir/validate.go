package ir

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Validate checks that api is an IR emit can generate a package from that
// builds, whatever file it was read from: every required value is present
// (a function's result, a parameter's type, a pointer's element), every
// kind is one of Kind's, every name is a C identifier (a record's or enum's
// anonymous reference aside), every named type resolves to a typedef,
// record or enum of api, no type contains itself by value (a struct member
// of its own type, a typedef cycle), sizes, alignments and array lengths
// are in range, macro values are literals of their kind, and names are
// declared once. The error names the offending entry on one line:
// "function cuFoo: parameter 2 (x): type is null".
//
// Library keys are not checked here: package library knows them
// (emit.Generate checks them).
func Validate(api *API) error {
	v := &validator{
		typedefs: map[string]*Typedef{},
		records:  map[string]*Record{},
		enums:    map[string]*Enum{},
	}
	return v.run(api)
}

// Bounds of a valid IR beyond Limits: the real IRs' largest in comments.
const (
	maxName   = 256     // 72 (an identifier)
	maxSize   = 1 << 24 // 12,332 bytes (a record)
	maxArray  = 1 << 20 // 8,192 elements
	maxAlign  = 4096    // 128
	maxBits   = 64      // a bitfield's width
	maxSource = 4096    // a file name
)

type validator struct {
	typedefs map[string]*Typedef
	records  map[string]*Record // by Name and Ref
	enums    map[string]*Enum   // by Name and Ref
}

func (v *validator) run(api *API) error {
	if api.CUDAVersion <= 0 || api.CUDAVersion >= 1_000_000 {
		return fmt.Errorf("cuda_version %d: not a CUDA version (12040 is CUDA 12.4)", api.CUDAVersion)
	}
	if api.RuntimeVersion < 0 || api.RuntimeVersion >= 1_000_000 {
		return fmt.Errorf("runtime_version %d: not a CUDA version", api.RuntimeVersion)
	}
	if err := text(api.Origin, maxSource); err != nil {
		return fmt.Errorf("origin: %w", err)
	}
	for i, s := range api.Sources {
		if err := text(s, maxSource); err != nil {
			return fmt.Errorf("source %d: %w", i+1, err)
		}
	}
	// Declarations by name first: types refer to each other in any order.
	for i, t := range api.Typedefs {
		if t == nil {
			return fmt.Errorf("typedef %d: null", i+1)
		}
		if err := ident(t.Name); err != nil {
			return fmt.Errorf("typedef %d: name: %w", i+1, err)
		}
		if v.typedefs[t.Name] != nil {
			return fmt.Errorf("typedef %s: declared twice", t.Name)
		}
		v.typedefs[t.Name] = t
	}
	for i, r := range api.Records {
		if r == nil {
			return fmt.Errorf("record %d: null", i+1)
		}
		if err := v.recordNames(r); err != nil {
			return fmt.Errorf("record %d (%.80q): %w", i+1, r.Name, err)
		}
		for _, n := range []string{r.Name, r.Ref} {
			if o := v.records[n]; o != nil && o != r {
				return fmt.Errorf("record %s: declared twice", n)
			}
			v.records[n] = r
		}
	}
	for i, e := range api.Enums {
		if e == nil {
			return fmt.Errorf("enum %d: null", i+1)
		}
		if err := ident(e.Name); err != nil {
			return fmt.Errorf("enum %d: name: %w", i+1, err)
		}
		if err := ref(e.Ref, "enum"); err != nil {
			return fmt.Errorf("enum %s: ref: %w", e.Name, err)
		}
		for _, n := range []string{e.Name, e.Ref} {
			if o := v.enums[n]; o != nil && o != e {
				return fmt.Errorf("enum %s: declared twice", n)
			}
			v.enums[n] = e
		}
	}
	for n := range v.records {
		if v.enums[n] != nil {
			return fmt.Errorf("%s: both a record and an enum", n)
		}
	}
	// Cycles first: a type that contains itself has no consistent size
	// either, and the cycle is the error to show.
	if err := v.cycles(api); err != nil {
		return err
	}

	funcs := map[string]bool{}
	for i, f := range api.Functions {
		if f == nil {
			return fmt.Errorf("function %d: null", i+1)
		}
		if err := ident(f.Name); err != nil {
			return fmt.Errorf("function %d: name: %w", i+1, err)
		}
		if err := v.function(f); err != nil {
			return fmt.Errorf("function %s: %w", f.Name, err)
		}
		for _, n := range append([]string{f.Name}, f.Aliases...) {
			if funcs[n] {
				return fmt.Errorf("function %s: %s declared twice", f.Name, n)
			}
			funcs[n] = true
		}
	}
	for _, t := range api.Typedefs {
		if err := v.typ(t.Type, 0); err != nil {
			return fmt.Errorf("typedef %s: %w", t.Name, err)
		}
		if err := v.common(string(t.Library), t.Pos, t.Doc); err != nil {
			return fmt.Errorf("typedef %s: %w", t.Name, err)
		}
	}
	for _, r := range api.Records {
		if err := v.record(r, r, 0); err != nil {
			return fmt.Errorf("record %s: %w", r.Name, err)
		}
	}
	values := map[string]bool{}
	for _, e := range api.Enums {
		if err := v.enum(e, values); err != nil {
			return fmt.Errorf("enum %s: %w", e.Name, err)
		}
	}
	for i, mc := range api.Macros {
		if mc == nil {
			return fmt.Errorf("macro %d: null", i+1)
		}
		if err := ident(mc.Name); err != nil {
			return fmt.Errorf("macro %d: name: %w", i+1, err)
		}
		if err := v.macro(mc); err != nil {
			return fmt.Errorf("macro %s: %w", mc.Name, err)
		}
	}
	for i, in := range api.Initializers {
		if in == nil {
			return fmt.Errorf("initializer %d: null", i+1)
		}
		if err := ident(in.Name); err != nil {
			return fmt.Errorf("initializer %d: name: %w", i+1, err)
		}
		if err := v.initializer(in); err != nil {
			return fmt.Errorf("initializer %s: %w", in.Name, err)
		}
	}
	return nil
}

func (v *validator) function(f *Function) error {
	if err := ident(f.Symbol); err != nil {
		return fmt.Errorf("symbol: %w", err)
	}
	if f.PerThreadSymbol != "" {
		if err := ident(f.PerThreadSymbol); err != nil {
			return fmt.Errorf("per-thread symbol: %w", err)
		}
	}
	for _, a := range f.Aliases {
		if err := ident(a); err != nil {
			return fmt.Errorf("alias: %w", err)
		}
	}
	if f.Library == "" {
		return errors.New("no library")
	}
	if err := v.common(string(f.Library), f.Pos, f.Doc); err != nil {
		return err
	}
	if f.SinceVersion < 0 || f.SinceVersion >= 1_000_000 {
		return fmt.Errorf("since_version %d: not a version", f.SinceVersion)
	}
	return v.signature(f.Params, f.Result, 0)
}

// signature checks a function's or a callback's parameters and result.
func (v *validator) signature(params []Param, result *Type, depth int) error {
	names := map[string]bool{}
	for i, p := range params {
		if err := ident(p.Name); err != nil {
			return fmt.Errorf("parameter %d: name: %w", i+1, err)
		}
		if names[p.Name] {
			return fmt.Errorf("parameter %d (%s): declared twice", i+1, p.Name)
		}
		names[p.Name] = true
	}
	for i, p := range params {
		where := fmt.Sprintf("parameter %d (%s)", i+1, p.Name)
		if p.Type == nil {
			return fmt.Errorf("%s: type is null", where)
		}
		if p.Type.Kind == Variadic && i != len(params)-1 {
			return fmt.Errorf("%s: ... before the last parameter", where)
		}
		if err := v.typ(p.Type, depth); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		switch p.Direction {
		case In, Out, InOut, "":
		default:
			return fmt.Errorf("%s: direction %.40q: not in, out or inout", where, p.Direction)
		}
		if err := text(p.Why, maxSource); err != nil {
			return fmt.Errorf("%s: why: %w", where, err)
		}
		if err := doc(p.Doc); err != nil {
			return fmt.Errorf("%s: doc: %w", where, err)
		}
		if a := p.Array; a != nil {
			if a.Len < 0 || a.Len > maxArray {
				return fmt.Errorf("%s: array length %d out of range", where, a.Len)
			}
			if a.Param != "" && !names[a.Param] {
				return fmt.Errorf("%s: array length in parameter %.40q, which the function does not have", where, a.Param)
			}
			if err := text(a.Source, maxSource); err != nil {
				return fmt.Errorf("%s: array source: %w", where, err)
			}
		}
	}
	if result == nil {
		return errors.New("result is null")
	}
	if err := v.typ(result, depth); err != nil {
		return fmt.Errorf("result: %w", err)
	}
	return nil
}

// typ checks a type where it is used.
func (v *validator) typ(t *Type, depth int) error {
	if t == nil {
		return errors.New("type is null")
	}
	if depth > 32 {
		return errors.New("type nested more than 32 deep")
	}
	if err := text(t.C, maxSource); err != nil {
		return fmt.Errorf("C spelling: %w", err)
	}
	if t.Size < -1 || t.Size > maxSize {
		return fmt.Errorf("%s: size %d out of range", t.C, t.Size)
	}
	if err := align(t.Align); err != nil {
		return fmt.Errorf("%s: %w", t.C, err)
	}
	switch t.Kind {
	case Void, Variadic:
	case Int:
		switch t.Size {
		case 1, 2, 4, 8:
		default:
			return fmt.Errorf("%s: an integer of %d bytes", t.C, t.Size)
		}
	case Float:
		if t.Size != 4 && t.Size != 8 {
			return fmt.Errorf("%s: a float of %d bytes", t.C, t.Size)
		}
	case Pointer:
		if t.Elem == nil {
			return fmt.Errorf("%s: pointer element is null", t.C)
		}
		return v.typ(t.Elem, depth+1)
	case Array:
		if t.Elem == nil {
			return fmt.Errorf("%s: array element is null", t.C)
		}
		if t.Len < 0 || t.Len > maxArray {
			return fmt.Errorf("%s: array length %d out of range", t.C, t.Len)
		}
		if err := v.typ(t.Elem, depth+1); err != nil {
			return err
		}
		if t.Elem.Size < 1 || t.Elem.Size*t.Len != t.Size {
			return fmt.Errorf("%s: array of %d elements of %d bytes has size %d", t.C, t.Len, t.Elem.Size, t.Size)
		}
	case Named:
		if v.typedefs[t.Name] == nil && v.records[t.Name] == nil && v.enums[t.Name] == nil {
			return fmt.Errorf("type %.80q is not declared", t.Name)
		}
		// The size a use records is its declaration's: emit lays out
		// records with it, and the generated size guards hold Go to it.
		if size, ok := v.declSize(t.Name, 0); ok && size != t.Size {
			return fmt.Errorf("%s: size %d, but %s is %d bytes", t.C, t.Size, t.Name, size)
		}
		if t.Elem != nil {
			return v.typ(t.Elem, depth+1)
		}
	case FuncPtr:
		if t.Func == nil {
			return fmt.Errorf("%s: function pointer without a signature", t.C)
		}
		if err := v.signature(t.Func.Params, t.Func.Result, depth+1); err != nil {
			return fmt.Errorf("%s: %w", t.C, err)
		}
	default:
		return fmt.Errorf("%s: kind %.40q is not a kind of type", t.C, t.Kind)
	}
	return nil
}

func align(a int64) error {
	if a < 0 || a > maxAlign || a&(a-1) != 0 {
		return fmt.Errorf("alignment %d: not a power of two up to %d", a, maxAlign)
	}
	return nil
}

// recordNames checks a record's names: an identifier, or the anonymous
// reference of a record that is the type of a named member (Parent).
func (v *validator) recordNames(r *Record) error {
	kind := "struct"
	if r.Union {
		kind = "union"
	}
	if err := ref(r.Ref, kind); err != nil {
		return fmt.Errorf("ref: %w", err)
	}
	if strings.Contains(r.Name, "<anonymous") {
		if r.Name != r.Ref {
			return fmt.Errorf("anonymous name %.80q is not its ref", r.Name)
		}
		if r.Parent == "" {
			return errors.New("anonymous record without a parent")
		}
	} else if err := ident(r.Name); err != nil {
		return fmt.Errorf("name: %w", err)
	}
	if r.Tag != "" {
		if err := ident(r.Tag); err != nil {
			return fmt.Errorf("tag: %w", err)
		}
	}
	return nil
}

// record checks r (top or an anonymous member's record inline in top).
func (v *validator) record(r, top *Record, depth int) error {
	if r.Parent != "" {
		p := v.records[r.Parent]
		if p == nil || p == r {
			return fmt.Errorf("parent %.80q is not a record", r.Parent)
		}
		if err := ident(r.Member); err != nil {
			return fmt.Errorf("member: %w", err)
		}
	}
	if r.Size < -1 || r.Size > maxSize {
		return fmt.Errorf("size %d out of range", r.Size)
	}
	if err := align(r.Align); err != nil {
		return err
	}
	if err := v.common(string(r.Library), r.Pos, r.Doc); err != nil {
		return err
	}
	if r.Opaque && len(r.Fields) > 0 {
		return errors.New("opaque with fields")
	}
	if !r.Opaque && r.Size > 0 && r.Align == 0 {
		return errors.New("a defined record of alignment 0")
	}
	if !r.Opaque && r.Align > 0 && r.Size%r.Align != 0 {
		return fmt.Errorf("size %d is not a multiple of its alignment %d", r.Size, r.Align)
	}
	names := map[string]bool{}
	for i, f := range r.Fields {
		where := fmt.Sprintf("field %d (%s)", i+1, f.Name)
		if err := ident(f.Name); err != nil {
			return fmt.Errorf("field %d: name: %w", i+1, err)
		}
		if names[f.Name] {
			return fmt.Errorf("%s: declared twice", where)
		}
		names[f.Name] = true
		if f.Type == nil {
			return fmt.Errorf("%s: type is null", where)
		}
		if f.Anonymous {
			if f.Record == nil {
				return fmt.Errorf("%s: anonymous member without its record", where)
			}
			if depth >= 16 {
				return fmt.Errorf("%s: anonymous members nested more than 16 deep", where)
			}
			if err := v.record(f.Record, top, depth+1); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
		} else {
			if f.Record != nil {
				return fmt.Errorf("%s: a record inline in a member that is not anonymous", where)
			}
			if err := v.typ(f.Type, 0); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			switch f.Type.Kind {
			case Void, Variadic:
				return fmt.Errorf("%s: a member of type %s", where, f.Type.Kind)
			}
			if f.Type.Size < 0 && f.BitWidth == 0 {
				return fmt.Errorf("%s: a member of incomplete type %s", where, f.Type.C)
			}
		}
		if f.Offset < 0 || f.Offset > top.Size {
			return fmt.Errorf("%s: offset %d outside the record's %d bytes", where, f.Offset, top.Size)
		}
		if f.BitWidth < 0 || f.BitWidth > maxBits || f.BitOffset < 0 || f.BitOffset >= 8*maxBits {
			return fmt.Errorf("%s: bitfield %d:%d out of range", where, f.BitOffset, f.BitWidth)
		}
		if f.BitWidth == 0 && !f.Anonymous && f.Offset+f.Type.Size > top.Size {
			return fmt.Errorf("%s: %d bytes at offset %d end past the record's %d", where, f.Type.Size, f.Offset, top.Size)
		}
		if f.Anonymous && f.Offset+f.Record.Size > top.Size {
			return fmt.Errorf("%s: %d bytes at offset %d end past the record's %d", where, f.Record.Size, f.Offset, top.Size)
		}
		if err := docOf(f.Doc); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	return nil
}

func (v *validator) enum(e *Enum, values map[string]bool) error {
	switch e.Size {
	case 1, 2, 4, 8:
	default:
		return fmt.Errorf("size %d: not an integer's", e.Size)
	}
	if e.Tag != "" {
		if err := ident(e.Tag); err != nil {
			return fmt.Errorf("tag: %w", err)
		}
	}
	if err := v.common(string(e.Library), e.Pos, e.Doc); err != nil {
		return err
	}
	for i, x := range e.Values {
		if err := ident(x.Name); err != nil {
			return fmt.Errorf("value %d: name: %w", i+1, err)
		}
		if values[x.Name] {
			return fmt.Errorf("value %s: declared twice", x.Name)
		}
		values[x.Name] = true
		if !fits(x.Value, e.Size, e.Signed) {
			return fmt.Errorf("value %s: %d does not fit the enum's %d bytes", x.Name, x.Value, e.Size)
		}
		if err := docOf(x.Doc); err != nil {
			return fmt.Errorf("value %s: %w", x.Name, err)
		}
	}
	return nil
}

func (v *validator) macro(mc *Macro) error {
	if err := literal(mc.Kind, mc.Value); err != nil {
		return err
	}
	if err := text(mc.CType, maxSource); err != nil {
		return fmt.Errorf("C type: %w", err)
	}
	// emit declares the constant with the Go type of a declared C type:
	// its value must be one of that type's.
	t := v.resolveName(mc.CType)
	switch {
	case mc.Kind == Pointer:
		if _, err := strconv.ParseUint(mc.Value, 10, 64); err != nil {
			return fmt.Errorf("value %.40q: not an address", mc.Value)
		}
		if t == nil && mc.CType != "" && !strings.HasSuffix(mc.CType, "*") {
			return fmt.Errorf("C type %.80q: not a pointer", mc.CType)
		}
		if t != nil && t.Kind != Pointer && t.Kind != Int {
			return fmt.Errorf("C type %.80q: a %s, not a pointer", mc.CType, t.Kind)
		}
	case mc.Kind == Float:
		if _, err := strconv.ParseFloat(mc.Value, 64); err != nil {
			return fmt.Errorf("value %.40q: not a float64", mc.Value)
		}
		if t != nil && t.Kind != Float {
			return fmt.Errorf("C type %.80q: a %s, not a float", mc.CType, t.Kind)
		}
	default:
		n, err := strconv.ParseInt(mc.Value, 10, 64)
		if err != nil {
			if _, uerr := strconv.ParseUint(mc.Value, 10, 64); uerr != nil || t != nil && (t.Signed || t.Size < 8) {
				return fmt.Errorf("value %.40q does not fit %s", mc.Value, cOr(mc.CType))
			}
		} else if t != nil && !fits(n, t.Size, t.Signed) {
			return fmt.Errorf("value %s does not fit %s (%d bytes)", mc.Value, mc.CType, t.Size)
		}
		if t != nil && t.Kind != Int {
			return fmt.Errorf("C type %.80q: a %s, not an integer", mc.CType, t.Kind)
		}
	}
	return v.common(string(mc.Library), mc.Pos, mc.Doc)
}

func cOr(c string) string {
	if c == "" {
		return "an integer"
	}
	return c
}

// fits reports whether n is a value of an integer of size bytes (an int64
// holds every value of 8 bytes, an unsigned one as its bits).
func fits(n, size int64, signed bool) bool {
	if size >= 8 {
		return true
	}
	bits := uint(8 * size)
	if signed {
		return n >= -(1<<(bits-1)) && n < 1<<(bits-1)
	}
	return n >= 0 && n < 1<<bits
}

// resolveName is the type a declared C type name stands for, typedefs
// followed (an enum as an integer of its size; a record as itself), or nil
// for a name the IR does not declare (a C base type, "unsigned int").
func (v *validator) resolveName(name string) *Type {
	for i := 0; i < 64; i++ {
		if td := v.typedefs[name]; td != nil && td.Type != nil {
			if td.Type.Kind != Named {
				return td.Type
			}
			name = td.Type.Name
			continue
		}
		if e := v.enums[name]; e != nil {
			return &Type{Kind: Int, Size: e.Size, Signed: e.Signed}
		}
		if r := v.records[name]; r != nil {
			return &Type{Kind: Named, Name: name, Size: r.Size}
		}
		return nil
	}
	return nil
}

// declSize is the size of the declaration a named type refers to.
func (v *validator) declSize(name string, depth int) (int64, bool) {
	if depth > 64 {
		return 0, false
	}
	if td := v.typedefs[name]; td != nil {
		if td.Type == nil {
			return 0, false
		}
		return td.Type.Size, true
	}
	if r := v.records[name]; r != nil && !r.Opaque { // a use of an opaque one says -1
		return r.Size, true
	}
	if e := v.enums[name]; e != nil {
		return e.Size, true
	}
	return 0, false
}

func (v *validator) initializer(in *Initializer) error {
	r := v.records[in.Record]
	if r == nil || r.Opaque {
		return fmt.Errorf("record %.80q is not a defined record", in.Record)
	}
	members := map[string]*Field{}
	var collect func(fs []Field)
	collect = func(fs []Field) {
		for i := range fs {
			if fs[i].Anonymous && fs[i].Record != nil {
				collect(fs[i].Record.Fields)
				continue
			}
			members[fs[i].Name] = &fs[i]
		}
	}
	collect(r.Fields)
	for i, f := range in.Fields {
		if err := ident(f.Name); err != nil {
			return fmt.Errorf("field %d: name: %w", i+1, err)
		}
		// emit writes a composite literal of the struct: each name must
		// be a member, not a bitfield (which Go keeps as padding).
		m := members[f.Name]
		if m == nil || m.BitWidth > 0 || m.Type == nil {
			return fmt.Errorf("field %s: not a member of %s", f.Name, in.Record)
		}
		rt := m.Type
		if rt.Kind == Named {
			rt = v.resolveName(rt.Name)
		}
		switch {
		case rt == nil:
		case f.Kind == Int && rt.Kind != Int && rt.Kind != Pointer, f.Kind == Float && rt.Kind != Float:
			return fmt.Errorf("field %s: a value of kind %s for a member of type %s", f.Name, f.Kind, m.Type.C)
		case f.Kind == Int && rt.Kind == Int:
			n, err := strconv.ParseInt(f.Value, 10, 64)
			if err != nil && (rt.Signed || rt.Size < 8) || err == nil && !fits(n, rt.Size, rt.Signed) {
				return fmt.Errorf("field %s: value %.40s does not fit %s", f.Name, f.Value, m.Type.C)
			}
		}
		if f.Kind != Int && f.Kind != Float {
			return fmt.Errorf("field %s: kind %.40q: not int or float", f.Name, f.Kind)
		}
		if err := literal(f.Kind, f.Value); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
	}
	return v.common(string(in.Library), in.Pos, nil)
}

// literal checks a macro's or initializer's value, which emit writes into
// Go source as it is: a decimal integer (Int, Pointer) or a decimal float
// (Float), nothing else.
func literal(k Kind, s string) error {
	bad := fmt.Errorf("value %.40q: not a literal of kind %s", s, k)
	d := strings.TrimPrefix(s, "-")
	if d == "" || len(s) > 64 {
		return bad
	}
	switch k {
	case Int, Pointer:
		for _, c := range d {
			if c < '0' || c > '9' {
				return bad
			}
		}
		if len(d) > 1 && d[0] == '0' { // Go reads 010 as octal 8, and 08 not at all
			return bad
		}
	case Float:
		digits := false
		for i, c := range d {
			switch {
			case '0' <= c && c <= '9':
				digits = true
			case c == '.' || c == 'e' || c == 'E':
			case (c == '+' || c == '-') && i > 0 && (d[i-1] == 'e' || d[i-1] == 'E'):
			default:
				return bad
			}
		}
		if !digits || d[0] < '0' || d[0] > '9' && d[0] != '.' || strings.Count(d, ".") > 1 || strings.Count(strings.ToLower(d), "e") > 1 {
			return bad
		}
		if e := strings.IndexAny(d, "eE"); e >= 0 && (e == len(d)-1 || strings.IndexAny(d[e:], "0123456789") < 0 || strings.Contains(d[e:], ".")) {
			return bad
		}
	default:
		return fmt.Errorf("kind %.40q: not int, float or pointer", k)
	}
	return nil
}

// common checks what every declaration has: a library key, a position and
// documentation.
func (v *validator) common(lib string, pos Pos, d *Doc) error {
	if lib != "" {
		if err := ident(lib); err != nil {
			return fmt.Errorf("library: %w", err)
		}
	}
	if err := text(pos.File, maxSource); err != nil {
		return fmt.Errorf("position: %w", err)
	}
	if pos.Line < 0 {
		return fmt.Errorf("position: line %d", pos.Line)
	}
	return docOf(d)
}

// docOf checks a declaration's documentation: text that may hold line
// breaks (a code block's), no other control characters.
func docOf(d *Doc) error {
	if d == nil {
		return nil
	}
	all := []string{d.Brief, d.Returns, d.DeprecatedText}
	all = append(all, d.Notes...)
	all = append(all, d.SeeAlso...)
	for _, b := range d.Body {
		all = append(all, string(b.Kind), b.Text)
		all = append(all, b.Items...)
		for _, r := range b.Rows {
			all = append(all, r...)
		}
	}
	for _, p := range d.Params {
		all = append(all, p.Name, p.Dir, p.Text)
	}
	for _, s := range all {
		if err := doc(s); err != nil {
			return fmt.Errorf("doc: %w", err)
		}
	}
	return nil
}

// doc checks one string of documentation.
func doc(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%.40q: not UTF-8", s)
	}
	for _, c := range s {
		if c < ' ' && c != '\n' && c != '\t' || c == 0x7f || c == 0x2028 || c == 0x2029 {
			return fmt.Errorf("%.40q: control character %U", s, c)
		}
	}
	return nil
}

// text checks a string that generated files quote in a comment or a
// literal: UTF-8 of at most max bytes, on one line.
func text(s string, max int) error {
	if len(s) > max {
		return fmt.Errorf("%d bytes: longer than %d", len(s), max)
	}
	if err := doc(s); err != nil {
		return err
	}
	if strings.ContainsAny(s, "\n\t") {
		return fmt.Errorf("%.40q: a line break or tab", s)
	}
	return nil
}

// IsIdent reports whether s is a C identifier (ASCII letters, digits and
// underscores, not starting with a digit), as [Validate] requires names
// to be.
func IsIdent(s string) bool { return s != "" && len(s) <= maxName && ident(s) == nil }

// ident checks a C identifier.
func ident(s string) error {
	if s == "" {
		return errors.New("empty")
	}
	if len(s) > maxName {
		return fmt.Errorf("%.40q...: longer than %d bytes", s, maxName)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return fmt.Errorf("%.80q is not a C identifier", s)
	}
	return nil
}

// ref checks a record's or enum's reference name: "struct TAG", or an
// anonymous one, "struct <anonymous at cuda.h:123>".
func ref(s, kind string) error {
	rest, ok := strings.CutPrefix(s, kind+" ")
	if !ok {
		return fmt.Errorf("%.80q does not start with %q", s, kind+" ")
	}
	if strings.HasPrefix(rest, "<anonymous") && strings.HasSuffix(rest, ">") {
		return text(rest, maxSource)
	}
	return ident(rest)
}

// cycles reports a type that contains itself by value: a record with a
// member of its own type (directly, through an array, a typedef or another
// record), or a typedef whose chain comes back to itself. C cannot declare
// either; Go would reject the package ("invalid recursive type") and emit
// would recurse without end. Pointers and function pointers break a cycle.
// The error shows the cycle by the names the IR uses, with the member that
// holds each record's next step.
func (v *validator) cycles(api *API) error {
	const (
		visiting = 1
		done     = 2
	)
	state := map[any]int{}
	type step struct {
		node  any
		label string
	}
	var path []step
	var visit func(node any, label string) error
	// visitType follows t by value (arrays; a named type's declaration);
	// via labels the step (the member that holds it).
	visitType := func(t *Type, via string) error {
		for t != nil && t.Kind == Array {
			t = t.Elem
		}
		if t == nil || t.Kind != Named || t.Name == "" {
			return nil
		}
		label := t.Name + via
		if td := v.typedefs[t.Name]; td != nil {
			return visit(td, label)
		}
		if r := v.records[t.Name]; r != nil {
			return visit(r, label)
		}
		return nil // an enum, or undeclared (reported before)
	}
	var fields func(r *Record) error
	fields = func(r *Record) error {
		for _, f := range r.Fields {
			if f.Anonymous && f.Record != nil {
				if err := fields(f.Record); err != nil {
					return err
				}
				continue
			}
			if err := visitType(f.Type, " (field "+f.Name+")"); err != nil {
				return err
			}
		}
		return nil
	}
	visit = func(node any, label string) error {
		switch state[node] {
		case done:
			return nil
		case visiting:
			i := len(path) - 1
			for i > 0 && path[i].node != node {
				i--
			}
			var names []string
			for _, s := range path[i:] {
				names = append(names, s.label)
			}
			return fmt.Errorf("contains itself by value: %s -> %s", strings.Join(names, " -> "), path[i].label)
		}
		state[node] = visiting
		path = append(path, step{node, label})
		var err error
		switch n := node.(type) {
		case *Typedef:
			err = visitType(n.Type, "")
		case *Record:
			err = fields(n)
		}
		if err != nil {
			return err
		}
		path = path[:len(path)-1]
		state[node] = done
		return nil
	}
	for _, r := range api.Records {
		if err := visit(r, r.Ref); err != nil {
			return fmt.Errorf("record %s: %w", r.Name, err)
		}
	}
	for _, t := range api.Typedefs {
		if err := visit(t, t.Name); err != nil {
			return fmt.Errorf("typedef %s: %w", t.Name, err)
		}
	}
	return nil
}
