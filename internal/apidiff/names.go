package apidiff

import "github.com/cugen/cugen/parser/ir"

// Names spells the records and C types of one API the way Compare matches
// them: an anonymous struct or union is named by its place in the record
// that holds it (CUlaunchAttributeValue.clusterDim), not by its header
// line, so a text listing of the API (a generated package's api.txt) does
// not change when a declaration only moves in the header.
type Names struct{ n *namer }

// NewNames returns the names of api's records and types.
func NewNames(api *ir.API) Names { return Names{newNamer(api)} }

// Record is the name r is matched by: its typedef or tag name, or
// PARENT.member for an anonymous record that is a member's type.
func (n Names) Record(r *ir.Record) string { return n.n.recordKey(r) }

// CType is t spelled as C, with anonymous records named as Record names them.
func (n Names) CType(t *ir.Type) string { return n.n.ctype(t) }

// Params is a parameter list spelled as C: (CUcontext *pctx, unsigned int flags).
func (n Names) Params(ps []ir.Param) string { return n.n.params(ps) }

// NamedField is one member of a record, as Compare sees it: members of anonymous
// structs and unions are listed in their place, by their own names.
type NamedField struct {
	Name string
	Field
}

// Fields flattens r's members as Compare does.
func (n Names) Fields(r *ir.Record) []NamedField {
	fs := n.n.fields(nil, r.Fields)
	out := make([]NamedField, len(fs))
	for i, f := range fs {
		out[i] = NamedField{f.name, f.Field}
	}
	return out
}
