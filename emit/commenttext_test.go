package emit

import (
	"slices"
	"strings"
	"testing"
)

// TestCheckComments: the backstop refuses what commentLines keeps out,
// naming the file and line, and lets through the directives it is told
// to, in order.
func TestCheckComments(t *testing.T) {
	for _, c := range []struct {
		name, src string
		allowed   []string
		want      string // "" for none
	}{
		{"plain", "// Package p.\npackage p\n\n// X is.\nvar X = 1 // one\n", nil, ""},
		{"generate", "package p\n\n//go:generate touch x\nvar X = 1\n", nil, "f.go:3:1: the comment"},
		{"line", "package p\n\n//line x.go:1\nvar X = 1\n", nil, "directive"},
		{"plus build", "// +build ignore\n\npackage p\n", nil, "directive"},
		{"block", "package p\n\n/* x */\nvar X = 1\n", nil, "f.go:3:1: a /* */ comment"},
		{"embed allowed", "package p\n\nimport _ \"embed\"\n\n//go:embed a\nvar a string\n", []string{"//go:embed a"}, ""},
		{"embed not allowed", "package p\n\nimport _ \"embed\"\n\n//go:embed b\nvar a string\n", []string{"//go:embed a"}, "directive"},
		{"generate in a string", "package p\n\nvar X = `\n//go:generate touch x\n`\n", nil, "f.go:4: a //go:generate line"},
	} {
		err := checkComments("f.go", []byte(c.src), c.allowed...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v; want an error with %q", c.name, err, c.want)
		}
	}
}

// TestCommentLines: the sanitiser's rules, one case each; text that
// needs none (the headers') is its own lines.
func TestCommentLines(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Gets the count.\n\n\tcode", []string{"Gets the count.", "", "\tcode"}},
		{"a\r\nb\rc\vd\fe\u0085f\u2028g\u2029h", []string{"a", "b", "c", "d", "e", "f", "g", "h"}},
		{"//go:generate x", []string{" //go:generate x"}},
		{"/* x */", []string{" /* x */"}},
		{"/note x", []string{"/note x"}},
		{"+build ignore", []string{"+ build ignore"}},
		{"a +build b", []string{"a + build b"}},
		{"nul\x00 bom\ufeff rlo\u202e", []string{"nul  bom  rlo"}},
		{"bad\xffutf8 ", []string{"bad\uFFFDutf8"}},
	} {
		if got := commentLines(c.in); !slices.Equal(got, c.want) {
			t.Errorf("commentLines(%q) = %q; want %q", c.in, got, c.want)
		}
	}
	if got := commentOneLine("a\n//go:generate x\r\n b"); got != "a //go:generate x b" {
		t.Errorf("commentOneLine = %q", got)
	}
}
