package parser

import (
	"reflect"
	"testing"

	"github.com/cugen/cugen/parser/ir"
)

// TestParseDocParams: the classifier reads each \param text as written, up
// to a blank line or a line that starts with a command (its out-parameter
// phrases were tuned on that form), while the IR holds the whole entry in
// plain text. A "\param [in] name" with a space (nvrtc.h) is an entry too.
func TestParseDocParams(t *testing.T) {
	c := parseDoc(`\brief Gets things

\param[out] pCount - Returned <b>number</b> of
things, see
\p pItems for the items
\param   [in]  pItems  Items.\n
                       Read only.
\param flags - Flags`)
	wantRaw := []paramDoc{
		{name: "pCount", tag: "out", text: "Returned <b>number</b> of things, see"},
		{name: "pItems", tag: "in", text: `Items.\n Read only.`},
		{name: "flags", text: "Flags"},
	}
	if !reflect.DeepEqual(c.params, wantRaw) {
		t.Errorf("classifier's params:\n%+v\nwant\n%+v", c.params, wantRaw)
	}
	wantIR := []ir.ParamDoc{
		{Name: "pCount", Dir: "out", Text: `Returned number of things, see \p pItems for the items`},
		{Name: "pItems", Dir: "in", Text: "Items. Read only."},
		{Name: "flags", Text: "Flags"},
	}
	if c.doc == nil || !reflect.DeepEqual(c.doc.Params, wantIR) {
		t.Errorf("IR params:\n%+v\nwant\n%+v", c.doc, wantIR)
	}
	if c.brief != "gets" {
		t.Errorf("brief verb %q, want gets", c.brief)
	}
}

// TestParseDocEmpty: a comment of markers only is no documentation.
func TestParseDocEmpty(t *testing.T) {
	for _, s := range []string{"", "  \n ", `\defgroup G Group`, `\{`, "\\xmlonly\n<x/>\n\\endxmlonly"} {
		if d := parseDoc(s).doc; d != nil {
			t.Errorf("parseDoc(%q) = %+v, want nil", s, d)
		}
	}
}
