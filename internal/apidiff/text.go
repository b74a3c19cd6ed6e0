package apidiff

import (
	"fmt"
	"io"
	"strconv"
)

// WriteText writes r for people: a one-line summary, then one block per
// non-empty list, "+" for added, "-" for removed and "~" for changed items.
func (r *Report) WriteText(w io.Writer) error {
	p := &printer{w: w}
	s := r.Summary
	p.printf("CUDA %s -> %s: functions %s, records %s, enums %s, typedefs %s, macros %s\n",
		version(r.OldVersion), version(r.NewVersion),
		s.Functions, s.Records, s.Enums, s.Typedefs, s.Macros)

	fs := &r.Functions
	addedRemoved(p, "functions", fs.Added, fs.Removed, func(f Func) string {
		return fmt.Sprintf("%s (%s, %s)", f.Name, f.Library, f.Symbol)
	})
	p.section("functions changed", len(fs.Changed))
	for _, f := range fs.Changed {
		p.printf("  ~ %s (%s)\n", f.Name, f.Library)
		p.changes(f.Changes)
	}

	rs := &r.Records
	addedRemoved(p, "records", rs.Added, rs.Removed, recordLine)
	p.section("records changed", len(rs.Changed))
	for _, x := range rs.Changed {
		p.printf("  ~ %s (%s)\n", x.Name, x.Library)
		p.changes(x.Changes)
		for _, f := range x.Fields {
			switch f.What {
			case FieldAdded:
				p.printf("      + field %s %s at %s\n", f.Name, fieldType(f.New), offset(f.New))
			case FieldRemoved:
				p.printf("      - field %s %s at %s\n", f.Name, fieldType(f.Old), offset(f.Old))
			case FieldMoved:
				p.printf("      ~ field %s moved: %s -> %s\n", f.Name, offset(f.Old), offset(f.New))
			case FieldType:
				p.printf("      ~ field %s type: %s -> %s\n", f.Name, fieldType(f.Old), fieldType(f.New))
			}
		}
	}

	es := &r.Enums
	addedRemoved(p, "enums", es.Added, es.Removed, func(e Enum) string {
		return fmt.Sprintf("%s (%s, %d values)", e.Name, e.Library, e.Values)
	})
	p.section("enums changed", len(es.Changed))
	for _, e := range es.Changed {
		p.printf("  ~ %s (%s)\n", e.Name, e.Library)
		p.changes(e.Changes)
		for _, v := range e.Added {
			p.printf("      + %s = %d\n", v.Name, v.Value)
		}
		for _, v := range e.Removed {
			p.printf("      - %s = %d\n", v.Name, v.Value)
		}
		for _, v := range e.Renumbered {
			p.printf("      ~ %s = %d -> %d\n", v.Name, v.Old, v.New)
		}
	}

	ts := &r.Typedefs
	addedRemoved(p, "typedefs", ts.Added, ts.Removed, func(t Typedef) string {
		return fmt.Sprintf("%s = %s (%s)", t.Name, t.Type, t.Library)
	})
	p.section("typedefs changed", len(ts.Changed))
	for _, t := range ts.Changed {
		p.printf("  ~ %s (%s): %s -> %s\n", t.Name, t.Library, t.Old, t.New)
	}

	ms := &r.Macros
	addedRemoved(p, "macros", ms.Added, ms.Removed, func(m Macro) string {
		return fmt.Sprintf("%s = %s (%s, %s)", m.Name, m.Value, m.Library, m.CType)
	})
	p.section("macros changed", len(ms.Changed))
	for _, m := range ms.Changed {
		if m.OldCType != "" || m.NewCType != "" {
			p.printf("  ~ %s (%s): %s (%s) -> %s (%s)\n", m.Name, m.Library, m.Old, m.OldCType, m.New, m.NewCType)
		} else {
			p.printf("  ~ %s (%s): %s -> %s\n", m.Name, m.Library, m.Old, m.New)
		}
	}
	return p.err
}

// String is "+ADDED -REMOVED ~CHANGED".
func (c Counts) String() string {
	return fmt.Sprintf("+%d -%d ~%d", c.Added, c.Removed, c.Changed)
}

// printer keeps the first write error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// addedRemoved prints the "added" and "removed" sections of one kind of
// declaration, line giving each item's text after its sign.
func addedRemoved[T any](p *printer, kind string, added, removed []T, line func(T) string) {
	p.section(kind+" added", len(added))
	for _, x := range added {
		p.printf("  + %s\n", line(x))
	}
	p.section(kind+" removed", len(removed))
	for _, x := range removed {
		p.printf("  - %s\n", line(x))
	}
}

func (p *printer) section(title string, n int) {
	if n > 0 {
		p.printf("\n%s (%d):\n", title, n)
	}
}

func (p *printer) changes(cs []Change) {
	for _, c := range cs {
		p.printf("      %s: %s -> %s\n", c.What, orNone(c.Old), orNone(c.New))
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// version spells a CUDA_VERSION: 12040 -> "12.4".
func version(v int64) string {
	if v <= 0 {
		return "(unknown)"
	}
	return fmt.Sprintf("%d.%d", v/1000, v%1000/10)
}

func recordLine(r Record) string {
	kind := "struct"
	if r.Union {
		kind = "union"
	}
	if r.Opaque {
		return fmt.Sprintf("%s (%s, opaque %s)", r.Name, r.Library, kind)
	}
	return fmt.Sprintf("%s (%s, %s, size %d, align %d)", r.Name, r.Library, kind, r.Size, r.Align)
}

func fieldType(f *Field) string {
	if f.BitWidth > 0 {
		return f.Type + " :" + strconv.Itoa(f.BitWidth)
	}
	return f.Type
}

// offset is the byte offset, with ".BIT" for a bitfield not at bit 0.
func offset(f *Field) string {
	if f.BitOffset != 0 {
		return fmt.Sprintf("%d.%d", f.Offset, f.BitOffset)
	}
	return strconv.FormatInt(f.Offset, 10)
}
