package emit

import (
	"bytes"
	"strings"
	"testing"
)

func TestWrapText(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		width    int
		want     string
	}{
		{"short", "Fits.", 20, "Fits."},
		{"fold", "one two three four five six", 13, "one two three\nfour five six"},
		{"reflow a paragraph", "one two\nthree four five six\n\nnext", 13, "one two three\nfour five six\n\nnext"},
		{"long word alone", "a verylongwordindeed b", 8, "a\nverylongwordindeed\nb"},
		{"no list marker first", "see the values - above", 15, "see the\nvalues - above"},
		{"no number first", "it counts 1. then more", 10, "it\ncounts 1.\nthen more"},
		{"code kept", "text\n\tcode that is far too long to fit\nmore", 10, "text\n\tcode that is far too long to fit\nmore"},
		{"list item", "  - dptr: Returned device pointer\n    to the memory\n  - size: Bytes", 20,
			"  - dptr: Returned\n    device pointer\n    to the memory\n  - size: Bytes"},
	} {
		if got := wrapText(tc.in, tc.width); got != tc.want {
			t.Errorf("%s: wrapText(%q, %d) = %q, want %q", tc.name, tc.in, tc.width, got, tc.want)
		}
	}
}

// TestEnumConstCommentsWrapped: the comments of enums.go and consts.go end
// by column 80 (a tab counted as four), except a single word too long for
// a line. They ran to 527 characters.
func TestEnumConstCommentsWrapped(t *testing.T) {
	api, origin := load124(t)
	pkgs, err := Generate(api, opts124(origin))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for _, name := range []string{"enums.go", "consts.go"} {
			for i, line := range bytes.Split(p.Files[name], []byte("\n")) {
				l := strings.ReplaceAll(string(line), "\t", "    ")
				text, ok := strings.CutPrefix(strings.TrimSpace(l), "// ")
				if !ok || i == 0 || len(l) <= commentWidth || !strings.Contains(text, " ") {
					continue // not a comment, the generated-code marker, or one word
				}
				t.Errorf("%s/%s:%d: %d columns: %s", p.Name, name, i+1, len(l), l)
			}
		}
	}
}
