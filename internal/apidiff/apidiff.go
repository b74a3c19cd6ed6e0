// Package apidiff compares two parsed CUDA header sets and reports what
// changed in the API: functions added, removed or re-signed (parameters,
// result, linked symbol, per-thread symbol, deprecation), struct and union
// layouts, enums and their values, typedef targets and macro values.
//
// It reads only the IR of package ir. A Report is deterministic: every list
// is sorted by name, except field changes, which follow the record's layout.
// It encodes as JSON with stable field names, and WriteText prints it for
// people:
//
//	r := apidiff.Compare(api118, api124)
//	r.WriteText(os.Stdout)
//
// Anonymous structs and unions are named by their place in the record that
// holds them (CUlaunchAttributeValue.clusterDim) rather than by their header
// line, so a record that only moved in the header is not reported, and a C
// type that mentions one is spelled "struct <anonymous CUlaunchAttributeValue.clusterDim>".
package apidiff

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cugen/cugen/parser/ir"
)

// Report is what changed from one header set to another.
type Report struct {
	// OldVersion and NewVersion are the CUDA_VERSION of each set (12040).
	OldVersion int64   `json:"old_version"`
	NewVersion int64   `json:"new_version"`
	Summary    Summary `json:"summary"`

	Functions Section[Func, FuncChange]       `json:"functions"`
	Records   Section[Record, RecordChange]   `json:"records"`
	Enums     Section[Enum, EnumChange]       `json:"enums"`
	Typedefs  Section[Typedef, TypedefChange] `json:"typedefs"`
	Macros    Section[Macro, MacroChange]     `json:"macros"`
}

// Section lists the items of one kind that only the old set has (Removed),
// only the new set has (Added), or both have with differences (Changed),
// each sorted by name. The lists are empty, never null, in JSON.
type Section[T, C any] struct {
	Added   []T `json:"added"`
	Removed []T `json:"removed"`
	Changed []C `json:"changed"`
}

// Counts returns the lengths of s's lists.
func (s *Section[T, C]) Counts() Counts {
	return Counts{Added: len(s.Added), Removed: len(s.Removed), Changed: len(s.Changed)}
}

// Empty reports whether the two APIs compared equal.
func (r *Report) Empty() bool {
	return r.Summary == Summary{} && r.OldVersion == r.NewVersion
}

// Summary counts the changes of each kind.
type Summary struct {
	Functions Counts `json:"functions"`
	Records   Counts `json:"records"`
	Enums     Counts `json:"enums"`
	Typedefs  Counts `json:"typedefs"`
	Macros    Counts `json:"macros"`
}

// Counts is the size of one Section.
type Counts struct {
	Added   int `json:"added"`
	Removed int `json:"removed"`
	Changed int `json:"changed"`
}

