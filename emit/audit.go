package emit

import (
	"fmt"
	"sort"
	"strings"
)

// auditText is audit.txt: every decision the generator made for the
// package (outputs, renames, skips, layouts, callbacks, arrays), sorted.
func (m *model) auditText() []byte {
	var b strings.Builder
	for _, l := range m.header() {
		fmt.Fprintf(&b, "# %s\n", l)
	}
	fmt.Fprintf(&b, "# Decisions cugen made for package %s, one per line. Kinds: out (a parameter\n", m.pkg)
	b.WriteString("# became a result), inout (a pointer parameter stays a pointer), name (collision\n")
	b.WriteString("# rule), skip (not bound), layout, callback, array (a pointer to several elements:\n")
	b.WriteString("# how many, and where the number comes from).\n")
	lines := append([]string(nil), m.audit...)
	for _, u := range m.unbound {
		lines = append(lines, fmt.Sprintf("skip %s: %s", u.fn.Symbol, u.why))
	}
	sort.Strings(lines)
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "# bound %d of %d functions\n", len(m.funcs), len(m.funcs)+len(m.unbound))
	return []byte(b.String())
}
