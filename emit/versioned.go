package emit

import (
	"fmt"
	"regexp"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// versionSuffix matches the version CUDA appends to a type it may change
// (CUdeviceptr_v2, CUDA_MEMCPY2D_v2).
var versionSuffix = regexp.MustCompile(`_v[0-9]+$`)

// findVersionedPairs records every versioned typedef pair of the package:
// C declares the type under its versioned name and the name programs write
// after it (typedef unsigned long long CUdeviceptr_v2; typedef
// CUdeviceptr_v2 CUdeviceptr;). Go turns that round: the name users write
// is the defined type (type Deviceptr uint64) and the versioned name the
// alias (type DeviceptrV2 = Deviceptr), so documentation, errors and
// %T print Deviceptr. A reference to either C name keeps its own Go name;
// both are one type.
func (m *model) findVersionedPairs() {
	m.unversioned = map[string]string{}
	m.versioned = map[string]string{}
	for _, t := range m.tds {
		if t.Type.Kind != ir.Named {
			continue
		}
		x, y := t.Name, t.Type.Name
		if !versionSuffix.MatchString(y) || versionSuffix.ReplaceAllString(y, "") != x {
			continue
		}
		gx, gy := m.typeNames[x], m.typeNames[y]
		if gx == "" || gy == "" || gx == gy || !m.declaresType(y) {
			continue
		}
		m.unversioned[y] = x
		m.versioned[x] = y
	}
}

// declaresType reports whether the package declares the C type named
// cname itself (a record, enum or typedef it emits under that name).
func (m *model) declaresType(cname string) bool {
	for _, r := range m.recs {
		if r.Name == cname {
			return true
		}
	}
	for _, e := range m.ens {
		if e.Name == cname {
			return true
		}
	}
	for _, t := range m.tds {
		if t.Name == cname && m.sameNamed(t) == "" {
			return true
		}
	}
	return false
}

// declName is the Go name a record, enum or typedef named cname is
// declared under: the unversioned name's for the declaration of a
// versioned pair, its own otherwise.
func (m *model) declName(cname string) string {
	if x, ok := m.unversioned[cname]; ok {
		return m.typeNames[x]
	}
	return m.typeNames[cname]
}

// versionedLead is the first doc line of a versioned pair's Go
// declarations, after the Go name: for the defined type (cname is the
// versioned C name the header declares) or for the alias (cname is the
// unversioned typedef); ok is false for a type outside every pair.
func (m *model) versionedLead(cname, what, where string) (lead string, ok bool) {
	if x, ok := m.unversioned[cname]; ok {
		return fmt.Sprintf("is the C %s %s (%s), declared as %s ([%s]).", what, x, where, cname, m.typeNames[cname]), true
	}
	if y, ok := m.versioned[cname]; ok {
		return fmt.Sprintf("is the C type %s (%s), the versioned name of %s: the same type as [%s].", y, where, cname, m.typeNames[cname]), true
	}
	return "", false
}

// pairDocComment is docComment for the declarations of a versioned pair,
// whose first line, naming both, is folded to the comment width.
func (m *model) pairDocComment(f *jen.File, name, lead string, doc *ir.Doc) {
	text := wrapText(name+" "+lead, docCommentWidth)
	if d := m.convertDoc(doc); d != "" {
		text += "\n\n" + d
	}
	comment(f, text)
}