// Change is one property that differs, with both values as text.
// What names the property: "symbol", "per_thread_symbol", "deprecated",
// "result", "library", "param_count", "params", "params[N].name",
// "params[N].type" for functions; "size", "align", "kind", "opaque" for
// records; "size", "signed" for enums. An absent value is "".
type Change struct {
	What string `json:"what"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// Func is a function that was added or removed.
type Func struct {
	Name    string     `json:"name"`
	Library ir.Library `json:"library"`
	Symbol  string     `json:"symbol"`
}

// FuncChange is a function whose declaration changed.
type FuncChange struct {
	Name    string     `json:"name"`
	Library ir.Library `json:"library"`
	Changes []Change   `json:"changes"`
}

// Record is a struct or union that was added or removed.
type Record struct {
	Name    string     `json:"name"`
	Library ir.Library `json:"library"`
	Union   bool       `json:"union,omitempty"`
	Opaque  bool       `json:"opaque,omitempty"`
	Size    int64      `json:"size"`
	Align   int64      `json:"align"`
}

// RecordChange is a struct or union whose layout changed.
type RecordChange struct {
	Name    string     `json:"name"`
	Library ir.Library `json:"library"`
	// Changes are whole-record properties: size, align, kind, opaque.
	Changes []Change `json:"changes,omitempty"`
	// Fields are in the new layout's order, then removed fields in the old
	// layout's order. Members of anonymous structs and unions are listed
	// by their own names, as C code reaches them.
	Fields []FieldChange `json:"fields,omitempty"`
}

// Field change kinds.
const (
	FieldAdded   = "added"
	FieldRemoved = "removed"
	FieldMoved   = "moved" // offset (or bit offset) changed
	FieldType    = "type"  // C type (or bit width) changed
)

// FieldChange is one field added, removed, moved or retyped. A field that
// both moved and changed type has two FieldChanges.
type FieldChange struct {
	Name string `json:"name"`
	What string `json:"what"`
	// Old is nil for an added field, New for a removed one.
	Old *Field `json:"old,omitempty"`
	New *Field `json:"new,omitempty"`
}

// Field is a record member's place and type.
type Field struct {
	Type      string `json:"type"`
	Offset    int64  `json:"offset"`
	BitOffset int    `json:"bit_offset,omitempty"`
	BitWidth  int    `json:"bit_width,omitempty"`
}

// Enum is an enumeration that was added or removed.
type Enum struct {
	Name    string     `json:"name"`
	Library ir.Library `json:"library"`
	Values  int        `json:"values"`
}

// EnumChange is an enumeration whose values or representation changed.
type EnumChange struct {
	Name       string      `json:"name"`
	Library    ir.Library  `json:"library"`
	Changes    []Change    `json:"changes,omitempty"`
	Added      []EnumValue `json:"added,omitempty"`
	Removed    []EnumValue `json:"removed,omitempty"`
	Renumbered []Renumber  `json:"renumbered,omitempty"`
}

// EnumValue is one enumerator.
type EnumValue struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

// Renumber is an enumerator whose value changed.
type Renumber struct {
	Name string `json:"name"`
	Old  int64  `json:"old"`
	New  int64  `json:"new"`
}

// Typedef is a typedef that was added or removed.
type Typedef struct {
	Name    string     `json:"name"`
	Library ir.Library `json:"library"`
	Type    string     `json:"type"`
}

// TypedefChange is a typedef whose target type changed.
type TypedefChange struct {
	Name    string     `json:"name"`
	Library ir.Library `json:"library"`
	Old     string     `json:"old"`
	New     string     `json:"new"`
}

// Macro is a constant macro that was added or removed.
type Macro struct {
	Name    string     `json:"name"`
	Library ir.Library `json:"library"`
	Value   string     `json:"value"`
	CType   string     `json:"ctype"`
}

// MacroChange is a constant macro whose value or C type changed.
type MacroChange struct {
	Name     string     `json:"name"`
	Library  ir.Library `json:"library"`
	Old      string     `json:"old"`
	New      string     `json:"new"`
	OldCType string     `json:"old_ctype,omitempty"` // set only when the C type changed
	NewCType string     `json:"new_ctype,omitempty"`
}

// Compare reports what changed from old to new. A nil API is an empty one.
func Compare(old, new *ir.API) *Report {
	if old == nil {
		old = &ir.API{}
	}
	if new == nil {
		new = &ir.API{}
	}
	on, nn := newNamer(old), newNamer(new)
	r := &Report{OldVersion: old.CUDAVersion, NewVersion: new.CUDAVersion}

	r.Functions = diff(on, nn, old.Functions, new.Functions,
		func(_ *namer, f *ir.Function) string { return f.Name },
		func(_ *namer, f *ir.Function) Func { return Func{f.Name, f.Library, f.Symbol} },
		func(o, n *ir.Function) (FuncChange, bool) {
			c := FuncChange{Name: n.Name, Library: n.Library, Changes: compareFunc(o, n, on, nn)}
			return c, len(c.Changes) > 0
		})
	r.Records = diff(on, nn, old.Records, new.Records, (*namer).recordKey, (*namer).record,
		func(o, n *ir.Record) (RecordChange, bool) {
			c := compareRecord(o, n, on, nn)
			return c, len(c.Changes)+len(c.Fields) > 0
		})
	r.Enums = diff(on, nn, old.Enums, new.Enums, enumKey, enumEntry, func(o, n *ir.Enum) (EnumChange, bool) {
		c := compareEnum(o, n)
		return c, len(c.Changes)+len(c.Added)+len(c.Removed)+len(c.Renumbered) > 0
	})
	r.Typedefs = diff(on, nn, old.Typedefs, new.Typedefs,
		func(_ *namer, t *ir.Typedef) string { return t.Name }, (*namer).typedef,
		func(o, n *ir.Typedef) (TypedefChange, bool) {
			c := TypedefChange{Name: n.Name, Library: n.Library, Old: on.ctype(o.Type), New: nn.ctype(n.Type)}
			return c, c.Old != c.New
		})
	r.Macros = diff(on, nn, old.Macros, new.Macros,
		func(_ *namer, m *ir.Macro) string { return m.Name },
		func(_ *namer, m *ir.Macro) Macro { return Macro{m.Name, m.Library, m.Value, m.CType} },
		func(o, n *ir.Macro) (MacroChange, bool) {
			c := MacroChange{Name: n.Name, Library: n.Library, Old: o.Value, New: n.Value}
			if o.CType != n.CType {
				c.OldCType, c.NewCType = o.CType, n.CType
			}
			return c, c.Old != c.New || c.OldCType != c.NewCType
		})
	r.Summary = Summary{
		Functions: r.Functions.Counts(),
		Records:   r.Records.Counts(),
		Enums:     r.Enums.Counts(),
		Typedefs:  r.Typedefs.Counts(),
		Macros:    r.Macros.Counts(),
	}
	return r
}

// diff matches old and new items by key and builds a Section. Keys and
// entries are computed with the namer of the item's own API: on for old,
// nn for new. For a key that occurs twice in one list, the first counts.
func diff[I, T, C any](on, nn *namer, old, new []*I, key func(*namer, *I) string, entry func(*namer, *I) T, change func(o, n *I) (C, bool)) Section[T, C] {
	byKey := func(n *namer, items []*I) (map[string]*I, []string) {
		m := make(map[string]*I, len(items))
		var keys []string
		for _, it := range items {
			k := key(n, it)
			if _, dup := m[k]; !dup {
				m[k] = it
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		return m, keys
	}
	om, okeys := byKey(on, old)
	nm, nkeys := byKey(nn, new)
	s := Section[T, C]{Added: []T{}, Removed: []T{}, Changed: []C{}}
	for _, k := range okeys {
		if _, ok := nm[k]; !ok {
			s.Removed = append(s.Removed, entry(on, om[k]))
		}
	}
	for _, k := range nkeys {
		o, ok := om[k]
		if !ok {
			s.Added = append(s.Added, entry(nn, nm[k]))
			continue
		}
		if c, changed := change(o, nm[k]); changed {
			s.Changed = append(s.Changed, c)
		}
	}
	return s
}

func compareFunc(o, n *ir.Function, on, nn *namer) []Change {
	var cs []Change
	add := func(what, ov, nv string) {
		if ov != nv {
			cs = append(cs, Change{what, ov, nv})
		}
	}
	add("library", string(o.Library), string(n.Library))
	add("symbol", o.Symbol, n.Symbol)
	add("per_thread_symbol", o.PerThreadSymbol, n.PerThreadSymbol)
	add("deprecated", strconv.FormatBool(o.Deprecated), strconv.FormatBool(n.Deprecated))
	add("result", on.ctype(o.Result), nn.ctype(n.Result))
	if len(o.Params) != len(n.Params) {
		add("param_count", strconv.Itoa(len(o.Params)), strconv.Itoa(len(n.Params)))
		add("params", on.params(o.Params), nn.params(n.Params))
		return cs
	}
	for i := range o.Params {
		op, np := &o.Params[i], &n.Params[i]
		add(fmt.Sprintf("params[%d].name", i), op.Name, np.Name)
		add(fmt.Sprintf("params[%d].type", i), on.ctype(op.Type), nn.ctype(np.Type))
	}
	return cs
}

func compareRecord(o, n *ir.Record, on, nn *namer) RecordChange {
	c := RecordChange{Name: nn.recordKey(n), Library: n.Library}
	add := func(what, ov, nv string) {
		if ov != nv {
			c.Changes = append(c.Changes, Change{what, ov, nv})
		}
	}
	add("kind", recordKind(o), recordKind(n))
	add("opaque", strconv.FormatBool(o.Opaque), strconv.FormatBool(n.Opaque))
	add("size", strconv.FormatInt(o.Size, 10), strconv.FormatInt(n.Size, 10))
	add("align", strconv.FormatInt(o.Align, 10), strconv.FormatInt(n.Align, 10))

	ofs, nfs := on.fields(nil, o.Fields), nn.fields(nil, n.Fields)
	byName := make(map[string]*namedField, len(ofs))
	for i := range ofs {
		byName[ofs[i].name] = &ofs[i]
	}
	seen := make(map[string]bool, len(nfs))
	for i := range nfs {
		nf := &nfs[i]
		seen[nf.name] = true
		of, ok := byName[nf.name]
		if !ok {
			c.Fields = append(c.Fields, FieldChange{Name: nf.name, What: FieldAdded, New: &nf.Field})
			continue
		}
		if of.Offset != nf.Offset || of.BitOffset != nf.BitOffset {
			c.Fields = append(c.Fields, FieldChange{Name: nf.name, What: FieldMoved, Old: &of.Field, New: &nf.Field})
		}
		if of.Type != nf.Type || of.BitWidth != nf.BitWidth {
			c.Fields = append(c.Fields, FieldChange{Name: nf.name, What: FieldType, Old: &of.Field, New: &nf.Field})
		}
	}
	for i := range ofs {
		if of := &ofs[i]; !seen[of.name] {
			c.Fields = append(c.Fields, FieldChange{Name: of.name, What: FieldRemoved, Old: &of.Field})
		}
	}
	return c
}

func recordKind(r *ir.Record) string {
	if r.Union {
		return "union"
	}
	return "struct"
}

func enumKey(_ *namer, e *ir.Enum) string { return cmp.Or(e.Name, e.Ref) }

func enumEntry(_ *namer, e *ir.Enum) Enum {
	return Enum{cmp.Or(e.Name, e.Ref), e.Library, len(e.Values)}
}

func compareEnum(o, n *ir.Enum) EnumChange {
	c := EnumChange{Name: cmp.Or(n.Name, n.Ref), Library: n.Library}
	if o.Size != n.Size {
		c.Changes = append(c.Changes, Change{"size", strconv.FormatInt(o.Size, 10), strconv.FormatInt(n.Size, 10)})
	}
	if o.Signed != n.Signed {
		c.Changes = append(c.Changes, Change{"signed", strconv.FormatBool(o.Signed), strconv.FormatBool(n.Signed)})
	}
	ov := make(map[string]int64, len(o.Values))
	for _, v := range o.Values {
		ov[v.Name] = v.Value
	}
	nv := make(map[string]bool, len(n.Values))
	for _, v := range n.Values {
		nv[v.Name] = true
		old, ok := ov[v.Name]
		switch {
		case !ok:
			c.Added = append(c.Added, EnumValue{v.Name, v.Value})
		case old != v.Value:
			c.Renumbered = append(c.Renumbered, Renumber{v.Name, old, v.Value})
		}
	}
	for _, v := range o.Values {
		if !nv[v.Name] {
			c.Removed = append(c.Removed, EnumValue{v.Name, v.Value})
		}
	}
	return c
}

// namedField is a flattened record member.
type namedField struct {
	name string
	Field
}

// namer spells records and C types of one API so that they compare across
// header sets: anonymous records get names from where they are used instead
// of from their header line.
type namer struct {
	byRef map[string]*ir.Record
	anon  map[string]string // "<anonymous at cuda.h:2086>" -> "<anonymous CUlaunchAttributeValue.clusterDim>"
}

var anonRE = regexp.MustCompile(`<anonymous at [^>]*>`)

func newNamer(api *ir.API) *namer {
	n := &namer{byRef: map[string]*ir.Record{}, anon: map[string]string{}}
	for _, r := range api.Records {
		if r.Ref != "" {
			n.byRef[r.Ref] = r
		}
	}
	for _, r := range api.Records {
		if loc := anonRE.FindString(r.Ref); loc != "" {
			n.anon[loc] = "<anonymous " + n.recordKey(r) + ">"
		}
	}
	return n
}

// recordKey is the name records are matched by: the record's Name (its
// typedef or tag), else its Ref. An anonymous record used as a member's
// type is named PARENT.member.
func (n *namer) recordKey(r *ir.Record) string {
	var path []string
	for range 64 { // anonymous records nest a few levels; stop on a cycle
		if r.Name != "" && !strings.Contains(r.Name, "<anonymous") {
			break
		}
		if r.Parent == "" || r.Member == "" {
			break
		}
		path = append(path, r.Member)
		p, ok := n.byRef[r.Parent]
		if !ok {
			return dotted(r.Parent, path)
		}
		r = p
	}
	return dotted(cmp.Or(r.Name, r.Ref), path)
}

// dotted is base.path[n-1]...path[0]: path lists members innermost first.
func dotted(base string, path []string) string {
	var b strings.Builder
	b.WriteString(base)
	for i := len(path) - 1; i >= 0; i-- {
		b.WriteByte('.')
		b.WriteString(path[i])
	}
	return b.String()
}

func (n *namer) record(r *ir.Record) Record {
	return Record{n.recordKey(r), r.Library, r.Union, r.Opaque, r.Size, r.Align}
}

func (n *namer) typedef(t *ir.Typedef) Typedef {
	return Typedef{t.Name, t.Library, n.ctype(t.Type)}
}

// ctype is t spelled as C, with anonymous records named stably.
func (n *namer) ctype(t *ir.Type) string {
	if t == nil {
		return ""
	}
	if !strings.Contains(t.C, "<anonymous at ") {
		return t.C
	}
	return anonRE.ReplaceAllStringFunc(t.C, func(loc string) string {
		return cmp.Or(n.anon[loc], loc)
	})
}

// params spells a parameter list as C: (CUcontext *pctx, unsigned int flags).
func (n *namer) params(ps []ir.Param) string {
	var b strings.Builder
	b.WriteByte('(')
	for i := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		t := n.ctype(ps[i].Type)
		b.WriteString(t)
		if ps[i].Name != "" {
			if !strings.HasSuffix(t, "*") {
				b.WriteByte(' ')
			}
			b.WriteString(ps[i].Name)
		}
	}
	b.WriteByte(')')
	return b.String()
}

// fields flattens a record's members: those of anonymous structs and unions
// are listed in their place, by their own names. Offsets are already
// relative to the outermost record.
func (n *namer) fields(dst []namedField, fs []ir.Field) []namedField {
	for i := range fs {
		f := &fs[i]
		if f.Anonymous && f.Record != nil {
			dst = n.fields(dst, f.Record.Fields)
			continue
		}
		dst = append(dst, namedField{f.Name, Field{n.ctype(f.Type), f.Offset, f.BitOffset, f.BitWidth}})
	}
	return dst
}
